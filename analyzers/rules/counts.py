"""CNT: a stated count ("five datasets") against the things actually listed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...latex.manuscript import Section
from ..context import TEXT_CACHE_SIZE, RuleContext, paragraphs
from ..finding import Category, Finding, Severity
from ..registry import Scope, rule

COUNT_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_ANNOUNCE = re.compile(
    r"\b(" + "|".join(COUNT_WORDS) + r"|\d{1,2})\s+((?:[a-z]+[- ])?[a-z]+s)\s*(?::|,?\s*namely\b|,?\s*i\.e\.,?|\((?=[^)]*[,;])"
    r"|[^.:;\n]{0,80}?[.:]\s+(?=(?:First(?:ly)?|(?:In\s+t|T)he\s+first)\b))",
    re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_START = r"(?:^|[.:;]\s+|\n\s*)"  # a sentence, clause or source line begins
_EMPHASIS = r"(?:\{\\(?:em|it|bf)\s+|\\(?:emph|textit|textbf|textsc|underline)\{)?"  # "{\em First}", "\textbf{First}"
_ORDINAL_START = re.compile(
    _START + _EMPHASIS + r"(First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth)(?:ly)?\b"
    # "And second, …", "The first step …", "For the second step …"
    r"|" + _START + r"(?:And|Then|The|For\s+the|In\s+the)\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b"
    r"|" + _START + r"(Finally|Lastly)\b")
# Where _ANNOUNCE can start: a count before a space (or the paragraph's end; the space may follow it).
_HEAD = re.compile(r"\b(?:" + "|".join(COUNT_WORDS) + r"|\d{1,2})(?:\s|$)")
_HEAD_ANY_CASE = re.compile(_HEAD.pattern, re.IGNORECASE)
_FIRST = re.compile(r"\s*" + _EMPHASIS + r"First(?:ly)?\b")
_SECTIONING = re.compile(r"\\(?:chapter|(?:sub)*section|paragraph)\*?\{")
_COMMENT = re.compile(r"(?<!\\)%.*")
_LIST = re.compile(r"\s*\\begin\{(itemize|enumerate|description|compactitem|compactenum)\}")
_MARKERS = re.compile(r"\((?:\d{1,2}|[ivx]{1,4}|[a-h])\)")
_VAGUE = re.compile(r"\b(?:e\.g\.|such as|including|includes|for example|for instance|etc|among others|like)\b", re.IGNORECASE)


@rule("CNT001", "count-mismatch", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def count_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a count that announces an enumeration ("five datasets: A, B, C and D", "three
    steps:" followed by a list) when the enumeration has another number of items. Items are
    counted from `\\item`s of the list that follows, from explicit markers "(1) … (2) …",
    from ordinals ("First, … Second, …", "{\\em First}", "And second, …", "The first step …
    For the second step …", in later paragraphs of the same section too while the run is
    shorter than the count), or from a short comma-separated list closed by "and"/"or". Open
    lists ("such as", "including", "e.g.") are left alone.

    ## Why is this bad?
    A count that disagrees with its own list means a dataset, baseline or step was added or
    dropped without the text following; readers and reviewers take the count as the scope of
    the evaluation, so it is a claim distortion.

    ## Example
    ```latex
    We evaluate on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.
    ```

    ## Use instead
    ```latex
    We evaluate on four datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.
    ```

    ## Fix safety
    The fix writes the counted number. It is unsafe: the list may be the side that lost an item.
    """
    # The section's raw text as its files have it: an enumeration stops at the next heading.
    for stretch in section.stretches():
        file = stretch.file
        for match, stated, counted in _mismatches(ctx.source(file).text[stretch.start:stretch.end]):
            word = match.group(1)
            start, end = stretch.start + match.start(1), stretch.start + match.end(1)
            fixes = []
            if not word.isdigit() and counted - 2 in range(len(COUNT_WORDS)):
                spelled = COUNT_WORDS[counted - 2]
                spelled = spelled.capitalize() if word[0].isupper() else spelled
                fixes.append(ctx.fix(f"Write '{spelled}'", ctx.edit(file, start, end, spelled)))
            yield ctx.report(
                file, start, end,
                f"'{' '.join(match.group(0).split())}' announces {stated} {match.group(2)}, but {counted} follow",
                identity=f"{match.group(0)} {counted}", fixes=fixes,
            )


def _mismatches(source: str) -> list[tuple[re.Match, int, int]]:
    """(announcement, stated, counted) where a stretch of source disagrees with itself."""
    # Comments and where announcements may start are found paragraph by paragraph, cached by
    # text: typing re-reads one paragraph, and the full pattern runs only at those places.
    blanked, candidates = [], []
    for offset, paragraph in paragraphs(source):
        text, heads = _paragraph_scan(paragraph)
        blanked.append(text)
        candidates += [offset + head for head in heads]
    text = "\n\n".join(blanked)
    found, scanned = [], 0
    for candidate in candidates:
        match = _ANNOUNCE.match(text, candidate) if candidate >= scanned else None  # as finditer: no overlaps
        if match is None:
            continue
        scanned = match.end()
        word = match.group(1)
        if not word.isdigit() and word.lower() not in COUNT_WORDS:
            continue  # "ſix": the case-blind pattern matches letters that are not the word
        stated = int(word) if word.isdigit() else COUNT_WORDS.index(word.lower()) + 2
        counted = _count_items(text, match.end(), match.group(0)[-1], stated)
        if counted is None or counted == stated or (match.group(0)[-1] == "(" and stated > 10):
            continue
        found.append((match, stated, counted))
    return found


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _paragraph_scan(paragraph: str) -> tuple[str, tuple[int, ...]]:
    """The paragraph with its comments blanked, and where a count (a word or a number) starts a word."""
    text = _COMMENT.sub(lambda match: " " * len(match.group(0)), paragraph) if "%" in paragraph else paragraph
    if text.isascii():  # lower-case ASCII matches the case-blind pattern, and far faster
        return text, tuple(match.start() for match in _HEAD.finditer(text.lower()))
    return text, tuple(match.start() for match in _HEAD_ANY_CASE.finditer(text))


