"""How a report names a project file."""

from __future__ import annotations

import os
from pathlib import Path


class Paths:
    """How reports write a project file: relative to the current directory (so a terminal or an
    editor opens it from where the command ran), or as in the project when `folder` is None.
    With `inside`, a project outside the current directory keeps project-relative paths, based
    at the project folder (SARIF: its URIs must not climb out of %SRCROOT%)."""

    def __init__(self, folder: Path | None, inside: bool = False) -> None:
        self.prefix, self.base = ".", folder
        if folder is not None:
            relative = Path(os.path.relpath(folder, Path.cwd())).as_posix()
            if not (inside and relative.startswith("..")):
                self.prefix, self.base = relative, Path.cwd()

    def __call__(self, file: str) -> str:
        return file if self.prefix == "." else f"{self.prefix}/{file}"

    def base_uri(self) -> str:
        """SARIF's %SRCROOT%: the folder the paths are relative to."""
        return self.base.resolve().as_uri() + "/" if self.base is not None else "file:///"
