"""Paired speed: this tree (A) against a named commit (B), side by side in one run, A B A B.

Two measurements, each alternating the two installs so that a shared, noisy machine slows both alike:

- **keystroke**: both language servers run at once, each on its own copy of a corpus paper with an
  empty cache directory; the section file is opened in both and, edit by edit, one character is
  typed into A, its publishDiagnostics awaited, then the same character into B (lsp_latency.py's
  probe). Latencies are from didChange to that file's publishDiagnostics, net of the debounce
  (`--debounce-ms`, default the editor's 200). Then an undefined `\\ref{...}` is inserted (one
  change) and the time until a published diagnostic names its label is taken, alternately too.
  Every round starts both servers anew.
- **cold**: `auditex check PAPER` in a new process with an empty cache directory and
  AUDITEX_NO_CACHE=1, A then B then ChkTeX (`chktex -q` on each root file), as CPU seconds
  (user + system of the process and the children it waited for) and wall seconds.

- **instructions** (`--instructions`): the cold check of each paper once more per side under valgrind's
  cachegrind, counting the instructions the process and its children execute. A count does not move
  with the machine's load, so it shows a change of a few percent that CPU seconds on a shared machine
  hide; it is not time (code that misses the caches costs more per instruction), so the CPU ratio
  stays the target. Needs `apt-get install -y valgrind`; a run takes some 50 times the check's CPU.

Every figure is the median over rounds; every ratio is the median of the ratios of the pairs
(A/B of one round, or of one keystroke), which is what a loaded machine leaves meaningful.

The commit is installed once into its own venv under the cache folder (`git archive` of it,
`pip install` of that), and reused while it is there. A is this working tree as it is: the
running interpreter (which must have auditex's dependencies: the test extra's venv) with this
tree on PYTHONPATH as `auditex`, so it does not matter which auditex that venv installed.

    python benchmarks/paired_speed.py [--baseline 5da6867] [--keystroke PAPER[:FILE] ...]
        [--cold PAPER ...] [--rounds 3] [--edits 20] [--refs 2] [--instructions] [--json OUT.json]

ChkTeX is a Debian package: `apt-get install -y chktex` (without it, its column says so).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import fcntl
import hashlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_BASELINE = "5da6867"
DEFAULT_KEYSTROKE = ["nips24_mllm_actions:sections/experiments.tex"]
DEFAULT_COLD = ["nips24_imprecise_labels"]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "auditex-paired"
if str(HERE) not in sys.path:  # lsp_latency.py, the probe this generalises
    sys.path.insert(0, str(HERE))
CHKTEX_HINT = "chktex is not installed: apt-get install -y chktex (Debian package)"


@dataclass
class Side:
    """One install under test: how to start its auditex."""

    name: str  # "A" or "B"
    label: str  # what it is: "working tree" or a commit
    python: str
    env: dict[str, str] = field(default_factory=dict)  # on top of a clean environment

    def command(self, *arguments: str) -> list[str]:
        return [self.python, "-m", "auditex.cli.main", *arguments]

    def environment(self, cache_dir: Path, **extra: str) -> dict[str, str]:
        base = {key: value for key, value in os.environ.items() if not key.startswith("AUDITEX_") and key != "PYTHONPATH"}
        return {**base, **self.env, "AUDITEX_CACHE_DIR": str(cache_dir), **extra}

    def where(self) -> str:
        """The folder its `import auditex` resolves to (printed, so a wrong install is seen)."""
        done = subprocess.run(
            [self.python, "-c", "import auditex, os; print(os.path.dirname(auditex.__file__))"],
            env=self.environment(Path(tempfile.gettempdir())),
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()


# Installs


def resolve(commit: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"not a commit of this repository: {commit}")
    return done.stdout.strip()


def install_commit(commit: str, cache: Path, name: str = "B") -> Side:
    """The commit in its own venv under `cache`, built once (git archive, pip install) and reused."""
    sha = resolve(commit)
    home = cache / sha[:12]
    python = home / "venv" / "bin" / "python"
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / f"{sha[:12]}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two runs started together build it once
        if not (home / "ready").is_file():
            print(f"installing {sha[:12]} into {home} (once) ...", file=sys.stderr)
            shutil.rmtree(home, ignore_errors=True)
            (home / "src").mkdir(parents=True)
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha], stdout=subprocess.PIPE, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(home / "src")], input=archive, check=True)
            subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", str(home / "src")], check=True)
            (home / "ready").write_text(sha + "\n")
    return Side(name, sha[:12], str(python))


def working_tree(cache: Path, name: str = "A") -> Side:
    """This tree, importable as `auditex` through a link on PYTHONPATH, its bytecode compiled (as an install's is)."""
    link_home = cache / "tree" / hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]
    link = link_home / "auditex"
    if not link.is_symlink() or link.resolve() != ROOT:
        link_home.mkdir(parents=True, exist_ok=True)
        link.unlink(missing_ok=True)
        link.symlink_to(ROOT, target_is_directory=True)
    compileall.compile_dir(ROOT, quiet=1, rx=re.compile(r"/(?:\.venv|node_modules|\.git)/"))
    return Side(name, "working tree", sys.executable, {"PYTHONPATH": str(link_home)})


