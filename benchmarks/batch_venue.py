"""`auditex batch` over a synthetic venue: lost results, throughput, a killed worker, Ray, worker RSS.

Run: python benchmarks/batch_venue.py [--venue /tmp/auditex-venue] [--size 1000] [--workers 2]
                                      [--sample 100] [--ray-size N] [--corpus ../shared/corpus]

The venue: corpus papers copied and lightly varied (a sentence naming the submission
added before \\end{document}), as .tar.gz, .zip and plain folders, and every 20th
submission a hostile archive: a zip bomb, a path traversal, a file over the size limit,
invalid UTF-8, an endless \\input loop. Then:
1. a single worker over the first `--sample` submissions: the single-process rate (the venue
   cycles through the corpus papers, so a prefix of a few cycles has the venue's mix; every
   k-th submission would sample a few papers only, k and the cycle sharing factors);
2. `--workers N` over the whole venue, with one worker killed (SIGKILL) mid-task:
   lines in findings.jsonl against submissions (0 lost), the killed submission's status,
   throughput against N × the single-process rate (target ≥ 90 %), and each worker's
   RSS after the 100th and after the last submission (target: within 20 %);
3. with Ray installed, Ray in local mode over the first `--ray-size` submissions
   (default: all): the records must equal the pool's, timings aside, in any order.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import shutil
import signal
import statistics
import sys
import tarfile
import threading
import time
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from auditex.batch.run import BatchOutcome, OnProgress, WorkerPool
    from auditex.batch.task import TaskSpec

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_EVERY = 20
MIB = 1024 * 1024


# Hostile submissions -------------------------------------------------------

ROOT_TEX = b"\\documentclass{article}\n\\begin{document}\nA short paper.\n\\end{document}\n"


def _tar(path: Path, members: list[tuple[str, bytes]], mode: Literal["w:gz", "w:bz2", "w:xz"] = "w:gz") -> Path:
    with tarfile.open(path, mode) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def zip_bomb(path: Path, megabytes: int = 300) -> Path:
    """A zip whose only member unpacks to `megabytes` of zeros: nothing to check, one failed line."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open("main.tex", "w", force_zip64=True) as member:
        block = b"\0" * MIB
        for _ in range(megabytes):
            member.write(block)
    return path


def path_traversal(path: Path) -> Path:
    return _tar(path, [("main.tex", ROOT_TEX), ("../../escaped.tex", b"\\section{Out}\n"), ("/etc/owned.tex", b"x")])


def huge_file(path: Path, megabytes: int = 60) -> Path:
    """An uncompressed tar with a `megabytes` data file beside the paper: over the default 50 MB single-file limit."""
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("main.tex")
        info.size = len(ROOT_TEX)
        tar.addfile(info, io.BytesIO(ROOT_TEX))
        info = tarfile.TarInfo("data/table.tex")
        info.size = megabytes * MIB
        tar.addfile(info, io.BytesIO(os.urandom(info.size)))
    return path


def invalid_utf8(path: Path) -> Path:
    body = b"\\documentclass{article}\n\\begin{document}\nR\xe9sum\xe9 of \xff\xfe results: 12.5\\% \xc3(.\n\\end{document}\n"
    return _tar(path, [("main.tex", body)])


def input_loop(path: Path) -> Path:
    main = b"\\documentclass{article}\n\\begin{document}\n\\input{a}\n\\end{document}\n"
    return _tar(path, [("main.tex", main), ("a.tex", b"A \\input{b}\n"), ("b.tex", b"B \\input{a} \\input{b}\n")])


HOSTILE = {
    "zip_bomb": (zip_bomb, ".zip"),
    "path_traversal": (path_traversal, ".tar.gz"),
    "huge_file": (huge_file, ".tar"),
    "invalid_utf8": (invalid_utf8, ".tar.gz"),
    "input_loop": (input_loop, ".tar.gz"),
}


# The venue ------------------------------------------------------------------


def corpus_papers(corpus: Path) -> list[tuple[Path, str]]:
    """(folder, root file) of every corpus paper, from its SOURCE.txt."""
    papers = []
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
        source = (folder / "SOURCE.txt").read_text(encoding="utf-8", errors="replace") if (folder / "SOURCE.txt").exists() else ""
        root = next((line.split(":", 1)[1].strip() for line in source.splitlines() if line.lower().startswith("root")), "")
        root = root.split()[0] if root else ""
        if root and (folder / root).is_file():
            papers.append((folder, root))
    return papers


