"""What the count family reads: a count that announces an enumeration, and the items that follow it."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.source import COMMENT
from ...context import paragraphs
from ...memo import TEXT_CACHE_SIZE

COUNT_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
# Up to two more words before the noun's last modifier ("six diverse document types", "three standard 3D detection
# benchmarks"): none plural, none a function word, so "two to four parameters" and "rules for universes" stay apart.
_MODIFIER = r"(?!(?:to|of|in|on|for|with|from|by|and|or|at|as|the|an?|that|which|we|are|is|were|was|be|than|out|up)\b)[a-z0-9]+(?:-[a-z0-9]+)*(?<!s)"
_ANNOUNCE = DeferredPattern(
    r"\b("
    + "|".join(COUNT_WORDS)
    + r"|both|\d{1,2})\s+((?:"
    + _MODIFIER
    + r"\s+){0,2}(?:[a-z]+[- ])?[a-z]+s)\s*(?::|,?\s*namely\b|,?\s*i\.e\.,?|\((?=[^)]*[,;])"
    r"|[^.:;\n]{0,80}?[.:]\s+(?=(?:First(?:ly)?|(?:In\s+t|T)he\s+first)\b)"
    # "the five indicators we consider---two based on claims, one on surveys---": a breakdown set off by a dash.
    r"|(?:\s+(?:that\s+|which\s+)?we\s+[a-z]+)?\s*(?P<dash>---|—|\\textemdash\b)"
    # "four model variants that vary the interaction parameters:", "three models for our experiments: A, B and C".
    # Braces, parentheses and formulas end it: a colon there is a label's or a formula's ("\\ref{fig:a}", "$a:A$").
    r"|(?P<clause>\s[^.:;\n{}()$]{1,100}?:))",
    re.IGNORECASE,
)
# "Our contributions are threefold:", "The reason is twofold. First, …": the count is the items that follow.
_FOLD = DeferredPattern(
    r"\b(?:are|is|was|were)\s+(" + "|".join(COUNT_WORDS[:9]) + r")([- ]?fold)\b\s*(?::|\.\s+(?=(?:First(?:ly)?|(?:In\s+t|T)he\s+first)\b))",
    re.IGNORECASE,
)
# A clause that names another set the list may enumerate: "except the following:", "if one of the following
# criteria is met:", "four surveys presented as part of three studies:".
_OTHER_SET = DeferredPattern(
    r"\b(?:except|besides|other\s+than|apart\s+from|in\s+addition|as\s+well\s+as|also|following\s+[a-z])"
    r"|\b(?:one|both|" + "|".join(COUNT_WORDS) + r"|\d+)\s+[a-z]",
    re.IGNORECASE,
)
_DASH = DeferredPattern(r"---|—|\\textemdash\b")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_START = r"(?:^\s*|[.:;]\s+|\n\s*)"  # a sentence, clause or source line begins
_EMPHASIS = r"(?:\{\\(?:em|it|bf)\s+|\\(?:emph|textit|textbf|textsc|underline)\{)?"  # "{\em First}", "\textbf{First}"
_ORDINAL_START = DeferredPattern(
    _START + _EMPHASIS + r"(First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth)(?:ly)?\b"
    # "And second, …", "The first step …", "For the second step …"
    r"|" + _START + r"(?:And|Then|The|For\s+the|In\s+the)\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b"
    r"|" + _START + r"(Finally|Lastly)\b"
)
# Where _ANNOUNCE can start: a count before a space (or the paragraph's end; the space may follow it).
_HEAD = DeferredPattern(r"\b(?:" + "|".join(COUNT_WORDS) + r"|both|\d{1,2})(?:\s|$)")
_HEAD_ANY_CASE = DeferredPattern(_HEAD.pattern, re.IGNORECASE)
_FIRST = DeferredPattern(r"\s*" + _EMPHASIS + r"First(?:ly)?\b")
_SECTIONING = DeferredPattern(r"\\(?:chapter|(?:sub)*section|paragraph)\*?\{")
_LIST = DeferredPattern(r"(?:\s|%)*\\begin\{(itemize|enumerate|description|compactitem|compactenum)\}")
_MARKERS = re.compile(r"\((\d{1,2}|[ivx]{1,4}|[a-h])\)")
# "1) …; 2) …; and 3) …": a closing parenthesis alone marks items only where an item can start.
_HALF_MARKERS = re.compile(r"(?:^|[;,:]|\band|\n)\s*(\d{1,2}|[ivx]{1,4}|[a-h])\)(?=\s|~)")  # "1)~{\em A}" too
# "e.g." ends in a full stop: a word boundary after it would need a letter to follow.
_VAGUE = DeferredPattern(r"\be\.g\.|\b(?:such as|including|includes|for example|for instance|etc|among others|like)\b", re.IGNORECASE)
# The word before a count, and what comes before that word.
_WORD_BEFORE = DeferredPattern(r"(\S*)(\s+\S+)\s+$")
# "three of the four datasets (A, B and C)": the list may enumerate either count.
# "two to four parameters: …", "three or four steps:": a range, not the count of what follows.
_RANGE_BEFORE = DeferredPattern(r"\b(?:one|" + "|".join(COUNT_WORDS) + r"|\d{1,2})\s*(?:to|or|-|–|--)\s*$", re.IGNORECASE)
_PARTITIVE = DeferredPattern(r"\b(" + "|".join(COUNT_WORDS) + r"|\d{1,2})\s+of\s+(?:the|these|those|our|its|their|all)\s+$", re.IGNORECASE)
# A count of other things earlier in the clause, which the list may enumerate instead.
_EARLIER_COUNT = DeferredPattern(r"\b(" + "|".join(COUNT_WORDS) + r"|\d{1,2})\s+[a-z-]+s\b(?=[^.:;]*$)", re.IGNORECASE)
# "tasks with two nouns (A, B, C)": the parenthesis may name the tasks, not the nouns.
_OWNER_BEFORE = DeferredPattern(r"\b(?:with|without|having|containing)\s+(?:only\s+|exactly\s+|just\s+)?$", re.IGNORECASE)
_FLOAT = DeferredPattern(r"\\(begin|end)\{(?:table|figure|tabular)\w*\*?\}")
_MATH = DeferredPattern(r"\$([^$]*)\$|\\\((.*?)\\\)", re.DOTALL)
_ELLIPSIS = DeferredPattern(r"\\[lc]?dots\b|\.\.\.")
# An item that is not one of the counted things: "For benchmarking, we also model a reference case".
_EXTRA_ITEM = DeferredPattern(
    r"\b(?:also|additionally|in addition|as an? (?:baseline|reference|benchmark)|for (?:comparison|benchmarking|reference))\b",
    re.IGNORECASE,
)
# A sentence that goes on with the list: "The third is C.", "We also use C."
_CONTINUED = DeferredPattern(r"\s*(?:\S+\s+){0,5}?(?:also|another|additionally|in addition)\b", re.IGNORECASE)
# Words after which "and"/"or" joins words inside one item: "with and without debt", "between A and B".
_DANGLING = DeferredPattern(
    r"(?:\b(?:with|without|before|after|within|inside|outside|above|below|over|under|pre|post|"
    r"during|from|to|into|in|on|off|of)|-)$",
    re.IGNORECASE,
)
_PAIRING = DeferredPattern(r"\b(?:between|both|either)\b", re.IGNORECASE)
_NUMBER_WORDS = ("one",) + COUNT_WORDS
_ITEM_COUNT = DeferredPattern(r"(" + "|".join(_NUMBER_WORDS) + r"|\d{1,2})\s+[A-Za-z]", re.IGNORECASE)


class Enumeration(NamedTuple):
    """Items counted after an announcement, how surely they were told apart (0..1), and how (`LISTED` …):
    the way of telling items apart is what CNT001's precision is measured by."""

    counted: int
    confidence: float
    how: str


