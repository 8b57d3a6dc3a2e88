"""`auditex serve`: the initialize answer, and the first diagnostics on opening and on reopening a paper.

Starts the server three times on one private copy of the paper with one cache directory: first
with an empty analysis cache (cold), then twice more (reopening, served by the cache). Reports,
per start, the seconds from launching the process to the `initialize` answer and to the first
diagnostics of the paper's largest file. Targets: initialize ≤ 0.5 s, reopening ≤ 25 % of cold.
Run: python benchmarks/server_reopen.py [--paper hott_book]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_latency import paper_copy, start, wait_for_uri


async def one_start(folder: Path, target: Path) -> tuple[float, float]:
    launched = time.perf_counter()
    client, published = await start(folder)
    initialized = time.perf_counter() - launched
    await wait_for_uri(published, target.as_uri(), timeout=600)
    first = time.perf_counter() - launched
    await client.shutdown_session()
    await client.stop()
    return initialized, first


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default="hott_book")
    arguments = parser.parse_args()
    folder = paper_copy(arguments.paper)
    os.environ["AUDITEX_CACHE_DIR"] = tempfile.mkdtemp(prefix="auditex-cache-")
    os.environ.pop("AUDITEX_NO_CACHE", None)
    target = max(folder.rglob("*.tex"), key=lambda path: path.stat().st_size)
    rows = [("cold", *await one_start(folder, target))]
    for number in (1, 2):
        rows.append((f"reopen {number}", *await one_start(folder, target)))
    shutil.rmtree(folder.parent, ignore_errors=True)
    shutil.rmtree(os.environ["AUDITEX_CACHE_DIR"], ignore_errors=True)
    cold = rows[0][2]
    print("| start | initialize answer (s) | first diagnostics (s) | of cold |")
    print("|---|---:|---:|---:|")
    for name, initialized, first in rows:
        print(f"| {name} | {initialized:.2f} | {first:.2f} | {first / cold:.0%} |")


if __name__ == "__main__":
    asyncio.run(main())
