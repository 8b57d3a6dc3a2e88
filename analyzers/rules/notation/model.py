"""The notation family's science: which macro definitions are the author's and change meaning,
and how acronyms are defined, spelled, expanded and used."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz
from rapidfuzz.distance import Prefix

from ....latex.conditionals import NEVER
from ....latex.deferred_pattern import DeferredPattern
from ....latex.index import JOINING_WORDS
from ....latex.manuscript import PlacedBlock, SourceRun
from ....latex.model import Acronym, BlockKind, MacroDef, SectionKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Related
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, Same, SectionKey

# A macro is the author's own when one of these introduces it; \providecommand never overrides.
_INTRODUCES = frozenset({"newcommand", "DeclareMathOperator", "DeclareRobustCommand", "newrobustcmd", "def", "gdef", "edef", "xdef"})
# \def over \def is the TeX idiom for a local variable (`\def\premise{…}` before each display).
_OVERRIDES = frozenset({"renewcommand", "newcommand", "DeclareRobustCommand"})
_MAX_DEFINITIONS = 2  # a macro defined more often than this is a deliberate variable
# What is left of a body that only passes its arguments on: #1, braces, spacing and no-ops.
_PASS_THROUGH = DeferredPattern(r"#\d|[{}\s]|\\(?:relax|ignorespaces|unskip|xspace|leavevmode|@gobble)(?![A-Za-z@])")
# Highlighting: colour (with its colour argument), underlining, striking out, emphasis.
_MARKUP = DeferredPattern(
    r"\\(?:textcolor|color|colorbox|sethlcolor)\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}"
    r"|\\(?:hl|sout|xout|st|uline|ul|uwave|underline|textbf|emph|textit|bfseries|itshape)(?![A-Za-z@])"
)
PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)
_DEFINING = (*PROSE, BlockKind.CAPTION)  # where the text introduces a short form in parentheses
# Not inside a key: "{Appendix:TW}", "fig:ROC": a label, not prose ("$/QALY", "controllers/FTL" are prose).
# Not after a word character, backslash, brace, colon or hyphen: the look back follows the first capital, so that
# the pattern opens with a capital and `re` skips to the capitals (2.5× faster on a book than the look back first).
_ACRONYM_WORD = DeferredPattern(r"([A-Z](?<![\w\\{:-][A-Z])[A-Z0-9]*[A-Z][A-Z0-9]*)s?(?![\w}:-])")
# Acronyms a research reader knows without a definition; keep this list to the unambiguous.
WELL_KNOWN = frozenset(
    """
