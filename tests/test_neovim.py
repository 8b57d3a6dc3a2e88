"""A real headless Neovim starts `auditex serve` with vim.lsp.start and receives diagnostics."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NVIM = shutil.which("nvim")
INIT = Path(__file__).parent / "nvim" / "init.lua"
FIXTURE = Path(__file__).parent / "fixtures" / "lsp"


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim; .ci/run installs it)")
def test_neovim_receives_diagnostics(tmp_path: Path):
    paper = tmp_path / "paper"
    shutil.copytree(FIXTURE, paper)
    output = tmp_path / "diagnostics.json"
    environment = {
        **os.environ,
        "AUDITEX_PYTHON": sys.executable,
        "AUDITEX_ROOT": str(paper),
        "AUDITEX_OUTPUT": str(output),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    completed = subprocess.run(
        [NVIM, "--headless", "--clean", "-u", str(INIT), str(paper / "supplement.tex")],
        env=environment,
        cwd=paper,
        capture_output=True,
        timeout=120,
    )
    assert output.exists(), completed.stderr.decode(errors="replace")
    diagnostics = json.loads(output.read_text())
    undefined = [d for d in diagnostics if d["code"] == "REF001"]
    assert len(undefined) == 1, diagnostics
    assert undefined[0]["source"] == "auditex"
    assert (undefined[0]["lnum"], undefined[0]["col"]) == (4, 43)
    assert "fig:missing" in undefined[0]["message"]
