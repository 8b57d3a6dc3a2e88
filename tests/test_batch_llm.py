"""`auditex batch --llm-batch`: the audit's calls through the OpenAI and Anthropic batch APIs (loopback stand-ins)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from helpers import write_project
from llm_batch_server import LoopbackBatchServer, batch_server  # noqa: F401  (fixture)
from llm_server import Reply, verifier_answer
from sample_paper import FILES

from auditex.analyzers.llm.pricing import DEFAULT_PRICES
from auditex.batch.llm_batch import STATE_FILE
from auditex.batch.llm_phase import LLMBatchPhase
from auditex.batch.pool import LocalPool
from auditex.batch.run import BatchOptions, run_batch

CLAIM = "is significantly better than the dense baseline"


@pytest.fixture
def venue(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # a private answer cache
    folder = tmp_path / "venue"
    write_project(folder / "paper-a", FILES)
    write_project(folder / "paper-b", {**FILES, "main.tex": FILES["main.tex"].replace("81.2", "82.4")})
    return folder


def claim_finding(body: dict) -> str:
    return verifier_answer(body) or json.dumps(
        {
            "findings": [
                {
                    "type": "claim_distortion",
                    "section_location": "Abstract",
                    "error_location": CLAIM,
                    "evidence": [{"block_index": None, "quote": CLAIM}],
                    "explanation": "The abstract claims a significant gain that no test supports.",
                    "confidence": 0.9,
                    "proposed_fix": "",
                }
            ]
        }
    )


def batch_run(venue: Path, out: Path, server: LoopbackBatchServer, provider: str, mode: str = "fast", interrupt: bool = False):
    """Run the batch; with `interrupt`, stop its audit once a submitted batch is in the run's state file."""
    options = BatchOptions(mode=mode, llm=server.llm_options(provider), llm_batch=True)
    phase = LLMBatchPhase(mode, options.llm, poll_s=0.02, settle_s=0.2, env=server.env())
    if not interrupt:
        return run_batch(venue, out, LocalPool(1), options, llm_phase=phase), phase

    async def interrupted_once_submitted(store, specs):
        # Waits on the state, not the clock, so a loaded machine interrupts at the same point.
        audit = asyncio.ensure_future(phase.audit(store, specs))
        async with asyncio.timeout(60):
            while not audit.done() and not (server.batch_ids(provider) and (out / STATE_FILE).exists()):
                await asyncio.sleep(0.02)
        audit.cancel()
        raise TimeoutError

    with pytest.raises(TimeoutError):
        run_batch(venue, out, LocalPool(1), options, llm_phase=lambda store, specs: asyncio.run(interrupted_once_submitted(store, specs)))
    return None, phase


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_audit_goes_out_as_one_batch_at_half_price_and_is_cached(venue, tmp_path, batch_server, provider):
    batch_server.responder = claim_finding
    outcome, phase = batch_run(venue, tmp_path / "out", batch_server, provider)
    batch_id, verify_id = batch_server.batch_ids(provider)  # a round of detection, then one of verification
    custom_ids = [custom_id for custom_id, _ in batch_server.batches[batch_id]["requests"]]
    assert len(custom_ids) == 2 and all(len(c) == 64 for c in custom_ids) and len(set(custom_ids)) == 2
    assert all("false alarm" in json.dumps(body) for _, body in batch_server.batches[verify_id]["requests"])
    assert phase.collector.submitted == [batch_id, verify_id]

    price = DEFAULT_PRICES[batch_server.llm_options(provider)["model"]]
    for record in outcome.records:
        assert record["status"] == "ok" and "audit_s" in record["timings"]
        [stats] = record["run"]["stats"]
        detect, verify = stats["stages"]["detect"], stats["stages"]["verify"]
        assert (detect["calls"], detect["cache_hits"]) == (1, 0) and verify["calls"] + verify["cache_hits"] >= 1
        interactive = (stats["input_tokens"] * price.input_per_mtok + stats["output_tokens"] * price.output_per_mtok) / 1e6
        assert stats["cost_usd"] == pytest.approx(interactive / 2)
        llm = [f for f in record["findings"] if f["source"] == "llm"]
        assert [f["category"] for f in llm] == ["claim_distortion"]
        assert any(f["code"].startswith("SEC") for f in record["findings"])  # the checks' findings stay
    assert json.loads((tmp_path / "out" / STATE_FILE).read_text())["batches"][0]["id"] == batch_id

    again, _ = batch_run(venue, tmp_path / "again", batch_server, provider)
    assert batch_server.batch_ids(provider) == [batch_id, verify_id]  # every answer came from the cache
    first = {r["id"]: r["run"]["stats"][0] for r in outcome.records}
    assert all(r["run"]["stats"][0]["calls"] == 0 for r in again.records)
    assert all(r["run"]["stats"][0]["cache_hits"] == first[r["id"]]["calls"] + first[r["id"]]["cache_hits"] for r in again.records)


