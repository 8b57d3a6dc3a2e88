"""The LLM audit on the real errors of the corpus, with a model that answers from outside this process.

    python benchmarks/real_errors_relay.py --answers DIR [--papers a,b | --held-out] [--mode fast]
                                           [--provider openai|anthropic] [--save FILE.json]

Each paper is audited as `auditex audit` audits its folder: every root, with its rule findings, through
the real SDK to a loopback server (tests/llm_server.py). That server's model is a folder of files:
- each request it receives is written to DIR/<paper>/<stage>-<key>.prompt.md: the system prompt, the user
  text, and the JSON schema the answer must follow (the stage is detect, verify, merge, plan or memory);
- the run then waits for DIR/<paper>/<stage>-<key>.answer.json and sends its text as the model's answer.
  An answer that is not JSON is renamed .rejected.json and waited for again.

So a model without an API (a person, or an agent at a chat window) can be measured through the whole
pipeline, and the answers are kept: a second run replays them (the key is a digest of the request), and a
run stopped halfway resumes where it stopped. DIR/<paper>/DONE is written when a paper's audit is over.

Reported as benchmarks/real_errors.py reports it (an LLM finding in the problem's file within two lines,
a code its kind maps to): recall for the LLM findings alone, and for the LLM and rule findings together,
overall, for the seen papers, the held-out fifth and the second reading apart, and per kind.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from llm_cost import prompt_of, task_of  # noqa: E402
from llm_server import LoopbackLLMServer, Reply  # noqa: E402
from real_errors import print_table  # noqa: E402

from auditex.analyzers.finding import Finding, Source  # noqa: E402
from auditex.analyzers.llm.audit_modes import MODES  # noqa: E402
from auditex.analyzers.llm.source import LLMAuditSource, audit_results  # noqa: E402
from auditex.analyzers.path_check import check_path  # noqa: E402
from auditex.evaluation.real_errors import load_ledger, recall_table  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
LEDGER = ROOT / "tests" / "real_errors"
# What a request asks, told by its task (the prompt without the paper); anything else is a detection call.
_STAGES = (("false alarm", "verify"), ("adjudication", "merge"), ("review planner", "plan"), ("scientific summarizer", "memory"))


class FolderModel:
    """The loopback server's responder: a request's answer is a file someone writes beside its prompt, within
    `wait_s` (else the call fails as a gateway timeout would)."""

    def __init__(self, folder: Path, poll_s: float = 2.0, wait_s: float = 24 * 3600) -> None:
        self.folder = folder
        self.poll_s = poll_s
        self.wait_s = wait_s
        folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, body: dict[str, Any]) -> str | Reply:
        system, user = prompt_of(body)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema") or next(
            (tool.get("input_schema") for tool in body.get("tools") or []), None
        )
        key = hashlib.sha256(json.dumps([system, user, schema], sort_keys=True).encode()).hexdigest()[:16]
        task = task_of(system, user)
        stage = next((name for words, name in _STAGES if words in task), "detect")
        prompt = self.folder / f"{stage}-{key}.prompt.md"
        answer = self.folder / f"{stage}-{key}.answer.json"
        if not prompt.exists():
            told = f"\n\n# The answer's JSON schema\n\n{json.dumps(schema, indent=1)}\n" if schema else ""
            prompt.write_text(f"# System\n\n{system}\n\n# User\n\n{user}{told}", encoding="utf-8")
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            if answer.exists():
                text = answer.read_text(encoding="utf-8", errors="replace")
                try:
                    json.loads(text)
                    return text
                except json.JSONDecodeError:
                    answer.replace(answer.with_suffix(".rejected.json"))
            time.sleep(self.poll_s)
        return Reply.status(504, f"no answer in {answer} after {self.wait_s:.0f} s")


def paper_findings(paper: Path, model: FolderModel, mode: str, provider: str) -> list[Finding]:
    """Every finding of the audit of the paper's folder (rules and LLM), answered by `model`."""
    with LoopbackLLMServer() as server:
        server.responder = model
        # A person answers in minutes, not seconds: no call gives up before the model does, none is retried.
        limit = model.wait_s + 60
        settings = server.settings(provider, model="relay", timeout_s=limit, overall_time_limit_s=2 * limit, max_retries=0)
        session = check_path(paper, use_cache=False)

        async def run() -> None:
            async for _ in audit_results(session, LLMAuditSource(settings, mode)):
                pass

        asyncio.run(run())
    (model.folder / "DONE").write_text(f"{len(session.findings)} findings\n", encoding="utf-8")
    return session.findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=Path, required=True, help="the folder of prompts and answers")
    parser.add_argument("--papers", help="comma-separated ledger papers")
    parser.add_argument("--held-out", action="store_true", help="the held-out fifth's papers")
    parser.add_argument("--mode", choices=MODES, default="fast")
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--save", type=Path, help="keep both tables as JSON")
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    ledger = load_ledger(LEDGER)
    names = sorted(ledger.held_out) if arguments.held_out else arguments.papers.split(",") if arguments.papers else sorted(ledger.papers)
    unknown = [name for name in names if name not in ledger.papers]
    if unknown:
        sys.exit(f"not in the ledger: {', '.join(unknown)}")
    # Papers are audited side by side: the answers come from outside, at their own pace.
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        runs = {
            name: pool.submit(paper_findings, CORPUS / name, FolderModel(arguments.answers / name), arguments.mode, arguments.provider)
            for name in names
        }
        everything = {name: run.result() for name, run in runs.items()}
    llm_alone = {name: [f for f in found if f.source is Source.LLM] for name, found in everything.items()}
    tables = {"llm": recall_table(ledger, llm_alone), "llm_and_rules": recall_table(ledger, everything)}
    print(f"{arguments.mode} audit, {len(names)} papers; LLM findings alone:")
    print_table(tables["llm"], None)
    print("\nLLM and rule findings together:")
    print_table(tables["llm_and_rules"], None)
    if arguments.save:
        arguments.save.write_text(json.dumps(tables, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
