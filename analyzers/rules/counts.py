"""CNT: a stated count ("five datasets") against the things actually listed."""
