"""What `auditex audit` and `auditex review` say without the provider's key (the real command)."""

import os
import subprocess
import sys

from helpers import document, write_project

KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AUDITEX_API_KEY")


def run(tmp_path, *arguments: str, **keys: str) -> subprocess.CompletedProcess:
    folder = write_project(tmp_path / "paper", {"main.tex": document("\\section{Intro}\nWe improve accuracy by 3\\%.")})
    env = {name: value for name, value in os.environ.items() if name not in KEYS}
    env.update(keys, XDG_CACHE_HOME=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "auditex.cli.main", *arguments[:1], str(folder), *arguments[1:], "--no-cache"]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def test_with_only_the_anthropic_key_audit_names_it_and_the_provider_flag(tmp_path):
    done = run(tmp_path, "audit", "--mode", "fast", ANTHROPIC_API_KEY="sk-ant-test")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "auditex: error: Set OPENAI_API_KEY in the environment to use the openai provider, "
        "pass --provider anthropic (only ANTHROPIC_API_KEY is set), or pass --base-url to use a local OpenAI-compatible server."
    )
    assert "sk-ant-test" not in done.stderr


def test_review_without_a_key_prints_no_empty_review_and_exits_2(tmp_path):
    done = run(tmp_path, "review")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].startswith("auditex: error: Set OPENAI_API_KEY in the environment")
    assert "Traceback" not in done.stderr
