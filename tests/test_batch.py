"""`auditex batch`: small synthetic venues through the local pool (and Ray, when installed)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from helpers import write_project
from sample_paper import FILES

from auditex.batch.pool import LocalPool
from auditex.batch.run import BatchOptions, run_batch
from auditex.batch.task import Limits, TaskSpec, run_task
from auditex.batch.venue import VenueError, content_hash, list_submissions
from auditex.cli.main import main

_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "batch_venue.py"
_SPEC = importlib.util.spec_from_file_location("batch_venue", _SCRIPT)
venue_kit = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["batch_venue"] = venue_kit
_SPEC.loader.exec_module(venue_kit)  # type: ignore[union-attr]


def _tar_folder(folder: Path, archive: Path) -> Path:
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname=".")
    return archive


@pytest.fixture
def venue(tmp_path: Path) -> Path:
    """Three good submissions (a folder, a tar.gz, a single .tex) and a zip bomb."""
    folder = tmp_path / "venue"
    write_project(folder / "paper-a", FILES)
    source = write_project(tmp_path / "b", {**FILES, "main.tex": FILES["main.tex"].replace("81.2", "82.4")})
    _tar_folder(source, folder / "paper-b.tar.gz")
    (folder / "paper-c.tex").write_text("\\documentclass{article}\n\\begin{document}\nSee Table~\\ref{tab:x}.\n\\end{document}\n")
    venue_kit.zip_bomb(folder / "bomb.zip", megabytes=20)
    return folder


def _lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()]


def test_every_submission_gets_one_line_a_summary_and_a_sarif_log(venue, tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["batch", str(venue), "--out", str(out), "--workers", "2", "--sarif"]) == 0
    lines = {line["id"]: line for line in _lines(out)}
    assert sorted(lines) == ["bomb.zip", "paper-a", "paper-b.tar.gz", "paper-c.tex"]
    assert lines["bomb.zip"]["status"] == "failed" and "compression bomb" in lines["bomb.zip"]["reason"]
    paper = lines["paper-a"]
    assert paper["status"] == "ok" and paper["version"] == 2 and paper["root"] == "main.tex"
    assert paper["content_hash"] == content_hash(venue / "paper-a")
    assert {"check_s", "total_s", "rss_mb"} <= set(paper["timings"])
    assert any(f["code"].startswith("SEC") for f in paper["findings"])
    assert any(f["code"] == "REF001" for f in lines["paper-c.tex"]["findings"])

    summary = (out / "summary.md").read_text()
    assert "4 submissions: 3 ok, 1 failed, 0 timed out." in summary
    assert "| REF001 |" in summary
    hidden = summary.split("## Hidden text or instructions (SEC): 2 submissions")[1].split("##")[0]
    assert "`paper-a`" in hidden and "`paper-b.tar.gz`" in hidden
    assert "- `bomb.zip` (failed):" in summary
    assert "4 submissions checked in" in summary

    sarif = json.loads((out / "sarif" / "paper-a.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    assert not (out / "sarif" / "bomb.zip.sarif").exists()
    assert "4 submissions, 1 failed or timed out" in capsys.readouterr().err


def test_a_rerun_skips_what_is_done_and_rechecks_what_changed(venue, tmp_path):
    out = tmp_path / "results"
    first = run_batch(venue, out, LocalPool(2), BatchOptions())
    assert first.throughput.checked == 4
    again = run_batch(venue, out, LocalPool(2), BatchOptions())
    assert (again.throughput.checked, again.throughput.resumed) == (0, 4)
    assert again.throughput.line() == "nothing left to check, all 4 done in an earlier run"  # no worker pool ran, none is named
    assert again.records == first.records

    (venue / "paper-a" / "sections" / "intro.tex").write_text("\\section{Introduction}\nRewritten.\n")
    third = run_batch(venue, out, LocalPool(2), BatchOptions())
    assert third.throughput.checked == 1
    assert len(_lines(out)) == 4
    changed = next(r for r in third.records if r["id"] == "paper-a")
    assert changed["content_hash"] != next(r for r in first.records if r["id"] == "paper-a")["content_hash"]
    # Other options are other work; failed ones are checked again only when asked.
    assert run_batch(venue, out, LocalPool(2), BatchOptions(retry_failed=True)).throughput.checked == 1


def test_a_list_file_names_submissions_relative_to_itself(venue, tmp_path):
    listing = tmp_path / "venue.txt"
    listing.write_text("# accepted track\nvenue/paper-a\n\nvenue/paper-c.tex\n")
    assert [(e.id, e.path) for e in list_submissions(listing)] == [
        ("venue/paper-a", tmp_path / "venue" / "paper-a"),
        ("venue/paper-c.tex", tmp_path / "venue" / "paper-c.tex"),
    ]
    listing.write_text("venue/paper-a\nvenue/paper-a\n")
    with pytest.raises(VenueError, match="line 2 lists 'venue/paper-a' a second time"):
        list_submissions(listing)


def test_bad_input_is_one_error_line(tmp_path, capsys):
    assert main(["batch", str(tmp_path / "missing"), "--out", str(tmp_path / "out")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["batch", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
    assert "holds no submissions" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "empty"), "--out", str(tmp_path / "out"), "--llm-batch"]) == 2
    assert "--llm-batch needs --mode" in capsys.readouterr().err


def test_hostile_archives_cost_their_own_line_only(tmp_path):
    folder = tmp_path / "venue"
    folder.mkdir()
    venue_kit.path_traversal(folder / "traversal.tar.gz")
    venue_kit.invalid_utf8(folder / "latin1.tar.gz")
    venue_kit.input_loop(folder / "loop.tar.gz")
    venue_kit.huge_file(folder / "huge.tar", megabytes=3)
    write_project(folder / "good", FILES)
    options = BatchOptions(limits=Limits(extracted_mb=2))
    lines = {r["id"]: r for r in run_batch(folder, tmp_path / "out", LocalPool(2), options).records}
    assert len(lines) == 5
    codes = {id_: {f["code"] for f in r["findings"]} for id_, r in lines.items()}
    assert lines["traversal.tar.gz"]["status"] == "ok" and any(c.startswith("SUB") for c in codes["traversal.tar.gz"])
    assert not (tmp_path / "escaped.tex").exists()
    assert lines["latin1.tar.gz"]["status"] == "ok"
    assert lines["loop.tar.gz"]["status"] == "ok" and any(c.startswith("INC") for c in codes["loop.tar.gz"])
    huge = lines["huge.tar"]
    assert huge["status"] == "ok" and any(f["code"].startswith("SUB") and "2 MB" in f["message"] for f in huge["findings"])
    assert lines["good"]["status"] == "ok"


def _spec(path: Path, **limits) -> TaskSpec:
    return TaskSpec(id=path.name, path=str(path), content_hash=content_hash(path), limits=Limits(**limits))


def test_a_killed_worker_is_retried_once_then_its_submission_fails(venue):
    specs = [_spec(venue / "paper-a"), _spec(venue / "paper-c.tex")]
    for kills, expected in ((1, "ok"), (2, "failed")):
        records: dict[str, dict] = {}
        starts: list[str] = []

        def kill(spec: TaskSpec, pid: int, starts: list[str] = starts, kills: int = kills) -> None:
            starts.append(spec.id)
            if spec.id == "paper-a" and starts.count("paper-a") <= kills:
                os.kill(pid, signal.SIGKILL)  # mid-task: the worker already holds the spec

        LocalPool(2).run(specs, lambda spec, record, records=records: records.setdefault(spec.id, record), kill)
        assert sorted(records) == ["paper-a", "paper-c.tex"]
        assert starts.count("paper-a") == 2
        assert records["paper-a"]["status"] == expected
        assert records["paper-c.tex"]["status"] == "ok"
        # Where each ran: this machine, the killed one on its second attempt.
        assert [(records[id_]["node"], records[id_]["attempt"]) for id_ in ("paper-a", "paper-c.tex")] == [
            (socket.gethostname(), 2),
            (socket.gethostname(), 1),
        ]
    assert records["paper-a"]["reason"] == "the worker was killed by SIGKILL, on the first try and on the retry"


def test_time_and_memory_limits_end_one_submission(venue):
    timed_out = run_task(_spec(venue / "paper-a", time_s=0.001))
    assert timed_out["status"] == "timed_out" and "time limit of 0.001 s" in timed_out["reason"]
    starved = run_task(_spec(venue / "paper-a", memory_mb=1))
    assert starved["status"] == "failed" and "memory limit of 1 MB" in starved["reason"]
    # The limits are lifted after each task: the same process checks the next one fully.
    assert run_task(_spec(venue / "paper-a"))["status"] == "ok"


def test_ray_in_local_mode_writes_the_same_records_as_the_pool(venue, tmp_path):
    pytest.importorskip("ray", reason='Ray is not installed (pip install "auditex[ray]")')
    from auditex.batch.ray_pool import RayPool

    pool = run_batch(venue, tmp_path / "pool", LocalPool(2), BatchOptions())
    ray = run_batch(venue, tmp_path / "ray", RayPool("local", 2), BatchOptions())
    assert ray.throughput.pool == "ray"
    assert venue_kit.comparable(ray.records) == venue_kit.comparable(pool.records)


def test_mode_runs_the_interactive_audit_in_each_worker(venue, tmp_path, llm_server, monkeypatch):
    from llm_server import LOOPBACK_KEY

    monkeypatch.setenv("AUDITEX_API_KEY", LOOPBACK_KEY)  # the workers read the key from their environment
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    llm = llm_server.settings("openai").model_dump(exclude={"api_key"})
    options = BatchOptions(mode="fast", llm=llm)
    lines = {r["id"]: r for r in run_batch(venue, tmp_path / "out", LocalPool(2), options).records}
    detections = [r for r in llm_server.requests if "false alarm" not in r.prompt_text]
    assert len(detections) == 3  # one fast pass per paper, then the verification of what it found; the bomb has none
    assert lines["paper-a"]["run"]["stats"][0]["stages"]["detect"]["calls"] == 1 and "audit_s" in lines["paper-a"]["timings"]
    assert lines["bomb.zip"]["status"] == "failed"


def test_a_fifo_in_a_submission_blocks_neither_the_hash_nor_the_check(venue):
    os.mkfifo(venue / "paper-a" / "pipe.tex")
    assert content_hash(venue / "paper-a") != content_hash(venue / "paper-c.tex")
    # The check opens files without waiting for a writer and reads regular files only.
    record = run_task(_spec(venue / "paper-a", time_s=5))
    assert record["status"] == "ok" and record["timings"]["total_s"] < 5


def test_the_summary_shows_severities_unsafe_archives_and_a_row_per_submission(tmp_path):
    folder = tmp_path / "venue"
    write_project(folder / "clean", FILES)
    venue_kit.path_traversal(folder / "slip.tar.gz")
    out = tmp_path / "results"
    assert main(["batch", str(folder), "--out", str(out), "--workers", "1"]) == 0
    summary = (out / "summary.md").read_text()
    assert "2 submissions: 2 ok, 0 failed, 0 timed out." in summary
    rules = summary.split("## Findings per rule")[1].split("##")[0]
    assert "| rule | severity | findings | submissions |" in rules
    rows = [row for row in rules.splitlines() if row.startswith("| ") and row[2:5].isupper()]
    severities = [row.split(" | ")[1].split(", ")[0] for row in rows]
    assert severities == sorted(severities, key=["error", "warning", "information", "hint"].index)  # errors lead
    assert "| SUB001 | error |" in rules
    unsafe = summary.split("## Unsafe archives (SUB): 1 submission")[1].split("##")[0]
    assert "- `slip.tar.gz`: SUB001 ×2" in unsafe and "clean" not in unsafe  # a ../ escape, an absolute path
    table = summary.split("## Submissions")[1]
    records = {json.loads(line)["id"]: json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()}
    for id_, record in records.items():
        errors = sum(f["severity"] == "error" for f in record["findings"])
        warnings = sum(f["severity"] == "warning" for f in record["findings"])
        assert f"| `{id_}` | ok | {errors} | {warnings} |" in table


def test_sigterm_stops_the_batch_cleanly_and_keeps_the_records(tmp_path):
    import subprocess
    import time

    folder = tmp_path / "venue"
    for number in range(8):
        write_project(folder / f"paper-{number}", {**FILES, "main.tex": FILES["main.tex"].replace("81.2", f"8{number}.2")})
    out = tmp_path / "out"
    command = [sys.executable, "-m", "auditex.cli.main", "batch", str(folder), "--out", str(out), "--workers", "2"]
    batch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list((out / "records").glob("*.json")) and time.monotonic() < deadline and batch.poll() is None:
        time.sleep(0.1)
    children = Path(f"/proc/{batch.pid}/task/{batch.pid}/children").read_text().split()
    workers = [pid for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]  # not the resource tracker
    batch.send_signal(signal.SIGTERM)
    _, stderr = batch.communicate(timeout=60)
    assert batch.returncode == 128 + signal.SIGTERM, stderr
    assert stderr.strip().splitlines()[-2:] == [
        f"auditex: the records written are kept in {out}; running the same command again resumes",
        "auditex: terminated",
    ]
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert workers and not [pid for pid in workers if Path(f"/proc/{pid}").exists()]  # no worker outlives it
    assert 1 <= len(list((out / "records").glob("*.json"))) < 8  # stopped mid-run, what was done kept


def test_a_submission_folder_reads_nothing_beside_it_though_the_venue_is_a_git_work_tree(tmp_path):
    folder = tmp_path / "venue"
    body = "\\documentclass{article}\n\\begin{document}\nText.\n\\input{../paper-b/secret}\n\\end{document}\n"
    write_project(folder / "paper-a", {"main.tex": body})
    write_project(folder / "paper-b", {"main.tex": FILES["main.tex"], "secret.tex": "Another submission's text.\n"})
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    out = tmp_path / "results"
    assert main(["batch", str(folder), "--out", str(out), "--workers", "1"]) == 0
    [record] = [record for record in _lines(out) if record["id"] == "paper-a"]
    [refused] = [finding for finding in record["findings"] if finding["code"] == "INC003"]
    assert refused["severity"] == "error" and "points outside the project root" in refused["message"]
