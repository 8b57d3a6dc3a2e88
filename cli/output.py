"""How the CLI writes a report (analyzers/reports/ makes it): to a file, or to stdout, in colour on a terminal."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..analyzers.projects import InputError

if TYPE_CHECKING:
    from rich.text import Text


def write_output(output: Path | None, text: str, coloured: bool = False) -> None:
    """The report to `output` (its folders created) or stdout; a path that cannot be written is an input error.
    A `coloured` text report is shown in colour on a terminal (never in a pipe, a file, or with NO_COLOR set)."""
    if output is None:
        if coloured and _may_be_terminal():
            from rich.console import Console  # only a text report bound for a terminal pays for rich

            console = Console(highlight=False, soft_wrap=True, emoji=False)
            if console.is_terminal and not console.no_color:
                console.print(in_colour(text), end="")
                return
        sys.stdout.write(text)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except (FileExistsError, NotADirectoryError):
        # mkdir met a file where a folder should be (`-o /etc/passwd/x.txt`): name it.
        blocking = next((parent for parent in reversed(output.parents) if parent.exists() and not parent.is_dir()), output.parent)
        raise InputError(f"cannot write the report to '{output}': '{blocking}' is a file, not a folder") from None
    except OSError as error:
        raise InputError(f"cannot write the report to '{output}': {error.strerror or error}") from None


def _may_be_terminal() -> bool:
    """What rich may take for a terminal: a tty, or one that TTY_COMPATIBLE=1 or FORCE_COLOR declares. A pipe or
    a file is none, and a check writing to one need not load rich to learn it."""
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return sys.stdout.isatty()
    except ValueError:  # a closed stream
        return False


# Severities as compilers and ruff show them: errors red, warnings yellow.
_SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "information": "blue", "hint": "dim"}
_LOCATED = re.compile(r"^(?P<location>\S.*?:\d+:\d+:) (?P<severity>error|warning|information|hint) (?P<code>\S+) ", re.MULTILINE)
_COUNTED = re.compile(r"^ *\d+  (?P<code>\S+) +(?P<severity>error|warning|information|hint) ", re.MULTILINE)


def in_colour(report: str) -> Text:
    """The text report with its locations, severities and codes styled."""
    from rich.text import Text

    text = Text(report)
    for pattern in (_LOCATED, _COUNTED):
        for match in pattern.finditer(report):
            if "location" in match.groupdict():
                text.stylize("bold", *match.span("location"))
            text.stylize(_SEVERITY_STYLES[match.group("severity")], *match.span("severity"))
            text.stylize("bold", *match.span("code"))
    return text
