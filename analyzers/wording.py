"""The wording reports and rule messages share."""


def counted(number: int, noun: str) -> str:
    """'1 key', '3 keys'."""
    return f"{number} {noun}{'s' if number != 1 else ''}"
