"""NUM024: a training or experiment setting stated in the prose ("we train with a batch size of 64") that the
paper's settings table gives otherwise in every cell of its row ("Batch size & 128").

## How it decides
A settings table is a table whose caption or header speaks of hyperparameters, settings, configurations or
training details, or half of whose rows (two or more) are keyed by a hyperparameter's name; an ablation's or a
sensitivity study's table (its caption says so) varies its settings and is not one. A row of it is keyed by the
first cell that names one hyperparameter (`hyperparameter`: "Base learning rate", "Number of training epochs";
a cell before it may name the group the row belongs to, "MNIST & learning rate & 3e-4"), its values are the
numbers of the cells after the key, and the words of the key other than the hyperparameter's name qualify it
("Discriminator learning rate", "Batch size per GPU"). A key that holds a number ("Batch size 64") is one
variant's row of a sweep, not a setting, and is not read.

A prose number states a hyperparameter when its name stands next to it (`stated_hyperparameter`: "a learning
rate of $3\\times10^{-4}$", "the batch size is set to 64", "20 epochs", "5 random seeds"). It is compared with
the rows of the paper's settings tables that name the same hyperparameter and whose qualifiers its sentence
names (none for "Base learning rate"); with no such row the sentence states another setting than the table's
("a momentum of 0.9" against "Model EMA momentum"). It is reported when no cell of any row of that
hyperparameter holds its value (per-model and per-dataset columns legitimately differ, so the prose value must
match none of them; a percentage matches its fraction, "1M" a million), and its sentence does not say it is
another run's setting: a comparison, a sweep or a change ("than", "instead of", "varying", "reduced by"), a
default, a baseline's or a cited work's setting ("following"), or a scope the tables do not show ("for
ImageNet", "on TPU-v4 chips": a word after "for", "on", "in", "during" or "when", or a name anywhere in the
sentence, that no settings table holding the row writes), nor a phase, a component or a share of the run they
do not show ("during fine-tuning", "at inference", "the classifier has 2 layers", "32 per GPU"). A number
written in a form not read as its value ("3e^-4" read as 3, "256×2"), in the row or in the sentence, may be
anything, and silences the comparison. Information (0.6): the
evidence class is "moderate: prose setting names a settings table's row, no cell of it holds the value".
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.numbers import NumberMention, find_numbers
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...quantities import agrees, referenced_labels
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import NAME_LIKE, POINTER, mentions
from .restated import content_stems
from .settings import counted, hyperparameter, names_hyperparameter, stated_hyperparameter

# A table of settings, by its caption or header; an ablation's or a sensitivity study's table varies them.
_SETTINGS_CAPTION = DeferredPattern(
    r"hyper-?parameters?|settings?|configurations?|training details|implementation details|parameters", re.IGNORECASE
)
_VARIED = DeferredPattern(r"ablat\w*|sensitivity|effect of|impact of|varying|sweep", re.IGNORECASE)
# A cell written in a form the number reader does not read as its value ("3e^-4", "256×2", "$2.5\times 10^{-4}$").
_UNREAD_FORM = DeferredPattern(r"[eE]\s*\^|×|\\times")
# A sentence that states another run's setting than the table's: a comparison, a sweep, a change, a default, a
# baseline's or a cited work's setting.
_ANOTHER_RUN = DeferredPattern(
    r"\b(?:than|instead|compared?|comparison|versus|vs|var(?:y|ies|ied|ying)|sweep\w*|search\w*|grid|range[sd]?|ranging|between|"
    r"up to|ablat\w*|increas\w*|decreas\w*|larger|smaller|higher|lower|different|except|reduc\w*|halv\w*|doubl\w*|"
    r"original\w*|default|unlike|whereas|while|baselines?|prior|previous|following|suggested|recommended)\b",
    re.IGNORECASE,
)
# A phase, a component or a share of the run a setting may be another's for ("during fine-tuning", "the decoder's
# learning rate", "at inference", "a batch size of 32 per GPU"): the table must write it too.
_PART_OF_RUN = DeferredPattern(
    r"\b(?:fine-?tun\w*|pre-?train\w*|distill\w*|inference|decod\w*|sampling|evaluation|test(?:ing)?|"
    r"encoder|decoder|classifier|mlp|discriminator|generator|critic|actor|projection|adapter|teacher|student|backbone|probe|"
    r"per[- ](?:gpu|device|node|worker|core|replica|tpu|machine)|effective|global|accumulat\w*)\b",
    re.IGNORECASE,
)
# A scope the sentence restricts its setting to: the words after "for", "on", "in", "during", "when".
_SCOPE = DeferredPattern(
    r"\b(?:for|on|in|during|when)\s+((?:the\s+|our\s+|a\s+|an\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)", re.IGNORECASE
)
# Scope words every run of a paper shares: "in all experiments", "for every model", "for training".
_EVERY_RUN = frozenset(
    content_stems(
        "all every each experiment experiments model models run runs dataset datasets task tasks setting settings case cases "
        "training train trained epochs steps total optimizer optimization our both whole full"
    )
)
# A word that may name a thing ("ImageNet", "TPU-v4"), outside a reference or a citation's key.
_NAME = DeferredPattern(r"(?<![\\\w])[A-Za-z][\w-]*")
# Optimizers: a sentence naming one names how it trains, not what it trains on.
_OPTIMIZERS = frozenset({"adam", "adamw", "sgd", "adafactor", "rmsprop", "adagrad", "lamb", "lars"})
# What a magnitude's letter multiplies by: "1M steps", "10k iterations".
_SCALES = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}


@record(slots=True)
class SettingRow:
    """A settings table's row of one hyperparameter: its name, the stems qualifying it, the values of its cells,
    whether a cell is written in a form not read, what its table writes (for a scope), and where its key is."""

    name: str
    qualifiers: frozenset[str]
    values: tuple[float, ...]
    unread: bool
    key: str
    cells: str
    table: str
    labels: frozenset[str]
    shown: frozenset[str]
    place: Related


@record(slots=True, eq=False)
class StatedSetting:
    """A prose number that states a hyperparameter, with its sentence's words and where it is."""

    name: str
    values: tuple[float, ...]
    decimals: int
    written: str
    sentence: str
    words: frozenset[str]
    placed: PlacedBlock
    start: int
    end: int