# How an enumeration's items were told apart: each way fails on its own shapes (an ordinal run that
# goes on in a later sentence, a last item without its marker), so each is measured apart, and its
# evidence tier is how plainly the source marks the items.
LISTED = "strong: items of a list environment"
MARKED = "strong: numbered markers"
MARKED_OPEN = "weak: numbered markers, an unmarked item may follow"
INLINE = "moderate: an inline list closed by and/or"
PARENTHESISED = "moderate: a parenthesised list"
ORDINALS = "weak: ordinal sentences"
BREAKDOWN = "moderate: a breakdown whose items carry their counts"


def mismatches(source: str) -> list[tuple[re.Match[str], int, Enumeration]]:
    """(announcement, stated, enumeration) where a stretch of source disagrees with itself."""
    # Comments and where announcements may start are found paragraph by paragraph, cached by
    # text: typing re-reads one paragraph, and the full pattern runs only at those places.
    blanked, candidates = [], []
    for offset, paragraph in paragraphs(source):
        text, heads = _paragraph_scan(paragraph)
        blanked.append(text)
        candidates += [(offset + head, _ANNOUNCE) for head in heads]
        if "fold" in text:
            candidates += [(offset + fold.start(), _FOLD) for fold in _FOLD.finditer(text)]
    text = "\n\n".join(blanked)
    found, scanned = [], 0
    for candidate, pattern in sorted(candidates, key=lambda place: place[0]):
        match = pattern.match(text, candidate) if candidate >= scanned else None  # as finditer: no overlaps
        if match is None:
            continue
        if not match.groupdict().get("clause"):  # a clause holds no other count that could announce the list
            scanned = match.end()
        mismatch = _mismatch(text, match)
        if mismatch is not None:
            found.append(mismatch)
    return found