AI ML NLP CV GPU GPUs CPU CPUs TPU TPUs RAM GB MB KB TB GHz MHz URL URLs PDF PDFs RGB RGBD HTML XML JSON CSV API APIs SQL
IO OS PC USA UK EU US UN ID IDs DNA RNA MRI CT ECG EEG PhD MSc BSc CEO ISBN DOI ISO IEEE ACM AAAI ICML ICLR NeurIPS NIPS CVPR
ICCV ECCV ACL EMNLP NAACL COVID SARS HIV UTC GMT FAQ PR QA IQ OK TV FM AM PM AD BC LaTeX TeX CNN RNN LSTM GRU MLP GAN VAE
LLM LLMs GPT BERT SGD ADAM SVM PCA KL MSE MAE RMSE IID IOU IoU ROC AUC FPS SOTA SI HTTP HTTPS SSH FTP GUI IDE CLI MIT BSD
GPL NASA NSF NIH ERC DFT FFT ODE PDE SDE MCMC MAP MLE EM RL TD DQN PPO VQA OCR ASR TTS LHC CERN ATLAS CMS QCD QED
CUDA NA DBLP ORCID ARXIV LLC INC CDF PDF USB LED LCD SSD HDD NVIDIA AMD IBM AWS README FAQ TODO
""".split()
)
_PARENTHESISED = DeferredPattern(r"\((?=[A-Z])([A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*s?)\)")
_CONNECTORS = frozenset("of for and the in on to with via a an by from".split())
_MAX_EXPANSION_WORDS = 8
# Words that make "a network (NN)" a mention of "neural network (NN)", not another expansion.
_NOT_A_TERM = _CONNECTORS | frozenset("our this that these those their its each every any such same proposed above following new".split())
_GLOSSARY_ENTRY = DeferredPattern(r"\\(?:newglossaryentry|newabbreviation|newacronym)\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")
_NOT_BODY_TITLES = DeferredPattern(r"checklist|acknowledg|author|contribution|affiliation|funding", re.I)
# "BERT~\cite{…}", "BERT (Devlin et al.)": a cited method or dataset is named, not abbreviated.
_NAMED = DeferredPattern(r"s?[\s~]*(?:\\cite|\()")
# Where a text tells the reader a short form, in a way the definitions' reader may not spell out: right after words
# whose initials it holds, in parentheses ("speech/music discrimination (SMD)", "(TPR's)", "(LER, also known as …)"),
# in natbib's prefix, printed in the citation's parentheses ("Regional Arctic System Model \\citep[RASM;][]{…}"), or
# after ", or" ("an edit decision list, or EDL,"); in parentheses that say so ("(hereafter CI)", "(henceforth CI)");
# or before its words in parentheses ("DAG (Directed Acyclic Graph)").
_OPENS_AFTER_WORDS = DeferredPattern(r"[\w}'’.-][\s~]*(?:\(|\\cite[a-zA-Z]*\*?\[|,\s+or\s+)$")
_ABBREVIATED_HENCE = DeferredPattern(r"\((?:here(?:on|after|inafter)|henceforth|thereafter|abbreviated(?:\s+as)?)[,:\s~]+$", re.I)
_CLOSES = DeferredPattern(r"(?:['’]?s)?(?:\\@)?\s*[),;]")
# The words after an acronym, in parentheses, an author's mark of a revision around them or not ("DAG \\revise{(Directed
# Acyclic Graph)}" renders as "DAG \\revise(Directed Acyclic Graph)").
_WORDS_AFTER = DeferredPattern(r"s?[\s~]*(?:\\[A-Za-z]+\s*)?\(([A-Za-z][\w'’]*(?:[\s/-]+[\w'’]+){1,7})\)")
# An acronym set equal to its formula right after its words ("the ``average selection on gains'' ASG = TOT - TUT").
_EQUATED = DeferredPattern(r"\s*(?::=|=|≡|\\equiv\b)")
# One entry of a key of letters: "S-singular", "P: plural", "H = high".
_LETTER_KEY = DeferredPattern(r"(?<![\w-])([A-Z])\s*(?:[-–—:=]|\\textendash)\s*[a-z]{3,}")
_KEY_REACH = 120
_CAPITALS = DeferredPattern(r"(?<![\w-])[A-Z]{2,5}(?![\w-])")
# Codes in a few letters, more codes than letters ("SS, SP, PS", "HHL, HLH, LHH"); acronyms listed together spell
# more letters than there are of them ("PP, NP and VP").
_CODE_LETTERS = 3
_CODES = 3
# The opening itself, cut off the words before it.
_OPENING = DeferredPattern(r"(?:\([^()]*|\\cite[a-zA-Z]*\*?\[[^\[\]]*|,\s+or\s+)$")


class Redefinition(NamedTuple):
    """A macro's second definition with a new meaning: a finding if the text used the first one."""

    name: str
    first_file: str
    first: MacroDef
    file: str
    later: MacroDef


# What the section rules hand their combine. A part is reused while its section's text only moved,
# so it holds ranges (findings, pointers) and block indices within the section, never raw offsets.
class MacroPlaces(NamedTuple):
    """Where a section's blocks sit around the redefinitions (one entry per Redefinition), and
    its first block using each redefined macro; block positions are indices within the section."""

    # Per redefinition: its last block of the redefining file that starts before the
    # redefinition, and its first block of that file.
    cuts: tuple[tuple[int | None, int | None], ...]
    uses: dict[str, tuple[int, Related, int]]  # first block using the macro, a pointer there, its last block


class AcronymDefinition(NamedTuple):
    file: str
    acronym: Acronym
    block: int | None  # reading-order index of its block; None for a package command
    spelled: bool  # the expansion's initials spell the acronym