@violation_type
class SettingContradictsTable(Violation):
    """The prose sets `setting` to `stated`; the settings table `table` gives `cells` in its row `key`."""

    setting: str
    stated: str
    key: str
    cells: str
    table: str

    @property
    def message(self) -> str:
        return f"text sets the {self.setting} to {self.stated}, but {self.table} gives {self.key}: {self.cells}"

    @property
    def identity(self) -> str:
        return f"setting {self.setting} {self.stated} {self.table} {self.key}"


EVIDENCE = "moderate: prose setting names a settings table's row, no cell of it holds the value"


def _scaled(mention: NumberMention) -> tuple[float, ...]:
    """The values a number may write: "1M" a million, "10%" also 0.1."""
    value = mention.value * _SCALES.get(mention.unit, 1.0)
    return (value, value / 100) if mention.percent else (value,)


def _words(text: str) -> frozenset[str]:
    return frozenset(content_stems(text))


def settings_rows(ctx: RuleContext, placed: PlacedBlock, table: Table) -> list[SettingRow]:
    """The rows of a settings table that set one hyperparameter each; none for a table of other things."""
    caption = table.caption or ""
    header = " ".join(cell.text for row in table.rows[: table.header_rows] for cell in row)
    if _VARIED.search(caption) or not any(names_hyperparameter(cell.text) for row in table.rows for cell in row):
        return []
    keyed = [(row, *key) for row in table.rows if (key := _key(row)) is not None]
    body = len(table.rows) - table.header_rows
    if not (_SETTINGS_CAPTION.search(caption) or _SETTINGS_CAPTION.search(header) or (len(keyed) >= 2 and 2 * len(keyed) >= body)):
        return []
    written = " ".join([caption, *(cell.text for row in table.rows for cell in row)]).lower()
    shown = _words(written) | set(re.findall(r"[\w-]+", written)) | set(re.findall(r"\w+", written))  # "fine-tuning", and its parts
    labels = frozenset(label for label in [table.label, *placed.block.labels] if label)
    name = f"Table {table.label}" if table.label else "the settings table"
    rows = []
    for row, at, (setting, qualifiers) in keyed:
        after = row[at + 1 :]
        values = tuple(value for cell in after for mention in find_numbers(cell.text) for value in _scaled(mention))
        cells = " & ".join(" ".join(cell.text.split()) for cell in after)
        place = ctx.related(placed.file, row[at].start, row[at].end, f"the settings table's row {' '.join(row[at].text.split())}")
        unread = any(_unread(cell.text) for cell in after)
        rows.append(SettingRow(setting, qualifiers, values, unread, " ".join(row[at].text.split()), cells, name, labels, shown, place))
    return rows


