"""The wording reports and rule messages share: in the core, below the sources that word findings and the reports."""


def counted(number: int, noun: str) -> str:
    """'1 key', '3 keys'."""
    return f"{number} {noun}{'s' if number != 1 else ''}"