def _mismatch(text: str, match: re.Match[str]) -> tuple[re.Match[str], int, Enumeration] | None:
    """The announcement `match` with its enumeration, where they disagree."""
    word, groups = match.group(1), match.groupdict()
    both = word.lower() == "both"
    if not word.isdigit() and word.lower() not in COUNT_WORDS and not both:
        return None  # "ſix": the case-blind pattern matches letters that are not the word
    before = text[max(0, match.start() - 60) : match.start()]
    stated = 2 if both else number(word)
    opener = "—" if groups.get("dash") else match.group(0)[-1]
    if (
        _in_name(before)
        or _RANGE_BEFORE.search(before)
        or (groups.get("clause") and (both or stated < 2 or _OTHER_SET.search(groups["clause"])))
    ):
        return None
    enumeration = _count_items(text, match.end(), opener, stated) if not (both and opener.isspace()) else None
    if enumeration is None or enumeration.counted == stated or (opener == "(" and stated > 10):
        return None
    if both and enumeration.how == BREAKDOWN:  # "both tribes (8 Canini, 1 Vulpini)": the members of each
        return None
    if groups.get("clause"):  # the list may be of what the clause names: less sure than right after the noun
        if abs(enumeration.counted - stated) > 2:  # "15 manifestos … brings the study to a count as follows: (a) … (c)"
            return None
        enumeration = _told_apart(enumeration, "the count's clause")._replace(confidence=min(enumeration.confidence, 0.75))
    elif both or match.re is _FOLD.compiled():  # measured apart from a count before its noun
        enumeration = _told_apart(enumeration, '"both"' if both else "an N-fold announcement")
    confidence = enumeration.confidence - 0.1 * min(abs(enumeration.counted - stated) - 1, 2)
    if _in_float(text, match.start()):
        confidence -= 0.1
    subset = _PARTITIVE.search(before)
    if subset:
        if number(subset.group(1)) == enumeration.counted:
            return None
        confidence = min(confidence, 0.5)
    if opener == "(" and _OWNER_BEFORE.search(before):
        confidence = min(confidence, 0.5)
    # "four regressions between the two models: (a) … (d)": the list enumerates the earlier count.
    if any(number(earlier.group(1)) == enumeration.counted for earlier in _EARLIER_COUNT.finditer(before)):
        return None
    return match, stated, enumeration._replace(confidence=confidence)