def side_of(spec: str, cache: Path, name: str) -> Side:
    return working_tree(cache, name) if spec in (".", "tree", "worktree") else install_commit(spec, cache, name)


# Statistics


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else float("nan")


def paired_ratio(a: list[float], b: list[float]) -> float:
    """The median of a[i] / b[i] over the pairs (nan when there are none)."""
    ratios = [x / y for x, y in zip(a, b, strict=True) if y > 0]
    return median(ratios)


# Papers


def paper_copy(corpus: Path, name: str, work: Path) -> Path:
    source = corpus / name
    if not source.is_dir():
        raise SystemExit(f"corpus paper not found: {source}")
    folder = work / name
    shutil.copytree(source, folder)
    return folder


def tex_size_kb(folder: Path) -> int:
    return round(sum(path.stat().st_size for path in folder.rglob("*.tex")) / 1024)


_DOCUMENTCLASS = re.compile(r"^[ \t]*\\documentclass", re.MULTILINE)


def roots(folder: Path) -> list[str]:
    """The .tex files that start a document (what ChkTeX is run on; it follows \\input itself)."""
    found = []
    for path in sorted(folder.rglob("*.tex")):
        if _DOCUMENTCLASS.search(path.read_text(encoding="utf-8", errors="replace")):
            found.append(path.relative_to(folder).as_posix())
    return found


def section_file(folder: Path, given: str | None) -> str:
    """The file typed into: the one given, else the largest .tex file with prose that is not a root (else a root)."""
    if given:
        if not (folder / given).is_file():
            raise SystemExit(f"no file {given} in {folder.name}")
        return given
    import lsp_latency as probe

    starts = set(roots(folder))
    by_size = sorted(folder.rglob("*.tex"), key=lambda path: (path.relative_to(folder).as_posix() not in starts, path.stat().st_size))
    for path in reversed(by_size):
        try:
            probe.prose_line(path.read_text(encoding="utf-8", errors="replace").split("\n"))
        except ValueError:
            continue
        return path.relative_to(folder).as_posix()
    raise SystemExit(f"no file of {folder.name} has a line of prose to type into")


# The keystroke path


@dataclass
class _Server:
    side: Side
    client: Any
    published: asyncio.Queue[tuple[float, str]]
    uri: str
    line: int
    character: int = 0
    version: int = 1


