"""Command-line entry point (filled in by the CLI module)."""


def main() -> int:
    return 0
