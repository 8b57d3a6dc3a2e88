"""The results folder: one record file per submission, merged at the end.

    results/records/<key>.json   one per submission, written atomically (temporary file, then rename)
    results/findings.jsonl       every current submission's record, one line each, ordered by id
    results/summary.md           counts per rule, submissions to look at, failures, throughput
    results/sarif/<id>.sarif     with --sarif, one SARIF log per checked submission

A record's key hashes the submission id, its content hash and the run's options, so a
re-run finds the work already done, redoes a submission whose bytes changed, and never
reads a half-written record: a worker killed mid-write leaves at most a temporary file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..analyzers.finding import Severity
from ..analyzers.wording import counted
from .task import TaskSpec

RECORDS = "records"
FINDINGS = "findings.jsonl"
SUMMARY = "summary.md"
SARIF = "sarif"
# Codes a chair reads first: hidden text or injections, references that do not exist or were retracted.
_SEC_PREFIX = "SEC"
_SUB_PREFIX = "SUB"  # an archive that tried to write outside its folder, link out, or expand without bound
_SEVERITY_ORDER = [severity.value for severity in Severity]  # most severe first
_WATCHED_CODES = {"BIB004": "Retracted references (BIB004)", "BIB001": "References no index knows (BIB001)"}
_ERROR_PREFIXES = ("REF", "CIT")


def record_key(spec: TaskSpec, options: dict[str, Any]) -> str:
    material = json.dumps({"id": spec.id, "content": spec.content_hash, "options": options}, sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


@dataclass
class Throughput:
    """What this run did, for the summary."""

    pool: str  # the worker pool's name: local or ray
    workers: int
    checked: int
    resumed: int
    wall_s: float

    def line(self) -> str:
        if not self.checked:  # no worker pool ran: no rate, and no workers to name
            return f"nothing left to check, all {self.resumed} done in an earlier run"
        rate = self.checked / self.wall_s if self.wall_s > 0 else 0.0
        return (
            f"{counted(self.checked, 'submission')} checked in {self.wall_s:.1f} s ({rate:.2f}/s, {rate * 3600:,.0f}/hour) "
            f"on {self.workers} {self.pool} worker{'s' if self.workers != 1 else ''}; "
            f"{self.resumed} already done in an earlier run"
        )


class ResultStore:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.records = out / RECORDS
        self.records.mkdir(parents=True, exist_ok=True)

    def load(self, key: str) -> dict[str, Any] | None:
        """The record saved under `key`, or None (an unreadable file counts as not done)."""
        try:
            record: dict[str, Any] = json.loads((self.records / f"{key}.json").read_text(encoding="utf-8"))
            return record
        except (OSError, ValueError):
            return None

    def save(self, key: str, record: dict[str, Any]) -> None:
        write_atomically(self.records / f"{key}.json", json.dumps(record, ensure_ascii=False))

    def merge(self, keys: dict[str, str]) -> list[dict[str, Any]]:
        """Write findings.jsonl from the records of `keys` (id → key); returns the records, by id."""
        merged = [record for id_ in sorted(keys) if (record := self.load(keys[id_])) is not None]
        write_atomically(self.out / FINDINGS, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in merged))
        return merged

    def write_summary(self, records: list[dict[str, Any]], throughput: Throughput) -> None:
        write_atomically(self.out / SUMMARY, summary_markdown(records, throughput))

    def write_sarif(self, records: list[dict[str, Any]]) -> int:
        from ..analyzers.finding import Finding
        from ..analyzers.reports.sarif import to_sarif

        folder = self.out / SARIF
        folder.mkdir(exist_ok=True)
        written = 0
        for record in records:
            if record["status"] != "ok":
                continue
            findings = [Finding.model_validate(f) for f in record["findings"]]
            write_atomically(folder / f"{file_name(record['id'])}.sarif", to_sarif(findings))
            written += 1
        return written


def write_atomically(path: Path, text: str) -> None:
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def file_name(submission_id: str) -> str:
    """A file name for a submission id; ids that had to change get a short hash so two never collide."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", submission_id).lstrip(".") or "submission"
    if safe == submission_id:
        return safe
    return f"{safe}-{hashlib.sha256(submission_id.encode()).hexdigest()[:8]}"


