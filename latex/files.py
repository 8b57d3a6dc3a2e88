"""What the manuscript and index builders read of a project: its parsed files, not the whole `Project`.

`Project` is the one implementation; the builders depend only on this view, so the
sandbox, the file watching and the caches of a project stay out of their reach.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .bibliography import Bibliography
from .document import Document
from .model import Inclusion, RowPull
from .source import SourceText


class ProjectFiles(Protocol):
    @property
    def root_file(self) -> str: ...

    @property
    def files(self) -> Sequence[str]:
        """The .tex files of the build, in include order."""
        ...

    @property
    def documents(self) -> Mapping[str, Document]: ...

    @property
    def inclusions(self) -> Sequence[Inclusion]: ...

    @property
    def bibliography_files(self) -> Sequence[str]: ...

    @property
    def bibliographies(self) -> Mapping[str, Bibliography]: ...

    @property
    def definitions(self) -> Mapping[str, str]:
        """The text of the project's own class and package files its files load."""
        ...

    def source(self, file: str) -> SourceText: ...

    def rows_text(self, file: str, pull: RowPull) -> str | None:
        """The text of the file of bare rows a tabular of `file` reads (None: not one to read)."""
        ...