def varied_copy(paper: Path, root: str, target: Path, number: int) -> None:
    shutil.copytree(paper, target, ignore=shutil.ignore_patterns("SOURCE.txt"))
    main = target / root
    text = main.read_bytes()
    sentence = f"\nThis is venue submission {number}, checked for the batch benchmark.\n".encode()
    end = text.rfind(b"\\end{document}")
    main.write_bytes(text[:end] + sentence + text[end:] if end >= 0 else text + sentence)


def pack(folder: Path, kind: str) -> Path:
    if kind == "folder":
        return folder
    archive = folder.with_name(folder.name + (".tar.gz" if kind == "tar" else ".zip"))
    if kind == "tar":
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(folder, arcname=".")
    else:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for file in sorted(folder.rglob("*")):
                bundle.write(file, file.relative_to(folder).as_posix())
    shutil.rmtree(folder)
    return archive


def make_venue(venue: Path, size: int, corpus: Path) -> list[str]:
    """Write `size` submissions into `venue` (emptied first); returns the hostile ones' names."""
    if venue.exists():
        shutil.rmtree(venue)
    venue.mkdir(parents=True)
    originals = venue.parent / f".{venue.name}-hostile"
    shutil.rmtree(originals, ignore_errors=True)
    originals.mkdir()
    made = {kind: make(originals / f"{kind}{suffix}") for kind, (make, suffix) in HOSTILE.items()}
    papers = corpus_papers(corpus)
    hostile = []
    for number in range(size):
        if number % HOSTILE_EVERY == HOSTILE_EVERY - 1:
            kind = list(HOSTILE)[(number // HOSTILE_EVERY) % len(HOSTILE)]
            name = f"s{number:05d}-{kind}{HOSTILE[kind][1]}"
            os.link(made[kind], venue / name)  # one copy on disk, many submissions
            hostile.append(name)
            continue
        paper, root = papers[number % len(papers)]
        target = venue / f"s{number:05d}-{paper.name}"
        varied_copy(paper, root, target, number)
        pack(target, ("tar", "zip", "folder")[number % 3])
    return hostile


# Runs -------------------------------------------------------------------------


def run(venue: Path, out: Path, pool: WorkerPool, on_progress: OnProgress | None = None) -> BatchOutcome:
    from auditex.batch.run import BatchOptions, run_batch

    shutil.rmtree(out, ignore_errors=True)
    return run_batch(venue, out, pool, BatchOptions(), on_progress)


def listing(venue: Path, names: list[str], path: Path) -> Path:
    path.write_text("".join(f"{venue / name}\n" for name in names))
    return path


def comparable(records: list[dict[str, Any]]) -> list[str]:
    """The records as sorted JSON texts, without timings and where they ran, ids reduced to file names (a list file gives paths)."""
    where = {"timings", "node", "attempt"}
    return sorted(json.dumps({**{k: v for k, v in r.items() if k not in where}, "id": Path(r["id"]).name}, sort_keys=True) for r in records)


def measure_pool(venue: Path, names: list[str], scratch: Path, workers: int, sample_size: int) -> dict[str, dict[str, Any]]:
    """The single-worker rate, then the pool over the venue with one worker killed; returns the records by id."""
    from auditex.batch.pool import LocalPool

    sample = listing(venue, names[:sample_size], scratch / "sample.txt")
    single = run(sample, scratch / "single", LocalPool(1)).throughput
    single_rate = single.checked / single.wall_s
    print(f"single worker: {single.line()}")

    pids: dict[str, int] = {}
    starts: dict[str, int] = {}
    order: list[str] = []
    killed: list[str] = []

    def on_start(spec: TaskSpec, pid: int) -> None:
        pids[spec.id] = pid
        starts[spec.id] = starts.get(spec.id, 0) + 1
        # Mid-run, mid-task: a paper that takes seconds (hostile archives end in milliseconds).
        if len(pids) >= len(names) // 2 and not killed and not any(kind in spec.id for kind in HOSTILE):
            killed.append(spec.id)
            threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()

    pool = LocalPool(workers)
    pool_run = pool.run
    pool.run = functools.partial(pool_run, on_start=on_start)  # type: ignore[method-assign]  # the workers' starts, which run_batch does not ask for
    outcome = run(venue, scratch / "pool", pool, lambda done, total, record: order.append(record["id"]) if record else None)
    records = outcome.records
    lines = (scratch / "pool" / "findings.jsonl").read_text().count("\n")
    by_id = {r["id"]: r for r in records}
    statuses = {s: sum(r["status"] == s for r in records) for s in ("ok", "failed", "timed_out")}
    print(f"{workers} workers: {outcome.throughput.line()}")
    print(f"  lines: {lines} for {len(names)} submissions; lost: {len(set(names) - set(by_id))}; statuses: {statuses}")
    retried = {i: by_id[i]["status"] for i, count in starts.items() if count > 1}
    print(f"  killed a worker 0.3 s into {killed[0]}; submissions started twice and their lines: {retried}")
    efficiency = (outcome.throughput.checked / outcome.throughput.wall_s) / (workers * single_rate)
    busy = sum(r["timings"]["total_s"] for r in records) / outcome.throughput.wall_s
    mean_task = statistics.mean(r["timings"]["total_s"] for r in records)
    print(
        f"  throughput: {efficiency:.0%} of {workers} x the single-worker rate (target >= 90%); the workers were busy "
        f"{busy / workers:.0%} of the wall time, a task took {mean_task:.2f} s on average "
        f"(single worker: {single.wall_s / single.checked:.2f} s per submission)"
    )
    for pid in sorted(set(pids[i] for i in order)):
        mine = [by_id[i]["timings"]["rss_mb"] for i in order if pids.get(i) == pid and "rss_mb" in by_id[i]["timings"]]
        early = [by_id[i]["timings"]["rss_mb"] for i in order[:100] if pids.get(i) == pid and "rss_mb" in by_id[i]["timings"]]
        if len(early) >= 10 and len(mine) > len(early):
            at_100, at_end = statistics.median(early[-25:]), statistics.median(mine[-25:])
            print(
                f"  worker {pid}: RSS {early[-1]:.0f} MB after the first 100 submissions, {mine[-1]:.0f} MB after its "
                f"{len(mine)} ({mine[-1] / early[-1] - 1:+.0%}); medians of its last 25 then and now {at_100:.0f} and "
                f"{at_end:.0f} MB ({at_end / at_100 - 1:+.0%}; target within 20%)"
            )
    failures = {r["id"]: r["reason"] for r in records if r["status"] != "ok"}
    print("  failed:", json.dumps(failures, indent=1)[:3000])
    return by_id


def compare_ray(venue: Path, names: list[str], scratch: Path, workers: int, size: int | None, by_id: dict[str, dict[str, Any]]) -> None:
    try:
        from auditex.batch.ray_pool import RayPool

        pool = RayPool("local", workers)
    except ValueError as error:
        print(f"ray: skipped ({error})")
        return
    subset = names[:size] if size else names
    ray_venue = listing(venue, subset, scratch / "ray.txt") if size else venue
    ray = run(ray_venue, scratch / "ray", pool)
    expected = [by_id[name] for name in subset]
    print(f"ray local: {ray.throughput.line()}")
    print(
        f"  records equal to the pool's, timings and nodes aside: {comparable(ray.records) == comparable(expected)} ({len(ray.records)} compared)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venue", type=Path, default=Path("/tmp/auditex-venue"))
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample", type=int, default=100, help="submissions in the single-worker run (the first ones)")
    parser.add_argument("--ray-size", type=int, help="submissions in the Ray run (default: all)")
    parser.add_argument("--ray-only", action="store_true", help="compare Ray with the pool results of an earlier run")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray run")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--reuse", action="store_true", help="keep an existing venue of the right size")
    arguments = parser.parse_args()
    venue, scratch = arguments.venue, arguments.venue.parent / f"{arguments.venue.name}-results"
    scratch.mkdir(exist_ok=True)

    started = time.monotonic()
    if not ((arguments.reuse or arguments.ray_only) and venue.is_dir() and len(os.listdir(venue)) == arguments.size):
        make_venue(venue, arguments.size, arguments.corpus)
    names = sorted(os.listdir(venue))
    print(f"venue: {len(names)} submissions in {venue} ({time.monotonic() - started:.0f} s to make)")
    if arguments.ray_only:
        by_id = {r["id"]: r for r in map(json.loads, (scratch / "pool" / "findings.jsonl").read_text().splitlines())}
    else:
        by_id = measure_pool(venue, names, scratch, arguments.workers, arguments.sample)
    if not arguments.no_ray:
        compare_ray(venue, names, scratch, arguments.workers, arguments.ray_size, by_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