def _told_apart(enumeration: Enumeration, announcement: str) -> Enumeration:
    """The enumeration in its own evidence class: its items, told apart as ever, after another announcement."""
    return enumeration._replace(how=f"moderate: {enumeration.how.partition(': ')[2]} after {announcement}")


def _in_name(before: str) -> bool:
    """Whether the count after `before` is part of a name: "Spin-0", "GPT-4", "palette~2", "v1.2",
    "LLaMA 2", or a capitalised word mid-sentence ("in Study 2 participants")."""
    if before[-1:] in ("-", "~", "_", ".", "/"):
        return True
    words = _WORD_BEFORE.search(before)
    if words is None:
        return False
    word = words.group(2).strip()
    if not re.fullmatch(r"[A-Za-z][\w-]*", word):  # "\section{Results} Three datasets": not a name
        return False
    if any(char.isupper() for char in word[1:]):
        return True
    return word[0].isupper() and not re.search(r"[.!?:]$", words.group(1)) and words.group(1) != ""


def number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS.index(word.lower()) + 1


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _paragraph_scan(paragraph: str) -> tuple[str, tuple[int, ...]]:
    """The paragraph with its comments blanked, and where a count (a word or a number) starts a word."""
    # The "%" stays: a line holding only a comment does not end a paragraph.
    text = COMMENT.sub(lambda match: "%" + " " * (len(match.group(0)) - 1), paragraph) if "%" in paragraph else paragraph
    if text.isascii():  # lower-case ASCII matches the case-blind pattern, and far faster
        return text, tuple(match.start() for match in _HEAD.finditer(text.lower()))
    return text, tuple(match.start() for match in _HEAD_ANY_CASE.finditer(text))


def _in_float(text: str, at: int) -> bool:
    """Whether `at` lies in a table, figure or tabular: captions and cells are terse and often elliptic."""
    inside = False
    for match in _FLOAT.finditer(text, 0, at):
        inside = match.group(1) == "begin"
    return inside


def _count_items(text: str, start: int, opener: str, stated: int) -> Enumeration | None:
    """Items of the enumeration that starts at `start`, or None when it is not countable."""
    if opener == "(":
        return _parenthesised(text, start, stated)
    if opener.isspace() or _FIRST.match(text, start):
        return _ordinals(text, start, stated)
    listing = _LIST.match(text, start)
    if listing:
        return _count_list(text, listing.end(), listing.group(1), stated)
    paragraph = text[start : _paragraph_end(text, start)]
    if re.match(r"\s*\(?(?:1|i|a)\)", paragraph):
        counted, trailing = _sequential_markers(paragraph, _MARKERS if paragraph.lstrip().startswith("(") else _HALF_MARKERS)
        if counted < 2:  # markers the pattern did not read are no count of items
            return None
        # "(i) …, (ii) …, (iii) …, and the success rate": an unmarked last item may follow the markers.
        return Enumeration(counted, 0.6, MARKED_OPEN) if trailing else Enumeration(counted, 0.9, MARKED)
    end = _sentence_end(text, start)
    if opener == "—":  # the aside ends at its closing dash
        closing = _DASH.search(text, start, end)
        end = closing.start() if closing else end
    sentence = text[start:end]
    # A list of statistics ("both measurements: $r^2 = 0.78$; …") reports values about the things, as in parentheses.
    if _VAGUE.search(sentence) or "\\item" in sentence or _STATISTIC.search(sentence):
        return None
    # "A, B, C, and D": short items, the last one right after and/or.
    plain, aside = _plain(sentence)
    if plain is None:
        return None
    items, closed = _items(plain)
    if not closed or _MORE_ITEMS.search(plain) or _AND_BEFORE_COMMA_AND.search(plain) or _named_together(sentence, items, stated):
        return None
    enumeration = _weigh(items, stated, 0.85 if len(items) > 2 else 0.75, INLINE)
    # A dash sets off asides of every kind ("three words --- just who is speaking and the gist"): only a
    # breakdown, each item with its count, is read as the enumeration.
    if opener == "—" and enumeration is not None and enumeration.how != BREAKDOWN:
        return None
    if enumeration is None or (enumeration.counted < stated and _continues(text, end, enumeration.counted)):
        return None
    return enumeration._replace(confidence=enumeration.confidence - 0.1 * aside)


