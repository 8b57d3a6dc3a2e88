"""NOT: notation that changes meaning within one paper (macros, symbol domains, acronyms)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from ...latex.manuscript import PlacedBlock
from ...latex.model import Acronym, BlockKind, MacroDef, SectionKind
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule

# A macro is the author's own when one of these introduces it; \providecommand never overrides.
_INTRODUCES = frozenset({"newcommand", "DeclareMathOperator", "DeclareRobustCommand", "newrobustcmd", "def", "gdef", "edef", "xdef"})
# \def over \def is the TeX idiom for a local variable (`\def\premise{…}` before each display).
_OVERRIDES = frozenset({"renewcommand", "newcommand", "DeclareRobustCommand"})
_MAX_DEFINITIONS = 2  # a macro defined more often than this is a deliberate variable

_NUMBER = r"-?\s?(?:\d+(?:\.\d+)?|\.\d+)"
_SYMBOL = r"(?<![\w\\^_])(?P<symbol>[A-Za-zα-ωΑ-Ω](?:_\{?[\w,]+\}?)?)"
_DOMAIN = re.compile(
    rf"{_SYMBOL}\s*∈\s*(?P<open>[\[(])\s*(?P<lo>{_NUMBER})\s*,\s*(?P<hi>{_NUMBER})\s*(?P<close>[\])])(?![\w^_/])"
)
_SANDWICH = re.compile(rf"(?<![\w.])(?P<lo>{_NUMBER})\s*[≤<]\s*{_SYMBOL}\s*[≤<]\s*(?P<hi>{_NUMBER})(?![\w.^_/])")
_ACCENT = re.compile(r"\\(?:hat|widehat|tilde|widetilde|bar|overline|vec|dot|ddot|check|mathbf|bm|boldsymbol|mathcal|mathbb|mathrm|mathsf|mathfrak)\s*\{?\s*$")
_MATH_BLOCKS = (BlockKind.PARAGRAPH, BlockKind.MATH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)
_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)

_ACRONYM_WORD = re.compile(r"(?<![\w\\{-])([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)s?(?![\w}-])")
# Acronyms a research reader knows without a definition; keep this list to the unambiguous.
_WELL_KNOWN = frozenset("""
AI ML NLP CV GPU GPUs CPU CPUs TPU TPUs RAM GB MB KB TB GHz MHz URL URLs PDF PDFs RGB RGBD HTML XML JSON CSV API APIs SQL
IO OS PC USA UK EU US UN ID IDs DNA RNA MRI CT ECG EEG PhD MSc BSc CEO ISBN DOI ISO IEEE ACM AAAI ICML ICLR NeurIPS NIPS CVPR
ICCV ECCV ACL EMNLP NAACL COVID SARS HIV UTC GMT FAQ PR QA IQ OK TV FM AM PM AD BC LaTeX TeX CNN RNN LSTM GRU MLP GAN VAE
LLM LLMs GPT BERT SGD ADAM SVM PCA KL MSE MAE RMSE IID IOU IoU ROC AUC FPS SOTA SI HTTP HTTPS SSH FTP GUI IDE CLI MIT BSD
GPL NASA NSF NIH ERC DFT FFT ODE PDE SDE MCMC MAP MLE EM RL TD DQN PPO VQA OCR ASR TTS LHC CERN ATLAS CMS QCD QED
CUDA NA DBLP ORCID ARXIV LLC INC CDF PDF USB LED LCD SSD HDD NVIDIA AMD IBM AWS README FAQ TODO
""".split())
_GLOSSARY_ENTRY = re.compile(r"\\(?:newglossaryentry|newabbreviation|newacronym)\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")
_NOT_BODY_TITLES = re.compile(r"checklist|acknowledg|author|contribution|affiliation|funding", re.I)
_MAX_UNDEFINED_REPORTS = 3
_MIN_UNDEFINED_USES = 3
# "BERT~\cite{…}", "BERT (Devlin et al.)": a cited method or dataset is named, not abbreviated.
_NAMED = re.compile(r"s?[\s~]*(?:\\cite|\()")


@dataclass(frozen=True, slots=True)
class Domain:
    key: str  # the symbol as written in the source, accents included
    symbol: str
    low: float
    high: float
    text: str
    placed: PlacedBlock
    start: int
    end: int


@rule("NOT001", "macro-redefined", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("macros", "blocks"))
def macro_redefined(ctx: RuleContext) -> Iterator[Finding]:
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
    text uses the macro (template macro files adjusted in the preamble), and switching a
    macro off with an empty body (`\\renewcommand{\\todo}[1]{}`).
    """
    definitions: dict[str, list[tuple[str, MacroDef]]] = {}
    for file, macro in ctx.memory.macros:
        if macro.command != "providecommand":
            definitions.setdefault(macro.name, []).append((file, macro))
    order = _ReadingOrder(ctx)
    for name, entries in definitions.items():
        first_file, first = entries[0]
        if len(entries) > _MAX_DEFINITIONS or first.command not in _INTRODUCES or not _body(first.body):
            continue
        for file, later in entries[1:]:
            if later.command not in _OVERRIDES or not _body(later.body) or _body(later.body) == _body(first.body):
                continue
            used_at = order.first_use(name, before=order.index(file, later.start))
            if used_at is None:
                continue
            yield ctx.report(
                file, later.start, later.end,
                f"{name} was defined as '{first.body.strip()}' and is redefined here as '{later.body.strip()}' after the text used it",
                identity=f"{name}:{_body(later.body)}",
                related=[ctx.related(first_file, first.start, first.end, f"first definition of {name}"),
                         ctx.related_block(used_at, 0, 0, f"{name} used with its first meaning")],
            )
            break


