"""`auditex init`, colour on a terminal, the pre-commit hook and the GitHub action (real commands, real files)."""

import json
import os
import pty
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from helpers import document, write_project

from auditex.analyzers.project_config import load_config
from auditex.analyzers.scholarly.resolver import OnlineSettings
from auditex.cli.main import main

REPOSITORY = Path(__file__).resolve().parents[1]
AUDITEX = [sys.executable, "-m", "auditex.cli.main"]
DIRTY = document("See \\ref{sec:nowhere}.")


def test_init_writes_a_commented_config_whose_examples_are_all_valid(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", {"paper.tex": document("Text.")})
    assert main(["init", str(folder)]) == 0
    text = (folder / ".auditex.toml").read_text()
    assert load_config(folder, strict=True) == load_config(tmp_path)  # as written, everything is the default
    assert '# root = "paper.tex"' in text
    uncommented = re.sub(r"(?m)^# ([a-z_-]+ = .*?)(?:\s+#.*)?$", r"\1", text)
    uncommented = re.sub(r"(?m)^(roots = .*)$", "", uncommented)  # root and roots name the same thing
    (folder / ".auditex.toml").write_text(uncommented)
    config = load_config(folder, strict=True)
    assert config.project.root == "paper.tex" and config.rules.select == ["REF", "CIT", "NUM"]
    assert OnlineSettings.from_config(config.online)[1] is None
    assert tomllib.loads(uncommented)["llm"]["provider"] == "openai"
    assert main(["init", str(folder)]) == 2
    assert "already exists (--force replaces it)" in capsys.readouterr().err


def _on_a_terminal(arguments: list[str], env: dict[str, str]) -> bytes:
    leader, follower = pty.openpty()
    subprocess.run(arguments, stdout=follower, stderr=subprocess.DEVNULL, env=env, timeout=120, check=False)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return output


def test_colour_on_a_terminal_never_in_a_pipe_or_with_no_color(tmp_path):
    folder = write_project(tmp_path / "paper", {"main.tex": DIRTY})
    command = [*AUDITEX, "check", str(folder), "--no-cache"]
    env = {name: value for name, value in os.environ.items() if name not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    coloured = _on_a_terminal(command, env)
    assert b"\x1b[1;31merror\x1b[0m" in coloured and b"REF001" in coloured
    assert b"\x1b[" not in _on_a_terminal(command, {**env, "NO_COLOR": "1"})
    piped = subprocess.run(command, capture_output=True, env=env, timeout=120)
    assert b"REF001" in piped.stdout and b"\x1b[" not in piped.stdout
    json_on_terminal = _on_a_terminal([*command, "--format", "json"], env)
    assert b"\x1b[" not in json_on_terminal


def test_the_pre_commit_hook_runs_auditex_on_the_project(tmp_path):
    [hook] = yaml.safe_load((REPOSITORY / ".pre-commit-hooks.yaml").read_text())
    files = re.compile(hook["files"])
    assert all(files.search(name) for name in ("main.tex", "paper/refs.bib", "thesis.cls", ".auditex.toml"))
    assert not any(files.search(name) for name in ("README.md", "figure.pdf", "auditex.toml.bak"))
    assert hook["pass_filenames"] is False and hook["language"] == "python"
    entry = hook["entry"].split()
    assert entry[0] == "auditex"
    folder = write_project(tmp_path / "paper", {"main.tex": DIRTY})
    failing = subprocess.run([*AUDITEX, *entry[1:], *hook["args"]], cwd=folder, capture_output=True, text=True, timeout=120)
    assert failing.returncode == 1 and "REF001" in failing.stdout
    (folder / "main.tex").write_text(document("Clean."))
    assert subprocess.run([*AUDITEX, *entry[1:], *hook["args"]], cwd=folder, capture_output=True, timeout=120).returncode == 0


def test_the_github_action_writes_sarif_uploads_it_and_then_fails_on_findings(tmp_path):
    action = yaml.safe_load((REPOSITORY / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    steps = {step.get("name", step.get("uses")): step for step in action["runs"]["steps"]}
    check, upload = steps["Check with auditex"], steps["Upload to code scanning"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif }}"
    folder = write_project(tmp_path / "repository" / "paper", {"main.tex": DIRTY})
    defaults = {name: spec["default"] for name, spec in action["inputs"].items()}
    inputs = {**defaults, "path": "paper"}
    env = {
        **os.environ,
        **{name: re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: inputs[m.group(1)], value) for name, value in check["env"].items()},
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    done = subprocess.run(["bash", "-e", "-c", check["run"]], cwd=folder.parent, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # findings do not stop the job before the upload
    assert (tmp_path / "output").read_text() == "status=1\n"  # the last step fails the job on them
    sarif = json.loads((folder.parent / defaults["sarif"]).read_text())
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "REF001"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "paper/main.tex"
