from open_recorder import open_recorder  # noqa: F401  (records files opened during a block)
