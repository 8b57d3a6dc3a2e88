"""What the server asks clients that watch files for it to watch (workspace/didChangeWatchedFiles)."""

from __future__ import annotations

from ..analyzers.project_config import CONFIG_FILE
from ..latex.source import SOURCE_SUFFIXES

WATCH_GLOBS = tuple(f"**/*{suffix}" for suffix in SOURCE_SUFFIXES) + (f"**/{CONFIG_FILE}",)