def summary_markdown(records: list[dict[str, Any]], throughput: Throughput) -> str:
    statuses = Counter(r["status"] for r in records)
    ok = [r for r in records if r["status"] == "ok"]
    lines = [
        "# auditex batch summary",
        "",
        f"{counted(len(records), 'submission')}: {statuses['ok']} ok, {statuses['failed']} failed, {statuses['timed_out']} timed out.",
        "",
        f"Throughput: {throughput.line()}.",
        "",
    ]
    lines += _rule_counts(ok)
    lines += _watch_list("Hidden text or instructions (SEC)", ok, lambda f: f["code"].startswith(_SEC_PREFIX))
    lines += _watch_list("Unsafe archives (SUB)", ok, lambda f: f["code"].startswith(_SUB_PREFIX))
    for code, title in _WATCHED_CODES.items():
        lines += _watch_list(title, ok, lambda f, code=code: f["code"] == code)
    lines += _watch_list(
        "Reference and citation errors (REF, CIT)", ok, lambda f: f["code"].startswith(_ERROR_PREFIXES) and f["severity"] == "error"
    )
    failures = [r for r in records if r["status"] != "ok"]
    lines += [f"## Failures ({len(failures)})", ""]
    lines += [f"- `{r['id']}` ({r['status'].replace('_', ' ')}): {_one_line(r['reason'] or '')}" for r in failures] or ["None."]
    lines += ["", *_per_submission(records)]
    return "\n".join(lines) + "\n"


def _per_submission(records: list[dict[str, Any]]) -> list[str]:
    lines = ["## Submissions", "", "| submission | status | errors | warnings |", "| --- | --- | ---: | ---: |"]
    for record in records:
        severities = Counter(f["severity"] for f in record["findings"])
        status = record["status"].replace("_", " ")
        lines.append(f"| `{record['id']}` | {status} | {severities['error']} | {severities['warning']} |")
    return lines


def _rule_counts(records: list[dict[str, Any]]) -> list[str]:
    findings = Counter(f["code"] for r in records for f in r["findings"])
    submissions = Counter(code for r in records for code in {f["code"] for f in r["findings"]})
    lines = ["## Findings per rule", ""]
    if not findings:
        return lines + ["No findings.", ""]
    # A rule's findings may differ in severity (a doubtful one is lowered): the most severe leads.
    severities: dict[str, set[str]] = {}
    for record in records:
        for finding in record["findings"]:
            severities.setdefault(finding["code"], set()).add(finding["severity"])
    ordered = {code: sorted(found, key=_SEVERITY_ORDER.index) for code, found in severities.items()}
    lines += ["| rule | severity | findings | submissions |", "| --- | --- | ---: | ---: |"]
    lines += [
        f"| {code} | {', '.join(ordered[code])} | {findings[code]} | {submissions[code]} |"
        for code in sorted(findings, key=lambda code: (_SEVERITY_ORDER.index(ordered[code][0]), -findings[code], code))
    ]
    return lines + [""]


class _Wanted(Protocol):
    """Whether a finding (as its record holds it) belongs to the list; a Protocol, as mypy types no lambda with defaults against a Callable."""

    def __call__(self, finding: dict[str, Any], /) -> bool: ...


def _watch_list(title: str, records: list[dict[str, Any]], wanted: _Wanted) -> list[str]:
    hits = [(r["id"], Counter(f["code"] for f in r["findings"] if wanted(f))) for r in records]
    hits = [(id_, codes) for id_, codes in hits if codes]
    lines = [f"## {title}: {len(hits)} submission{'s' if len(hits) != 1 else ''}", ""]
    lines += [f"- `{id_}`: " + ", ".join(f"{code} ×{n}" for code, n in sorted(codes.items())) for id_, codes in hits] or ["None."]
    return lines + [""]


def _one_line(text: str) -> str:
    return " ".join(text.split())
