"""`auditex serve`: the language server over stdio, its handlers registered by feature.

- documents: the editor's texts and the changes on disk, fed to the analysis;
- lifecycle: start-up, workspace folders, settings, file watching, shutdown;
- actions: code actions and hovers on findings;
- navigation: definition, references, outline;
- commands: check, audit, review, report, dismiss.
The server's state and its analysis pipeline are in server.py.
"""

from __future__ import annotations

import logging
import sys

from . import actions, commands, documents, lifecycle, navigation
from .server import AuditexServer


def build_server() -> AuditexServer:
    server = AuditexServer()
    for feature in (lifecycle, documents, actions, navigation, commands):
        feature.register(server)
    return server


def serve() -> int:
    # The protocol owns the real stdout; a stray print() anywhere must not corrupt it.
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    # Python's warnings reach stderr through logging, as "auditex: WARNING: ...", so the editor logs them as warnings.
    logging.captureWarnings(True)
    server = build_server()
    server.start_io(sys.stdin.buffer, stdout)
    return 0
