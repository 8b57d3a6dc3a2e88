"""`auditex bench`: read a benchmark's data files, run what needs running, score with the papers' metrics.

Each `bench_*` function takes the dataset path and returns a JSON-ready dict. LLM judges
(one `LLMClient` each, wrapped as a `TextCompleter` by `client_completer`) and, for
PaperAudit, the detection mode go through the provider layer; `replay_critical` calls
no LLM at all. Data files are JSON:

- flaws: `[{"error_id", "ground_truth": [excerpt, ...], "predictions": [prediction, ...]}]`
- agentic: `{"perturbations": [{"paper_id", "perturbation_id", "error_type", "perturbed_text", "why_wrong"}],
  "comments": {paper_id: [prediction, ...]}}`
- critical: `[{"paper_id", "retraction_comment", "problems": [prediction, ...], "paper_text"}]`, or, to
  replay recorded judgements, `{"checker", "input", "papers": [...], "verdicts": [verdict, ...]}`
  where a verdict is `{"paper_id", "problem" (0-based index in the paper's problems), "judge",
  "question": "hit"|"true_positive", "verdict": true|false, "answer": "the judge's raw text"}`
  (`verdict` or `answer` or both). Verdicts may also come from their own files (a JSON list or
  JSON Lines). The WithdrarXiv-Check release is read as it is: its folder, or its
  checker_problems_*.json with its eval_hit_* / eval_tp_* files as verdicts (`withdrarxiv`).
- surgical: `[{"triplet_id", "category", "detected_in_flawed", "flagged_after_genuine", "flagged_after_superficial",
  "genuine_score", "superficial_score"}]`
- paperaudit: a folder of PaperAudit-Dataset papers (see `paperaudit.load_paperaudit_paper`), with
  `predictions` `{paper_id: [prediction, ...]}` or else a detection mode run on each corrupted paper
- localisation: a folder of `auditex inject` outputs (or one), each with its ground-truth manifest
- review: `{"papers": [{"paper_id", "human_scores", "proxy", "group": "low"|"high",
  "review": path to an `auditex review --format json` output | "scores": {...}, "comments": n}]}`

A prediction is `{"quote", "explanation", "title", "type", "section", "rank"}` (all optional).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..analyzers.engine import RuleEngines
from ..analyzers.finding import Source
from ..analyzers.llm.answer_cache import LLMCache
from ..analyzers.llm.client import LLMClient
from ..analyzers.llm.provider import ChatRequest, Message
from ..analyzers.llm.settings import LLMSettings
from ..analyzers.llm.source import LLMAuditSource, audit_result
from ..analyzers.path_check import check_path
from ..analyzers.session import Session
from .agentic import Perturbation, evaluate_perturbations
from .critical import (
    CheckedPaper,
    CheckerReport,
    Judge,
    VerdictRecord,
    VoteRule,
    judge_checker,
    judged_papers,
    model_key,
    recorded_judges,
    score_checker,
    self_judging,
)
from .flaws import FlawsCase, evaluate_flaws
from .inject import MANIFEST_NAME
from .judge import TextCompleter
from .localisation import LocalisationResult, SourceRange, localisation_recall
from .paperaudit import ContentBlock, DatasetError, PaperAuditPaper, evaluate_paperaudit, load_paperaudit_dir, read_json
from .predictions import Prediction
from .ranking import human_key, pairwise_accuracy, ranking_alignment
from .ranking import model_key as review_key
from .surgical import RevisionTriplet, revision_sensitivity
from .withdrarxiv import ReleaseError, checker_outputs, is_checker_file, is_verdict_file, load_release, release_root, verdict_records

BENCHMARKS = ("paperaudit", "flaws", "agentic", "critical", "surgical", "localisation", "review", "real-errors")


def client_completer(llm: LLMClient, purpose: str = "benchmark judge") -> TextCompleter:
    """The provider layer as the judges' `TextCompleter`: one cached, budgeted chat call per turn."""

    async def complete(system: str, user: str) -> str:
        request = ChatRequest(system=system, messages=[Message(role="user", content=user)], purpose=purpose)
        return (await llm.complete(request)).text

    return complete


