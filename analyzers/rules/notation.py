"""NOT: notation that changes meaning within one paper (macros, symbol domains, acronyms)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from rapidfuzz import fuzz
from rapidfuzz.distance import Prefix

from ...latex.conditionals import NEVER
from ...latex.index import JOINING_WORDS
from ...latex.manuscript import PlacedBlock, Section, SourceRun
from ...latex.model import Acronym, BlockKind, MacroDef, SectionKind
from ..context import RuleContext
from ..finding import Category, Finding, Related, Severity
from ..memo import TEXT_CACHE_SIZE
from ..registry import Scope, rule

# A macro is the author's own when one of these introduces it; \providecommand never overrides.
_INTRODUCES = frozenset({"newcommand", "DeclareMathOperator", "DeclareRobustCommand", "newrobustcmd", "def", "gdef", "edef", "xdef"})
# \def over \def is the TeX idiom for a local variable (`\def\premise{…}` before each display).
_OVERRIDES = frozenset({"renewcommand", "newcommand", "DeclareRobustCommand"})
_MAX_DEFINITIONS = 2  # a macro defined more often than this is a deliberate variable
# What is left of a body that only passes its arguments on: #1, braces, spacing and no-ops.
_PASS_THROUGH = re.compile(r"#\d|[{}\s]|\\(?:relax|ignorespaces|unskip|xspace|leavevmode|@gobble)(?![A-Za-z@])")
# Highlighting: colour (with its colour argument), underlining, striking out, emphasis.
_MARKUP = re.compile(
    r"\\(?:textcolor|color|colorbox|sethlcolor)\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}"
    r"|\\(?:hl|sout|xout|st|uline|ul|uwave|underline|textbf|emph|textit|bfseries|itshape)(?![A-Za-z@])"
)

_NUMBER = r"-?\s?(?:\d+(?:\.\d+)?|\.\d+)"
_SYMBOL = r"(?<![\w\\^_])(?P<symbol>[A-Za-zα-ωΑ-Ω](?:_\{?[\w,]+\}?)?)"
_DOMAIN = re.compile(rf"{_SYMBOL}\s*∈\s*(?P<open>[\[(])\s*(?P<lo>{_NUMBER})\s*,\s*(?P<hi>{_NUMBER})\s*(?P<close>[\])])(?![\w^_/])")
_SANDWICH = re.compile(rf"(?<![\w.])(?P<lo>{_NUMBER})\s*[≤<]\s*{_SYMBOL}\s*[≤<]\s*(?P<hi>{_NUMBER})(?![\w.^_/])")
_ACCENT = re.compile(
    r"\\(?:hat|widehat|tilde|widetilde|bar|overline|vec|dot|ddot|check|mathbf|bm|boldsymbol|mathcal|mathbb|mathrm|mathsf|mathfrak)\s*\{?\s*$"
)
# A range bound to one statement: "for all x ∈ [0,1]", "Fix δ ∈ (0,0.1)", "there exists δ ∈ (0,1)".
_QUANTIFIED = re.compile(
    r"(?<!\w)(?:for\s+(?:all|any|every|each|some)|there\s+(?:exists?|is)|exists?|[Ff]ix(?:ed)?|[Cc]hoose|[Pp]ick|[Gg]iven|∀|∃)(?!\w)[^.;:]*$"
)
_LOCAL_PENALTY = 0.2
_MATH_BLOCKS = (BlockKind.PARAGRAPH, BlockKind.MATH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)
_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)

# Not inside a key: "{Appendix:TW}", "fig:ROC": a label, not prose ("$/QALY", "controllers/FTL" are prose).
_ACRONYM_WORD = re.compile(r"(?<![\w\\{:-])([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)s?(?![\w}:-])")
# Acronyms a research reader knows without a definition; keep this list to the unambiguous.
_WELL_KNOWN = frozenset(
    """
