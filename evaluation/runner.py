"""`auditex bench`: read a benchmark's data files, run what needs running, score with the papers' metrics.

Each `bench_*` function takes the dataset path and returns a JSON-ready dict. LLM
judges (and, for PaperAudit, the detection mode itself) go through one `LLMClient`
wrapped as a `TextCompleter` by `client_completer`. Data files are JSON:

- flaws: `[{"error_id", "ground_truth": [excerpt, ...], "predictions": [prediction, ...]}]`
- agentic: `{"perturbations": [{"paper_id", "perturbation_id", "error_type", "perturbed_text", "why_wrong"}],
  "comments": {paper_id: [prediction, ...]}}`
- critical: `[{"paper_id", "retraction_comment", "problems": [prediction, ...], "paper_text"}]`
- surgical: `[{"triplet_id", "category", "detected_in_flawed", "flagged_after_genuine", "flagged_after_superficial",
  "genuine_score", "superficial_score"}]`
- paperaudit: a folder of PaperAudit-Dataset papers (see `paperaudit.load_paperaudit_paper`), with
  `predictions` `{paper_id: [prediction, ...]}` or else a detection mode run on each corrupted paper
- localisation: a folder of `auditex inject` outputs (or one), each with its ground-truth manifest

A prediction is `{"quote", "explanation", "title", "type", "section", "rank"}` (all optional).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..analyzers.check import check_path
from ..analyzers.finding import Source
from ..analyzers.llm.cache import LLMCache
from ..analyzers.llm.client import LLMClient
from ..analyzers.llm.provider import ChatRequest, Message
from ..analyzers.llm.settings import LLMSettings
from ..latex.project import Project
from .agentic import Perturbation, evaluate_perturbations
from .critical import CheckedPaper, evaluate_checker
from .flaws import FlawsCase, evaluate_flaws
from .inject import MANIFEST_NAME
from .judge import TextCompleter
from .localisation import LocalisationResult, SourceRange, localisation_recall
from .paperaudit import ContentBlock, DatasetError, PaperAuditPaper, evaluate_paperaudit, load_paperaudit_dir, read_json
from .predictions import Prediction
from .surgical import RevisionTriplet, revision_sensitivity

BENCHMARKS = ("paperaudit", "flaws", "agentic", "critical", "surgical", "localisation")


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


async def bench_flaws(data: Path, completer: TextCompleter | None = None) -> dict[str, Any]:
    cases = _validated(TypeAdapter(list[FlawsCase]), read_json(data), data)
    report = await evaluate_flaws(cases, completer)
    return {"benchmark": "flaws", **_plain(report)}


async def bench_agentic(data: Path, completer: TextCompleter | None = None, seed: int = 0) -> dict[str, Any]:
    raw = read_json(data)
    if not isinstance(raw, dict):
        raise DatasetError(f"{data}: expected an object with 'perturbations' and 'comments'")
    perturbations = _validated(TypeAdapter(list[Perturbation]), raw.get("perturbations", []), data)
    comments = _validated(_PREDICTIONS, raw.get("comments", {}), data)
    report = await evaluate_perturbations(perturbations, comments, completer, seed=seed)
    return {"benchmark": "agentic", **_plain(report)}


async def bench_critical(data: Path, completer: TextCompleter, k: int = 5) -> dict[str, Any]:
    papers = _validated(TypeAdapter(list[CheckedPaper]), read_json(data), data)
    report = await evaluate_checker(papers, [completer], k=k)
    return {"benchmark": "critical", **_plain(report)}


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
    from ..analyzers.llm.audit import run_audit  # the detection modes load only when a benchmark runs one

    blocks, _ = paper.corrupted_content()
    with tempfile.TemporaryDirectory(prefix="auditex-bench-") as folder:
        (Path(folder) / "paper.tex").write_text(paper_as_latex(blocks), encoding="utf-8")
        project = Project(Path(folder), "paper.tex")
        result = await run_audit(project, settings, mode, cache=cache)  # type: ignore[arg-type]
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
    completer: TextCompleter,
    predictions: Path | None = None,
    settings: LLMSettings | None = None,
    mode: str = "standard",
    cache: LLMCache | None = None,
) -> dict[str, Any]:
    papers = load_paperaudit_dir(data)
    if predictions is not None:
        by_paper = _validated(_PREDICTIONS, read_json(predictions), predictions)
    elif settings is not None:
        by_paper = {paper.paper_id: await _detect(paper, settings, mode, cache) for paper in papers}
    else:
        raise ValueError("PaperAudit needs either predictions or LLM settings to run a detection mode")
    unapplied = sum(len(paper.corrupted_content()[1]) for paper in papers)
    report = await evaluate_paperaudit(papers, by_paper, completer)
    return {"benchmark": "paperaudit", "papers": len(papers), "unapplied_patches": unapplied, **_plain(report)}


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
