"""`auditex`: the command-line entry point.

Each command lives in its own module with `register(subparsers, COMMANDS)`; this file
only assembles them, importing just the module of the command being run so
that `auditex check` does not pay for the LLM and benchmark stacks, and none
for `--version` or the command list of `--help`. Exit codes: 0 clean, 1 findings
at or above --fail-on, 2 usage, input or configuration error, 3 `audit`'s LLM part
failed (the offline findings are still reported).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import signal
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import NoReturn

from .. import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# Command name → the module that registers it, and its line in `auditex --help`.
COMMANDS = {
    "check": ("check_command", "run the deterministic rules (offline, instant)"),
    "audit": ("audit_command", "audit with an LLM (PaperAudit fast/standard/deep, critical)"),
    "review": ("review_command", "write an error-aware peer review (LLM)"),
    "serve": ("serve_command", "run the language server (LSP over stdio)"),
    "rules": ("rules_command", "list every rule"),
    "rule": ("rules_command", "explain one rule"),
    "bench": ("bench_command", "score detections with a benchmark's metric"),
    "inject": ("inject_command", "apply PaperAudit-style error patches to a copy of a project"),
    "verify-revision": ("verify_revision_command", "compare the findings of two versions of a manuscript"),
    "batch": ("batch_command", "check a venue's submissions (resumable; local workers or Ray)"),
    "init": ("init_command", "write a commented .auditex.toml"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits 2 too; keep one clear line
        self.print_usage(sys.stderr)
        print(f"auditex: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with `argv`, only the named command's module is imported."""
    parser = _Parser(prog="auditex", description="Audit LaTeX research manuscripts like a careful reviewer.")
    parser.add_argument("--version", action="version", version=f"auditex {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    requested = next((argument for argument in argv or [] if not argument.startswith("-")), None)
    if requested in COMMANDS:
        _import_command(COMMANDS[requested][0]).register(subparsers, COMMANDS)
    else:  # the command list only: each command's own options are read when it is named
        for name, (_, summary) in COMMANDS.items():
            subparsers.add_parser(name, help=summary)
    return parser


def _import_command(module: str) -> ModuleType:
    """The command's module, imported with the collector paused and what it built then frozen: its classes,
    functions and tables live as long as the process, yet the collector's young passes walked them some 85
    times while a check's imports ran, and its older passes would walk them again during the check (about
    6% of a cold check's CPU on nips24_imprecise_labels)."""
    name = f"{__package__}.{module}"
    fresh, collecting = name not in sys.modules, gc.isenabled()
    if fresh:
        gc.disable()
    try:
        return importlib.import_module(name)
    finally:
        if fresh:
            gc.freeze()
            if collecting:
                gc.enable()


class Terminated(KeyboardInterrupt):
    """SIGTERM: unwound like Ctrl-C (workers stopped, records kept), and said as such."""


def _terminate(signum: int, frame: object) -> NoReturn:
    raise Terminated


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Only the main thread may take signals (a test may call main from another). Taken before the command's
    # modules are imported: a Ctrl-C while they load is said in one line too, not as an import's traceback.
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if on_main_thread else None
    try:
        parser = build_parser(argv)
        arguments = parser.parse_args(argv)
        logging.basicConfig(
            level=logging.INFO if arguments.verbose else logging.WARNING, stream=sys.stderr, format="auditex: %(levelname)s: %(message)s"
        )
        if not getattr(arguments, "run", None):
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        run: Callable[[argparse.Namespace], int] = arguments.run
        return run(arguments)
    except Terminated:
        print("auditex: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("auditex: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    finally:
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous)


def run() -> NoReturn:
    """The `auditex` command (and `python -m auditex.cli.main`): `main`, then the process's exit with its code.

    What a command built stays reachable to its end (the parse, the index, the memos of module-level caches),
    and the interpreter's collections at exit would walk all of it to free nothing the exit does not: after a
    check of nips24_imprecise_labels they cost 0.2 s of CPU, a seventh of the process. Frozen, the heap is
    left to the exit; files are still flushed and closed, and exit handlers still run."""
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