AI ML NLP CV GPU GPUs CPU CPUs TPU TPUs RAM GB MB KB TB GHz MHz URL URLs PDF PDFs RGB RGBD HTML XML JSON CSV API APIs SQL
IO OS PC USA UK EU US UN ID IDs DNA RNA MRI CT ECG EEG PhD MSc BSc CEO ISBN DOI ISO IEEE ACM AAAI ICML ICLR NeurIPS NIPS CVPR
ICCV ECCV ACL EMNLP NAACL COVID SARS HIV UTC GMT FAQ PR QA IQ OK TV FM AM PM AD BC LaTeX TeX CNN RNN LSTM GRU MLP GAN VAE
LLM LLMs GPT BERT SGD ADAM SVM PCA KL MSE MAE RMSE IID IOU IoU ROC AUC FPS SOTA SI HTTP HTTPS SSH FTP GUI IDE CLI MIT BSD
GPL NASA NSF NIH ERC DFT FFT ODE PDE SDE MCMC MAP MLE EM RL TD DQN PPO VQA OCR ASR TTS LHC CERN ATLAS CMS QCD QED
CUDA NA DBLP ORCID ARXIV LLC INC CDF PDF USB LED LCD SSD HDD NVIDIA AMD IBM AWS README FAQ TODO
""".split()
)
_PARENTHESISED = re.compile(r"\((?=[A-Z])([A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*s?)\)")
_CONNECTORS = frozenset("of for and the in on to with via a an by from".split())
_MAX_EXPANSION_WORDS = 8
# Words that make "a network (NN)" a mention of "neural network (NN)", not another expansion.
_NOT_A_TERM = _CONNECTORS | frozenset("our this that these those their its each every any such same proposed above following new".split())
_GLOSSARY_ENTRY = re.compile(r"\\(?:newglossaryentry|newabbreviation|newacronym)\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")
_NOT_BODY_TITLES = re.compile(r"checklist|acknowledg|author|contribution|affiliation|funding", re.I)
_MAX_UNDEFINED_REPORTS = 3
_MIN_UNDEFINED_USES = 3
_MANY_UNDEFINED_USES = 5
# "BERT~\cite{…}", "BERT (Devlin et al.)": a cited method or dataset is named, not abbreviated.
_NAMED = re.compile(r"s?[\s~]*(?:\\cite|\()")


# What the section rules hand their combine. A part is reused while its section's text only moved,
# so it holds ranges (findings, pointers) and block indices within the section, never raw offsets.


class _Redefinition(NamedTuple):
    """A macro's second definition with a new meaning: a finding if the text used the first one."""

    name: str
    first_file: str
    first: MacroDef
    file: str
    later: MacroDef


class _MacroPlaces(NamedTuple):
    """Where a section's blocks sit around the redefinitions (one entry per _Redefinition), and
    its first block using each redefined macro; block positions are indices within the section."""

    # Per redefinition: its last block of the redefining file that starts before the
    # redefinition, and its first block of that file.
    cuts: tuple[tuple[int | None, int | None], ...]
    uses: dict[str, tuple[int, Related, int]]  # first block using the macro, a pointer there, its last block


class _Range(NamedTuple):
    """A numeric range a section gives a symbol."""

    key: str  # the symbol as written in the source, accents included
    symbol: str
    low: float
    high: float
    text: str
    block: int  # index of the block within its section
    local: bool  # bound by a quantifier ("for all", "fix", "there exists") or a theorem's hypothesis
    finding: Finding  # reported here if an earlier range differs; the combine writes the message
    first: Related  # points here when this is the symbol's first range


class _AcronymUse(NamedTuple):
    """The first use of an inline-defined acronym in a section's body prose."""

    short: str
    before_definition: bool | None  # None: the definition is in another section
    finding: Finding


class _AcronymOrder(NamedTuple):
    defined: frozenset[str]  # acronyms whose first inline definition is in the section
    first_uses: list[_AcronymUse]


class _AcronymTally(NamedTuple):
    uses: int
    blocks: int
    first: Finding  # on the first use; the combine writes the paper-wide count into the message


class _AcronymUses(NamedTuple):
    tallies: dict[str, _AcronymTally]  # in order of first use
    exempt: frozenset[str]  # named next to a citation, or outside body prose
    # Per source run: its file, whether it holds a glossary package command, the entries it declares.
    glossary: tuple[tuple[str, bool, frozenset[str]], ...]


