"""A real headless Neovim, configured by the README's own `init.lua` block, starts `auditex serve` and receives
diagnostics (on Debian's Neovim 0.7 through vim.lsp.start_client, on 0.8 and newer through vim.lsp.start)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NVIM = shutil.which("nvim")
HARNESS = Path(__file__).parent / "nvim" / "init.lua"
README = Path(__file__).resolve().parents[1] / "README.md"
FIXTURE = Path(__file__).parent / "fixtures" / "lsp"


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim; .ci/run installs it)")
def test_neovim_receives_diagnostics(tmp_path: Path):
    paper = tmp_path / "paper"
    shutil.copytree(FIXTURE, paper)
    output = tmp_path / "diagnostics.json"
    configuration = re.search(r"\*\*Neovim\*\*.*?```lua\n(.+?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert configuration is not None, "the README's Neovim section has its init.lua block"
    init = tmp_path / "init.lua"
    init.write_text(configuration.group(1) + HARNESS.read_text(encoding="utf-8"), encoding="utf-8")
    # The README's `cmd = { "auditex", "serve" }`, as this checkout's interpreter runs it.
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "auditex").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m auditex.cli.main "$@"\n', encoding="utf-8")
    (tmp_path / "bin" / "auditex").chmod(0o755)
    environment = {
        **os.environ,
        "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "AUDITEX_OUTPUT": str(output),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    completed = subprocess.run(
        [NVIM, "--headless", "--clean", "-u", str(init), str(paper / "supplement.tex")],
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
