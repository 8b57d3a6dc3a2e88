"""What each panel letter of a caption stands for, and which panels a reference names.

A caption gives its panels either before their description ("(a) the simulation; (b) the myeloma
study") or after it ("the simulation (A, E), the myeloma study (B, F)"); a sentence names panels
after the reference ("Figure~\\ref{fig:main}C, G", "Fig.~\\ref{fig:main}(c)").
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import singular

# One panel mark of a caption: "(A)", "(c, g)", "(B and F)".
_MARK = DeferredPattern(r"\(\s*([A-Ha-h](?:\s*(?:,|and|&)\s*[A-Ha-h])*)\s*\)")
# After a mark that closes its description: punctuation, a joining word, or the caption's end.
_CLOSES = DeferredPattern(r"\s*(?:[,;.:]|and\b|or\b|$)")
_OPENS = DeferredPattern(r"\s*[A-Za-z]")
_CLAUSE_END = DeferredPattern(r"[.:;]\s")
_WORD = DeferredPattern(r"[A-Za-z][A-Za-z-]{2,}")
# Words every panel's description may hold: they name no subject of their own.
_GENERIC = frozenset(
    """
the and for with from each all its their this that these those are was were has have had per over under between than
panel panels figure figures table tables shows show shown showed showing plot plots row rows column columns left right top bottom
middle upper lower result results performance comparison compared versus using used case cases study studies model models
method methods data dataset datasets value values mean average function functions time test set sets across both different
""".split()
)
REFERENCE = DeferredPattern(r"\\(?:ref|cref|Cref|autoref|subref)\*?\{([^{}]+)\}")
_LETTERS = r"[A-Ha-h](?:\s*(?:,|and|&)\s*[A-Ha-h])*"
# Panels right after the reference: attached ("}B, F", "}(c)") or spaced, in parentheses ("} (c)") or in
# upper case before punctuation or "and" ("} C, G and", not the article of "} A clear trend"); never a range
# ("B–D"), whose inner letters are not written.
_PANELS = DeferredPattern(
    rf"(?:~?\(({_LETTERS})\)|({_LETTERS})|[\s~]+\(({_LETTERS})\)"
    rf"|[\s~]+([A-H](?:\s*(?:,|and|&)\s*[A-H])*)(?=\s*[,.;:)]|\s+(?:and|&)\s|\s*$))(?!\s*[-–—]|[A-Za-z])"
)
# More panels in parentheses after the first: "Figure~\\ref{f}(d) and (e)".
_MORE_PANELS = DeferredPattern(r"\s*(?:,|and|&|or)\s*\(([A-Ha-h])\)")
_COMMAND = DeferredPattern(r"\\[A-Za-z@]+\*?(?:\{[^{}]*\})?")


@record(slots=True)
class Panel:
    """One part of a caption: its letters (upper case), the words only its subject has (the head of its
    description), and those of them the caption capitalises inside the head: names ("Prostate", "ImageNet")."""

    letters: frozenset[str]
    words: frozenset[str]
    names: frozenset[str]

    def named_by(self, words: set[str]) -> bool:
        """Whether a sentence's words name this panel's subject: two of its words, or one of its names."""
        shared = self.words & words
        return len(shared) >= 2 or bool(shared & self.names)


def _letters(written: str) -> frozenset[str]:
    return frozenset(letter.upper() for letter in re.findall(r"[A-Ha-h]", written))


def _words(text: str) -> set[str]:
    """Content words, lower case and singular ("rewards" is "reward"), commands and generic words left out."""
    words = {word.lower() for word in _WORD.findall(_COMMAND.sub(" ", text))} - _GENERIC
    return {singular(word) for word in words} - _GENERIC


_HEAD_WORDS = 6
_HEAD_BREAK = DeferredPattern(r"[,;:.]|\band\b")


def _head(description: str, before_mark: bool) -> str:
    """The subject a description starts with ("(b) short-read alignment, 10 million pairs …"), or ends
    with when its mark follows it ("…, and the prostate cancer study (D, H)"): the words up to the
    nearest break, six at most."""
    if before_mark:
        words = _HEAD_BREAK.split(description)[-1].split()
        return " ".join(words[-_HEAD_WORDS:])
    words = re.split(r"[,;:.]", description, maxsplit=1)[0].split()
    return " ".join(words[:_HEAD_WORDS])


def _names(head: str) -> set[str]:
    """The head's capitalised words after its first: names, not a capital that starts a sentence."""
    return _words(" ".join(word for word in _WORD.findall(_COMMAND.sub(" ", head))[1:] if word[0].isupper()))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def caption_panels(caption: str) -> tuple[Panel, ...]:
    """The caption's panels, when it describes two or more with their letters all in one style (kept by text)."""
    marks = list(_MARK.finditer(caption))
    letters = [_letters(mark.group(1)) for mark in marks]
    if len(marks) < 2 or sum(len(group) for group in letters) != len(frozenset().union(*letters)):
        return ()
    before_mark = all(_CLOSES.match(caption, mark.end()) for mark in marks)
    if before_mark:
        clause = max((end.end() for end in _CLAUSE_END.finditer(caption, 0, marks[0].start())), default=0)
        spans = [(clause if index == 0 else marks[index - 1].end(), mark.start()) for index, mark in enumerate(marks)]
    elif all(_OPENS.match(caption, mark.end()) for mark in marks):
        last = _CLAUSE_END.search(caption, marks[-1].end())
        ends = [mark.start() for mark in marks[1:]] + [last.start() if last else len(caption)]
        spans = [(mark.end(), end) for mark, end in zip(marks, ends)]
    else:
        return ()
    heads = [_head(caption[start:end], before_mark) for start, end in spans]
    described = [_words(head) for head in heads]
    # Words the caption also uses outside the panels' subjects describe them all.
    rest = caption
    for head in heads:
        rest = rest.replace(head, " ", 1)
    elsewhere = _words(rest)
    panels = []
    for index, (group, words) in enumerate(zip(letters, described)):
        others = set().union(*(other for position, other in enumerate(described) if position != index))
        own = frozenset(words - elsewhere - others)
        panels.append(Panel(group, own, own & _names(heads[index])))
    return tuple(panels)