def _redefinitions_after_use(ctx: RuleContext, parts: list[tuple[Section, list[_MacroPlaces]]]) -> Iterator[Finding]:
    places = [(ordinal, part) for ordinal, (_, section_parts) in enumerate(parts) for part in section_parts]
    if not places:
        return  # no redefinitions
    reported: set[str] = set()
    for number, redefinition in enumerate(_redefinitions(ctx)):
        if redefinition.name in reported:
            continue
        cut = _reading_cut(places, number)
        if cut is None:
            continue
        used = _first_use_before(places, redefinition.name, cut)
        if used is None:
            continue
        reported.add(redefinition.name)
        name, first, later = redefinition.name, redefinition.first, redefinition.later
        # Both meanings in print (a use in the redefining block or later) is the evidence of a change.
        after = any((ordinal, part.uses[name][2]) >= (cut[0], cut[1] - 1) for ordinal, part in places if name in part.uses)
        yield ctx.report(
            redefinition.file,
            later.start,
            later.end,
            f"`{name}` was defined as `{first.body.strip()}` and is redefined here as `{later.body.strip()}` after the text used it",
            identity=f"{name}:{_body(later.body)}",
            related=[ctx.related(redefinition.first_file, first.start, first.end, f"first definition of `{name}`"), used],
            confidence=0.9 if after else 0.5,
        )


@rule(
    "NOT001",
    "macro-redefined",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("macros", "blocks"),
    scope=Scope.SECTION,
    combine=_redefinitions_after_use,
)
def macro_redefined(ctx: RuleContext, section: Section) -> Iterator[_MacroPlaces]:
    """## What it does
    Flags a macro the author defined (`\\newcommand`, `\\def`, `\\DeclareMathOperator`) and
    later redefines with a different body (`\\renewcommand`, `\\def`) after the text has
    already used it.

    ## Why is this bad?
    The same command then prints different notation in different parts of the paper: a
    symbol means one thing in the method and another in the appendix.

    ## Example
    ```latex
    \\newcommand{\\loss}{\\mathcal{L}}
    ... $\\loss$ ...
    \\renewcommand{\\loss}{\\ell}
    ```

    ## Use instead
    Give the second meaning its own macro (`\\newcommand{\\lossi}{\\ell}`).

    ## Fix safety
    No fix: the right name for the second meaning is the author's choice.

    ## Options
    Not flagged: `\\providecommand`, redefinitions of commands the project never defined
    (`\\renewcommand{\\arraystretch}`), identical bodies (a wrapper such as
    `\\newcommand{\\eqlabel}[1]{\\label{eq:#1}}` defined in two files), redefinitions before the
    text uses the macro (template macro files adjusted in the preamble), switching a
    macro off with an empty body (`\\renewcommand{\\todo}[1]{}`) or an identity body
    (`\\renewcommand{\\new}[1]{#1}` for `\\textcolor{red}{#1}`), recolouring a highlight, and
    definitions in the branches of a conditional (`\\ifdraft … \\else … \\fi`, `\\iffalse`,
    `\\if@twocolumn`, `\\ifx\\foo\\undefined`, `\\ifdefined`, `\\ifbool{…}{…}{…}`,
    `\\IfFileExists{…}{…}{…}`), which are alternatives, not a redefinition.

    ## Confidence
    0.9 when the text prints both meanings: a use before the redefinition and one in its
    paragraph or after it. 0.5 (information) when no use follows, so the second meaning is
    never printed.
    """
    redefinitions = _redefinitions(ctx)
    if not redefinitions:
        return
    cuts = []
    for redefinition in redefinitions:
        of_file = [number for number, placed in enumerate(section.blocks) if placed.file == redefinition.file]
        before = [number for number in of_file if section.blocks[number].block.start < redefinition.later.start]
        cuts.append((before[-1] if before else None, of_file[0] if of_file else None))
    uses = {}
    for name in dict.fromkeys(redefinition.name for redefinition in redefinitions):
        pattern = _macro_use(name)
        using = [
            number
            for number, placed in enumerate(section.blocks)
            if pattern.search(ctx.source(placed.file).text, placed.block.start, placed.block.end)
        ]
        if using:
            related = ctx.related_block(section.blocks[using[0]], 0, 0, f"`{name}` used with its first meaning")
            uses[name] = (using[0], related, using[-1])
    yield _MacroPlaces(tuple(cuts), uses)


