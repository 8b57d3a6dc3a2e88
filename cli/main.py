"""`auditex`: the command-line entry point.

Each command lives in its own module with `register(subparsers)`; this file
only assembles them, importing just the module of the command being run so
that `auditex check` does not pay for the LLM and benchmark stacks. Exit
codes: 0 clean, 1 findings at or above --fail-on, 2 usage, input or configuration
error, 3 `audit`'s LLM part failed (the offline findings are still reported).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from .. import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# Command name → the module that registers it.
COMMANDS = {
    "check": "check_command", "audit": "audit_command", "review": "review_command", "serve": "serve_command",
    "rules": "rules_command", "rule": "rules_command", "bench": "bench_command", "inject": "inject_command",
    "verify-revision": "verify_revision_command", "batch": "batch_command",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 too; keep one clear line
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
    modules = [COMMANDS[requested]] if requested in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for module in modules:
        importlib.import_module(f".{module}", __package__).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if arguments.verbose else logging.WARNING, stream=sys.stderr,
                        format="auditex: %(levelname)s: %(message)s")
    if not getattr(arguments, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return arguments.run(arguments)
    except KeyboardInterrupt:
        print("auditex: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