# An item that comments on the one before ("appendices, which can be read, and …"): commas set off asides there.
_ASIDE_ITEM = DeferredPattern(r"^(?:which|who|whose|where|that|often|usually|typically)\b", re.IGNORECASE)


def _named_together(sentence: str, items: list[str], stated: int) -> bool:
    """Whether the list's commas may not part its items: one formula names them all ("Two indices are used: $l,r$
    for left and right"), or an item is an aside on the one before."""
    formulas = [match.group(1) if match.group(1) is not None else match.group(2) for match in _MATH.finditer(sentence)]
    return any(len(_top_level_parts(formula or "")) == stated for formula in formulas) or any(_ASIDE_ITEM.match(item) for item in items)


def _plain(fragment: str) -> tuple[str | None, bool]:
    """The fragment as words: references and macros dropped, each formula one word per top-level
    comma ("$\\alpha, \\beta$" lists two), parentheses set aside (and whether there were any).
    None when a formula trails off ("$x_1, \\dots, x_n$"): an open list."""
    plain = re.sub(r"\\(?:cite\w*|ref|cref|Cref|autoref|eqref|label)\*?(?:\[[^\]]*\])?\{[^}]*\}|~", " ", fragment)
    formulas = [match.group(1) if match.group(1) is not None else match.group(2) for match in _MATH.finditer(plain)]
    if any(_ELLIPSIS.search(formula) for formula in formulas) or _ELLIPSIS.search(_MATH.sub("", plain)):
        return None, False
    plain = _MATH.sub(lambda match: ", ".join(["formula"] * len(_top_level_parts(match.group(1) or match.group(2) or ""))), plain)
    stripped = plain
    while True:  # innermost first: "(a (b) c)"
        shorter = re.sub(r"\([^()]*\)", "", stripped)
        if shorter == stripped:
            break
        stripped = shorter
    return re.sub(r"\\[A-Za-z]+|[{}]", " ", stripped), stripped != plain


def _top_level_parts(formula: str) -> list[str]:
    """A formula split at commas outside brackets: "(-\\infty, h]" is one part, "a, b" two."""
    parts, depth, current = [], 0, ""
    for char in formula:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth <= 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part for part in parts + [current] if part.strip()] or [formula]


_STATISTIC = DeferredPattern(r"(?:[=<>≤≥]|\\[lg]eq?|\\text(?:less|greater)(?:\{\})?)\s*\$?\s*[-−]?\d*\.?\d")
# A parenthesis that says something ("(regrettably, all do not)") is an aside, not a list of names.
_CLAUSE = DeferredPattern(r"\b(?:is|are|was|were|do|does|did|not|has|have|had)\b", re.IGNORECASE)
# "…, XGB-q and XGB scores, as well as the CNN score": one more item after the list closes.
_MORE_ITEMS = DeferredPattern(r"\b(?:as\s+well\s+as|along\s+with|together\s+with|plus)\b", re.IGNORECASE)
# "Bonn and Stuttgart in Germany, and Zurich", "a primary and secondary digester, …, and a storage tank":
# a bare "and" before a ", and" may join words of one item or close a group of two; the count is unsure.
_AND_BEFORE_COMMA_AND = DeferredPattern(r"(?<![,;])\s(?:and|or)\s[^;]*?,\s*(?:and|or)\s", re.IGNORECASE)
_SHARED_OF = DeferredPattern(r"^\s*[A-Za-z-]+\s+of\b")