def _conflicting_ranges(ctx: RuleContext, parts: list[tuple[Section, list[_Range]]]) -> Iterator[Finding]:
    first_by_symbol: dict[str, tuple[int, _Range]] = {}
    reported: set[str] = set()
    for ordinal, (_, ranges) in enumerate(parts):
        for stated in ranges:
            first_ordinal, first = first_by_symbol.setdefault(stated.key, (ordinal, stated))
            if stated.key in reported or (first.low, first.high) == (stated.low, stated.high):
                continue
            if (first_ordinal, first.block) == (ordinal, stated.block):
                continue  # one paragraph giving two ranges contrasts them on purpose
            reported.add(stated.key)
            yield stated.finding.model_copy(
                update={
                    "message": f"`{stated.symbol}` is given the range {stated.text} here but {first.text} earlier",
                    "identity": f"{stated.key}:{stated.text}:{first.text}",
                    "related": [first.first],
                    "confidence": 0.85 - _LOCAL_PENALTY * (first.local + stated.local),
                }
            )


@rule(
    "NOT002",
    "conflicting-symbol-domain",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_conflicting_ranges,
)
def conflicting_symbol_domain(ctx: RuleContext, section: Section) -> Iterator[_Range]:
    """## What it does
    Flags a symbol given two different numeric ranges, such as `$r \\in [-1,1]$` in the
    method and `$r \\in [0,1]$` in the appendix (`0 \\le r \\le 1` counts as `[0,1]`).

    ## Why is this bad?
    A reader (or a reviewer checking a proof) cannot tell which range holds, and results
    that depend on the range (a bound, a normalisation) may silently break.

    ## Example
    ```latex
    the reward $r \\in [-1, 1]$ ... we assume $r \\in [0, 1]$
    ```

    ## Use instead
    State one range, or name the two quantities differently (`r`, `\\tilde r`).

    ## Fix safety
    No fix: which range is right is the author's call.

    ## Options
    Only numeric endpoints are compared and open vs closed ends are ignored; accents are part
    of the symbol (`\\hat r` and `r` are different symbols). Two ranges in one paragraph are
    taken as a deliberate contrast and not flagged.

    ## Confidence
    0.85 for two ranges stated as the symbol's domain; minus 0.2 for each range that is local
    to one statement: bound by a quantifier ("for all", "there exists", "fix", "given") or
    inside a theorem or proof, where the same letter is often a fresh variable. A local range
    against a global one lands at 0.65, two local ones at 0.45: information, not warnings.
    """
    for number, placed in enumerate(section.blocks):
        if placed.kind not in _MATH_BLOCKS:
            continue
        text = placed.block.plain.text
        if "∈" not in text and "≤" not in text and "<" not in text:
            continue
        source = ctx.source(placed.file).text
        for pattern in (_DOMAIN, _SANDWICH):
            for match in pattern.finditer(text):
                low, high = _number(match.group("lo")), _number(match.group("hi"))
                if low >= high or not _literal(placed, source, match, "lo") or not _literal(placed, source, match, "hi"):
                    continue
                symbol = match.group("symbol")
                start, _ = placed.block.plain.source_span(match.start("symbol"), match.end("symbol"))
                accent = _ACCENT.search(source, max(0, start - 20), start)
                key = (accent.group(0).strip(" {") if accent else "") + symbol.replace("{", "").replace("}", "")
                shown = f"[{match.group('lo').strip()}, {match.group('hi').strip()}]"
                local = placed.kind is BlockKind.THEOREM or _QUANTIFIED.search(text, max(0, match.start() - 40), match.start()) is not None
                yield _Range(
                    key,
                    symbol,
                    low,
                    high,
                    shown,
                    number,
                    local,
                    ctx.report_block(placed, match.start(), match.end(), ""),
                    ctx.related_block(placed, match.start(), match.end(), f"`{symbol}` first given the range {shown}"),
                )