def _key(row: list[Cell]) -> tuple[int, tuple[str, frozenset[str]]] | None:
    """Where a row's key is and what it names: the first cell naming one hyperparameter, with no number of its own
    and a cell after it."""
    for at, cell in enumerate(row[:-1]):
        found = hyperparameter(cell.text)
        if found is not None:
            return None if re.search(r"\d", cell.text) else (at, found)
    return None


def _unread(text: str) -> bool:
    """A cell holds a number the reader does not take whole: "3e^-4" read as 3, "256×2" as 256 and 2."""
    rest = text
    for mention in find_numbers(text):
        if mention.text.endswith("×"):
            return True
        rest = rest.replace(mention.text, " ", 1)
    return bool(_UNREAD_FORM.search(rest))


def _stated(placed: PlacedBlock) -> Iterator[StatedSetting]:
    """The hyperparameters a paragraph's numbers state."""
    text = placed.block.plain.text
    if not names_hyperparameter(text):
        return
    for mention in mentions(text):
        name = stated_hyperparameter(mention)
        if name is None:
            continue
        if mention.text.endswith("×") or _UNREAD_FORM.match(mention.sentence, mention.plain_end - mention.sentence_start):
            continue
        sentence = " ".join(mention.sentence.split())
        yield StatedSetting(
            name,
            _scaled(mention),
            mention.decimals,
            mention.text,
            sentence,
            _words(sentence),
            placed,
            mention.plain_start,
            mention.plain_end,
        )


def _holds(row: SettingRow, stated: StatedSetting) -> bool:
    """A cell of the row holds the stated value, as either side rounds it."""
    return any(
        math.isclose(value, cell, rel_tol=1e-6) or agrees(value, stated.decimals, cell) for value in stated.values for cell in row.values
    )


def _another_scope(stated: StatedSetting, rows: list[SettingRow]) -> bool:
    """The sentence restricts its setting to a scope, a phase or a component of the run, or names a thing, that no
    table holding the rows writes."""
    shown = frozenset().union(*(row.shown for row in rows))
    for match in _SCOPE.finditer(stated.sentence):
        if not _words(match.group(1)) - _EVERY_RUN <= shown:
            return True
    if any(not set(re.split(r"[- ]", part.group().lower())) <= shown for part in _PART_OF_RUN.finditer(stated.sentence)):
        return True
    words = _NAME.findall(POINTER.sub(" ", stated.sentence))[1:]  # the first word is capitalised as the sentence's
    names = {word.lower() for word in words if NAME_LIKE.search(word) or word[:1].isupper()}
    return bool(names - shown - _OPTIMIZERS)


