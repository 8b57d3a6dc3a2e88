"""`auditex check --online` with nothing reachable: it ends within seconds, asks again next time,
and every report format says how many references went unchecked and why (the real command)."""

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest
from helpers import document, write_project

from auditex.analyzers.scholarly.http import HttpClient, ServiceUnavailable

SERVICES = ("OPENALEX", "CROSSREF", "ARXIV", "DBLP", "S2")
BIB = "".join(
    f"@article{{k{n}, title={{A study of thing number {n}}}, author={{Author, Ann}}, journal={{J}}, year={{2020}}}}\n" for n in range(6)
)


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on any more: connecting is refused at once."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


def run_check(folder, port: int, *arguments: str) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, **{f"AUDITEX_{name}_URL": f"http://127.0.0.1:{port}" for name in SERVICES}}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--no-cache", *arguments],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return done, time.monotonic() - started


def test_nothing_reachable_ends_in_seconds_and_every_format_says_what_went_unchecked(tmp_path, closed_port):
    cites = "".join(f"\\cite{{k{n}}} " for n in range(6))
    folder = write_project(tmp_path / "paper", {"main.tex": document(cites + "\n\\bibliography{refs}"), "refs.bib": BIB})
    sentence = "6 of 6 references could not be checked, so nothing is claimed about them: "
    reports = {}
    _, offline = run_check(folder, closed_port, "--fail-on", "never")  # what starting and checking cost here
    for report_format in ("text", "markdown", "json", "sarif"):
        output = tmp_path / f"report.{report_format}"
        done, elapsed = run_check(folder, closed_port, "--online", "--format", report_format, "-o", str(output), "--fail-on", "never")
        assert done.returncode == 0, done.stderr
        assert elapsed < offline + 20  # seconds, even on a loaded machine (retrying every service took a minute)
        assert sentence in done.stderr and "BIB001" not in output.read_text()  # no fabrication claimed
        reports[report_format] = output.read_text()
    for text in (reports["text"], reports["markdown"]):
        [line] = [line for line in text.splitlines() if sentence in line]
        # Each unreachable service is named once, however many of its requests failed.
        named = re.findall(r"(\w+) is unreachable \(the connection was refused or failed\)", line)
        assert named and len(named) == len(set(named)) and line.endswith(").")
    references = json.loads(reports["json"])["references"]
    assert references["unchecked"] == 6 and references["unchecked_because"].startswith(sentence)
    assert references["requests"] >= 1  # asked again: "could not check" is never cached
    [notification] = json.loads(reports["sarif"])["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"].startswith(sentence)


def test_a_service_refusing_the_connection_is_down_after_its_first_failure(closed_port):
    async def ask_twice() -> tuple[list[str], int]:
        async with HttpClient(retries=3, backoff_s=1.0) as http:
            reasons = []
            for _ in range(2):
                with pytest.raises(ServiceUnavailable) as caught:
                    await http.get_json("OpenAlex", f"http://127.0.0.1:{closed_port}/works")
                reasons.append(str(caught.value))
            return reasons, http.stats.requests

    started = time.monotonic()
    reasons, requests = asyncio.run(ask_twice())
    assert requests == 1 and time.monotonic() - started < 2  # no retry, no backoff, and not asked again
    assert reasons == ["OpenAlex is unreachable (the connection was refused or failed)."] * 2