def printed_place(ctx: RuleContext, file: str, offset: int) -> tuple[str, int]:
    """Where `offset` of `file` falls in reading order, as a (file, offset) of a file that prints blocks: itself,
    or for a file that prints none (a macros file `\\input` in the body), the site of the `\\input` that includes it."""
    manuscript, seen = ctx.manuscript, {file}
    while not manuscript.places_of(file):
        site = next(
            (inclusion for inclusion in ctx.project.inclusions if inclusion.target == file and inclusion.file in manuscript.layouts),
            None,
        )
        if site is None or site.file in seen:
            break
        file, offset = site.file, site.site.start
        seen.add(file)
    return file, offset


def macro_redefinitions(ctx: RuleContext) -> tuple[Redefinition, ...]:
    """Redefinitions with a new meaning of macros the author introduced, in the index's order."""
    return _redefinitions(Same(ctx.index.macros))


@lru_cache(maxsize=1)  # every section of a check asks, of one index's macros
def _redefinitions(macros: Same[list[tuple[str, MacroDef]]]) -> tuple[Redefinition, ...]:
    definitions: dict[str, list[tuple[str, MacroDef]]] = {}
    for file, macro in macros.value:
        if macro.command != "providecommand" and not any(branch == NEVER for _, branch in macro.branch):
            definitions.setdefault(macro.name, []).append((file, macro))
    redefinitions = []
    for name, entries in definitions.items():
        _first_file, first = entries[0]
        if len(entries) < 2 or _settings(entries) > _MAX_DEFINITIONS or first.command not in _INTRODUCES:
            continue
        for number, (file, later) in enumerate(entries[1:], start=1):
            if later.command not in _OVERRIDES:
                continue
            # The definitions `later` always replaces: not those of another branch of its conditional.
            replaced = [
                (earlier_file, earlier)
                for earlier_file, earlier in entries[:number]
                if _replaces(earlier_file, earlier.branch, file, later.branch)
            ]
            bodies = [later.body, *(earlier.body for _, earlier in replaced)]
            if replaced and len({without_spaces(body) for body in bodies}) == len(bodies) and not _markup_switch(bodies):
                redefinitions.append(Redefinition(name, *replaced[0], file, later))
    return tuple(redefinitions)


def _settings(entries: list[tuple[str, MacroDef]]) -> int:
    """How many times a macro is set, the branches of one conditional counting once."""
    return len({(file, macro.branch[0][0]) if macro.branch else (file, -index) for index, (file, macro) in enumerate(entries)})


def _replaces(earlier_file: str, earlier: tuple[tuple[int, int], ...], file: str, later: tuple[tuple[int, int], ...]) -> bool:
    """Whether a definition in branch `later` runs wherever the one in `earlier` ran: it sits
    outside every conditional, or in the same branches of the same file."""
    return not later or (file == earlier_file and earlier[: len(later)] == later)


def _markup_switch(bodies: list[str]) -> bool:
    """Bodies that only show or hide their arguments (`{}`, `#1`, `\\textcolor{red}{#1}`): a
    review-markup macro switched on or off, not a change of notation."""
    passing = [not _PASS_THROUGH.sub("", body) for body in bodies]
    marking = [not _PASS_THROUGH.sub("", _MARKUP.sub("", body)) for body in bodies]
    return any(passing) or all(marking)


def without_spaces(body: str) -> str:
    return re.sub(r"\s+", "", body)


def acronym_definitions(ctx: RuleContext) -> Iterator[tuple[str, Acronym]]:
    yield from ctx.index.acronyms
    for placed, acronym in ctx.index.inline_acronyms:
        yield placed.file, acronym


def all_acronym_definitions(ctx: RuleContext) -> list[AcronymDefinition]:
    """Package definitions, then the body's in reading order: inline ones, and phrases before an
    acronym defined elsewhere that do not spell it ("Adaptive Recurrent Unit (SRU)"). Read once per index (the
    list is shared, never changed): NOT003 and NOT006 each ask on every edit."""
    return _all_acronym_definitions(_ByIndex(ctx))


