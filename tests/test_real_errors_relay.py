"""benchmarks/real_errors_relay.py: an audit whose model is a folder of answer files, through the real SDK and
the loopback server's wire."""

import json
import threading
from pathlib import Path

from helpers import benchmark, document, write_project

from auditex.analyzers.finding import Source

relay = benchmark("real_errors_relay")

GAIN = "The gain over the baseline is 9.1 points."
PAPER = document(f"\\section{{Results}}\nOur method reaches 91.2\\% accuracy and the baseline 85.0\\%.\n\n{GAIN}\n")


def _answer(prompt: Path) -> dict[str, object]:
    """What the reader answers: one finding on the gain; every candidate of a verification confirmed."""
    text = prompt.read_text(encoding="utf-8")
    empty: dict[str, object] = {"findings": None, "tasks": None, "problems": None, "verdicts": None}
    if prompt.name.startswith("verify-"):
        listing = text.split("<candidates>\n", 1)[1].split("\n</candidates>", 1)[0]
        numbers = [json.loads(line)["number"] for line in listing.splitlines()]
        verdict = {"resolving_quote": "", "valid": True, "severity": "major", "settled_by_manuscript": True, "reason": "91.2 - 85.0 = 6.2"}
        return {**empty, "verdicts": [{"number": number, **verdict} for number in numbers]}
    block = next(json.loads(line)["index"] for line in text.splitlines() if line.startswith("{") and GAIN in line)
    finding = {
        "type": "evidence_manipulation",
        "section_location": "Results",
        "error_location": GAIN,
        "evidence": [{"block_index": block, "quote": GAIN}],
        "explanation": "91.2 - 85.0 is 6.2 points, not 9.1.",
        "severity": "major",
        "confidence": 0.9,
        "proposed_fix": 'Replace "9.1" with "6.2".',
        "merged_from": None,
    }
    return {**empty, "findings": [finding]}


def _reader(folder: Path, stop: threading.Event) -> None:
    """Answers each prompt that appears; the first detection once with text that is not JSON."""
    spoiled: set[str] = set()
    while not stop.is_set():
        for prompt in sorted(folder.glob("*.prompt.md")):
            answer = prompt.with_name(prompt.name.replace(".prompt.md", ".answer.json"))
            if answer.exists():
                continue
            written = answer.with_suffix(".json.tmp")
            garbled = prompt.name.startswith("detect-") and prompt.name not in spoiled
            spoiled.add(prompt.name)
            written.write_text("Here is my answer: {" if garbled else json.dumps(_answer(prompt)), encoding="utf-8")
            written.replace(answer)
        stop.wait(0.02)


def test_each_request_is_a_prompt_file_and_its_answer_file_is_the_reply(tmp_path):
    paper = write_project(tmp_path / "paper", {"main.tex": PAPER})
    answers = tmp_path / "answers"
    stop = threading.Event()
    reader = threading.Thread(target=_reader, args=(answers, stop), daemon=True)
    reader.start()
    try:
        findings = relay.paper_findings(paper, relay.FolderModel(answers, poll_s=0.02, wait_s=60), "fast", "openai")
    finally:
        stop.set()
        reader.join()
    [llm] = [finding for finding in findings if finding.source is Source.LLM]
    assert llm.range.start.line == PAPER.splitlines().index(GAIN)
    prompts = sorted(path.name.split("-")[0] for path in answers.glob("*.prompt.md"))
    assert prompts == ["detect", "verify"]
    detect = next(answers.glob("detect-*.prompt.md")).read_text(encoding="utf-8")
    assert "# The answer's JSON schema" in detect and GAIN in detect
    assert [path.read_text(encoding="utf-8") for path in answers.glob("*.rejected.json")] == ["Here is my answer: {"]
    assert (answers / "DONE").is_file()

    # Kept answers are replayed: no reader, no new prompt, the same finding.
    again = relay.paper_findings(paper, relay.FolderModel(answers, poll_s=0.02, wait_s=5), "fast", "openai")
    assert [f.range for f in again if f.source is Source.LLM] == [llm.range]
    assert len(list(answers.glob("*.prompt.md"))) == 2


def test_a_request_nobody_answers_fails_as_a_gateway_timeout_and_the_audit_goes_on(tmp_path):
    paper = write_project(tmp_path / "paper", {"main.tex": PAPER})
    findings = relay.paper_findings(paper, relay.FolderModel(tmp_path / "answers", poll_s=0.02, wait_s=0.2), "fast", "openai")
    assert not [finding for finding in findings if finding.source is Source.LLM]
    assert [path.name.split("-")[0] for path in (tmp_path / "answers").glob("*.prompt.md")] == ["detect"]
