"""Work on a runaway input stays near-linear: a file dense with `\\ref`s and numbers, on one line or
wrapped at 120 columns, checked cold at doubling sizes.

Run: python benchmarks/runaway_input.py [--sizes 50,100,200,400] (KB) [--wrap] [--timeout 600] [--phases]
Reports each size's CPU seconds and peak memory (of a fresh process: the check alone, its parse workers
included) and the growth exponent between consecutive sizes: 1 is linear, 2 quadratic. Target: every
exponent ≤ 1.3. A check past --timeout seconds is stopped and said to be. --phases adds where the CPU
went (parse, manuscript and index, the rules, the five costliest rules), from check_speed.py's split.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path


def runaway_text(size: int, wrap: bool = False) -> str:
    """About `size` characters: each sentence refers to a table and a section and gives three numbers,
    all on one line or wrapped at 120 columns."""
    pick = random.Random(1)
    sentences, length, index = [], 0, 0
    while length < size:
        sentence = (
            f"In Table~\\ref{{tab:t{index % 50}}} the score is {pick.uniform(0, 100):.1f} and the loss {pick.uniform(0, 5):.2f} "
            f"over {pick.randint(2, 900)} runs (Section~\\ref{{sec:s{index % 30}}}). "
        )
        sentences.append(sentence)
        length += len(sentence)
        index += 1
    body = "".join(sentences)
    if wrap:
        body = "\n".join(textwrap.wrap(body, 120, break_long_words=False, break_on_hyphens=False))
    return "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def measured(command: list[str], timeout: float) -> tuple[float, float, bool, str]:
    """CPU seconds, peak RSS in MB, whether it finished within `timeout` seconds, and what it printed."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True, text=True)
    timer = threading.Timer(timeout, os.killpg, (process.pid, signal.SIGKILL))
    timer.start()
    output = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    finished = os.waitstatus_to_exitcode(status) >= 0
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, finished, output


def phases(output: str) -> str:
    """check_speed.py's split of one cold check, as one line."""
    split = json.loads(output.strip().splitlines()[-1])
    costly = sorted(split["rules"].items(), key=lambda item: -item[1])[:5]
    named = ["parse", "manuscript+index", "rules"]
    return (
        "  ".join(f"{name} {split['phases'][name] / 1000:.1f}" for name in named)
        + "  ("
        + ", ".join(f"{code} {ms / 1000:.1f}" for code, ms in costly)
        + ")"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,100,200,400", help="sizes in KB, comma-separated, smallest first")
    parser.add_argument("--wrap", action="store_true", help="wrap the text at 120 columns instead of one line")
    parser.add_argument("--timeout", type=float, default=600.0, help="stop a check after this many seconds")
    parser.add_argument("--phases", action="store_true", help="also split each check's CPU by phase and rule")
    arguments = parser.parse_args()
    sizes = [int(size) * 1000 for size in arguments.sizes.split(",")]
    previous: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as temporary:
        for size in sizes:
            folder = Path(temporary) / str(size)
            folder.mkdir()
            (folder / "main.tex").write_text(runaway_text(size, arguments.wrap), encoding="utf-8")
            if arguments.phases:
                command = [sys.executable, str(Path(__file__).with_name("check_speed.py")), "--phases-of", str(folder)]
            else:
                command = [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--no-cache", "--fail-on", "never"]
            seconds, megabytes, finished, output = measured(command, arguments.timeout)
            if not finished:
                print(
                    f"{size // 1000:>6} KB  stopped after {arguments.timeout:.0f} s ({seconds:.0f} s CPU, {megabytes:.0f} MB)", flush=True
                )
                previous = None
                continue
            growth = f"{math.log(seconds / previous[1]) / math.log(size / previous[0]):.2f}" if previous else "-"
            split = f"  {phases(output)}" if arguments.phases else ""
            print(f"{size // 1000:>6} KB  {seconds:7.2f} s CPU  {megabytes:6.0f} MB peak  growth exponent {growth}{split}", flush=True)
            previous = (size, seconds)


if __name__ == "__main__":
    main()
