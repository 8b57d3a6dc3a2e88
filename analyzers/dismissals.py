"""Findings the author dismissed, kept in `.auditex/dismissed.json` by fingerprint.

A plain JSON file in the project: easy to read, diff, commit or delete to undo.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ..latex.record import record
from .plain_model import adapter

log = logging.getLogger(__name__)
DISMISSALS_FILE = Path(".auditex") / "dismissed.json"


@record
class Dismissal:
    fingerprint: str
    code: str
    file: str
    message: str
    dismissed_at: str


# The file's shape, read and written by pydantic: a project with no dismissals never imports it.
_LIST = list[Dismissal]


class Dismissals:
    def __init__(self, project_folder: Path) -> None:
        self.path = project_folder / DISMISSALS_FILE
        self._items: dict[str, Dismissal] = {}
        self.reload()

    def reload(self) -> None:
        self._items = {}
        if not self.path.is_file():
            return
        from pydantic import ValidationError

        try:
            items = adapter(_LIST).validate_json(self.path.read_bytes())
        except (OSError, ValidationError) as error:
            log.warning("ignoring unreadable %s: %s", self.path, error)
            return
        self._items = {item.fingerprint: item for item in items}

    def is_dismissed(self, fingerprint: str) -> bool:
        return fingerprint in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Dismissal]:
        return iter(self._items.values())

    def dismiss(self, fingerprint: str, code: str, file: str, message: str) -> None:
        self._items[fingerprint] = Dismissal(
            fingerprint=fingerprint,
            code=code,
            file=file,
            message=message,
            dismissed_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        self._save()

    def restore(self, fingerprint: str) -> bool:
        removed = self._items.pop(fingerprint, None) is not None
        if removed:
            self._save()
        return removed

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = adapter(_LIST).dump_json(sorted(self._items.values(), key=lambda item: (item.file, item.code)), indent=2)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_bytes(data + b"\n")
        temporary.replace(self.path)
