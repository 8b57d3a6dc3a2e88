"""What a plain `auditex check` loads: the modules a cold check pays for before it reads a line.

The event loop, the parse workers' pool, the analysis cache's database (with the cache off), the
terminal library (writing to a pipe), and the LLM and network stacks load only where they are used.
"""

import json
import subprocess
import sys

from helpers import document, write_project

# Each of these costs a cold check tens of milliseconds, or (the last ones) far more.
NOT_FOR_A_PLAIN_CHECK = (
    "asyncio",
    "multiprocessing",
    "concurrent.futures",
    "diskcache",
    "rich",
    "difflib",
    "httpx",
    "openai",
    "anthropic",
    "scipy",
    "pydantic",  # findings and settings are plain dataclasses until they cross an edge (analyzers/plain_model.py)
    "email",
    "importlib.metadata",  # the analysis cache's fingerprint, with the cache off
    "auditex.latex.submission",  # archives only
    "auditex.analyzers.scholarly.work",  # the online check's pydantic models
    "auditex.analyzers.reports.sarif",  # the other formats, and --fix
    "auditex.analyzers.reports.markdown",
    "auditex.analyzers.fixes",
)

PROBE = """
import contextlib, io, json, sys
from auditex.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["check", sys.argv[1], "--no-cache"])
print(json.dumps({"code": code, "loaded": sorted(name for name in sys.modules if name in sys.argv[2:])}))
"""


def test_a_plain_check_to_a_pipe_loads_none_of_the_heavy_modules(tmp_path):
    folder = write_project(tmp_path / "paper", {"main.tex": document("See \\ref{sec:nowhere}.")})
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder), *NOT_FOR_A_PLAIN_CHECK], capture_output=True, text=True, timeout=120, check=True
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 1  # the check ran, and found the undefined reference
    assert result["loaded"] == []


EXIT_PROBE = """
import atexit, gc, sys
from auditex.cli import main as cli
atexit.register(lambda: print("frozen", gc.get_freeze_count(), file=sys.stderr))
sys.argv = ["auditex", "check", sys.argv[1], "--no-cache"]
cli.run()
"""


def test_the_command_leaves_its_heap_to_the_exit_and_exits_with_the_check_s_code(tmp_path):
    folder = write_project(tmp_path / "paper", {"main.tex": document("See \\ref{sec:nowhere}.")})
    done = subprocess.run([sys.executable, "-c", EXIT_PROBE, str(folder)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr  # the undefined reference
    frozen = int(done.stderr.split("frozen ")[-1].split()[0])
    assert frozen > 10_000  # what the imports and the check built is not walked again by the exit's collections


IMPORT_PROBE = """
import gc, json
from auditex.cli.main import build_parser
before = gc.get_freeze_count()
build_parser(["check"])
imported = gc.get_freeze_count()
build_parser(["check"])
print(json.dumps({"before": before, "imported": imported, "again": gc.get_freeze_count(), "collecting": gc.isenabled()}))
"""


def test_the_command_s_modules_are_imported_uncollected_and_then_frozen():
    done = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["before"] == 0 and result["imported"] > 20_000  # the rules, their models and patterns: kept to the exit
    assert result["again"] == result["imported"]  # a second parser imports nothing and freezes nothing more
    assert result["collecting"]  # the check's own garbage is still collected
