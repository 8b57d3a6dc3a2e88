"""The README's two set-up commands are the ones the project really runs."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_opens_with_exactly_two_setup_commands():
    commands = _readme_commands()
    assert len(commands) >= 2
    assert "auditex check examples/paper" in commands[0]
    assert "pytest" in commands[1] and ".[test]" in commands[1]


def test_ci_runs_the_readme_commands_verbatim_in_order_in_a_fresh_clone():
    """Command one (`pip install .`) leaves build/ behind; CI runs the suite after it, as a new user does."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install, test = _readme_commands()[:2]
    assert install in ci and test in ci
    clone = next(index for index, line in enumerate(ci) if line.startswith("git clone"))
    assert clone < ci.index(install) < ci.index(test)


def test_ci_runs_the_readme_static_checks():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    static_checks = re.search(r"## Static checks\n.*?```sh\n(.+?)\n```", text, re.DOTALL)
    assert static_checks is not None
    for line in static_checks.group(1).splitlines():
        assert line in ci


def test_example_paper_check_finds_the_planted_errors():
    result = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "check", str(ROOT / "examples" / "paper"), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    import json

    codes = {finding["code"] for finding in json.loads(result.stdout)["findings"]}
    assert {"REF001", "CIT001", "NUM001", "TAB001"} <= codes


def test_the_command_line_block_lists_every_command():
    from auditex.cli.main import COMMANDS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Command line\n\n```text\n(.+?)\n```", text, re.DOTALL)
    assert block is not None
    listed = {word for line in block.group(1).splitlines() for word in re.findall(r"(?:^|/ )(?:auditex )?([a-z][a-z-]+)", line)}
    assert set(COMMANDS) <= listed, f"missing from the README's command-line block: {sorted(set(COMMANDS) - listed)}"


def test_the_readmes_inject_example_is_a_valid_patches_file(tmp_path):
    from auditex.evaluation.inject import load_patches

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"`auditex inject`'s patches file.*?```json\n(.+?)\n```", text, re.DOTALL)
    assert example is not None
    (tmp_path / "patches.json").write_text(example.group(1), encoding="utf-8")
    [patch] = load_patches(tmp_path / "patches.json")
    assert (patch.target_find, patch.corruption_type) == ("81.2", "evidence_manipulation")


def test_readme_examples_name_no_path_outside_a_users_clone():
    """An example runs from any clone: it names no folder beside the checkout."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.findall(r"\$ auditex [^\n]*\.\./", text)
