"""`auditex serve`: the language server over stdio."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser("serve", help=commands["serve"][1])
    parser.add_argument("--stdio", action="store_true", help="accepted for editor compatibility; stdio is the default")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from ..server.main import serve  # the server is loaded only when serving

    return serve()
