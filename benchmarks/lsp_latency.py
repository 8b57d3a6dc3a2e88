"""Time from didChange to publishDiagnostics of `auditex serve`, debounce excluded.

Opens a chapter of the largest corpus paper, types single characters into it
and measures, per keystroke, the time until the server publishes that file's
diagnostics. debounceMs is set to 0, so the numbers are analysis time plus
JSON-RPC overhead. Run: python benchmarks/lsp_latency.py [--edits 100]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import client_capabilities
from pytest_lsp.client import LanguageClient

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SERVER = [sys.executable, "-m", "auditex.cli.main", "serve"]
# What the queue of `start` hears when the server says it is idle: every stage of its check is published.
IDLE = "auditex/status: idle"


async def start(
    folder: Path,
    debounce_ms: int = 0,
    disabled: tuple[str, ...] = (),
    command: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[LanguageClient, asyncio.Queue[tuple[float, str]]]:
    """A client of `command` (default: this interpreter's `auditex serve`) initialized on `folder`;
    its queue hears (time, uri) of every publishDiagnostics and (time, IDLE) of every idle status, and
    client.diagnostics keeps the last per uri."""
    client = LanguageClient(converter_factory=default_converter)
    published: asyncio.Queue[tuple[float, str]] = asyncio.Queue()

    def on_publish(params: lsp.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        published.put_nowait((time.perf_counter(), params.uri))

    client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(on_publish)
    client.feature(lsp.WORKSPACE_CONFIGURATION)(
        lambda params: [{"debounceMs": debounce_ms, "rules": {"disabled": list(disabled)}}] * len(params.items)
    )
    for method in (
        lsp.CLIENT_REGISTER_CAPABILITY,
        lsp.WINDOW_WORK_DONE_PROGRESS_CREATE,
        lsp.WINDOW_LOG_MESSAGE,
        lsp.PROGRESS,
    ):
        client.feature(method)(lambda params: None)
    client.feature("auditex/status")(
        lambda params: published.put_nowait((time.perf_counter(), IDLE)) if getattr(params, "state", None) == "idle" else None
    )
    await client.start_io(*(command or SERVER), env=env)
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=folder.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)],
        )
    )
    return client, published


async def wait_for_uri(published: asyncio.Queue[tuple[float, str]], uri: str, timeout: float = 120.0) -> float:
    while True:
        stamp, published_uri = await asyncio.wait_for(published.get(), timeout)
        if published_uri == uri:
            return stamp


def type_at(client: LanguageClient, uri: str, version: int, line: int, character: int, text: str) -> float:
    where = lsp.Range(start=lsp.Position(line=line, character=character), end=lsp.Position(line=line, character=character))
    sent = time.perf_counter()
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=where, text=text)],
        )
    )
    return sent


def open_document(client: LanguageClient, path: Path) -> tuple[str, list[str]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="latex", version=1, text=text))
    )
    return uri, text.split("\n")


def paper_copy(name: str) -> Path:
    source = CORPUS / name
    if not source.is_dir():
        raise SystemExit(f"corpus paper not found: {source}")
    folder = Path(tempfile.mkdtemp(prefix="auditex-bench-")) / name
    shutil.copytree(source, folder)
    return folder


def prose_line(lines: list[str]) -> int:
    """A line of plain prose in the middle of the file (or the nearest above it), to type into."""
    middle = len(lines) // 2
    order = [*range(middle, len(lines)), *range(middle - 1, -1, -1)]
    found: int | None = next((i for i in order if len(lines[i]) > 40 and not lines[i].lstrip().startswith(("%", "\\"))), None)
    if found is None:
        raise ValueError("no line of prose to type into")
    return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default="hott_book")
    parser.add_argument("--file", default="basics.tex")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--keys", default="abcdefghij", help="the characters typed, in turn (e.g. 'ab\\n' to press Enter every third key)")
    parser.add_argument("--no-rules", nargs="*", default=[], help="rule code prefixes to disable (to measure their cost)")
    arguments = parser.parse_args()
    folder = paper_copy(arguments.paper)
    started = time.perf_counter()
    client, published = await start(folder, disabled=tuple(arguments.no_rules))
    path = folder / arguments.file
    await wait_for_uri(published, path.as_uri(), timeout=300)
    ready = time.perf_counter() - started
    size_kb = path.stat().st_size // 1024
    uri, lines = open_document(client, path)
    await wait_for_uri(published, uri)
    line = prose_line(lines)
    keys = arguments.keys.encode().decode("unicode_escape")
    latencies = []
    character = 0
    for index in range(arguments.edits):
        key = keys[index % len(keys)]
        sent = type_at(client, uri, index + 2, line, character, key)
        line, character = (line + 1, 0) if key == "\n" else (line, character + 1)
        latencies.append((await wait_for_uri(published, uri)) - sent)
    await client.shutdown_session()
    await client.stop()
    shutil.rmtree(folder.parent, ignore_errors=True)
    latencies_ms = sorted(1000 * value for value in latencies)
    p95 = latencies_ms[max(0, round(0.95 * len(latencies_ms)) - 1)]
    print("| paper | file | edits | first diagnostics (s) | p50 (ms) | p95 (ms) | max (ms) |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {arguments.paper} | {arguments.file} ({size_kb} KB) | {len(latencies_ms)} | {ready:.1f} | "
        f"{statistics.median(latencies_ms):.0f} | {p95:.0f} | {latencies_ms[-1]:.0f} |"
    )


if __name__ == "__main__":
    asyncio.run(main())