class _ByIndex:
    """A rule's context as a cache key: the same while the project holds the same index (every change builds a new one)."""

    __slots__ = ("ctx", "index")

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx, self.index = ctx, ctx.whole_project.index

    def __hash__(self) -> int:
        return id(self.index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByIndex) and other.index is self.index


@lru_cache(maxsize=1)  # the rules of one check ask in turn; holding more would hold old indexes
def _all_acronym_definitions(key: _ByIndex) -> list[AcronymDefinition]:
    ctx = key.ctx
    definitions = [AcronymDefinition(file, acronym, None, True) for file, acronym in ctx.index.acronyms]
    inline: dict[int, list[Acronym]] = {}
    holders: dict[int, PlacedBlock] = {}
    for placed, acronym in ctx.index.inline_acronyms:
        inline.setdefault(placed.index, []).append(acronym)
        holders[placed.index] = placed
    expansions: dict[str, str] = {}  # the first expansion of each defined acronym
    for acronym in [definition.acronym for definition in definitions] + [a for acronyms in inline.values() for a in acronyms]:
        expansions.setdefault(singular(acronym.short), acronym.long)
    written = {placed.index: (placed, candidates) for placed, candidates in _defining_blocks(ctx)}
    for index in sorted(inline.keys() | written.keys()):  # the blocks that define some acronym, in reading order
        placed, candidates = written.get(index) or (holders[index], ())
        spelled = inline.get(index, [])
        found = [AcronymDefinition(placed.file, acronym, placed.index, True) for acronym in spelled]
        starts = {acronym.start for acronym in spelled}
        for short, words, plain_start, plain_end in candidates:
            first = expansions.get(singular(short))
            long = _unspelled_expansion(short, words, first) if first else None
            start, end = placed.block.plain.source_span(plain_start, plain_end) if long else (0, 0)
            if long and start not in starts:
                found.append(AcronymDefinition(placed.file, Acronym(short, long, start, end, "inline"), placed.index, False))
        definitions += sorted(found, key=lambda definition: definition.acronym.start)
    return definitions


def parenthesised_acronyms(ctx: RuleContext) -> Iterator[AcronymDefinition]:
    """Every acronym the body prose or a caption writes in parentheses after words ("... network (DGN)"),
    whether or not the words spell it: where the author introduced a short form."""
    for placed, candidates in _defining_blocks(ctx):
        for short, words, plain_start, plain_end in candidates:
            start, end = placed.block.plain.source_span(plain_start, plain_end)
            yield AcronymDefinition(placed.file, Acronym(short, " ".join(words), start, end, "inline"), placed.index, False)


def _defining_blocks(ctx: RuleContext) -> Iterator[tuple[PlacedBlock, tuple[_Parenthesised, ...]]]:
    """The prose and captions that write acronyms in parentheses after words, with those acronyms, in reading order."""
    for section in ctx.index.manuscript.sections:
        yield from _section_parenthesised(SectionKey(section))


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_parenthesised(key: SectionKey) -> tuple[tuple[PlacedBlock, tuple[_Parenthesised, ...]], ...]:
    """A section's blocks that write acronyms in parentheses: walked once per Section the manuscript hands on."""
    return tuple(
        (placed, candidates)
        for placed in key.section.blocks
        if placed.kind in _DEFINING and (candidates := _parenthesised(placed.block.plain.text))
    )


# Two letters swapped ("NL", "LN") are too often two names to count as one misspelt.
MIN_TRANSPOSED_LETTERS = 3


def transposed(written: str, defined: Iterable[str]) -> str | None:
    """The one defined acronym with `written`'s letters in another order ("DGN" for "GDN"), if exactly one is."""
    letters = sorted(written)
    found = [short for short in defined if short != written and len(short) >= MIN_TRANSPOSED_LETTERS and sorted(short) == letters]
    return found[0] if len(found) == 1 else None