def _contradicted(stated: StatedSetting, rows: list[SettingRow]) -> SettingRow | None:
    """The row the stated setting contradicts: of the rows of its hyperparameter whose qualifiers its sentence names,
    the first, when no cell of any row of the hyperparameter holds its value and the sentence speaks of the run
    the tables set."""
    same = [row for row in rows if row.name == stated.name]
    named = [row for row in same if row.qualifiers <= stated.words]
    if not named or any(row.unread or not row.values for row in named) or any(_holds(row, stated) for row in same):
        return None
    cited = referenced_labels(stated.sentence)
    if cited and not any(cited & row.labels for row in named):
        return None  # the sentence speaks of another table's run
    if _ANOTHER_RUN.search(stated.sentence) or _another_scope(stated, named):
        return None
    return named[0]


def _fed(part: list[SettingRow | StatedSetting]) -> tuple[str, ...] | None:
    """What a section's settings tables give every section's prose (None: it holds none)."""
    return tuple(repr(item) for item in part if isinstance(item, SettingRow)) or None


def _tables(ctx: RuleContext, feeding: list[tuple[int, Section, list[SettingRow | StatedSetting]]]) -> list[SettingRow]:
    return [item for _, _, part in feeding for item in part if isinstance(item, SettingRow)]


def _contradictions(
    ctx: RuleContext, rows: list[SettingRow], place: int, section: Section, part: list[SettingRow | StatedSetting]
) -> Iterator[Finding]:
    """The section's stated settings against the settings tables' rows."""
    if not rows:
        return
    for stated in part:
        if not isinstance(stated, StatedSetting):
            continue
        row = _contradicted(stated, rows)
        if row is None:
            continue
        setting = stated.name.replace("_", " ")
        setting = f"number of {setting}" if counted(stated.name) else setting
        violation = SettingContradictsTable(setting, stated.written, row.key, row.cells, row.table)
        anchor = ctx.flag_block(violation, stated.placed, stated.start, stated.end)
        sides = [
            Statement(file=anchor.file, range=anchor.range, quote=stated.sentence, subject=setting, role="setting"),
            Statement(file=row.place.file, range=row.place.range, quote=f"{row.key} & {row.cells}", subject=row.table, role="setting"),
        ]
        reason = (
            f"the sentence sets the {setting}, which {row.table}'s row {row.key} gives as {row.cells}; no cell of it holds {stated.written}"
        )
        evidence = Evidence(kind=EVIDENCE, statements=sides, reason=reason)
        yield anchor.model_copy(update={"related": [row.place], "confidence": 0.6, "evidence": evidence})


@rule(
    "NUM024",
    "setting-contradicts-settings-table",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=Pairwise(_fed, _tables, _contradictions),
)
def setting_contradicts_settings_table(ctx: RuleContext, section: Section) -> Iterator[SettingRow | StatedSetting]:
    """## What it does
    Flags a training or experiment setting stated in the prose ("we train with a batch size of 64",
    "a learning rate of $3\\times10^{-4}$", "for 20 epochs", "5 random seeds") whose value no cell of
    the settings table's row for it holds ("Batch size & 128"), wherever the table is (usually the
    appendix) and whether or not the sentence cites it. A table with one column per model or dataset
    may legitimately differ between them: the prose value must match none of its cells. A sentence
    that compares, sweeps or changes the setting, states a baseline's or a cited work's, or restricts
    it to a scope the table does not show ("for ImageNet", "during fine-tuning") is left alone.

    ## Why is this bad?
    A reader reproducing the experiment cannot tell which of the two values the reported results were
    obtained with; one of the two places is stale (a setting changed after one of them was written).

    ## Example
    ```latex
    We train every model with a batch size of 64 and a learning rate of $3\\times10^{-4}$.
    % appendix, Table "Hyperparameters": Batch size & 128 \\\\ Learning rate & $3\\times10^{-4}$
    ```

    ## Use instead
    ```latex
    We train every model with a batch size of 128 and a learning rate of $3\\times10^{-4}$.
    ```

    ## Fix safety
    No fix: which value the experiments used is the author's to say.
    """
    for placed in section.blocks:
        if placed.kind is BlockKind.TABLE and placed.block.table is not None:
            yield from settings_rows(ctx, placed, placed.block.table)
        elif placed.kind in (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE):
            yield from _stated(placed)
