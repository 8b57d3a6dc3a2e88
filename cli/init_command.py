"""`auditex init [FOLDER]`: write a commented `.auditex.toml` to start from."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..analyzers.project_config import CONFIG_FILE, ConfigError, load_config
from ..latex.discovery import find_roots
from ..latex.sandbox import ProjectRoot

TEMPLATE = """\
# auditex settings for this project (auditex rules lists every code; auditex rule CODE explains one).
# Everything is optional: a commented line shows the default or an example.

[project]
# The root file(s) to check; by default every file with \\documentclass and \\begin{{document}}.
{root_line}
# roots = ["main.tex", "supplement.tex"]

[rules]
# select = ["REF", "CIT", "NUM"]      # only these code prefixes (default: every rule)
# ignore = ["RHE001"]                 # never these code prefixes
# severity = {{ REF003 = "information" }}
# exclude = ["old/*.tex"]             # files whose findings are dropped, and roots never checked
# min-severity = "information"        # drop hints everywhere (the editor too)

[llm]
# provider = "openai"                 # or "anthropic"; the key comes from OPENAI_API_KEY / ANTHROPIC_API_KEY
# model = "gpt-4.1-mini"
# base_url = "http://localhost:11434/v1"   # any OpenAI-compatible server (Ollama, vLLM, llama.cpp)

[online]
# budget_s = 120                      # `check --online`: what is left unasked after this is reported unchecked
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser("init", help=commands["init"][1], description=f"Write a commented {CONFIG_FILE} in FOLDER.")
    parser.add_argument("folder", type=Path, nargs="?", default=Path("."), help="the project folder (default: the current one)")
    parser.add_argument("--force", action="store_true", help=f"replace an existing {CONFIG_FILE}")
    parser.set_defaults(run=run)


def config_text(folder: Path) -> str:
    """The commented settings for `folder`, naming the root file found there (commented out: detection already finds it)."""
    roots = find_roots(ProjectRoot(folder))
    root_line = f"# root = {json.dumps(roots[0])}                 # detected" if roots else '# root = "main.tex"'
    return TEMPLATE.format(root_line=root_line)


def run(arguments: argparse.Namespace) -> int:
    folder: Path = arguments.folder
    if not folder.is_dir():
        print(f"auditex: error: '{folder}' is not a folder", file=sys.stderr)
        return 2
    path = folder / CONFIG_FILE
    if path.exists() and not arguments.force:
        print(f"auditex: error: '{path}' already exists (--force replaces it)", file=sys.stderr)
        return 2
    try:
        path.write_text(config_text(folder), encoding="utf-8")
        load_config(folder, strict=True)  # what was written must load
    except OSError as error:
        print(f"auditex: error: cannot write '{path}': {error.strerror or error}", file=sys.stderr)
        return 2
    except ConfigError as error:  # a bug in the template, never the user's doing
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    print(f"auditex: wrote {path}", file=sys.stderr)
    return 0
