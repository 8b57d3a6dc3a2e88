"""Work on a runaway input stays near-linear: a single-line file dense with `\\ref`s and numbers, checked cold
at doubling sizes.

Run: python benchmarks/runaway_input.py [--sizes 50,100,200,400] (KB)
Reports each size's CPU seconds (of a fresh process: the check alone) and the growth exponent between
consecutive sizes: 1 is linear, 2 quadratic. Target: every exponent ≤ 1.3.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path


def runaway_text(size: int) -> str:
    """About `size` characters on one line: each sentence refers to a table and a section and gives three numbers."""
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
    return "\\documentclass{article}\n\\begin{document}\n" + "".join(sentences) + "\n\\end{document}\n"


def cpu_seconds(folder: Path) -> float:
    """CPU time of `auditex check` on `folder`, in a process of its own."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--no-cache", "--fail-on", "never"]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,100,200,400", help="sizes in KB, comma-separated, smallest first")
    sizes = [int(size) * 1000 for size in parser.parse_args().sizes.split(",")]
    previous: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as temporary:
        for size in sizes:
            folder = Path(temporary) / str(size)
            folder.mkdir()
            (folder / "main.tex").write_text(runaway_text(size), encoding="utf-8")
            seconds = cpu_seconds(folder)
            growth = f"{math.log(seconds / previous[1]) / math.log(size / previous[0]):.2f}" if previous else "-"
            print(f"{size // 1000:>6} KB  {seconds:7.2f} s CPU  growth exponent {growth}", flush=True)
            previous = (size, seconds)


if __name__ == "__main__":
    main()
