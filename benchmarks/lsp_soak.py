"""Soak test of `auditex serve`: thousands of keystrokes, then compare with a cold check.

Types `--edits` characters (default 2,000) into a chapter at `--delay-ms` per key
(default 60 ms: faster than a human, to fit in a few minutes), pausing every
`--burst` keys so analyses run with the default 200 ms debounce. Reports the
server's RSS growth and whether its final diagnostics equal a cold
`check_path` of the same texts. Run: python benchmarks/lsp_soak.py
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).parent))
from lsp_latency import open_document, paper_copy, prose_line, start, type_at, wait_for_uri

from auditex.analyzers.path_check import check_path

if TYPE_CHECKING:
    from pytest_lsp.client import LanguageClient


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def shown(client: LanguageClient, folder: Path) -> set[tuple[str, str, int, int, str]]:
    return {
        (
            Path(uri.removeprefix("file://")).relative_to(folder).as_posix(),
            str(d.code),
            d.range.start.line,
            d.range.start.character,
            d.message,
        )
        for uri, diagnostics in client.diagnostics.items()
        for d in diagnostics
    }


def cold(folder: Path) -> set[tuple[str, str, int, int, str]]:
    return {(f.file, f.code, f.range.start.line, f.range.start.character, f.message) for f in check_path(folder).findings}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default="hott_book")
    parser.add_argument("--file", default="basics.tex")
    parser.add_argument("--edits", type=int, default=2000)
    parser.add_argument("--delay-ms", type=int, default=60)
    parser.add_argument("--burst", type=int, default=100, help="keys between pauses of one second")
    arguments = parser.parse_args()
    folder = paper_copy(arguments.paper)
    client, published = await start(folder, debounce_ms=200)
    assert client._server is not None  # the server process, started by start()
    pid = client._server.pid
    path = folder / arguments.file
    await wait_for_uri(published, path.as_uri(), timeout=300)
    uri, lines = open_document(client, path)
    await wait_for_uri(published, uri)
    rss_start = rss_mb(pid)
    line = prose_line(lines)
    started = time.perf_counter()
    typed = ""
    for index in range(arguments.edits):
        character = "the quick brown fox jumps over the lazy dog "[index % 44]
        type_at(client, uri, index + 2, line, len(typed), character)
        typed += character
        await asyncio.sleep(arguments.delay_ms / 1000)
        if (index + 1) % arguments.burst == 0:
            await asyncio.sleep(1.0)
    typing_seconds = time.perf_counter() - started
    while True:  # the last analysis: wait for a quiet period without publishes
        try:
            await asyncio.wait_for(published.get(), 10)
        except TimeoutError:
            break
    alive = client._server.returncode is None
    rss_end = rss_mb(pid)
    lines[line] = typed + lines[line]
    path.write_text("\n".join(lines), encoding="utf-8")  # the same texts, for the cold check
    equal = shown(client, folder) == cold(folder)
    await client.shutdown_session()
    await client.stop()
    shutil.rmtree(folder.parent, ignore_errors=True)
    print("| paper | edits | delay (ms) | typing (s) | alive | RSS start (MB) | RSS end (MB) | growth (MB) | final == cold |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {arguments.paper}/{arguments.file} | {arguments.edits} | {arguments.delay_ms} | {typing_seconds:.0f} | {alive} | "
        f"{rss_start:.0f} | {rss_end:.0f} | {rss_end - rss_start:+.0f} | {equal} |"
    )


if __name__ == "__main__":
    asyncio.run(main())