def _items(plain: str) -> tuple[list[str], bool]:
    """The items of "A, B and C", up to the one after the closing "and"/"or", and whether there was
    one. An "and"/"or" inside one item stays there: "with and without debt", "pre- and
    post-training", "the gap between A and B"; the last item "the X and Y of Z" names two things."""
    pieces = re.split(r"(,|;|\band\b|\bor\b)", plain)
    items: list[str] = []
    joining = closing = paired = False
    for index in range(0, len(pieces), 2):
        piece = pieces[index].strip()
        if joining:
            items[-1] += " " + piece
        elif piece:
            items.append(piece)
            paired = False
            if closing:
                # "…, and the slope and intercept of a linear trend": two nouns sharing what follows "of".
                if pieces[index + 1 : index + 2] == ["and"] and _SHARED_OF.match(pieces[index + 2] if index + 2 < len(pieces) else ""):
                    items.append(pieces[index + 2].strip())
                return items, True
        separator = pieces[index + 1] if index + 1 < len(pieces) else ""
        pairing = not paired and bool(items) and bool(_PAIRING.search(items[-1]))  # "between" takes one "and"
        joining = separator in ("and", "or") and bool(items) and (pairing or bool(_DANGLING.search(items[-1])))
        paired = paired or (joining and pairing)
        closing = separator in ("and", "or") and not joining
    return items, False


def _weigh(items: list[str], stated: int, confidence: float, how: str) -> Enumeration | None:
    """The count of short items, where an item that carries a count may add it: "two baselines and
    ours" is three, "6 on the template, 2 on the hoop" eight. Either reading that makes `stated`
    agrees with it; None for fewer than two items or long ones. Items that each open with their own
    count ("two based on insurance claims, one on surveys") are a breakdown, told apart by those
    counts however long they are."""
    carried = [_ITEM_COUNT.match(item) for item in items]
    breakdown = all(carried)
    if len(items) < 2 or (not breakdown and any(len(item.split()) > 5 for item in items)):
        return None
    weights = [number(count.group(1)) if count else 1 for count in carried]
    if weights == [1] * len(weights) or stated == len(items):
        return Enumeration(len(items), confidence, how)
    # Large numbers are amounts ("100 training and 50 test images"), not counts of things.
    if max(weights) > 12:
        return None if breakdown else Enumeration(len(items), confidence - 0.1, how)
    return Enumeration(sum(weights), confidence - 0.1, BREAKDOWN if breakdown else how)


def _continues(text: str, end: int, counted: int) -> bool:
    """Whether the sentence after an inline list goes on with it: "… A and B. The third is C."."""
    following = text[end + 1 : _sentence_end(text, end + 1)]
    later = r"\b(?:" + "|".join(_ORDINALS[counted:]) + r")\b" if counted < len(_ORDINALS) else None
    return bool(_CONTINUED.match(following) or (later and re.search(later, following, re.IGNORECASE)))


def _parenthesised(text: str, start: int, stated: int) -> Enumeration | None:
    """Items of "(A, B, and C)": commas and a closing and/or separate them. A parenthesis of statistics
    ("(agreement = 0.72%, disagreement = 98.9%)", "(PERMANOVA; P < 0.05)") or shares ("(i.e., ~0.1% of
    7,100)") reports values about the things, and one that makes a statement ("four legs
    (regrettably, all do not)") is an aside: neither is their list."""
    close = text.find(")", start)
    inside = text[start:close] if 0 <= close - start <= 200 else ""
    if not inside or _VAGUE.search(inside) or re.search(r"\\(?:cite|ref)|\(", inside):
        return None
    inside = re.sub(r"^\s*(?:i\.e\.|that is|namely),?", "", inside)  # "(i.e., A and B)" names the items all the same
    if _STATISTIC.search(inside) or "%" in inside:
        return None
    plain, _ = _plain(inside)
    if plain is None or _CLAUSE.search(plain):
        return None
    return _weigh(_items(plain)[0], stated, 0.85, PARENTHESISED)


