"""NUM005: one range ("sample sizes ranging between 43 and 253 observations"), period or set of values restated otherwise."""

from __future__ import annotations

from collections.abc import Iterator

from rapidfuzz.distance import Levenshtein

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import section_tables
from .restated import HAS_DIGIT, NUMBER, Pair, Stated, content_stems, reported, restatements, section_statements, value_of

_SYMBOL = r"(?:([A-Za-z]{1,3})\s*=\s*)?"
_NOUN = r"(?:\s+((?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*s)\b)?"
_PARENTHESIS = DeferredPattern(r"\s*\([^()]{0,160}\)")  # an aside between the ends, left out of the message
_ASIDE = r"(?:" + _PARENTHESIS.pattern + r")?"
# "ranging between 43 and 253 total observations", "range from approximately d = -1.48 to d = 2.10",
# "varied from 42 observations (…) to 252 observations".
_RANGE = DeferredPattern(
    r"\b(?:rang\w*|var(?:y|ies|ied|ying))\s+(?:between|from)\s+(?:(?:approximately|about|roughly|around)\s+)?"
    + _SYMBOL
    + r"("
    + NUMBER
    + r")(\s*%)?"
    + _NOUN
    + _ASIDE
    + r"\s+(?:and|to)\s+"
    + _SYMBOL
    + r"("
    + NUMBER
    + r")(\s*%)?"
    + _NOUN,
)
# "between 2005 and 2014", "from 1996 to 2018", "2005–2014": the period a sample was gathered in.
_YEARS = DeferredPattern(
    r"\b(?:(?:between|from)\s+(?:between\s+)?((?:19|20)\d\d)\s+(?:and|to)\s+((?:19|20)\d\d)|((?:19|20)\d\d)\s*(?:-{1,3}|–|—)\s*((?:19|20)\d\d))\b"
)
# A sample's size in the same sentence ("926 HIV-1 sequences"): a whole number of three or more digits, not a year.
_SAMPLE = DeferredPattern(r"(?<![\w.,-])(?!(?:19|20)\d\d\b)(\d{3,}|\d{1,3}(?:,\d{3})+)(?![\w.,-])")
_PERIOD = "the period of the "
# A set of five or more values written out: "$\{0, 1, 7, 13, 14, 16, 18\}$", "(λ = .04, .01, .025, .001, .1)".
_SET = DeferredPattern(r"[{(]\s*(?:[A-Za-z]\w*\s*=\s*)?(" + NUMBER + r"(?:\s*,\s*" + NUMBER + r"){4,})\s*\\?[})]")
_SET_OF = "the set of "
# Three or four values of one setting written out: "(λ = .04, .01, .025)", "$\\gamma \\in \\{0.9, 0.99, 0.999\\}$".
_SETTING_VALUES = DeferredPattern(
    r"[{(]\s*(\\?[A-Za-zα-ωΑ-Ω]\w*)\s*(?:=|∈|\\in\b)\s*\\?\{?\s*(" + NUMBER + r"(?:\s*,\s*" + NUMBER + r"){2,3})\s*\\?\}?\s*[})]"
)
_SETTING_OF = "a setting run over "
_SYMBOL_HEADER = DeferredPattern(r"\\?[A-Za-zα-ωΑ-Ω]{1,2}\w?")  # a column headed by a symbol: "λ", "$\\eta$", "K"
_BEFORE = 6  # words before the range that say what ranges ("sample sizes", "true effects")
# Two ends further apart than this (relative to the larger) are two ranges, not one restated.
_CLOSE = 0.25


