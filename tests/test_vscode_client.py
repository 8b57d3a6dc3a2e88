"""The VS Code extension builds from a clean copy, and agrees with contract.json.

The build runs `npm ci`, `npm run compile` and `npm run package` in a temporary
copy of vscode-client/, so no node_modules/ or out/ is left in the repository.
`npm ci` needs the npm registry (or a warm npm cache).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CLIENT_DIR = Path(__file__).resolve().parent.parent / "vscode-client"
CONTRACT = json.loads((CLIENT_DIR / "contract.json").read_text(encoding="utf-8"))
MANIFEST = json.loads((CLIENT_DIR / "package.json").read_text(encoding="utf-8"))
BUILD_STEPS = (
    ("npm", "ci", "--prefer-offline"),
    ("npm", "run", "compile"),
    ("npm", "run", "package"),
)

needs_npm = pytest.mark.skipif(
    shutil.which("npm") is None or shutil.which("node") is None,
    reason="npm and node are not on PATH; the VS Code extension cannot be built",
)


@dataclass
class Build:
    directory: Path
    seconds: dict[str, float]
    vsix: Path


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    directory = tmp_path_factory.mktemp("vscode-client") / "vscode-client"
    shutil.copytree(CLIENT_DIR, directory, ignore=shutil.ignore_patterns("node_modules", "out", "*.vsix"))
    seconds: dict[str, float] = {}
    for step in BUILD_STEPS:
        started = time.monotonic()
        done = subprocess.run(step, cwd=directory, capture_output=True, text=True, timeout=900)
        seconds[" ".join(step)] = time.monotonic() - started
        assert done.returncode == 0, f"{' '.join(step)} failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    print("vscode-client build seconds:", {step: round(s, 1) for step, s in seconds.items()})
    packages = list(directory.glob("*.vsix"))
    assert len(packages) == 1, f"expected one .vsix, found {packages}"
    return Build(directory, seconds, packages[0])


def run_node(build: Build, script: str) -> Any:
    """Runs `script` with the compiled extension's directory as cwd and returns what it printed as JSON."""
    done = subprocess.run(["node", "-e", script], cwd=build.directory, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def contributed_commands(manifest: dict[str, Any]) -> dict[str, str]:
    return {entry["command"]: entry["title"] for entry in manifest["contributes"]["commands"]}


def contributed_settings(manifest: dict[str, Any]) -> set[str]:
    return set(manifest["contributes"]["configuration"]["properties"])


# The contract itself: no npm needed.


def test_package_json_contributes_exactly_the_contract_commands() -> None:
    expected = {entry["command"]: entry["title"] for entry in CONTRACT["clientCommands"]}
    assert contributed_commands(MANIFEST) == expected


def test_package_json_contributes_exactly_the_contract_settings() -> None:
    assert contributed_settings(MANIFEST) == set(CONTRACT["serverSettings"]) | set(CONTRACT["clientSettings"])


def test_contract_names_the_commands_the_lead_asked_for() -> None:
    commands = {entry["command"]: entry for entry in CONTRACT["clientCommands"]}
    assert set(commands) == {
        "auditex.checkProject",
        "auditex.auditFast",
        "auditex.auditStandard",
        "auditex.auditDeep",
        "auditex.showReport",
        "auditex.review",
        "auditex.restartServer",
    }
    for mode in CONTRACT["serverCommands"]["auditModes"]:
        audit = commands[f"auditex.audit{mode.capitalize()}"]
        assert (audit["serverCommand"], audit["arguments"]) == ("auditex.audit", {"mode": mode})
    used = {entry["serverCommand"] for entry in CONTRACT["clientCommands"] if "serverCommand" in entry}
    assert used == set(CONTRACT["serverCommands"]["commands"])


def test_settings_defaults_follow_the_contract() -> None:
    properties = MANIFEST["contributes"]["configuration"]["properties"]
    assert properties["auditex.server.command"]["default"] == ["auditex", "serve"]
    assert properties["auditex.debounceMs"]["default"] == 200
    assert properties["auditex.llm.provider"]["enum"] == ["openai", "anthropic"]
    assert properties["auditex.llm.concurrency"]["default"] == 8
    assert properties["auditex.trace.server"]["enum"] == ["off", "messages", "verbose"]
    severities = properties["auditex.rules.severity"]["additionalProperties"]["enum"]
    assert severities == ["error", "warning", "information", "hint"]
    # API keys live in the environment only.
    assert not any("key" in setting.lower() for setting in properties)
    assert "environment" in properties["auditex.llm.provider"]["markdownDescription"]


# The real build.


@needs_npm
def test_vsix_holds_the_compiled_extension_and_the_manifest(build: Build) -> None:
    with zipfile.ZipFile(build.vsix) as vsix:
        names = set(vsix.namelist())
        manifest = json.loads(vsix.read("extension/package.json"))
        shipped_contract = json.loads(vsix.read("extension/contract.json"))
    assert {"extension/out/extension.js", "extension/LICENSE.txt", "extension/readme.md"} <= names
    assert manifest["main"] == "./out/extension.js"
    assert contributed_commands(manifest) == contributed_commands(MANIFEST)
    assert contributed_settings(manifest) == contributed_settings(MANIFEST)
    assert shipped_contract == CONTRACT
    assert "extension/node_modules/vscode-languageclient/package.json" in names
    assert not any(name.startswith("extension/src/") or name.endswith((".ts", ".map", ".tsbuildinfo")) for name in names)


@needs_npm
def test_server_launch_prefers_python_path(build: Build) -> None:
    launches = run_node(
        build,
        """
        const { resolveServerLaunch } = require('./out/serverLaunch.js');
        const attempt = (command, pythonPath) => {
            try { return resolveServerLaunch(command, pythonPath); } catch (error) { return { error: error.message }; }
        };
        console.log(JSON.stringify([
            attempt(['auditex', 'serve'], ''),
            attempt(['auditex', 'serve'], ' /venv/bin/python '),
            attempt([], ''),
            attempt(['auditex', 3], undefined),
            attempt(['auditex'], 42),
        ]));
        """,
    )
    assert launches[0] == {"command": "auditex", "args": ["serve"]}
    assert launches[1] == {"command": "/venv/bin/python", "args": ["-m", "auditex.cli.main", "serve"]}
    assert "auditex.server.command" in launches[2]["error"]
    assert "auditex.server.command" in launches[3]["error"]
    assert "auditex.server.pythonPath" in launches[4]["error"]


@needs_npm
def test_status_bar_follows_progress_and_status_notifications(build: Build) -> None:
    views = run_node(
        build,
        """
        const { AnalysisStatus } = require('./out/status.js');
        const status = new AnalysisStatus();
        const seen = [];
        const look = (label) => seen.push([label, status.view()]);
        look('starting');
        status.setServerState('running');
        look('running');
        status.onProgress('t', { kind: 'begin', title: 'auditex: checking', percentage: 0 });
        status.onProgress('t', { kind: 'report', message: '2 of 4 files', percentage: 50 });
        look('progress');
        status.onProgress('t', { kind: 'end' });
        seen.push(['accepted', status.setStatus({ state: 'idle', findings: 3, costUsd: null })]);
        look('idle');
        seen.push(['rejected', status.setStatus({ state: 'sleeping' })]);
        seen.push(['rejected type', status.setStatus({ state: 'idle', findings: 'many' })]);
        look('still idle');
        status.setStatus({ state: 'auditing', costUsd: 0.126 });
        look('auditing');
        status.setStatus({ state: 'error', message: 'provider refused the key' });
        look('error');
        status.setServerState('stopped');
        look('stopped');
        console.log(JSON.stringify(Object.fromEntries(seen)));
        """,
    )
    assert views["starting"]["text"] == "$(sync~spin) auditex: starting"
    assert views["running"]["text"] == "$(check) auditex"
    assert views["progress"]["text"] == "$(sync~spin) auditex: checking 50%"
    assert views["progress"]["tooltip"] == "2 of 4 files"
    assert views["accepted"] is True
    assert views["idle"] == {
        "text": "$(check) auditex: 3 findings",
        "tooltip": "Click to show the report.",
        "command": "auditex.showReport",
    }
    assert views["rejected"] is False and views["rejected type"] is False
    assert views["still idle"] == views["idle"]
    assert views["auditing"]["text"] == "$(sync~spin) auditex: auditing ($0.13)"
    assert views["error"]["text"] == "$(error) auditex: error"
    assert views["error"]["tooltip"] == "provider refused the key"
    assert views["stopped"]["command"] == "auditex.restartServer"


@needs_npm
def test_server_stderr_keeps_its_levels(build: Build, tmp_path: Path) -> None:
    # What `auditex serve` writes on stderr for a malformed message: an error with its traceback, then a warning.
    served = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "serve"],
        input=b"Content-Length: 5\r\n\r\n{bad}",
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    lines = served.stderr.decode().splitlines()
    levels = run_node(
        build,
        f"""
        const {{ StderrLevels }} = require('./out/serverLog.js');
        const levels = new StderrLevels();
        console.log(JSON.stringify({json.dumps(["a crash before logging", *lines])}.map((line) => levels.level(line))));
        """,
    )
    seen = dict(zip(["a crash before logging", *lines], levels, strict=True))
    assert seen["a crash before logging"] == "error"
    assert any(line.startswith("auditex: ERROR: ") for line in lines) and seen[lines[1]] == "error"  # the traceback
    warnings = [line for line in lines if line.startswith("auditex: WARNING: ")]
    assert warnings and all(seen[line] == "warn" for line in warnings)