_Parenthesised = tuple[str, tuple[str, ...], int, int]  # an acronym, the words before it, its plain span


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _parenthesised(text: str) -> tuple[_Parenthesised, ...]:
    """Acronyms in parentheses with the words right before them in their clause: (short, words, plain span of short)."""
    found = []
    for match in _PARENTHESISED.finditer(text):
        words = text[max(0, match.start() - 120) : match.start()].split()[-_MAX_EXPANSION_WORDS:]
        clause = list(words)
        for position in range(len(words) - 1, -1, -1):
            if not re.fullmatch(r"[\w-]+", words[position]):
                clause = words[position + 1 :]
                break
        found.append((match.group(1), tuple(clause), match.start(1), match.end(1)))
    return tuple(found)


def _unspelled_expansion(short: str, words: tuple[str, ...], first: str) -> str | None:
    """The expansion `words` give an already defined acronym without spelling it: as many capitalised
    words as it has capitals, small connecting words aside ("Adaptive Recurrent Unit (SRU)"), or the
    first expansion with one word swapped ("adaptive recurrent unit" for "simple recurrent unit")."""
    wanted = sum(1 for character in singular(short) if character.isupper() or character.isdigit())
    taken: list[str] = []
    content = 0
    for word in reversed(words):
        if content == wanted:
            break
        if word.lower() in _CONNECTORS and content:
            taken.append(word)
        elif word[0].isupper():
            taken.append(word)
            content += 1
        else:
            break
    # A run of more capitalised words than the acronym has capitals ("Bogoliubov-de Gennes Hamiltonian (BdG)")
    # does not say which of them it abbreviates.
    before = words[-len(taken) - 1] if len(taken) < len(words) else ""
    longer = bool(before) and before[0].isupper() and before.lower() not in _DETERMINERS
    if content == wanted and wanted > 1 and taken[-1].lower() not in _NOT_A_TERM and not longer:  # not "Our Best Model (SRU)"
        return " ".join(reversed(taken))
    expected = first.split()
    if 1 < len(expected) <= len(words):
        tail = words[-len(expected) :]
        swapped = [word for word, other in zip(tail, expected) if _normal_expansion(word) != _normal_expansion(other)]
        # "Cramer-Rao lower bound" against "Cramer-Rao bound": the first expansion with a word put in, not swapped.
        if len(swapped) == 1 and swapped[0].lower() not in _NOT_A_TERM and not _elaborates(words[-len(expected) - 2 :], expected):
            return " ".join(tail)
    return None


_DETERMINERS = frozenset({"the", "a", "an", "our", "their", "this", "these", "that", "those", "its", "his", "her", "we"})


def _elaborates(words: Sequence[str], expected: Sequence[str]) -> bool:
    """Whether `words` hold `expected` in order, with other words between: the same term, elaborated."""
    remaining = iter(_normal_expansion(word) for word in words)
    return all(_normal_expansion(word) in remaining for word in expected)


def singular(short: str) -> str:
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def _normal_expansion(long: str) -> str:
    words = re.sub(r"[-‐–/]", " ", long.lower()).split()
    return " ".join(word[:-1] if word.endswith("s") and len(word) > 3 else word for word in words)


def same_expansion(first: str, second: str) -> bool:
    """One term written twice, compared word by word without joining words ("mixtures of importance
    sampling" is "mixture importance sampling"). A shorter one whose words the longer holds in order
    is the same term with words that spell no letter of the acronym ("rate- and state-dependent
    friction", "rate- and state-friction")."""
    a, b = _normal_expansion(first), _normal_expansion(second)
    if a == b or a.replace(" ", "") == b.replace(" ", ""):
        return True
    shorter, longer = sorted(([word for word in text.split() if word not in JOINING_WORDS] for text in (a, b)), key=len)
    remaining = iter(longer)
    return bool(shorter) and all(any(_same_word(word, other) for other in remaining) for word in shorter)


# Endings that change a word's part of speech, not its meaning: "distant supervision" is "distantly supervised".
_INFLECTIONS = frozenset({"", "e", "s", "es", "d", "ed", "ing", "ly", "al", "ally", "ion", "ions", "ation", "ations", "er", "ers", "ity"})