def _count_items(text: str, start: int, opener: str, stated: int) -> int | None:
    """Items of the enumeration that starts at `start`, or None when it is not countable."""
    if opener == "(":
        return _parenthesised(text, start)
    if opener.isspace() or _FIRST.match(text, start):
        return _ordinals(text, start, stated)
    listing = _LIST.match(text, start)
    if listing:
        return _count_list(text, listing.end(), listing.group(1))
    paragraph = text[start:_paragraph_end(text, start)]
    if re.match(r"\s*\((?:1|i|a)\)", paragraph):
        return _sequential_markers(paragraph)
    sentence = text[start:_sentence_end(text, start)]
    if _VAGUE.search(sentence) or "\\item" in sentence:
        return None
    # "A, B, C, and D": short items, the last one right after and/or.
    plain = re.sub(r"\\(?:cite\w*|ref|cref|autoref|eqref|label)\*?(?:\[[^\]]*\])?\{[^}]*\}|~|\$[^$]*\$|\([^)]*\)", "", sentence)
    plain = re.sub(r"\\[A-Za-z]+|[{}]", " ", plain)
    joined = re.search(r"\b(?:and|or)\b([^,;]*)", plain)
    if joined is None:
        return None
    parts = [p.strip() for p in re.split(r",|;|\band\b|\bor\b", plain[:joined.end()]) if p.strip()]
    if len(parts) < 2 or any(len(p.split()) > 5 for p in parts):
        return None
    return len(parts)


def _parenthesised(text: str, start: int) -> int | None:
    """Items of "(A, B, and C)": commas and a closing and/or separate them."""
    close = text.find(")", start)
    inside = text[start:close] if 0 <= close - start <= 200 else ""
    if not inside or _VAGUE.search(inside) or re.search(r"\\(?:cite|ref)|\(", inside):
        return None
    parts = [p.strip() for p in re.split(r",|;|\band\b|\bor\b", inside) if p.strip()]
    return len(parts) if len(parts) >= 2 and all(len(p.split()) <= 5 for p in parts) else None


def _ordinals(text: str, start: int, stated: int) -> int | None:
    """Items of "First, … Second, … Third, …" (a closing "Finally," counts as the next one). A run
    shorter than `stated` goes on in a later paragraph of the same section that opens with the next
    ordinal: "two facts. First, … [a lemma and its proof] … Second, …"."""
    count = 0
    while True:
        end = _paragraph_end(text, start)
        for match in _ORDINAL_START.finditer(text[start:end]):
            ordinal = match.group(1) or match.group(2)
            if ordinal and _ORDINALS.index(ordinal.lower()) == count:
                count += 1
            elif match.group(3) and count >= 2:
                return count + 1
        if not 0 < count < min(stated, len(_ORDINALS)):
            break
        following = re.compile(r"\n[ \t]*\n\s*(" + _EMPHASIS + _ORDINALS[count].capitalize() + r"\b)").search(text, end, end + 3000)
        if following is None or _SECTIONING.search(text, end, following.start()):
            break
        start = following.start(1)
    return count if count >= 2 else None


_NEXT = {
    **{str(n): str(n + 1) for n in range(1, 20)},
    **dict(zip(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"], ["ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"])),
    **dict(zip("abcdefg", "bcdefgh")),
}


def _sequential_markers(paragraph: str) -> int:
    """Length of the run (1), (2), (3)… (or (i), (ii)…, (a), (b)…) from the start of the paragraph."""
    expected, count = None, 0
    for marker in _MARKERS.findall(paragraph):
        label = marker[1:-1]
        if expected is None or label == expected:
            count += 1
            expected = _NEXT.get(label)
    return count


def _paragraph_end(text: str, start: int) -> int:
    match = re.compile(r"\n\s*\n|\\end\{").search(text, start)
    return match.start() if match else len(text)


def _sentence_end(text: str, start: int) -> int:
    match = re.compile(r"\.(?:\s|$)|\n\s*\n").search(text, start)
    return match.start() if match else len(text)


def _count_list(text: str, start: int, environment: str) -> int | None:
    depth, items = 0, 0
    for token in re.finditer(r"\\begin\{(\w+)\}|\\end\{(\w+)\}|\\item\b", text[start:]):
        if token.group(1) in ("itemize", "enumerate", "description", "compactitem", "compactenum"):
            depth += 1
        elif token.group(2):
            if depth == 0:
                return items if token.group(2) == environment else None
            depth -= 1
        elif token.group(0) == "\\item" and depth == 0:
            items += 1
    return None