class _AcronymDefinition(NamedTuple):
    file: str
    acronym: Acronym
    block: int | None  # reading-order index of its block; None for a package command
    spelled: bool  # the expansion's initials spell the acronym


@rule("NOT003", "acronym-redefined", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("acronyms", "blocks"))
def acronym_redefined(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an acronym defined twice with different expansions, whether through
    `\\newacronym`/`\\acro`/`\\DeclareAcronym` or inline ("Large Language Model (LLM)").
    Once an acronym is defined, a later capitalised phrase in front of it counts as a definition
    even when its initials do not spell it ("Adaptive Recurrent Unit (SRU)" after "Simple
    Recurrent Unit (SRU)"), and so does the first expansion with one word swapped ("adaptive
    recurrent unit (SRU)"). Expansions are compared word by word, joining words left out: case,
    hyphens, plurals, spelling variants ("modelling") and another ending of the same stem
    ("distantly supervised" for "distant supervision") do not count as differences, nor does a
    word that spells no letter of the acronym left out ("rate- and state-friction" for "rate- and
    state-dependent friction"); one changed word does ("Masked decision process" for "Markov
    decision process"). Each other expansion is reported once, where it first appears.

    ## Why is this bad?
    "NN" cannot be both "neural network" and "nearest neighbour" in one paper; the reader
    will misread one of the two passages.

    ## Example
    ```latex
    reinforcement learning (RL) ... representation learning (RL)
    ```

    ## Use instead
    Keep one expansion per acronym, or give the second concept another acronym.

    ## Fix safety
    No fix: which expansion is intended is the author's call.

    ## Confidence
    0.9 when both definitions are explicit (a package command, or words whose initials spell
    the acronym); 0.8 when the later one is a capitalised phrase that does not spell it. 0.5
    (information) for a deliberate contrast: both expansions in one paragraph ("confidence
    level (CL) … unlike a credibility level (CL)"), or a paragraph that redefines two or more
    acronyms that were first defined together (the same terms restated for another paradigm).
    """
    definitions = _all_acronym_definitions(ctx)
    first_by_short: dict[str, _AcronymDefinition] = {}
    expansions: dict[str, list[str]] = {}  # per acronym: its first expansion and each other one, met once
    conflicts: list[tuple[_AcronymDefinition, _AcronymDefinition]] = []
    for definition in definitions:
        short = _singular(definition.acronym.short)
        first = first_by_short.setdefault(short, definition)
        known = expansions.setdefault(short, [first.acronym.long])
        if not any(_same_expansion(long, definition.acronym.long) for long in known):
            known.append(definition.acronym.long)
            conflicts.append((definition, first))
    # Redefinitions per block, and the blocks their first definitions share.
    by_block: dict[int, list[int | None]] = {}
    for later, first in conflicts:
        if later.block is not None:
            by_block.setdefault(later.block, []).append(first.block)
    for later, first in conflicts:
        acronym, short = later.acronym, _singular(later.acronym.short)
        firsts = by_block.get(later.block, []) if later.block is not None else []
        parallel = len(firsts) > 1 and len(set(firsts)) == 1 and firsts[0] is not None
        contrast = later.block is not None and later.block == first.block
        confidence = 0.5 if contrast or parallel else 0.9 if later.spelled else 0.8
        yield ctx.report(
            later.file,
            acronym.start,
            acronym.end,
            f'{acronym.short} is expanded as "{acronym.long}" here but as "{first.acronym.long}" earlier',
            identity=f"{short}:{acronym.long.lower()}",
            related=[ctx.related(first.file, first.acronym.start, first.acronym.end, f'{short} first defined as "{first.acronym.long}"')],
            confidence=confidence,
        )


def _uses_before_definition(ctx: RuleContext, parts: list[tuple[Section, list[_AcronymOrder]]]) -> Iterator[Finding]:
    defined: set[str] = set()  # defined in the sections read so far
    seen: set[str] = set()
    for _, section_parts in parts:
        for part in section_parts:
            for use in part.first_uses:
                if use.short in seen:
                    continue
                seen.add(use.short)
                if use.before_definition if use.before_definition is not None else use.short not in defined:
                    yield use.finding
            defined |= part.defined


@rule(
    "NOT004",
    "acronym-used-before-definition",
    Category.CONTEXT_MISALIGNMENT,
    Severity.INFORMATION,
    reads=("acronyms", "blocks", "structure"),
    scope=Scope.SECTION,
    combine=_uses_before_definition,
)
def acronym_used_before_definition(ctx: RuleContext, section: Section) -> Iterator[_AcronymOrder]:
    """## What it does
    Flags an acronym that the body text uses before the sentence that defines it
    inline ("… large language models (LLMs) …"). The title and abstract are exempt, since
    papers conventionally define acronyms again in the introduction.

    ## Why is this bad?
    A reader meets the short form before learning what it stands for.

    ## Example
    ```latex
    \\section{Introduction} VLMs are popular. Vision-language models (VLMs) ...
    ```

    ## Use instead
    Move the definition to the first use.

    ## Fix safety
    No fix: moving a definition rewrites two sentences.

    ## Confidence
    0.9 when the use and the definition are in one section (their order is exact); 0.8 when
    the definition is in a later section.
    """
    first_definition: dict[str, tuple[PlacedBlock, Acronym]] = {}
    for placed, acronym in ctx.index.inline_acronyms:
        first_definition.setdefault(_singular(acronym.short), (placed, acronym))
    formal = {_singular(acronym.short) for _, acronym in ctx.index.acronyms}
    pending = {short: definition for short, definition in first_definition.items() if short not in formal}
    defined_here = frozenset(short for short, (placed, _) in pending.items() if ctx.section_of(placed) is section)
    first_uses: list[_AcronymUse] = []
    seen: set[str] = set()
    for placed in _body_prose(section):
        for short, start, end, _ in _acronym_words(placed.block.plain.text):
            if short not in pending or short in _WELL_KNOWN or short in seen:
                continue
            seen.add(short)
            defined_in, acronym = pending[short]
            before = None
            if short in defined_here:
                before = (placed.index, placed.block.plain.source_offset(start)) < (defined_in.index, acronym.start)
            first_uses.append(
                _AcronymUse(
                    short,
                    before,
                    ctx.report_block(
                        placed,
                        start,
                        end,
                        f"{short} is used here before its definition",
                        identity=short,
                        related=[ctx.related(defined_in.file, acronym.start, acronym.end, f"{short} is defined here")],
                        confidence=0.9 if before is not None else 0.8,
                    ),
                )
            )
    yield _AcronymOrder(defined_here, first_uses)


def _most_used_undefined(ctx: RuleContext, parts: list[tuple[Section, list[_AcronymUses]]]) -> Iterator[Finding]:
    totals: dict[str, list[Any]] = {}  # short → [uses, blocks, first finding], in order of first use
    exempt: set[str] = set()
    glossary_files: set[str] = set()
    glossary: dict[str, set[str]] = {}
    for _, section_parts in parts:
        for part in section_parts:
            exempt |= part.exempt
            for file, package, entries in part.glossary:
                if package:
                    glossary_files.add(file)
                glossary.setdefault(file, set()).update(entries)
            for short, tally in part.tallies.items():
                total = totals.setdefault(short, [0, 0, tally.first])
                total[0] += tally.uses
                total[1] += tally.blocks
    # Glossary entries count in a file that uses the glossaries package commands.
    declared = {short for file in glossary_files for short in glossary.get(file, ())}
    candidates = [
        (short, uses, first)
        for short, (uses, blocks, first) in totals.items()
        if short not in exempt and short not in declared and uses >= _MIN_UNDEFINED_USES and blocks > 1
    ]
    candidates.sort(key=lambda item: -item[1])
    for short, uses, first in candidates[:_MAX_UNDEFINED_REPORTS]:
        yield first.model_copy(
            update={
                "message": f"{short} is used {uses} times but never defined",
                "confidence": 0.8 if uses >= _MANY_UNDEFINED_USES else 0.6,
            }
        )


@rule(
    "NOT005",
    "undefined-acronym",
    Category.CONTEXT_MISALIGNMENT,
    Severity.HINT,
    reads=("acronyms", "blocks", "structure"),
    scope=Scope.SECTION,
    combine=_most_used_undefined,
)
def undefined_acronym(ctx: RuleContext, section: Section) -> Iterator[_AcronymUses]:
    """## What it does
    Marks an acronym the body text uses repeatedly (three times or more, in more than one
    paragraph) but never expands, neither inline ("large language model (LLM)") nor with an
    acronym package. Widely known acronyms
    (GPU, URL, PDF, CNN, …), names that appear next to a citation (a cited method or
    dataset) and names in tables are skipped.

    ## Why is this bad?
    Readers outside the subfield cannot decode the short form.

    ## Example
    ```latex
    We fine-tune with KTO ... KTO converges faster ... KTO is stable.
    ```

    ## Use instead
    ```latex
    We fine-tune with Kahneman-Tversky optimisation (KTO) ...
    ```

    ## Fix safety
    No fix: only the author knows the expansion.

    ## Confidence
    0.8 for an acronym used five times or more, 0.6 below: a short form used only a few
    times may be a name the reader knows from the cited work.
    """
    defined = {_singular(a.short) for _, a in _acronym_definitions(ctx)}
    body = _is_body_section(section.kind, section.title)
    uses: dict[str, list[tuple[PlacedBlock, int, int]]] = {}
    exempt: set[str] = set()
    for placed in section.blocks:
        words = _acronym_words(placed.block.plain.text)
        if placed.kind not in _PROSE or not body:
            exempt.update(short for short, _, _, _ in words)
            continue
        for short, start, end, named in words:
            if short in defined or short in _WELL_KNOWN or len(short) > 6:
                continue
            if named:
                exempt.add(short)
            uses.setdefault(short, []).append((placed, start, end))
    tallies = {
        short: _AcronymTally(
            len(places),
            len({placed.index for placed, _, _ in places}),
            ctx.report_block(places[0][0], places[0][1], places[0][2], "", identity=short),
        )
        for short, places in uses.items()
    }
    glossary = tuple(entry for entry in (_glossary_entries(ctx, run) for run in section.runs) if entry is not None)
    yield _AcronymUses(tallies, frozenset(exempt), glossary)


# Helpers.


def _redefinitions(ctx: RuleContext) -> list[_Redefinition]:
    """Redefinitions with a new meaning of macros the author introduced, in the index's order."""
    definitions: dict[str, list[tuple[str, MacroDef]]] = {}
    for file, macro in ctx.index.macros:
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
            if replaced and len({_body(body) for body in bodies}) == len(bodies) and not _markup_switch(bodies):
                redefinitions.append(_Redefinition(name, *replaced[0], file, later))
    return redefinitions


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


def _reading_cut(places: list[tuple[int, _MacroPlaces]], number: int) -> tuple[int, int] | None:
    """Where redefinition `number` falls in reading order, as (section ordinal, block index):
    after the last block of its file that starts before it, else before the file's first block."""
    after = [(ordinal, last + 1) for ordinal, part in places if (last := part.cuts[number][0]) is not None]
    if after:
        return after[-1]
    return next(((ordinal, first) for ordinal, part in places if (first := part.cuts[number][1]) is not None), None)


def _first_use_before(places: list[tuple[int, _MacroPlaces]], name: str, cut: tuple[int, int]) -> Related | None:
    for ordinal, part in places:
        use = part.uses.get(name)
        if use is not None and (ordinal, use[0]) < cut:
            return use[1]
    return None


@lru_cache(maxsize=256)
def _macro_use(name: str) -> re.Pattern[str]:
    return re.compile(re.escape(name) + r"(?![A-Za-z@])")


def _body(body: str) -> str:
    return re.sub(r"\s+", "", body)


def _literal(placed: PlacedBlock, source: str, match: re.Match[str], group: str) -> bool:
    """The number is typed as digits, not rendered from a macro such as \\frac{1}{2}."""
    start, end = placed.block.plain.source_span(match.start(group), match.end(group))
    return source[start:end].replace(" ", "") == match.group(group).replace(" ", "")


def _number(text: str) -> float:
    return float(text.replace(" ", ""))


def _acronym_definitions(ctx: RuleContext) -> Iterator[tuple[str, Acronym]]:
    yield from ctx.index.acronyms
    for placed, acronym in ctx.index.inline_acronyms:
        yield placed.file, acronym


def _all_acronym_definitions(ctx: RuleContext) -> list[_AcronymDefinition]:
    """Package definitions, then the body's in reading order: inline ones, and phrases before an
    acronym defined elsewhere that do not spell it ("Adaptive Recurrent Unit (SRU)")."""
    definitions = [_AcronymDefinition(file, acronym, None, True) for file, acronym in ctx.index.acronyms]
    inline: dict[int, list[Acronym]] = {}
    for placed, acronym in ctx.index.inline_acronyms:
        inline.setdefault(placed.index, []).append(acronym)
    expansions: dict[str, str] = {}  # the first expansion of each defined acronym
    for acronym in [definition.acronym for definition in definitions] + [a for acronyms in inline.values() for a in acronyms]:
        expansions.setdefault(_singular(acronym.short), acronym.long)
    for placed in ctx.index.manuscript.blocks:
        spelled = inline.get(placed.index, [])
        found = [_AcronymDefinition(placed.file, acronym, placed.index, True) for acronym in spelled]
        if placed.kind in _PROSE or placed.kind is BlockKind.CAPTION:
            starts = {acronym.start for acronym in spelled}
            for short, words, plain_start, plain_end in _parenthesised(placed.block.plain.text):
                first = expansions.get(_singular(short))
                long = _unspelled_expansion(short, words, first) if first else None
                start, end = placed.block.plain.source_span(plain_start, plain_end) if long else (0, 0)
                if long and start not in starts:
                    found.append(_AcronymDefinition(placed.file, Acronym(short, long, start, end, "inline"), placed.index, False))
        definitions += sorted(found, key=lambda definition: definition.acronym.start)
    return definitions


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _parenthesised(text: str) -> tuple[tuple[str, tuple[str, ...], int, int], ...]:
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
    wanted = sum(1 for character in _singular(short) if character.isupper() or character.isdigit())
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


def _singular(short: str) -> str:
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def _normal_expansion(long: str) -> str:
    words = re.sub(r"[-‐–/]", " ", long.lower()).split()
    return " ".join(word[:-1] if word.endswith("s") and len(word) > 3 else word for word in words)


def _same_expansion(first: str, second: str) -> bool:
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
def _acronym_words(text: str) -> tuple[tuple[str, int, int, bool], ...]:
    """Acronym-like words of a block: (word, start, end, named next to a citation or parenthesis)."""
    return tuple(
        (match.group(1), match.start(), match.end(), _NAMED.match(text, match.end()) is not None) for match in _ACRONYM_WORD.finditer(text)
    )


def _glossary_entries(ctx: RuleContext, run: SourceRun) -> tuple[str, bool, frozenset[str]] | None:
    """The glossary entries a run declares, and whether it uses the glossaries package's own commands."""
    text = ctx.source(run.file).text
    package = text.find("glossaryentry", run.start, run.end) >= 0 or text.find("newabbreviation", run.start, run.end) >= 0
    if not package and text.find("newacronym", run.start, run.end) < 0:
        return None
    entries = frozenset(_singular(match.group(1).strip()) for match in _GLOSSARY_ENTRY.finditer(text, run.start, run.end))
    return run.file, package, entries


@lru_cache(maxsize=1024)
def _is_body_section(kind: SectionKind, title: str) -> bool:
    return kind not in (SectionKind.FRONT, SectionKind.ABSTRACT, SectionKind.REFERENCES) and not _NOT_BODY_TITLES.search(title)


def _body_prose(section: Section) -> Iterator[PlacedBlock]:
    if _is_body_section(section.kind, section.title):
        yield from (placed for placed in section.blocks if placed.kind in _PROSE)