def ranges(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The ranges of `sentence` whose ranging thing is named: by a symbol ("d = 1.91") or a counted noun
    after an end ("observations"). Year spans are not ranges of a quantity."""
    for match in _RANGE.finditer(sentence):
        low_symbol, low, low_percent, low_noun, high_symbol, high, high_percent, high_noun = match.groups()
        values = tuple(sorted((value_of(low), value_of(high))))
        if all(1900 <= value <= 2100 and value.is_integer() for value in values):
            continue
        noun = high_noun or low_noun
        named = (low_symbol or high_symbol or (noun.split()[-1].lower() if noun else "")) + ("%" if low_percent or high_percent else "")
        if not named.strip("%"):
            continue
        key = f"the range of {named}"
        words = frozenset(content_stems(sentence[: match.start()])[-_BEFORE:] + content_stems(noun or ""))
        written = " ".join(_PARENTHESIS.sub("", match.group(0)).split())
        yield match.start(), match.end(), key, values, written, words


def periods(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The periods of `sentence` that a sample's size in it names: "926 sequences ... between 2005 and 2014"
    is the period of the 926, and another sentence of the 926 must give the same period."""
    for match in _YEARS.finditer(sentence):
        sample = next((found.group(1) for found in _SAMPLE.finditer(sentence) if not match.start() <= found.start() < match.end()), None)
        if sample is None:
            continue
        first, last = (int(year) for year in match.groups() if year)
        yield match.start(), match.end(), f"{_PERIOD}{sample}", (float(first), float(last)), match.group(0), frozenset({sample})


def value_sets(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The sets of five or more values that `sentence` writes out, keyed by their size: a set restated with one
    member changed ("{0, 1, 7, 13, 14, 16, 18}", "{0, 1, 6, 7, 13, 14, 18}") is the same set mistyped."""
    for match in _SET.finditer(sentence):
        members = [value_of(member) for member in match.group(1).split(",")]
        if len(set(members)) == len(members):
            written = " ".join(match.group(0).replace("\\", "").split())
            yield match.start(), match.end(), f"{_SET_OF}{len(members)} values", tuple(sorted(members)), written, frozenset()


def setting_values(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The three or four values of one setting that `sentence` writes out ("λ = .04, .01, .025"), keyed by their
    number: a table that runs the setting over the same values but one, mistyped, disagrees with it."""
    for match in _SETTING_VALUES.finditer(sentence):
        symbol, listed = match.groups()
        members = [value_of(member) for member in listed.split(",")]
        if len(set(members)) == len(members):
            written = " ".join(match.group(0).replace("\\", "").split())
            # A macro the plain text keeps ("\Reg") may stand for any symbol: it names none.
            named = frozenset() if symbol.startswith("\\") else frozenset({symbol})
            yield match.start(), match.end(), f"{_SETTING_OF}{len(members)} values", tuple(sorted(members)), written, named


def table_settings(ctx: RuleContext, section: Section) -> Iterator[Stated]:
    """The columns of the section's tables headed by a symbol alone ("λ") whose three or four cells are each one
    distinct number: the values a table runs a setting over, keyed as `setting_values` keys them."""
    where = section.title or section.kind.value
    for placed, table in section_tables(section):
        for column in range(max((len(row) for row in table.rows), default=0)):
            header = " ".join(table.column_header(column).split())
            cells = [row[column] for row in table.rows[table.header_rows :] if column < len(row) and row[column].text.strip()]
            values = [cell.value for cell in cells if cell.value is not None and _ONE_NUMBER.fullmatch(cell.text.strip())]
            if not (_SYMBOL_HEADER.fullmatch(header) and 3 <= len(values) == len(cells) <= 4 and len(set(values)) == len(values)):
                continue
            start, end = cells[0].start, cells[-1].end
            written = ", ".join(cell.text.strip() for cell in cells)
            yield Stated(
                f"{_SETTING_OF}{len(values)} values",
                tuple(sorted(float(value) for value in values)),
                f"{header} = {written}",
                frozenset({header}),
                f"the column {header} of the table: {written}",
                frozenset(),
                placed.index,
                False,
                where,
                ctx.report(placed.file, start, end, ""),
                ctx.related(placed.file, start, end, f"the table's column {header}: {written}"),
            )


_ONE_NUMBER = DeferredPattern(NUMBER)


def _statements(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    yield from ranges(sentence)
    yield from periods(sentence)
    yield from value_sets(sentence)
    yield from setting_values(sentence)


def _restated(statement: Stated, other: Stated) -> bool:
    """Both ranges speak of one thing (a word before them in common) and each end is close to the other's:
    one range restated, not two ranges of two settings. Two sets are one restated when all members but one agree."""
    if statement.key.startswith(_SET_OF):
        return len(set(statement.values) - set(other.values)) == 1
    if statement.key.startswith(_SETTING_OF):
        # Three values agree by chance more often than five: the one that differs must read as a slip of the other's,
        # and two symbols named ("λ", "η") are two settings.
        differ = set(statement.values) - set(other.values), set(other.values) - set(statement.values)
        if any(len(values) != 1 for values in differ) or (statement.words and other.words and statement.words != other.words):
            return False
        (mine,), (theirs,) = differ
        return Levenshtein.distance(f"{mine:g}", f"{theirs:g}") <= 1
    if not statement.words & other.words:
        return False
    return all(abs(a - b) <= _CLOSE * max(abs(a), abs(b)) for a, b in zip(statement.values, other.values, strict=True))


@violation_type
class RangeRestated(Violation):
    """The range `slip` here, `told` in the section `where`, for `key`."""

    slip: str
    told: str
    where: str
    key: str

    @property
    def message(self) -> str:
        return f'{self.key} is "{self.slip}" here, but "{self.told}" in {self.where}'

    @property
    def identity(self) -> str:
        return f"{self.key} {self.slip} {self.told}"


def _reported(pair: Pair) -> Finding:
    violation = RangeRestated(pair.slip.written, pair.told.written, pair.told.where, pair.slip.key)
    if pair.slip.key.startswith(_SET_OF):
        kind, reason = "sets: all members but one agree", f"both write {pair.slip.key}, and all but one agree"
    elif pair.slip.key.startswith(_SETTING_OF):
        kind, reason = "sets: a setting's values, all but one agree, a slip apart", f"both give {pair.slip.key}, all but one alike"
    elif pair.slip.key.startswith(_PERIOD):
        kind, reason = "periods: one sample, two periods", f"both sentences date {pair.slip.key.removeprefix(_PERIOD)}"
    else:
        shared = ", ".join(sorted(pair.slip.words & pair.told.words))
        kind, reason = (
            "ranges: same subject, ends apart",
            f"both give {pair.slip.key} ({shared}), each end within a quarter of the other's",
        )
    return reported(pair, violation, kind, reason, "range", 0.6)


@rule(
    "NUM005",
    "range-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=restatements(_restated, _reported),
)
def range_restated(ctx: RuleContext, section: Section) -> list[list[Stated]]:
    """## What it does
    Flags a range stated twice with other ends: "sample sizes ranging between 43 and 253 total
    observations" and, a paragraph later, "sample sizes ranging between 42 observations (…) to 252
    observations"; "true effects ranging from d = 1.91 to d = −1.67" in the abstract and "true
    effects can range from approximately d = −1.48 to d = 2.10" in the results. A range is a
    "ranging/varies between/from A and/to B" whose ranging thing is named: by a symbol before
    its ends ("d = …") or by the noun counted after one ("observations"), with a percent sign
    kept as part of it. Two ranges are one quantity restated when they name the same thing, share
    a word among the six before them ("sample sizes", "true effects"), and each end lies within a
    quarter of the other's: ranges of two settings ("from 20 to 40 ms" and "from 200 to 400 ms")
    lie further apart. Two ranges in one sentence are left alone.

    A period is a range too: "926 HIV-1 sequences obtained between 2005 and 2014" in the abstract
    and "926 HIV-1 sequences collected between 1996 and 2018" in the methods date one sample
    twice. A year span ("between A and B", "from A to B", "A–B") is compared with another when
    both sentences give the same sample's size (a whole number of three or more digits, not a
    year); other year spans are left alone.

    So is a set of values written out, five or more of them ("illuminations {0, 1, 7, 13, 14, 16,
    18}"): restated with all members but one the same ("{0, 1, 6, 7, 13, 14, 18}"), one of the
    two was mistyped. Three or four values of one setting ("(λ = .04, .01, .025)") are compared
    with the other statements of as many values, and with a table's column headed by a symbol
    alone ("λ") whose cells are each one number: all but one must agree, and the one that
    differs must read as a slip of the other (a digit changed, added or dropped: ".025",
    ".0025"), as three values agree by chance more often than five.

    ## Why is this bad?
    The reader cannot tell which range holds; a range is usually computed once, so two versions
    mean one of them is stale (an analysis re-run, a sample re-counted).

    ## Example
    ```latex
    ... sample sizes ranging between 43 and 253 total observations.
    ... this resulted in sample sizes ranging between 42 observations and 252 observations.
    ```

    ## Use instead
    State the range once, or the same range in both places.

    ## Evidence
    "ranges: same subject, ends apart", "periods: one sample, two periods", "sets: all members
    but one agree", or "sets: a setting's values, all but one agree, a slip apart"; confidence 0.6. Their
    measured precision decides whether a finding is information or a hint.
    """
    # A table's settings first: a sentence of its section that restates them is the later statement, reported.
    return [[*table_settings(ctx, section), *section_statements(ctx, section, _statements, HAS_DIGIT)]]