def _validated(adapter: TypeAdapter[Any], data: Any, path: Path) -> Any:
    try:
        return adapter.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise DatasetError(f"{path}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


_PREDICTIONS = TypeAdapter(dict[str, list[Prediction]])


def _plain(value: Any) -> Any:
    """Dataclass reports to JSON-ready dicts, with int keys (Accuracy@k) as strings."""
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        return [_plain(v) for v in (sorted(value) if isinstance(value, (set, frozenset)) else value)]
    return value


async def _per_judge(judges: Sequence[Judge], run: Callable[[TextCompleter | None], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    """One judge: its report, named. Several: each judge's report under `judges` (no judge: the report)."""
    if not judges:
        return await run(None)
    if len(judges) == 1:
        return {"judge": judges[0].name, **await run(judges[0].complete)}
    return {"judges": {judge.name: await run(judge.complete) for judge in judges}}


async def bench_flaws(data: Path, judges: Sequence[Judge] = ()) -> dict[str, Any]:
    cases = _validated(TypeAdapter(list[FlawsCase]), read_json(data), data)

    async def run(completer: TextCompleter | None) -> dict[str, Any]:
        report: dict[str, Any] = _plain(await evaluate_flaws(cases, completer))
        return report

    return {"benchmark": "flaws", **await _per_judge(judges, run)}


async def bench_agentic(data: Path, judges: Sequence[Judge] = (), seed: int = 0) -> dict[str, Any]:
    raw = read_json(data)
    if not isinstance(raw, dict):
        raise DatasetError(f"{data}: expected an object with 'perturbations' and 'comments'")
    perturbations = _validated(TypeAdapter(list[Perturbation]), raw.get("perturbations", []), data)
    comments = _validated(_PREDICTIONS, raw.get("comments", {}), data)

    async def run(completer: TextCompleter | None) -> dict[str, Any]:
        report: dict[str, Any] = _plain(await evaluate_perturbations(perturbations, comments, completer, seed=seed))
        return report

    return {"benchmark": "agentic", **await _per_judge(judges, run)}


# --- critical: live judges, or replayed verdicts ---------------------------------------------


@dataclass
class CriticalData:
    """One checker's outputs (one configuration of a table) and any verdicts recorded on them."""

    name: str
    checker: str | None
    input: str | None
    papers: list[CheckedPaper]
    verdicts: list[VerdictRecord] = field(default_factory=list)
    paper_of_entry: dict[int, str] | None = None  # the release's entry_id -> paper_id, for its verdict files
    notes: list[str] = field(default_factory=list)
    source: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return " ".join(part for part in (self.checker or self.name, self.input) if part)


class _CriticalFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    checker: str | None = None
    input: str | None = None
    papers: list[CheckedPaper]
    verdicts: list[VerdictRecord] = Field(default_factory=list)


def load_critical(data: Path) -> list[CriticalData]:
    """The critical benchmark's data: our format (a list of papers, or an object with `papers` and
    `verdicts`), a release checker file, or the whole WithdrarXiv-Check release folder."""
    if data.is_dir():
        root = release_root(data)
        if root is None:
            raise DatasetError(
                f"{data}: a folder is read as the WithdrarXiv-Check release, and this one has no LLM_outputs/checker_problems"
            )
        try:
            runs = load_release(root)
        except ReleaseError as error:
            raise DatasetError(str(error)) from None
        return [
            CriticalData(r.name, r.checker, r.input, r.papers, r.verdicts, None, r.notes, [str(root / f) for f in r.files]) for r in runs
        ]
    raw = read_json(data)
    if is_checker_file(raw):
        outputs = checker_outputs(raw, data.name)
        stem = data.stem.removeprefix("checker_problems_")
        return [
            CriticalData(
                stem,
                outputs.checker or None,
                "LaTeX" if stem.endswith("_tex") else "PDF",
                outputs.papers,
                paper_of_entry=outputs.paper_of_entry,
                notes=outputs.notes,
                source=[str(data)],
            )
        ]
    if isinstance(raw, list):
        raw = {"papers": raw}
    parsed = _validated(TypeAdapter(_CriticalFile), raw, data)
    return [CriticalData(data.stem, parsed.checker, parsed.input, parsed.papers, parsed.verdicts, source=[str(data)])]


def load_verdicts(path: Path, paper_of_entry: dict[int, str] | None = None) -> list[VerdictRecord]:
    """Verdict records from a JSON list (or `{"verdicts": [...]}`), a JSON Lines file, or a release
    eval_hit / eval_tp file (matched to the checker's entries when the data is a release file)."""
    if path.suffix == ".jsonl":
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise DatasetError(f"{path}: cannot read ({error.strerror})") from error
        raw: Any = []
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    raw.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise DatasetError(f"{path}: line {number} is not valid JSON ({error.msg})") from None
    else:
        raw = read_json(path)
    if is_verdict_file(raw):
        try:
            return verdict_records(raw, paper_of_entry, path.name)
        except ReleaseError as error:
            raise DatasetError(str(error)) from None
    if isinstance(raw, dict):
        raw = raw.get("verdicts", [])
    records: list[VerdictRecord] = _validated(TypeAdapter(list[VerdictRecord]), raw, path)
    return records


def _select_judges(available: Sequence[str], wanted: Sequence[str], where: str) -> list[str]:
    """The recorded judges to replay: all of them, or those `--judge-model` names (loosely compared)."""
    if not wanted:
        return list(available)
    chosen = []
    for name in wanted:
        match = next((judge for judge in available if judge == name), None) or next(
            (judge for judge in available if model_key(judge) == model_key(name)), None
        )
        if match is None:
            raise DatasetError(f"{where}: no recorded judge {name!r}; the verdicts are by {', '.join(available) or 'nobody'}")
        chosen.append(match)
    return chosen


def _self_judging_warnings(label: str, judges: Sequence[str], producers: Sequence[str | None]) -> list[str]:
    return [
        f"{label}: {judge} judges output of its own model; a model favours its own answers, so prefer a judge of another vendor"
        for judge in self_judging(judges, producers)
    ]


def _critical_entry(data: CriticalData, report: CheckerReport) -> dict[str, Any]:
    return {"checker": data.checker, "input": data.input, "source": data.source, **_plain(report)}


def replay_critical(
    data: Path,
    verdict_files: Sequence[Path] = (),
    k: int = 5,
    rule: VoteRule = "all",
    reread: bool = False,
    judges: Sequence[str] = (),
    export: Path | None = None,
) -> dict[str, Any]:
    """HR@k and AP@k recomputed from recorded verdicts (or, with `reread`, from the raw answers read
    by auditex's reader): no LLM call. A release folder replays every configuration it holds."""
    configurations = load_critical(data)
    if verdict_files and len(configurations) > 1:
        raise DatasetError(f"{data}: --verdicts goes with one checker file; a release folder brings its own verdicts")
    for configuration in configurations:
        for path in verdict_files:
            configuration.verdicts += load_verdicts(path, configuration.paper_of_entry)
            configuration.source.append(str(path))
    entries: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    notes: list[str] = []
    for configuration in configurations:
        if not configuration.verdicts:
            raise DatasetError(f"{data}: no recorded verdicts to replay for {configuration.label}; give them with --verdicts FILE")
        chosen = _select_judges(recorded_judges(configuration.verdicts), judges, configuration.label)
        try:
            judged = judged_papers(configuration.papers, configuration.verdicts, reread)
        except ValueError as error:
            raise DatasetError(f"{configuration.label}: {error}") from None
        report = score_checker(judged, chosen, k, rule)
        entries[configuration.name] = _critical_entry(configuration, report)
        warnings += _self_judging_warnings(configuration.label, chosen, [configuration.checker])
        notes += configuration.notes
    if export is not None:
        export_replay_files(configurations, export)
    head = {"benchmark": "critical", "replay": True, "reread": reread}
    tail = {"notes": notes, "warnings": warnings}
    if not data.is_dir():  # one checker file: its report; a release folder: a table of configurations
        return {**head, **next(iter(entries.values())), **tail}
    return {**head, "source": str(data), "k": k, "rule": rule, "configurations": entries, **tail}


def export_replay_files(configurations: Sequence[CriticalData], folder: Path) -> list[Path]:
    """Each configuration as one file of the replay format, `<name>.json` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for configuration in configurations:
        path = folder / f"{configuration.name}.json"
        path.write_text(
            json.dumps(_replay_file(configuration, configuration.verdicts), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        written.append(path)
    return written


def _replay_file(data: CriticalData, verdicts: Sequence[VerdictRecord]) -> dict[str, Any]:
    return {
        "checker": data.checker,
        "input": data.input,
        "papers": [_plain(paper) for paper in data.papers],
        "verdicts": [record.model_dump(exclude_none=True) for record in verdicts],
    }


async def bench_critical(
    data: Path, judges: Sequence[Judge], k: int = 5, rule: VoteRule = "all", record: Path | None = None
) -> dict[str, Any]:
    """HR@k and AP@k with live judges; `record` keeps every verdict and answer for a later replay."""
    configurations = load_critical(data)
    if len(configurations) != 1:
        raise DatasetError(f"{data}: a release folder is replayed (--replay); give live judges one checker file")
    configuration = configurations[0]
    papers = configuration.papers
    judge_precision = any(paper.paper_text for paper in papers)
    records = await judge_checker(papers, judges, k, judge_precision)
    if record is not None:
        record.write_text(json.dumps(_replay_file(configuration, records), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    names = [judge.name for judge in judges]
    report = score_checker(judged_papers(papers, records), names, k, rule)
    notes = [] if judge_precision else ["precision (AP@k) not judged: the papers have no paper_text for the true-positive judge"]
    return {
        "benchmark": "critical",
        "replay": False,
        **_critical_entry(configuration, report),
        "notes": [*configuration.notes, *notes],
        "warnings": _self_judging_warnings(configuration.label, names, [configuration.checker]),
    }


# --- judges: which models, on which providers ---------------------------------------------------

# The default judge: a strong model of the detector's provider that is not the detector's model.
DEFAULT_JUDGE_MODELS: dict[str, tuple[str, ...]] = {"openai": ("gpt-4.1", "gpt-5"), "anthropic": ("claude-sonnet-4-6", "claude-opus-4-6")}
_JUDGE_SPEC = re.compile(r"^(?:(?P<provider>openai|anthropic):)?(?P<model>.+?)(?:@(?P<url>https?://\S+))?$")


def parse_judge_spec(spec: str) -> tuple[str | None, str, str | None]:
    """`[PROVIDER:]MODEL[@BASE_URL]` as (provider or None, model, base_url or None)."""
    match = _JUDGE_SPEC.match(spec.strip())
    if match is None or not match.group("model").strip() or spec.strip().endswith(":"):
        raise ValueError(f"--judge-model {spec!r}: expected [openai:|anthropic:]MODEL[@http://server/v1]")
    return match.group("provider"), match.group("model").strip(), match.group("url")


def judge_settings(specs: Sequence[str], detector: LLMSettings) -> list[tuple[str, LLMSettings]]:
    """Each judge's name and settings. A judge without a provider uses the detector's; a judge on
    the detector's provider without a server uses the detector's server. With no spec, the default
    judge is `DEFAULT_JUDGE_MODELS` of the detector's provider (not the detector's model) on its
    official endpoint; a compatible server (`--base-url`) has no model auditex knows besides the
    detector's, so that one judges (and `self_judging` warns when it judges its own output)."""
    shared = detector.model_dump(exclude={"api_key", "provider", "model", "base_url"})

    def settings(provider: str, model: str, base_url: str | None) -> LLMSettings:
        try:
            return LLMSettings.from_env(provider=provider, model=model, base_url=base_url, **shared)
        except ValidationError as error:
            first = error.errors()[0]
            raise ValueError(f"judge {model}: invalid LLM setting {'.'.join(map(str, first['loc']))}: {first['msg']}") from None

    if not specs:
        if not detector.is_official:
            return [(detector.model, detector)]
        model = next(m for m in DEFAULT_JUDGE_MODELS[detector.provider] if m != detector.model)
        return [(model, settings(detector.provider, model, detector.base_url))]
    parsed = [parse_judge_spec(spec) for spec in specs]
    models = [model for _, model, _ in parsed]
    result = []
    for spec, (provider, model, url) in zip(specs, parsed, strict=True):
        provider = provider or detector.provider
        base_url = url or (detector.base_url if provider == detector.provider else None)
        name = model if models.count(model) == 1 else spec.strip()
        result.append((name, settings(provider, model, base_url)))
    names = [name for name, _ in result]
    if len(set(names)) != len(names):
        raise ValueError(f"--judge-model: the same judge twice ({', '.join(names)})")
    return result


async def bench_surgical(data: Path) -> dict[str, Any]:
    triplets = _validated(TypeAdapter(list[RevisionTriplet]), read_json(data), data)
    return {"benchmark": "surgical", "categories": _plain(revision_sensitivity(triplets))}


def paper_as_latex(blocks: Sequence[ContentBlock]) -> str:
    """A PaperAudit paper's text blocks as a one-file LaTeX document, one \\section per section change."""
    lines = [r"\documentclass{article}", r"\begin{document}"]
    section = None
    for block in blocks:
        if not block.text or block.type not in ("text", "table"):
            continue
        if block.section and block.section != section:
            section = block.section
            lines += ["", rf"\section{{{section}}}"]
        lines += ["", _escape_specials(block.text)]
    return "\n".join([*lines, "", r"\end{document}", ""])


def _escape_specials(text: str) -> str:
    """Dataset text is plain prose: a bare % would start a LaTeX comment and hide the rest of the line."""
    return re.sub(r"(?<!\\)([%&#])", r"\\\1", text)


async def _detect(paper: PaperAuditPaper, settings: LLMSettings, mode: str, cache: LLMCache | None) -> list[Prediction]:
    blocks, _ = paper.corrupted_content()
    with tempfile.TemporaryDirectory(prefix="auditex-bench-") as folder:
        (Path(folder) / "paper.tex").write_text(paper_as_latex(blocks), encoding="utf-8")
        session = Session(Path(folder), rules=RuleEngines(), use_cache=False)
        session.check()
        project = session.projects[0]
        result = await audit_result(session, LLMAuditSource(settings, mode, cache=cache))
        predictions = []
        shown = [finding for finding in result.findings if finding.source is Source.LLM]  # through the findings policy
        for rank, finding in enumerate(shown):
            source = project.source(finding.file)
            start = source.offset(finding.range.start.line, finding.range.start.character)
            end = source.offset(finding.range.end.line, finding.range.end.character)
            predictions.append(Prediction.from_finding(finding, quote=source.text[start:end], rank=rank))
    return predictions


async def bench_paperaudit(
    data: Path,
    judges: Sequence[Judge],
    predictions: Path | None = None,
    settings: LLMSettings | None = None,
    mode: str = "standard",
    cache: LLMCache | None = None,
) -> dict[str, Any]:
    """EC / FP / Macro-F1 of given findings, or of a detection mode run on each corrupted paper
    (once, whatever the number of judges). Patches that failed to apply are not ground truth."""
    if not judges:
        raise ValueError("PaperAudit's matching needs a judge")
    papers = load_paperaudit_dir(data)
    detector = None
    if predictions is not None:
        by_paper = _validated(_PREDICTIONS, read_json(predictions), predictions)
    elif settings is not None:
        by_paper = {paper.paper_id: await _detect(paper, settings, mode, cache) for paper in papers}
        detector = settings.model
    else:
        raise ValueError("PaperAudit needs either predictions or LLM settings to run a detection mode")
    unapplied = sum(len(paper.corrupted_content()[1]) for paper in papers)

    async def run(completer: TextCompleter | None) -> dict[str, Any]:
        assert completer is not None  # judges is not empty
        report: dict[str, Any] = _plain(await evaluate_paperaudit(papers, by_paper, completer))
        return report

    return {
        "benchmark": "paperaudit",
        "papers": len(papers),
        "unapplied_patches": unapplied,  # left out of the ground truth
        **await _per_judge(judges, run),
        "warnings": _self_judging_warnings(f"{mode} mode", [j.name for j in judges], [detector]),
    }


# --- review: do the reviews order papers as humans do? ------------------------------------------


class ReviewedPaper(BaseModel):
    """One paper of the review benchmark: what humans said, and what the review said."""

    model_config = ConfigDict(extra="ignore")
    paper_id: str
    human_scores: list[float] = Field(default_factory=list)  # each human reviewer's overall score
    proxy: str = "all"  # the quality proxy the low/high groups come from (conference, citations, ...)
    group: Literal["low", "high"] | None = None
    review: str | None = None  # an `auditex review --format json` output, relative to the data file
    scores: dict[str, float | None] | None = None  # or the review's scores, given here
    comments: int | None = None  # or its number of comments (default: the review's weaknesses)


def _review_signals(paper: ReviewedPaper, folder: Path) -> tuple[dict[str, float | None] | None, int | None]:
    scores, comments = paper.scores, paper.comments
    if paper.review is not None:
        path = folder / paper.review
        review = read_json(path)
        if not isinstance(review, dict) or not isinstance(review.get("scores"), dict):
            raise DatasetError(f"{path}: not an `auditex review --format json` output (no 'scores')")
        scores = review["scores"] if scores is None else scores
        if comments is None:
            comments = len((review.get("review") or {}).get("weaknesses") or [])
    return scores, comments


def bench_review(data: Path, seed: int = 0) -> dict[str, Any]:
    """PaperAudit's alignment with human scores (Rank-MSE, Spearman, Kendall tau-b, C/(C+D)) and the
    agentic-review benchmark's pairwise accuracy on comment counts (AUC, ties 0.5, bootstrap CI).

    Data: `{"papers": [{"paper_id", "human_scores": [...], "proxy", "group": "low"|"high",
    "review": "reviews/a.json" | "scores": {...}, "comments": n}]}` (or the list alone). Each metric
    uses the papers that have what it needs.
    """
    raw = read_json(data)
    papers = _validated(TypeAdapter(list[ReviewedPaper]), raw.get("papers", []) if isinstance(raw, dict) else raw, data)
    signals = {paper.paper_id: _review_signals(paper, data.parent) for paper in papers}
    scored = [p for p in papers if p.human_scores and signals[p.paper_id][0] is not None]
    alignment = (
        _plain(ranking_alignment([human_key(p.human_scores) for p in scored], [review_key(signals[p.paper_id][0] or {}) for p in scored]))
        if len(scored) >= 2
        else None
    )
    groups: dict[str, tuple[list[float], list[float]]] = {}
    for paper in papers:
        comments = signals[paper.paper_id][1]
        if paper.group is None or comments is None:
            continue
        low, high = groups.setdefault(paper.proxy, ([], []))
        (low if paper.group == "low" else high).append(float(comments))
    usable = {proxy: pair for proxy, pair in groups.items() if pair[0] and pair[1]}
    pairwise = (
        {
            "overall": _plain(pairwise_accuracy(usable, seed=seed)),
            "by_proxy": {proxy: _plain(pairwise_accuracy({proxy: pair}, seed=seed)) for proxy, pair in sorted(usable.items())},
        }
        if usable
        else None
    )
    return {"benchmark": "review", "papers": len(papers), "alignment": alignment, "pairwise_accuracy": pairwise}


def _manifest_ranges(manifest: Path) -> list[SourceRange]:
    data: Any = read_json(manifest)  # checked by the lookups below
    try:
        return [
            SourceRange.of(
                e["file"],
                e["range"]["start"]["line"],
                e["range"]["start"]["character"],
                e["range"]["end"]["line"],
                e["range"]["end"]["character"],
            )
            for e in data["edits"]
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise DatasetError(f"{manifest}: not an auditex inject manifest ({error})") from None


async def bench_localisation(data: Path) -> dict[str, Any]:
    """Deterministic findings of each injected copy against its manifest's edited ranges."""
    manifests = [data / MANIFEST_NAME] if (data / MANIFEST_NAME).is_file() else sorted(data.glob(f"*/{MANIFEST_NAME}"))
    if not manifests:
        raise DatasetError(f"{data}: no {MANIFEST_NAME} here or in its subfolders (make them with `auditex inject`)")
    total = LocalisationResult(0, 0)
    papers = {}
    for manifest in manifests:
        findings = check_path(manifest.parent).findings
        result = localisation_recall(_manifest_ranges(manifest), [SourceRange.from_finding(f) for f in findings])
        papers[manifest.parent.name] = {"located": result.located, "total": result.total, "recall": result.recall}
        total = total + result
    return {"benchmark": "localisation", "located": total.located, "total": total.total, "recall": total.recall, "papers": papers}