def cited_panels(sentence: str) -> list[tuple[str, frozenset[str], int, int]]:
    """Each reference of the sentence followed by panel letters: (key, letters, start, end of the reference and letters)."""
    found: list[tuple[str, frozenset[str], int, int]] = []
    for reference in REFERENCE.finditer(sentence):
        panels = _PANELS.match(sentence, reference.end())
        if panels is None:
            continue
        letters, end = _letters(next(group for group in panels.groups() if group)), panels.end()
        while more := _MORE_PANELS.match(sentence, end):
            letters, end = letters | _letters(more.group(1)), more.end()
        found.extend((key.strip(), letters, reference.start(), end) for key in reference.group(1).split(","))
    return found


def sentence_words(sentence: str) -> set[str]:
    """The sentence's words that may name a panel's subject, references and other commands left out."""
    return _words(sentence)


# What a label starts with to say its float's kind ("fig:", "tab-"): no word of the float's subject.
_LABEL_PREFIX = DeferredPattern(r"^(?:fig(?:ure)?|tab(?:le)?|tbl|sfig|stab)\s*[:._-]?", re.IGNORECASE)


def label_words(label: str) -> set[str]:
    """The words a float's label names it by: "fig:auc_nouns" gives auc and noun."""
    return sentence_words(re.sub(r"[^A-Za-z]+", " ", _LABEL_PREFIX.sub("", label)))


# A name: a word with a letter and a digit ("O10", "CA184-024", "GPT-4") or a capital after its first letter ("CheckMate").
_NAME = DeferredPattern(r"(?<![\w-])(?:(?=[\w-]*\d)[A-Za-z][\w-]*\d[\w-]*|[A-Z][a-z]*[A-Z][\w-]*)")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def names(text: str) -> frozenset[str]:
    """The names a text writes, lower case, references and other commands left out."""
    return frozenset(name.lower() for name in _NAME.findall(_COMMAND.sub(" ", text)))
