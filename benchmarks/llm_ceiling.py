"""The ceiling of the LLM audit: what a model that finds every error it can see gets through the pipeline.

    python benchmarks/llm_ceiling.py [--papers NAME ...] [--limit N] [--sample N] [--modes fast standard ...]
                                     [--provider openai|anthropic] [--fallback] [--named] [--save FILE]

Per corpus paper (its largest root), a copy is planted with the injector's paragraph edits:

- three cross-section errors, each two sentences in two places that contradict each other: the
  abstract's number against the results' (side A in the abstract), a number in the prose against a
  table's caption (or a late paragraph when the paper has no table), and a claim contradicted in
  another section;
- two decoys: a sentence that looks wrong where it stands ("only 3 epochs"), and the passage
  elsewhere in the paper that resolves it.

The two sides of a plant share only what a real contradiction shares, the words of its quantity or
claim ("the held-out benchmark", "milliseconds per sample"); the scripted loopback model tells what a
request shows by the planted sentences themselves. `--named` gives both sides a made-up name too (the
earlier benchmark's plants), which the memory design's retrieval by the rarest shared term finds at once. As detector it reports a planted error only when both of its sides are visible in the request
(and one of them is in the request's focus: the sections a call is about), each visible decoy (both
as major), and two minor nitpicks per call with a higher confidence than any of them; as verifier it confirms a planted error
only when both sides are visible, rejects a decoy only when its resolving passage is visible, and
confirms a nitpick as minor. Merging keeps one finding per planted name. So whatever is lost is lost
by what the pipeline shows the model (visibility) and by what it does after detection (anchoring,
verification, merging, ranking, caps).

Reported per mode, over the papers: the share of planted errors whose two sides were ever in one
detection request; the share of decoys refuted (no finding of the report on them); the share of
planted errors that survive to the report (a finding of the report anchored on one of their sides); calls,
input tokens, and the share of input the provider's prefix cache served. `--fallback` forces the
context window to a quarter of each paper's tokens, so the whole paper cannot be in view. A paper
the injector cannot plant in (fewer than six long paragraphs in the body TeX reads) or whose audit
fails is listed at the end with the reason. Each paper's rules are checked once, for all its modes.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from llm_cost import Checked, audited, block_finding, json_records, largest_project, prompt_of, task_of  # noqa: E402
from llm_server import LoopbackLLMServer  # noqa: E402
from planting import Edit, append_to_paragraph  # noqa: E402

from auditex.analyzers.finding import Finding, Source  # noqa: E402
from auditex.analyzers.llm.audit_modes import MODES, Mode  # noqa: E402
from auditex.analyzers.llm.settings import LLMSettings  # noqa: E402
from auditex.analyzers.llm.units import PaperData  # noqa: E402
from auditex.latex.conditionals import NEVER, branch_paths, path_at  # noqa: E402
from auditex.latex.manuscript import PlacedBlock  # noqa: E402
from auditex.latex.model import SectionKind  # noqa: E402
from auditex.latex.project import Project  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
_FOCUS = re.compile(r"<focus>\n(.*?)\n</focus>", re.DOTALL)
_PAPER = re.compile(r"<paper>\n(.*?)\n</paper>", re.DOTALL)
_CANDIDATES = re.compile(r"<candidates>\n(.*?)\n</candidates>", re.DOTALL)
_RANGE = re.compile(r'"blocks": "(\d+)-(\d+)"')
_INDEX = re.compile(r'\{"index": (\d+)')
_UNSKIPPED = (SectionKind.FRONT, SectionKind.REFERENCES)


@dataclass
class Plant:
    """A planted error (two contradicting sides) or a decoy (a local side and the passage that resolves it)."""

    name: str
    kind: str
    first: str  # side A / the decoy's local statement
    second: str  # side B / the resolving passage
    decoy: bool = False
    # The forms a request may carry each side in, where that is not its source text (a table row is sent as its cells).
    first_shown: tuple[str, ...] = ()
    second_shown: tuple[str, ...] = ()

    def shown(self, text: str) -> tuple[bool, bool]:
        """Whether the text carries side A, side B."""
        first, second = self.first_shown or (self.first,), self.second_shown or (self.second,)
        return any(form in text for form in first), any(form in text for form in second)


def _plants(named: bool) -> list[Plant]:
    """The plants; `named`, the two sides of each also share a made-up name (the earlier benchmark's, which
    flatters the memory design's retrieval of passages by their rarest shared term)."""

    def called(name: str, subject: str) -> str:
        return f"{name} {subject}" if named else subject

    return [
        Plant(
            "Quillon-1",
            "abstract vs results",
            f"On the {called('Quillon-1', 'held-out benchmark')} our method reaches an accuracy of 91.4 percent.",
            f"On the {called('Quillon-1', 'held-out benchmark')} our method reaches an accuracy of 78.2 percent in every run.",
        ),
        Plant(
            "Quillon-2",
            "prose vs table",
            f"The {called('Quillon-2', 'baseline')} needs 340 milliseconds per sample.",
            f"Latency of the {called('Quillon-2', 'baseline')}: 120 milliseconds per sample.",
        ),
        Plant(
            "Quillon-3",
            "claim contradicted elsewhere",
            f"The {called('Quillon-3', 'filtering step')} never removes correct samples.",
            f"The {called('Quillon-3', 'filtering step')} removed a fifth of the correct samples.",
        ),
        Plant(
            "Marrow-1",
            "decoy",
            f"We train the {called('Marrow-1', 'final')} model for only 3 epochs.",
            f"Three epochs suffice for the {called('Marrow-1', 'final')} model because its loss has converged by then (see the training curves).",
            decoy=True,
        ),
        Plant(
            "Marrow-2",
            "decoy",
            f"The {called('Marrow-2', 'ablation')} omits the second encoder.",
            f"The {called('Marrow-2', 'ablation')} omits the second encoder on purpose: it isolates the first encoder's effect.",
            decoy=True,
        ),
    ]


def _paragraphs(project: Project) -> list[PlacedBlock]:
    """Long paragraphs of the body that TeX reads (not in an `\\iffalse` or `\\if0` branch). A paper with no
    heading the parser sees (a letter; pandoc's `\\hypertarget`-wrapped sections) is all front matter: its
    body is there."""
    sections = project.manuscript.sections
    headed = any(section.kind not in (*_UNSKIPPED, SectionKind.ABSTRACT) for section in sections)
    skipped = _UNSKIPPED if headed else (SectionKind.REFERENCES,)
    branches = {file: branch_paths(project.source(file).text) for file in project.files}
    preamble = PaperData(project)  # what comes before \\begin{document} is never typeset
    return [
        p
        for p in project.manuscript.blocks
        if p.kind.value == "paragraph"
        and len(p.block.plain.text) > 150
        and sections[p.section].kind not in skipped
        and not preamble.in_preamble(p)
        and not any(branch == NEVER for _, branch in path_at(*branches[p.file], p.block.start))
    ]


def _caption_end(project: Project) -> tuple[str, int] | None:
    """The file and offset just inside the closing brace of the first table caption."""
    for placed in project.index.tables:
        text = project.source(placed.file).text
        at = text.find("\\caption{", placed.block.start, placed.block.end)
        if at < 0:
            continue
        depth, position = 0, at + len("\\caption")
        while position < placed.block.end:
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            if depth == 0:
                return placed.file, position
            position += 1
    return None


def plant(project: Project, named: bool = False) -> tuple[list[Plant], list[Edit]] | None:
    """The plants and their edits, on paragraphs spread over the paper; None when it has too few paragraphs."""
    paragraphs = _paragraphs(project)
    if len(paragraphs) < 6:
        return None
    sections = project.manuscript.sections
    abstract = [p for p in project.manuscript.blocks if sections[p.section].kind is SectionKind.ABSTRACT and p.block.plain.text.strip()]

    def at(share: float) -> PlacedBlock:
        return paragraphs[min(len(paragraphs) - 1, int(share * len(paragraphs)))]

    plants = _plants(named)
    sites = [
        (abstract[0] if abstract else at(0.0), at(0.75)),
        (at(0.35), None),  # side B: the table caption
        (at(0.15), at(0.6)),
        (at(0.45), at(0.95)),
        (at(0.25), at(0.85)),
    ]
    edits: list[Edit] = []
    for item, (first, second) in zip(plants, sites):
        edits.append(append_to_paragraph(project, first, item.first, item.name))
        if second is not None:
            edits.append(append_to_paragraph(project, second, item.second, item.name))
            continue
        caption = _caption_end(project)
        if caption is None:
            edits.append(append_to_paragraph(project, at(0.9), item.second, item.name))
        else:
            file, offset = caption
            edits.append(Edit(file, [(offset, offset, " " + item.second)], set(), item.name))
    return plants, edits


def planted_copy(folder: Path, project: Project, edits: list[Edit], into: Path) -> Checked:
    """A copy of the paper's folder with the edits made, its rules checked."""
    copy = into / folder.name
    shutil.copytree(folder, copy)
    by_file: dict[str, list[tuple[int, int, str]]] = {}
    for edit in edits:
        by_file.setdefault(edit.file, []).extend(edit.changes)
    for file, changes in by_file.items():
        (copy / file).write_text(Edit(file, changes, set(), "").apply(project.source(file).text), encoding="utf-8")
    return Checked.of(copy, project.root_file)


# ---------------------------------------------------------------- the scripted model


def _words(record: dict[str, Any], count: int = 8) -> str:
    return " ".join(str(record.get("latex") or record.get("text") or "").split()[:count])


class ScriptedModel:
    """The loopback responder that knows the plants (see the module docstring); records what each request showed."""

    def __init__(self, plants: list[Plant]) -> None:
        self.plants = plants
        self.seen_together: set[str] = set()  # planted errors with both sides in one detection request

    def __call__(self, body: dict[str, Any]) -> str:
        system, user = prompt_of(body)
        text = system + "\n" + user
        # What the call is asked: its prompt without the paper's data.
        task = task_of(system, user)
        if "scientific summarizer" in task:
            records = json_records(_PAPER, user)
            return "The section states: " + " ".join(" ".join(_words(r, 400) for r in records).split()[:120])
        if "review planner" in task:
            names = list(dict.fromkeys(re.findall(r'"section": "([^"]+)"', user))) or ["Introduction"]
            tasks = [
                {"task_id": f"T{n}", "focus_sections": names[n % len(names) : n % len(names) + 2], "goal": "check the claims"}
                for n in range(8)
            ]
            return json.dumps({"tasks": tasks})
        if "adjudication" in task:
            return self._merge(user)
        if "false alarm" in task:
            return self._verify(text, user)
        findings = self._detect(text, user)
        if "critical errors" in task:
            return json.dumps(
                [{"Problem": f["explanation"], "Location": f'"{f["error_location"]}"', "Explanation": f["explanation"]} for f in findings]
            )
        return json.dumps({"findings": findings})

    def _detect(self, text: str, user: str) -> list[dict[str, Any]]:
        focus = self._focus(text, user)
        findings = []
        for item in self.plants:
            sides = item.shown(text)
            in_focus = item.shown(focus)
            if not item.decoy and all(sides):
                self.seen_together.add(item.name)
            if item.decoy:
                if sides[0] and in_focus[0]:
                    findings.append(_finding(item, [item.first], "experiment_protocol", 0.85))
            elif all(sides) and any(in_focus):
                findings.append(_finding(item, [item.first, item.second], "context_misalignment", 0.9))
        focus_records = [r for r in json_records(_PAPER, focus) if _words(r) and self._planted(str(r.get("latex", ""))) is None]
        for record in focus_records[:1] + focus_records[-1:]:
            findings.append(block_finding(record, "rhetoric_bias", "Nitpick: the wording could be tighter.", 0.95, "minor"))
        return findings

    @staticmethod
    def _focus(text: str, user: str) -> str:
        """The part of the request a detection call is about: the blocks its <focus> ranges name, else its <paper> blocks."""
        ranges = [(int(a), int(b)) for a, b in _RANGE.findall("\n".join(m.group(1) for m in _FOCUS.finditer(user)))]
        if not ranges:
            return "\n".join(m.group(0) for m in _PAPER.finditer(user))
        shown = [(int(found.group(1)), line) for line in text.splitlines() if (found := _INDEX.match(line))]
        return "<paper>\n" + "\n".join(line for index, line in shown if any(a <= index <= b for a, b in ranges)) + "\n</paper>"

    def _planted(self, text: str) -> Plant | None:
        """The plant a text quotes a side of (the sides share no name: a candidate is told by its quotes)."""
        return next((p for p in self.plants if p.first in text or p.second in text), None)

    def _merge(self, user: str) -> str:
        groups: dict[str, list[int]] = {}
        records = json_records(_CANDIDATES, user)
        for n, record in enumerate(records):
            found = self._planted(_quoted(record))
            groups.setdefault(found.name if found else f"#{n}", []).append(record.get("number", n))
        by_number = {record.get("number", n): record for n, record in enumerate(records)}
        return json.dumps({"findings": [{**by_number[numbers[0]], "merged_from": numbers} for numbers in groups.values()]})

    def _verify(self, text: str, user: str) -> str:
        verdicts = []
        for n, record in enumerate(json_records(_CANDIDATES, user)):
            number = record.get("number", n)
            item = self._planted(_quoted(record))
            if item is None:
                valid, severity = True, "minor"
            elif item.decoy:
                valid, severity = not item.shown(text)[1], "major"
            else:
                valid, severity = all(item.shown(text)), "major"
            verdicts.append(
                {
                    "number": number,
                    "resolving_quote": "",
                    "valid": valid,
                    "severity": severity,
                    "settled_by_manuscript": True,
                    "reason": "scripted",
                }
            )
        return json.dumps({"verdicts": verdicts})


def _quoted(record: dict[str, Any]) -> str:
    """What a candidate quotes: its location, its evidence, a rule's statements."""
    quotes = [record.get("quote"), record.get("error_location")]
    quotes += [e.get("quote") for key in ("evidence", "statements") for e in record.get(key) or [] if isinstance(e, dict)]
    return "\n".join(str(q) for q in quotes if q)


def _finding(item: Plant, quotes: list[str], kind: str, confidence: float) -> dict[str, Any]:
    return {
        "type": kind,
        "section_location": "",
        "error_location": quotes[0],
        "evidence": [{"quote": quote} for quote in quotes],
        "explanation": "These statements disagree." if len(quotes) > 1 else "This looks unjustified.",
        "severity": "major",  # a decoy looks as serious as an error where it stands
        "confidence": confidence,
        "proposed_fix": "Make them agree.",
    }


# ---------------------------------------------------------------- measuring


def _spans(project: Project, sentence: str) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """(file, (line, character) of its start, of its end) of each place the sentence stands."""
    found = []
    for file in project.files:
        text = project.source(file).text
        at = text.find(sentence)
        if at >= 0:
            found.append((file, _position(text, at), _position(text, at + len(sentence))))
    return found


def _position(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset), offset - (text.rfind("\n", 0, offset) + 1)


def _on(finding: Finding, spans: list[tuple[str, tuple[int, int], tuple[int, int]]]) -> bool:
    """The finding is anchored on one of the spans: a finding on another sentence of the same source line (a
    footnote of the paragraph a decoy ends) is not on it; a section-level finding points at no statement."""
    if not finding.anchored:
        return False
    places = [(finding.file, finding.range)] + [(related.file, related.range) for related in finding.related]
    return any(
        file == f and (r.start.line, r.start.character) < end and (r.end.line, r.end.character) > start
        for f, r in places
        for file, start, end in spans
    )


def measure(
    server: LoopbackLLMServer, project: Project, checked: Checked, plants: list[Plant], mode: Mode, settings: LLMSettings
) -> dict[str, Any]:
    model = ScriptedModel(plants)
    server.responder = model
    server.clear_prompt_caches()
    result = audited(checked, settings, mode)
    report = [finding for finding in result.findings if finding.source is Source.LLM]  # a rule finding on a plant's line is none of its
    planted = [p for p in plants if not p.decoy]
    decoys = [p for p in plants if p.decoy]
    survived = [p.name for p in planted if any(_on(f, _spans(project, p.first) + _spans(project, p.second)) for f in report)]
    shown_decoys = [p.name for p in decoys if any(_on(f, _spans(project, p.first)) for f in report)]
    stats = result.stats
    return {
        "together": len(model.seen_together),
        "survived": len(survived),
        "refuted": len(decoys) - len(shown_decoys),
        "planted": len(planted),
        "decoys": len(decoys),
        "calls": stats.calls,
        "input": stats.input_tokens,
        "cached": stats.cache_read_tokens,
        "failed": len(result.failed_units),
        "report": len(report),
        "lost": sorted({p.name for p in planted} - set(survived)),
    }


def ceiling_settings(server: LoopbackLLMServer, provider: str, project: Project, fallback: bool) -> LLMSettings:
    fields: dict[str, Any] = {"model": "", "timeout_s": 300, "overall_time_limit_s": 1800}
    if fallback:
        paper_tokens = sum(len(d.text) for path, d in project.documents.items() if path.endswith(".tex")) // 4
        if "context_window" not in LLMSettings.model_fields:
            raise SystemExit("--fallback needs the context_window setting (the whole-paper design).")
        fields["context_window"] = max(1, paper_tokens // 4)
    return server.settings(provider, **fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", nargs="*", help="corpus paper folders (default: all)")
    parser.add_argument("--limit", type=int, help="only the first N papers, by name")
    parser.add_argument("--sample", type=int, help="N papers drawn at random (seed 0)")
    parser.add_argument("--modes", nargs="*", choices=MODES, default=list(MODES))
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--fallback", action="store_true", help="force the context window to a quarter of each paper")
    parser.add_argument("--named", action="store_true", help="the two sides of a plant share a made-up name")
    parser.add_argument("--save", type=Path, help="write the rows to this JSON file")
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    names = arguments.papers or sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    if arguments.sample:
        names = sorted(random.Random(0).sample(names, min(arguments.sample, len(names))))
    names = names[: arguments.limit] if arguments.limit else names
    rows: dict[str, dict[str, Any]] = {}
    print(f"{'paper':34} {'mode':8} {'together':>8} {'survive':>7} {'refuted':>7} {'calls':>5} {'input tok':>10} {'cached':>7}  lost")
    unplanted: dict[str, str] = {}
    with LoopbackLLMServer() as server, tempfile.TemporaryDirectory(prefix="auditex-ceiling-") as tmp:
        for name in names:
            try:
                rows[name] = paper_rows(server, name, Path(tmp), arguments)
            except Unplanted as why:
                unplanted[name] = f"not planted: {why}"
                print(f"{name:34} {unplanted[name]}", flush=True)
            except Exception as error:  # one paper's failure is reported, the run goes on
                unplanted[name] = f"failed: {type(error).__name__}: {error}"
                print(f"{name:34} {unplanted[name]}", flush=True)
            if arguments.save:
                arguments.save.write_text(json.dumps({"rows": rows, "not_measured": unplanted}, indent=1))
    print()
    for name, reason in unplanted.items():
        print(f"not measured: {name}: {reason}")
    summary(rows, arguments.modes, arguments.fallback, arguments.named)


class Unplanted(Exception):
    """A paper the injector cannot plant in, and why."""


def paper_rows(server: LoopbackLLMServer, name: str, tmp: Path, arguments: argparse.Namespace) -> dict[str, Any]:
    """One planted paper's row per mode, printed as it is measured; its rules are checked once for every mode."""
    original = largest_project(CORPUS / name)
    planned = plant(original, arguments.named)
    if planned is None:
        raise Unplanted(f"{len(_paragraphs(original))} paragraphs of 150 characters or more in the body TeX reads; 6 needed")
    plants, edits = planned
    checked = planted_copy(CORPUS / name, original, edits, tmp)
    project = checked.project
    rows = {}
    for mode in arguments.modes:
        row = measure(server, project, checked, plants, mode, ceiling_settings(server, arguments.provider, project, arguments.fallback))
        rows[mode] = row
        failed = f"  ({row['failed']} units failed)" if row["failed"] else ""
        print(
            f"{name:34} {mode:8} {row['together']:>6}/3 {row['survived']:>5}/3 {row['refuted']:>5}/2 {row['calls']:5} "
            f"{row['input']:10,} {row['cached'] / max(1, row['input']):6.0%}  {','.join(row['lost'])}{failed}",
            flush=True,
        )
    return rows


def summary(rows: dict[str, dict[str, Any]], modes: list[str], fallback: bool, named: bool) -> None:
    print()
    window = " (context window forced to a quarter of each paper)" if fallback else ""
    print(f"Over {len(rows)} papers{window}, the sides of a plant {'sharing a made-up name' if named else 'sharing only its words'}:")
    print(
        f"{'mode':8} {'both sides in one request':>26} {'planted in report':>18} {'decoys refuted':>15} {'calls/paper':>11} {'input tok/paper':>15} {'prefix cached':>13}"
    )
    for mode in modes:
        runs = [row[mode] for row in rows.values() if mode in row]
        if not runs:
            continue
        planted = sum(r["planted"] for r in runs)
        decoys = sum(r["decoys"] for r in runs)
        inputs = sum(r["input"] for r in runs)
        print(
            f"{mode:8} {sum(r['together'] for r in runs) / planted:26.1%} {sum(r['survived'] for r in runs) / planted:18.1%} "
            f"{sum(r['refuted'] for r in runs) / decoys:15.1%} {statistics.mean(r['calls'] for r in runs):11.1f} "
            f"{inputs / len(runs):15,.0f} {sum(r['cached'] for r in runs) / max(1, inputs):13.1%}"
        )


if __name__ == "__main__":
    main()
