"""Labels and references written through the paper's own macros: `\\eqlabel{x}` for `\\label{eq:x}`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .deferred_pattern import DeferredPattern
from .macro_signatures import REF_COMMANDS
from .model import KeyUse, MacroDef

# `\\ref{tab:#1}`, `\\ref*{#1}` or hyperref's `\\hyperref[tab:#1]{…}`: the kind, then the key's prefix and suffix.
_WRAPPED_KEY = DeferredPattern(
    r"\\(label|ref|eqref|cref|Cref|autoref|pageref)\*?\s*\{([^{}#]*)#1([^{}#]*)\}|\\(hyperref)\s*\[([^\]#]*)#1([^\]#]*)\]"
)


# A body whose last command is a bare \label (comments aside): `\alglinelabel{key}` labels.
_ENDS_WITH_LABEL = DeferredPattern(r"\\label\s*(?:%[^\n]*\s*)*$")


def key_wrappers(macros: Iterable[MacroDef]) -> dict[str, tuple[str, str, str]]:
    """User macros that wrap \\label or \\ref: name → (label|ref, key prefix, key suffix).

    Papers write `\\newcommand{\\eqlabel}[1]{\\label{eq:#1}}`, `\\newcommand{\\alglinelabel}{\\refstepcounter{…}\\label}`
    and even `\\renewcommand{\\eqref}[1]{\\ref{eq:#1}}`; keys must be read through them.
    """
    direct: dict[str, tuple[str, str, str]] = {}
    for macro in macros:
        # The key is the first braced argument: `\\mysupp{fig:x}{a}` cites fig:x as `\\mytab{tab:x}` does.
        match = _WRAPPED_KEY.search(macro.body) if macro.arguments >= 1 and macro.optional is None else None
        if match:
            first = 1 if match.group(1) else 4  # the \\ref-like alternative's groups, or \\hyperref's
            direct[macro.name.lstrip("\\")] = (match.group(first), match.group(first + 1), match.group(first + 2))
        elif macro.arguments == 0 and _ENDS_WITH_LABEL.search(macro.body):
            direct[macro.name.lstrip("\\")] = ("label", "", "")  # \refstepcounter{…}\label: the key follows the use
    wrappers = {}
    for name, (inner, prefix, suffix) in direct.items():
        # \eqalt{#1} → \eqref{#1} → \ref{eq:#1}: follow the chain, a few steps at most.
        for _ in range(4):
            if inner == name or inner not in direct:
                break
            inner, inner_prefix, inner_suffix = direct[inner]
            prefix, suffix = inner_prefix + prefix, suffix + inner_suffix
        wrappers[name] = ("label" if inner == "label" else "ref", prefix, suffix)
    return wrappers


def wrapped_uses(text: str, wrappers: dict[str, tuple[str, str, str]], kind: str) -> list[KeyUse]:
    """Uses of wrapper macros unknown to the parser, found in the raw text."""
    uses = []
    for name, (wrapped, prefix, suffix) in wrappers.items():
        if wrapped != kind or name in REF_COMMANDS:
            continue
        # str.find runs at memchr speed; a regex with a look-behind would test every position.
        pattern = re.compile(r"\\" + re.escape(name) + r"\s*\{([^{}]*)\}")
        position = text.find("\\" + name)
        while position != -1:
            match = pattern.match(text, position)
            line_start = text.rfind("\n", 0, position) + 1
            escaped = position > 0 and text[position - 1] == "\\"
            if match and not escaped and not re.search(r"(?<!\\)%", text[line_start:position]):  # not commented out
                uses.append(
                    KeyUse(
                        name,
                        f"{prefix}{match.group(1).strip()}{suffix}",
                        match.start(1),
                        match.end(1),
                        "equation" if "eq" in prefix else "",
                    )
                )
            position = text.find("\\" + name, position + 1)
    uses.sort(key=lambda use: use.start)
    return uses


def rewrapped(ref: KeyUse, wrappers: dict[str, tuple[str, str, str]]) -> KeyUse:
    """A built-in \\ref-like command the paper redefined to add a key prefix."""
    wrapper = wrappers.get(ref.command)
    if wrapper is None or wrapper[0] != "ref":
        return ref
    _, prefix, suffix = wrapper
    return KeyUse(ref.command, f"{prefix}{ref.key}{suffix}", ref.start, ref.end, ref.kind)