def _same_word(word: str, other: str) -> bool:
    """One word written twice: a spelling variant ("modelling", "modeling") or another ending of one stem.
    Word by word, so that one changed word ("Markov" → "Masked") is another meaning however long the rest."""
    stem = Prefix.similarity(word, other)
    inflected = stem >= 4 and word[stem:] in _INFLECTIONS and other[stem:] in _INFLECTIONS
    return inflected or fuzz.ratio(word, other) >= 85


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def acronym_words(text: str) -> tuple[tuple[str, int, int, bool], ...]:
    """Acronym-like words of a block: (word, start, end, named next to a citation or parenthesis)."""
    return tuple(
        (match.group(1), match.start(), match.end(), _NAMED.match(text, match.end()) is not None) for match in _ACRONYM_WORD.finditer(text)
    )


def introduced_at(text: str, start: int, end: int, short: str) -> bool:
    """Whether the acronym at `text[start:end]` is written where a reader is told it, after words whose initials hold
    its letters in order (`_OPENS_AFTER_WORDS`: "Cramer-Rao lower bound (CRB)", "true positive rates (TPR's)", "an
    edit decision list, or EDL,"; `_EQUATED`: "the average selection on gains ASG = TOT - TUT"), in parentheses
    that say so ("continuous integration scripts (hereon CI)"), or before words whose capitals spell it
    (`_WORDS_AFTER`): a definition in a form the definitions' reader does not spell out. Words that miss a letter
    ("a graph network (GNN)") define nothing."""
    if _ABBREVIATED_HENCE.search(text, max(0, start - 40), start) and _CLOSES.match(text, end):
        return True
    opens = _OPENS_AFTER_WORDS.search(text, max(0, start - 40), start) and _CLOSES.match(text, end)
    if opens or _EQUATED.match(text, end):
        before = _OPENING.sub("", text[max(0, start - 120) : start]) if opens else text[max(0, start - 120) : start]
        return _initials_hold(short, [word for word in re.split(r"[^\w'’]+", before) if word][-_MAX_EXPANSION_WORDS:])
    after = _WORDS_AFTER.match(text, end)
    initials = "".join(word[0] for word in re.split(r"[\s/-]+", after.group(1)) if word[0].isupper()) if after else ""
    return len(initials) >= 2 and initials.upper() == short.upper()


def coded_by_letters(text: str, start: int, end: int, short: str) -> bool:
    """Whether the capitals at `text[start:end]` are a code: one that a key of letters beside them spells out ("the four
    conditions (SS, SP, PS and PP; S-singular, P-plural)", every letter of it one the key gives, and the key two or
    more), or one of three or more codes written beside it in the same few letters ("SS, SP, PS and PP"). Such a code
    is no acronym, whatever an acronym of the same letters means elsewhere."""
    around = max(0, start - _KEY_REACH), min(len(text), end + _KEY_REACH)
    key = {match.group(1) for match in _LETTER_KEY.finditer(text, *around)}
    if len(key) >= 2 and set(short) <= key:
        return True
    codes = {match.group(0) for match in _CAPITALS.finditer(text, *around) if len(match.group(0)) == len(short)}
    letters = set("".join(codes))
    return len(codes) >= _CODES and len(letters) <= _CODE_LETTERS and len(letters) < len(codes)


def _initials_hold(short: str, words: list[str]) -> bool:
    """The acronym's letters, last to first, are the initials of the words before it, last to first, skipping words
    ("Cramer-Rao lower bound": C, R, B); the last word gives the last letter."""
    letters = [letter for letter in short.upper() if letter.isalpha()]
    if not words or not letters or words[-1][0].upper() != letters[-1]:
        return False
    for word in reversed(words):
        if letters and word[0].upper() == letters[-1]:
            letters.pop()
    return not letters


def glossary_entries(ctx: RuleContext, run: SourceRun) -> tuple[str, bool, frozenset[str]] | None:
    """The glossary entries a run declares, and whether it uses the glossaries package's own commands."""
    text = ctx.source(run.file).text
    package = text.find("glossaryentry", run.start, run.end) >= 0 or text.find("newabbreviation", run.start, run.end) >= 0
    if not package and text.find("newacronym", run.start, run.end) < 0:
        return None
    entries = frozenset(singular(match.group(1).strip()) for match in _GLOSSARY_ENTRY.finditer(text, run.start, run.end))
    return run.file, package, entries


