"""`auditex`: the command-line entry point.

Each command lives in its own module with `register(subparsers)`; this file
only assembles them. Exit codes: 0 clean, 1 findings at or above --fail-on,
2 usage or input error.
"""

from __future__ import annotations

import argparse
import logging
import sys

from .. import __version__
from . import audit_command, bench_command, check_command, inject_command, review_command, rules_command, serve_command, verify_revision_command

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
COMMANDS = (check_command, audit_command, rules_command, serve_command, review_command, inject_command, verify_revision_command, bench_command)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 too; keep one clear line
        self.print_usage(sys.stderr)
        print(f"auditex: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="auditex", description="Audit LaTeX research manuscripts like a careful reviewer.")
    parser.add_argument("--version", action="version", version=f"auditex {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