def _ordinals(text: str, start: int, stated: int) -> Enumeration | None:
    """Items of "First, … Second, … Third, …". A closing "Finally," is one more item while the run
    is short of `stated`, and a wrap-up otherwise. A run shorter than `stated` goes on in a later
    paragraph of the same section that opens with the next ordinal: "two facts. First, … [a lemma
    and its proof] … Second, …"; that reach makes the count less sure."""
    count, confidence = 0, 0.75
    while True:
        end = _paragraph_end(text, start)
        for match in _ORDINAL_START.finditer(text[start:end]):
            ordinal = match.group(1) or match.group(2)
            if ordinal and _ORDINALS.index(ordinal.lower()) == count:
                count += 1
            elif match.group(3) and 2 <= count < stated:
                return Enumeration(count + 1, confidence, ORDINALS)
        if not 0 < count < min(stated, len(_ORDINALS)):
            break
        following = re.compile(r"\n[ \t]*\n\s*(" + _EMPHASIS + _ORDINALS[count].capitalize() + r"\b)").search(text, end, end + 3000)
        if following is None or _SECTIONING.search(text, end, following.start()):
            break
        start, confidence = following.start(1), 0.6
    return Enumeration(count, confidence, ORDINALS) if count >= 2 else None


_NEXT = {
    **{str(n): str(n + 1) for n in range(1, 20)},
    **dict(zip(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"], ["ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"])),
    **dict(zip("abcdefg", "bcdefgh")),
}


def _sequential_markers(paragraph: str, markers: re.Pattern[str]) -> tuple[int, bool]:
    """Length of the run (1), (2), (3)… (or (i), (ii)…, (a), (b)…, or 1), 2)…) from the start of the paragraph, and
    whether its last item's sentence goes on with ", and …" (an unmarked item may close the list). A
    marker that starts the run again ("two ways: (a) … (b) …. Three questions: (a) …") begins another list."""
    expected, count, first, last = None, 0, None, 0
    for marker in markers.finditer(paragraph):
        label = marker.group(1)
        if count and label == first:
            break
        if expected is None or label == expected:
            first = first or label
            count += 1
            expected = _NEXT.get(label)
            last = marker.end()
    sentence = paragraph[last : _sentence_end(paragraph, last)]
    return count, bool(re.search(r"[,;]\s+and\s+(?:the\s+)?[a-z]", sentence))


def _paragraph_end(text: str, start: int) -> int:
    match = re.compile(r"\n\s*\n|\\end\{").search(text, start)
    return match.start() if match else len(text)


def _sentence_end(text: str, start: int) -> int:
    match = re.compile(r"\.(?:\s|$|\})|\n\s*\n").search(text, start)  # "\caption{… C.}" ends there
    return match.start() if match else len(text)


def _count_list(text: str, start: int, environment: str, stated: int) -> Enumeration | None:
    """Top-level `\\item`s of the list; items that say they are extras ("For benchmarking, we also
    model a reference case") are not among the announced things when leaving them out makes the count."""
    depth, item_starts, item_ends = 0, list[int](), list[int]()  # an item ends where the next one (or the list) does
    for token in re.finditer(r"\\begin\{(\w+)\}|\\end\{(\w+)\}|\\item\b", text[start:]):
        if token.group(1) in ("itemize", "enumerate", "description", "compactitem", "compactenum"):
            depth += 1
        elif token.group(2):
            if depth == 0:
                if token.group(2) != environment:
                    return None
                item_ends.append(start + token.start())
                extras = sum(bool(_EXTRA_ITEM.search(text, begin, min(end, begin + 100))) for begin, end in zip(item_starts, item_ends[1:]))
                items = len(item_starts)
                return Enumeration(stated if items - extras == stated else items, 0.95, LISTED)
            depth -= 1
        elif token.group(0) == "\\item" and depth == 0:
            item_ends.append(start + token.start())
            item_starts.append(start + token.end())
    return None