@lru_cache(maxsize=1024)
def is_body_section(kind: SectionKind, title: str) -> bool:
    return kind not in (SectionKind.FRONT, SectionKind.ABSTRACT, SectionKind.REFERENCES) and not _NOT_BODY_TITLES.search(title)


# A symbol with a named subscript: up to three Latin letters standing alone, or a Greek one ("BS_null", "σ_tot").
_NAMED_SYMBOL = DeferredPattern(r"(?<![A-Za-z0-9_\\])(?P<base>[A-Za-z]{1,3}|[Α-Ωα-ω])_(?P<sub>[A-Za-z][A-Za-z0-9]+)(?![A-Za-z0-9])")
# A Greek letter with an index ("ω_j"): a Latin one ("x_i", "a_j") is as often a further symbol the key introduces.
_INDEXED_LETTER = DeferredPattern(r"(?P<base>[Α-Ωα-ω])_(?P<sub>[a-z])(?![A-Za-z0-9_])")
_EXPLAINED_AS = DeferredPattern(r"\s+(?:is|are|denotes?|represents?|stands?)\b")
# The opening of a display's key: "where …", ", with …", "in which …".
_KEY = DeferredPattern(r"[\s,]*(?:where|with|in which)\b")


class ExplainedTwin(NamedTuple):
    """A symbol a display's key explains and the display does not hold, and the display's symbol it stands for."""

    start: int  # the explained symbol, in the key's plain text
    end: int
    explained: str
    displayed: str
    renamed_letter: bool  # the same index under another Greek letter ("ω_j" for "α_j"), not a name one letter off


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def explained_twins(display: str, text: str) -> tuple[ExplainedTwin, ...]:
    """The symbols the key opening `text` explains in place of a symbol of `display` it leaves unexplained: a
    name one letter off ("S_null" for "BS_null"), or an indexed Greek letter it names as its clause's subject
    under another Greek letter ("ω_j are mixture weights" for "α_j")."""
    if _KEY.match(text) is None:
        return ()
    spans = sentence_spans(text)
    sentence_end = spans[0][1] if spans else len(text)
    twins = []
    explained = [(match.start(), match.end(), match.group(0)) for match in _NAMED_SYMBOL.finditer(text, 0, sentence_end)]
    displayed = {match.group(0) for match in _NAMED_SYMBOL.finditer(display)}
    written = {symbol for _, _, symbol in explained}
    for start, end, symbol in explained:
        if symbol in displayed:
            continue
        twin = next((other for other in sorted(displayed) if other not in written and _one_letter_off(symbol, other)), None)
        if twin is not None:
            twins.append(ExplainedTwin(start, end, symbol, twin, False))
    letters = list(_INDEXED_LETTER.finditer(text, 0, sentence_end))
    in_key = Counter(match.group(0) for match in letters)
    in_display = {match.group(0) for match in _INDEXED_LETTER.finditer(display)}
    for match in letters:
        symbol, index = match.group(0), match.group("sub")
        if symbol in in_display or in_key[symbol] > 1 or _EXPLAINED_AS.match(text, match.end()) is None:
            continue
        others = [other for other in in_display if other.endswith("_" + index) and other not in in_key]
        if len(others) == 1:
            twins.append(ExplainedTwin(match.start(), match.end(), symbol, others[0], True))
    return tuple(twins)


def _one_letter_off(symbol: str, other: str) -> bool:
    """The same subscript, and one name is the other with one letter more at its start or end ("S_null", "BS_null");
    not its differential ("dN_ions/dt" explains the display's "\\frac{d N_ions}{d t}")."""
    base, _, sub = symbol.partition("_")
    other_base, _, other_sub = other.partition("_")
    if sub != other_sub or abs(len(base) - len(other_base)) != 1:
        return False
    short, long = sorted((base, other_base), key=len)
    return long != "d" + short and (long.startswith(short) or long.endswith(short))