async def _settle(published: asyncio.Queue[tuple[float, str]], quiet: float = 1.0, limit: float = 120.0) -> None:
    """Wait until no diagnostics were published for `quiet` seconds (the first analysis is over)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        try:
            await asyncio.wait_for(published.get(), quiet)
        except TimeoutError:
            return


def _drain(published: asyncio.Queue[tuple[float, str]]) -> None:
    while not published.empty():
        published.get_nowait()


async def _open(side: Side, folder: Path, file: str, cache_dir: Path, debounce_ms: int) -> _Server:
    import lsp_latency as probe

    client, published = await probe.start(folder, debounce_ms=debounce_ms, command=side.command("serve"), env=side.environment(cache_dir))
    uri, lines = probe.open_document(client, folder / file)
    await probe.wait_for_uri(published, uri, timeout=600)
    await _settle(published)
    return _Server(side, client, published, uri, probe.prose_line(lines))


async def _keystroke(server: _Server, key: str) -> tuple[float, float]:
    """Seconds from typing `key` until the file's first publish, and until the server is idle (its check
    published whole: a server that publishes in stages publishes its quick rules first)."""
    import lsp_latency as probe

    _drain(server.published)
    server.version += 1
    sent = probe.type_at(server.client, server.uri, server.version, server.line, server.character, key)
    server.character += 1
    first = await probe.wait_for_uri(server.published, server.uri)
    return first - sent, (await probe.wait_for_uri(server.published, probe.IDLE)) - sent


async def _undefined_ref(server: _Server, label: str) -> float:
    """Seconds from inserting `\\ref{label}` (one change) until a published diagnostic of the file names it."""
    import lsp_latency as probe

    _drain(server.published)
    server.version += 1
    text = f"\\ref{{{label}}} "
    sent = probe.type_at(server.client, server.uri, server.version, server.line, 0, text)
    server.character += len(text)
    while True:
        stamp = await probe.wait_for_uri(server.published, server.uri, timeout=120)
        if any(label in diagnostic.message for diagnostic in server.client.diagnostics.get(server.uri, [])):
            await probe.wait_for_uri(server.published, probe.IDLE)  # the other side is timed on a quiet server
            return stamp - sent


async def keystroke_round(
    corpus: Path, paper: str, file: str | None, sides: list[Side], edits: int, refs: int, debounce_ms: int, round_: int
) -> dict[str, dict[str, list[float]]]:
    """One round: both servers started anew on their own copies, then edits and refs alternated A B A B."""
    work = Path(tempfile.mkdtemp(prefix="auditex-paired-"))
    servers: list[_Server] = []
    try:
        for side in sides:
            folder = paper_copy(corpus, paper, work / side.name)
            servers.append(await _open(side, folder, section_file(folder, file), work / side.name / "cache", debounce_ms))
        result: dict[str, dict[str, list[float]]] = {side.name: {"edits": [], "settled": [], "refs": []} for side in sides}
        keys = "abcdefghij"
        for index in range(edits):
            for server in servers:
                first, settled = await _keystroke(server, keys[index % len(keys)])
                result[server.side.name]["edits"].append(1000 * first - debounce_ms)
                result[server.side.name]["settled"].append(1000 * settled - debounce_ms)
        for index in range(refs):
            for server in servers:
                label = f"auditex-paired-undefined-{round_}-{index}"
                result[server.side.name]["refs"].append(1000 * (await _undefined_ref(server, label)) - debounce_ms)
        return result
    finally:
        for server in servers:
            try:
                await asyncio.wait_for(server.client.shutdown_session(), 30)
                await server.client.stop()
            except Exception:  # a benchmark's clean-up must not hide its result
                pass
        shutil.rmtree(work, ignore_errors=True)


def keystroke_row(paper: str, file: str, kb: int, rounds: list[dict[str, dict[str, list[float]]]]) -> dict[str, Any]:
    """Medians over rounds, and the medians of paired ratios: per round (p50, p95, ref) and per keystroke."""
    row: dict[str, Any] = {"paper": paper, "file": file, "kb": kb, "rounds": len(rounds), "raw": rounds}
    for name in ("A", "B"):
        row[f"{name}_p50"] = median([median(r[name]["edits"]) for r in rounds])
        row[f"{name}_p95"] = median([p95(r[name]["edits"]) for r in rounds])
        row[f"{name}_ref"] = median([median(r[name]["refs"]) for r in rounds])
        row[f"{name}_settled_p95"] = median([p95(r[name]["settled"]) for r in rounds])
    row["ratio_p50"] = paired_ratio([median(r["A"]["edits"]) for r in rounds], [median(r["B"]["edits"]) for r in rounds])
    row["ratio_p95"] = paired_ratio([p95(r["A"]["edits"]) for r in rounds], [p95(r["B"]["edits"]) for r in rounds])
    row["ratio_settled_p95"] = paired_ratio([p95(r["A"]["settled"]) for r in rounds], [p95(r["B"]["settled"]) for r in rounds])
    row["ratio_ref"] = paired_ratio([median(r["A"]["refs"]) for r in rounds], [median(r["B"]["refs"]) for r in rounds])
    row["ratio_edit"] = paired_ratio([x for r in rounds for x in r["A"]["edits"]], [x for r in rounds for x in r["B"]["edits"]])
    return row


# The cold check


def cpu_run(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of a process and the children it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def cold_round(corpus: Path, paper: str, sides: list[Side], chktex: str | None) -> dict[str, tuple[float, float]]:
    work = Path(tempfile.mkdtemp(prefix="auditex-paired-"))
    try:
        folder = paper_copy(corpus, paper, work)
        result = {}
        for side in sides:
            cache_dir = work / f"cache-{side.name}"
            result[side.name] = cpu_run(side.command("check", str(folder)), env=side.environment(cache_dir, AUDITEX_NO_CACHE="1"))
            shutil.rmtree(cache_dir, ignore_errors=True)
        if chktex:
            runs = [cpu_run([chktex, "-q", root], cwd=folder) for root in roots(folder)]
            result["chktex"] = (sum(cpu for cpu, _ in runs), sum(wall for _, wall in runs))
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def instructions(command: list[str], env: dict[str, str]) -> int:
    """The instructions `command` and the children it starts execute, as valgrind's cachegrind counts them."""
    probe = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run([*probe, *command], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    counts = re.findall(r"^==\d+== I\s+refs:\s+([\d,]+)", done.stderr, re.MULTILINE)
    if not counts:
        raise RuntimeError(f"valgrind counted nothing for {' '.join(command)}: {done.stderr[-500:]}")
    return sum(int(count.replace(",", "")) for count in counts)


def cold_instructions(corpus: Path, paper: str, sides: list[Side]) -> dict[str, int]:
    work = Path(tempfile.mkdtemp(prefix="auditex-paired-"))
    try:
        folder = paper_copy(corpus, paper, work)
        return {
            side.name: instructions(side.command("check", str(folder)), side.environment(work / f"cache-{side.name}", AUDITEX_NO_CACHE="1"))
            for side in sides
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cold_row(paper: str, kb: int, rounds: list[dict[str, tuple[float, float]]]) -> dict[str, Any]:
    row: dict[str, Any] = {"paper": paper, "kb": kb, "rounds": len(rounds), "raw": rounds}
    names = ["A", "B"] + (["chktex"] if rounds and "chktex" in rounds[0] else [])
    for name in names:
        row[f"{name}_cpu"] = median([r[name][0] for r in rounds])
        row[f"{name}_wall"] = median([r[name][1] for r in rounds])
    row["ratio_cpu"] = paired_ratio([r["A"][0] for r in rounds], [r["B"][0] for r in rounds])
    row["ratio_wall"] = paired_ratio([r["A"][1] for r in rounds], [r["B"][1] for r in rounds])
    row["ratio_chktex"] = paired_ratio([r["A"][0] for r in rounds], [r["chktex"][0] for r in rounds]) if "chktex" in names else None
    return row


# The report


def report(sides: list[Side], keystroke: list[dict[str, Any]], cold: list[dict[str, Any]], load: tuple[float, float, float]) -> str:
    out = [f"A: {sides[0].label} ({sides[0].python})", f"B: {sides[1].label} ({sides[1].python})"]
    out.append(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    if keystroke:
        out += [
            "",
            "Keystroke path (ms net of the debounce, medians over rounds; ratios: median of paired A/B)",
            "",
            "| paper | file | KB | rounds × edits | A p50 | A p95 | B p50 | B p95 | p50 A/B | p95 A/B | per-key A/B | A \\ref | B \\ref | \\ref A/B "
            "| A settled p95 | B settled p95 | settled p95 A/B |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in keystroke:
            edits = len(row["raw"][0]["A"]["edits"]) if row["raw"] else 0
            out.append(
                f"| {row['paper']} | {row['file']} | {row['kb']} | {row['rounds']} × {edits} | {row['A_p50']:.0f} | {row['A_p95']:.0f} | "
                f"{row['B_p50']:.0f} | {row['B_p95']:.0f} | {row['ratio_p50']:.2f} | {row['ratio_p95']:.2f} | {row['ratio_edit']:.2f} | "
                f"{row['A_ref']:.0f} | {row['B_ref']:.0f} | {row['ratio_ref']:.2f} | {row['A_settled_p95']:.0f} | {row['B_settled_p95']:.0f} | "
                f"{row['ratio_settled_p95']:.2f} |"
            )
    if cold:
        out += [
            "",
            "Cold `auditex check` (CPU s, medians over rounds; ratios: median of paired ratios)",
            "",
            "| paper | KB | rounds | A CPU | B CPU | CPU A/B | A wall | B wall | wall A/B | ChkTeX CPU | A/ChkTeX |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in cold:
            chktex = f"{row['chktex_cpu']:.3f} | {row['ratio_chktex']:.0f}×" if row.get("ratio_chktex") is not None else "absent | –"
            out.append(
                f"| {row['paper']} | {row['kb']} | {row['rounds']} | {row['A_cpu']:.2f} | {row['B_cpu']:.2f} | {row['ratio_cpu']:.2f} | "
                f"{row['A_wall']:.2f} | {row['B_wall']:.2f} | {row['ratio_wall']:.2f} | {chktex} |"
            )
        if cold[0].get("ratio_chktex") is None:
            out += ["", CHKTEX_HINT]
        counted = [row for row in cold if "instructions" in row]
        if counted:
            out += ["", "Cold `auditex check`, instructions executed (valgrind, one run a side)", ""]
            out += ["| paper | A (G) | B (G) | A/B |", "|---|---:|---:|---:|"]
            for row in counted:
                a, b = row["instructions"]["A"], row["instructions"]["B"]
                out.append(f"| {row['paper']} | {a / 1e9:.3f} | {b / 1e9:.3f} | {a / b:.3f} |")
    return "\n".join(out)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="B: a commit (default %(default)s)")
    parser.add_argument("--candidate", default=".", help="A: '.' for this working tree (default) or a commit")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where installed commits are kept (default %(default)s)")
    parser.add_argument(
        "--keystroke",
        nargs="*",
        default=DEFAULT_KEYSTROKE,
        metavar="PAPER[:FILE]",
        help="papers (and the file typed into) for the keystroke path",
    )
    parser.add_argument("--cold", nargs="*", default=DEFAULT_COLD, metavar="PAPER", help="papers for the cold check")
    parser.add_argument("--rounds", type=int, default=3, help="pairs per paper (each starts A and B anew)")
    parser.add_argument("--edits", type=int, default=20, help="keystrokes per round and side")
    parser.add_argument("--refs", type=int, default=2, help="undefined \\ref insertions per round and side")
    parser.add_argument("--debounce-ms", type=int, default=200, help="the servers' debounce, subtracted from every latency")
    parser.add_argument("--json", type=Path, help="also write every measurement here")
    parser.add_argument("--instructions", action="store_true", help="also count the cold checks' instructions under valgrind")
    parsed = parser.parse_args(argv)
    if parsed.rounds < 1 or parsed.edits < 1 or parsed.refs < 0 or parsed.debounce_ms < 0:
        parser.error("--rounds and --edits must be at least 1, --refs and --debounce-ms at least 0")
    return parsed


def split_paper(spec: str) -> tuple[str, str | None]:
    paper, _, file = spec.partition(":")
    return paper, file or None


def main(argv: list[str] | None = None) -> None:
    options = arguments(argv)
    if not options.corpus.is_dir():
        sys.exit(f"no corpus at {options.corpus}")
    sides = [side_of(options.candidate, options.cache, "A"), side_of(options.baseline, options.cache, "B")]
    for side in sides:
        print(f"{side.name} = {side.label}: auditex from {side.where()}", file=sys.stderr)
    if options.instructions and not shutil.which("valgrind"):
        sys.exit("--instructions counts with valgrind: apt-get install -y valgrind")
    chktex = shutil.which("chktex")
    if options.cold and not chktex:
        print(CHKTEX_HINT, file=sys.stderr)
    keystroke_rows: list[dict[str, Any]] = []
    cold_rows: list[dict[str, Any]] = []
    for spec in options.keystroke:
        paper, file = split_paper(spec)
        chosen = section_file(options.corpus / paper, file)
        rounds = []
        for round_ in range(options.rounds):
            rounds.append(
                asyncio.run(keystroke_round(options.corpus, paper, chosen, sides, options.edits, options.refs, options.debounce_ms, round_))
            )
            print(f"keystroke {paper} round {round_ + 1}/{options.rounds} done", file=sys.stderr)
        keystroke_rows.append(keystroke_row(paper, chosen, tex_size_kb(options.corpus / paper), rounds))
        save(options.json, sides, keystroke_rows, cold_rows)  # a long run interrupted keeps the papers it finished
    for paper in options.cold:
        cold_rounds: list[dict[str, tuple[float, float]]] = []
        for round_ in range(options.rounds):
            cold_rounds.append(cold_round(options.corpus, paper, sides, chktex))
            print(f"cold {paper} round {round_ + 1}/{options.rounds} done", file=sys.stderr)
        cold_rows.append(cold_row(paper, tex_size_kb(options.corpus / paper), cold_rounds))
        if options.instructions:
            cold_rows[-1]["instructions"] = cold_instructions(options.corpus, paper, sides)
        save(options.json, sides, keystroke_rows, cold_rows)
    print(report(sides, keystroke_rows, cold_rows, os.getloadavg()))


def save(path: Path | None, sides: list[Side], keystroke: list[dict[str, Any]], cold: list[dict[str, Any]]) -> None:
    """The report so far on stderr, and with `--json` every measurement so far."""
    print(report(sides, keystroke, cold, os.getloadavg()), file=sys.stderr, flush=True)
    if path is not None:
        path.write_text(json.dumps({"sides": [side.__dict__ for side in sides], "keystroke": keystroke, "cold": cold}, indent=1))


if __name__ == "__main__":
    main()