def test_an_interrupted_run_collects_its_batch_instead_of_sending_it_again(venue, tmp_path, batch_server):
    batch_server.held.set()
    out = tmp_path / "out"
    batch_run(venue, out, batch_server, "openai", interrupt=True)
    [batch_id] = batch_server.batch_ids("openai")
    assert not (out / "findings.jsonl").exists()  # the run stopped before merging
    assert json.loads((out / STATE_FILE).read_text())["batches"][0]["id"] == batch_id

    batch_server.held.clear()
    outcome, phase = batch_run(venue, out, batch_server, "openai")
    first, verify_id = batch_server.batch_ids("openai")
    assert first == batch_id and (phase.collector.resumed, phase.collector.submitted) == ([batch_id], [verify_id])
    assert len(batch_server.answered) > 2  # two detections, then their verifications
    assert all(r["status"] == "ok" and r["run"]["stats"][0]["stages"]["detect"]["calls"] == 1 for r in outcome.records)


def test_a_failed_request_is_asked_again_in_the_next_batch(venue, tmp_path, batch_server):
    failures = iter([Reply.server_error()])
    batch_server.responder = lambda body: verifier_answer(body) or next(failures, '{"findings": []}')
    outcome, phase = batch_run(venue, tmp_path / "out", batch_server, "anthropic")
    sent = [body for b in phase.collector.submitted for _, body in batch_server.batches[b]["requests"]]
    assert sum("false alarm" not in json.dumps(body) for body in sent) == 3  # two detections, one asked again
    assert sorted(r["run"]["stats"][0]["retries"] for r in outcome.records) == [0, 1]
    assert all(r["status"] == "ok" and not r["run"]["failed_units"] for r in outcome.records)


def test_standard_mode_sends_one_batch_per_round(venue, tmp_path, batch_server):
    # paper-b a copy of paper-a: the whole paper in every call, so only identical papers share calls.
    write_project(venue / "paper-b", FILES)
    outcome, phase = batch_run(venue, tmp_path / "out", batch_server, "openai", mode="standard")
    reviews, *later = (batch_server.batches[b]["requests"] for b in phase.collector.submitted)
    assert all("focusing on target sections" in json.dumps(body) for _, body in reviews)
    assert all("false alarm" in json.dumps(body) or "adjudication" in json.dumps(body) for batch in later for _, body in batch)
    assert all(r["status"] == "ok" and not r["run"]["failed_units"] for r in outcome.records)
    # An identical call is sent once, and paid once.
    stats = [r["run"]["stats"][0] for r in outcome.records]
    sent = len(reviews) + sum(map(len, later))
    assert sum(s["calls"] for s in stats) == sent
    assert sum(s["calls"] + s["cache_hits"] for s in stats) > sent


def test_llm_batch_needs_a_key_before_any_work(tmp_path):
    from auditex.analyzers.llm.errors import MissingKey

    with pytest.raises(MissingKey):
        LLMBatchPhase("fast", {"provider": "anthropic"}, env={})


def test_a_reopening_past_the_time_limit_gives_up_that_audit_and_keeps_the_checks_findings(venue, tmp_path, batch_server, monkeypatch):
    from contextlib import contextmanager

    from auditex.batch import llm_phase
    from auditex.batch.task import Limits

    real_open = llm_phase.opened_submission

    @contextmanager
    def slow_for_paper_a(spec):
        if Path(spec.path).name == "paper-a":
            time.sleep(4)  # a parse that runs long: only its thread waits
        with real_open(spec) as result:
            yield result

    monkeypatch.setattr(llm_phase, "opened_submission", slow_for_paper_a)
    options = BatchOptions(mode="fast", llm=batch_server.llm_options("openai"), llm_batch=True, limits=Limits(time_s=2.0))
    phase = LLMBatchPhase("fast", options.llm, poll_s=0.02, settle_s=0.2, env=batch_server.env())
    outcome = run_batch(venue, tmp_path / "out", LocalPool(1), options, llm_phase=phase)
    by_id = {record["id"]: record for record in outcome.records}
    slow, other = by_id["paper-a"], by_id["paper-b"]
    assert slow["status"] == "timed_out" and "longer than the time limit of 2 s" in slow["reason"]
    assert "run" not in slow and any(f["code"].startswith("SEC") for f in slow["findings"])
    assert other["status"] == "ok" and other["run"]["stats"][0]["stages"]["detect"]["calls"] == 1
