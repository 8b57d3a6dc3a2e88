"""INC and SUB: the project's file graph, and the archive it was submitted in."""

from .include_cycle import include_cycle
from .missing_include import missing_include
from .path_outside_project import path_outside_project
from .unreadable_source import unreadable_source
from .unsafe_archive_member import unsafe_archive_member

__all__ = ["include_cycle", "missing_include", "path_outside_project", "unreadable_source", "unsafe_archive_member"]