@rule("NOT002", "conflicting-symbol-domain", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def conflicting_symbol_domain(ctx: RuleContext) -> Iterator[Finding]:
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
    """
    first_by_symbol: dict[str, Domain] = {}
    reported: set[str] = set()
    for domain in _domains(ctx):
        first = first_by_symbol.setdefault(domain.key, domain)
        if domain.key in reported or (first.low, first.high) == (domain.low, domain.high):
            continue
        if domain.placed.index == first.placed.index:
            continue  # one paragraph giving two ranges contrasts them on purpose
        reported.add(domain.key)
        yield ctx.report_block(
            domain.placed, domain.start, domain.end,
            f"{domain.symbol} is given the range {domain.text} here but {first.text} earlier",
            identity=f"{domain.key}:{domain.text}:{first.text}",
            related=[ctx.related_block(first.placed, first.start, first.end, f"{first.symbol} first given the range {first.text}")],
        )


@rule("NOT003", "acronym-redefined", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("acronyms",))
def acronym_redefined(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an acronym defined twice with different expansions, whether through
    `\\newacronym`/`\\acro`/`\\DeclareAcronym` or inline ("Large Language Model (LLM)").
    Case, hyphens and plurals do not count as differences.

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
    """
    first_by_short: dict[str, tuple[str, Acronym]] = {}
    reported: set[str] = set()
    for file, acronym in _acronym_definitions(ctx):
        short = _singular(acronym.short)
        first = first_by_short.setdefault(short, (file, acronym))
        if short in reported or _same_expansion(first[1].long, acronym.long):
            continue
        reported.add(short)
        yield ctx.report(
            file, acronym.start, acronym.end,
            f"{acronym.short} is expanded as '{acronym.long}' here but as '{first[1].long}' earlier",
            identity=f"{short}:{acronym.long.lower()}",
            related=[ctx.related(first[0], first[1].start, first[1].end, f"{short} first defined as '{first[1].long}'")],
        )


@rule("NOT004", "acronym-used-before-definition", Category.CONTEXT_MISALIGNMENT, Severity.INFORMATION, reads=("acronyms", "blocks", "structure"))
def acronym_used_before_definition(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an acronym that the body text uses before the sentence that defines it
    inline ("… large language models (LLMs) …"). The title and abstract are exempt, since
    papers conventionally define acronyms again in the introduction.

    ## Why is this bad?
    A reader meets the short form before learning what it stands for.

    ## Example
    ```latex
    \\section{Introduction} LLMs are popular. Large language models (LLMs) ...
    ```

    ## Use instead
    Move the definition to the first use.

    ## Fix safety
    No fix: moving a definition rewrites two sentences.
    """
    first_definition: dict[str, tuple[PlacedBlock, Acronym]] = {}
    for placed, acronym in ctx.memory.inline_acronyms:
        first_definition.setdefault(_singular(acronym.short), (placed, acronym))
    formal = {_singular(acronym.short) for _, acronym in ctx.memory.acronyms}
    pending = {short: definition for short, definition in first_definition.items() if short not in formal}
    for placed in _body_prose(ctx):
        if not pending:
            return
        for short, start, end, _ in _acronym_words(placed.block.plain.text):
            if short not in pending or short in _WELL_KNOWN:
                continue
            defined_in, acronym = pending.pop(short)
            if (placed.index, placed.block.plain.source_offset(start)) < (defined_in.index, acronym.start):
                yield ctx.report_block(
                    placed, start, end, f"{short} is used here before its definition",
                    identity=short, related=[ctx.related(defined_in.file, acronym.start, acronym.end, f"{short} is defined here")],
                )


@rule("NOT005", "undefined-acronym", Category.CONTEXT_MISALIGNMENT, Severity.HINT, reads=("acronyms", "blocks", "structure"))
def undefined_acronym(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Marks an acronym the body text uses repeatedly but never expands, neither inline
    ("large language model (LLM)") nor with an acronym package. Widely known acronyms
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
    """
    defined = {_singular(a.short) for _, a in _acronym_definitions(ctx)} | _glossary_entries(ctx)
    uses: dict[str, list[tuple[PlacedBlock, int, int]]] = {}
    exempt: set[str] = set()
    for placed in ctx.manuscript.blocks:
        words = _acronym_words(placed.block.plain.text)
        if placed.kind not in _PROSE or not _is_body(ctx, placed):
            exempt.update(short for short, _, _, _ in words)
            continue
        for short, start, end, named in words:
            if short in defined or short in _WELL_KNOWN or len(short) > 6:
                continue
            if named:
                exempt.add(short)
            uses.setdefault(short, []).append((placed, start, end))
    candidates = [
        (short, places) for short, places in uses.items()
        if short not in exempt and len(places) >= _MIN_UNDEFINED_USES and len({p.index for p, _, _ in places}) > 1
    ]
    candidates.sort(key=lambda item: -len(item[1]))
    for short, places in candidates[:_MAX_UNDEFINED_REPORTS]:
        placed, start, end = places[0]
        yield ctx.report_block(placed, start, end, f"{short} is used {len(places)} times but never defined", identity=short)


# Helpers.


class _ReadingOrder:
    """Positions of source offsets among the manuscript blocks, in reading order."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.blocks = ctx.manuscript.blocks
        self.by_file: dict[str, list[PlacedBlock]] = {}
        for placed in self.blocks:
            self.by_file.setdefault(placed.file, []).append(placed)

    def index(self, file: str, offset: int) -> int:
        """How many blocks come before this offset; a file without text counts as the preamble."""
        before = [placed.index for placed in self.by_file.get(file, ()) if placed.block.start < offset]
        if before:
            return max(before) + 1
        following = self.by_file.get(file)
        return following[0].index if following else 0

    def first_use(self, name: str, before: int) -> PlacedBlock | None:
        pattern = re.compile(re.escape(name) + r"(?![A-Za-z@])")
        for placed in self.blocks[:before]:
            source = self.ctx.source(placed.file).text
            if pattern.search(source, placed.block.start, placed.block.end):
                return placed
        return None


def _body(body: str) -> str:
    return re.sub(r"\s+", "", body)


def _domains(ctx: RuleContext) -> Iterator[Domain]:
    for placed in ctx.manuscript.blocks:
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
                yield Domain(key, symbol, low, high, shown, placed, match.start(), match.end())


def _literal(placed: PlacedBlock, source: str, match: re.Match, group: str) -> bool:
    """The number is typed as digits, not rendered from a macro such as \\frac{1}{2}."""
    start, end = placed.block.plain.source_span(match.start(group), match.end(group))
    return source[start:end].replace(" ", "") == match.group(group).replace(" ", "")


def _number(text: str) -> float:
    return float(text.replace(" ", ""))


def _acronym_definitions(ctx: RuleContext) -> Iterator[tuple[str, Acronym]]:
    yield from ctx.memory.acronyms
    for placed, acronym in ctx.memory.inline_acronyms:
        yield placed.file, acronym


def _singular(short: str) -> str:
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def _normal_expansion(long: str) -> str:
    words = re.sub(r"[-‐–/]", " ", long.lower()).split()
    return " ".join(word[:-1] if word.endswith("s") and len(word) > 3 else word for word in words)


def _same_expansion(first: str, second: str) -> bool:
    a, b = _normal_expansion(first), _normal_expansion(second)
    return a == b or a.endswith(" " + b) or b.endswith(" " + a) or fuzz.ratio(a, b) >= 85


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _acronym_words(text: str) -> tuple[tuple[str, int, int, bool], ...]:
    """Acronym-like words of a block: (word, start, end, named next to a citation or parenthesis)."""
    return tuple((match.group(1), match.start(), match.end(), _NAMED.match(text, match.end()) is not None)
                 for match in _ACRONYM_WORD.finditer(text))


def _glossary_entries(ctx: RuleContext) -> set[str]:
    entries: set[str] = set()
    for document in ctx.project.documents.values():
        if "glossaryentry" in document.source.text or "newabbreviation" in document.source.text:
            entries.update(_singular(match.group(1).strip()) for match in _GLOSSARY_ENTRY.finditer(document.source.text))
    return entries


def _is_body(ctx: RuleContext, placed: PlacedBlock) -> bool:
    section = ctx.section_of(placed)
    return _is_body_section(section.kind, section.title)


@lru_cache(maxsize=1024)
def _is_body_section(kind: SectionKind, title: str) -> bool:
    return kind not in (SectionKind.FRONT, SectionKind.ABSTRACT, SectionKind.REFERENCES) and not _NOT_BODY_TITLES.search(title)


def _body_prose(ctx: RuleContext) -> Iterator[PlacedBlock]:
    for placed in ctx.manuscript.blocks:
        if placed.kind in _PROSE and _is_body(ctx, placed):
            yield placed
