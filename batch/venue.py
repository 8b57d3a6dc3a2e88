"""A venue's submissions: what `auditex batch INPUT` lists, and the content hash each is keyed by.

INPUT is a folder whose entries are submissions (archives, folders or single .tex files),
or a text file naming one submission path per line (blank lines and `#` comments skipped,
relative paths taken from the list's own folder). A submission's id is its name in the
folder or its path as listed; ids are unique, since they name the result lines.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_HASH_CHUNK = 1024 * 1024


class VenueError(Exception):
    """The INPUT cannot be read as a venue; the message is one sentence for the user."""


@dataclass(frozen=True)
class Entry:
    """One submission: its id in the results and where it is."""

    id: str
    path: Path


def list_submissions(source: Path) -> list[Entry]:
    """The submissions of a venue folder or a list file, in a stable order."""
    if not source.exists():
        raise VenueError(f"'{source}' does not exist")
    if source.is_dir():
        entries = [
            Entry(child.name, child)
            for child in sorted(source.iterdir())
            if not child.name.startswith(".") and (child.is_dir() or child.is_file())
        ]
    else:
        entries = _listed(source)
    if not entries:
        raise VenueError(f"'{source}' holds no submissions")
    return entries


def _listed(listing: Path) -> list[Entry]:
    try:
        lines = listing.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise VenueError(f"'{listing}' is neither a folder nor a readable list of submissions ({error})") from None
    entries: dict[str, Entry] = {}
    for number, line in enumerate(lines, 1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        if name in entries:
            raise VenueError(f"'{listing}' line {number} lists '{name}' a second time")
        path = Path(name) if Path(name).is_absolute() else listing.parent / name
        entries[name] = Entry(name, path)
    return list(entries.values())


def content_hash(path: Path) -> str:
    """SHA-256 of a submission's bytes; for a folder, of every file's relative name and bytes.

    Symbolic links are hashed by their target text, never followed; FIFOs and devices by
    their kind, never opened. A path that cannot
    be read hashes to the reason, so a re-run after it is fixed checks it again.
    """
    digest = hashlib.sha256()
    try:
        if path.is_dir():
            for directory, folders, files in os.walk(path):
                folders.sort()
                for name in sorted(files):
                    file = Path(directory, name)
                    digest.update(file.relative_to(path).as_posix().encode("utf-8", "surrogateescape") + b"\0")
                    _hash_member(file, digest)
                    digest.update(b"\0")
        else:
            _hash_member(path, digest)
    except OSError as error:
        digest.update(f"unreadable: {error}".encode())
    return digest.hexdigest()


def _hash_member(path: Path, digest: hashlib._Hash) -> None:
    """A regular file by its bytes; a link by its target text; a FIFO or device only by its kind (opening one may block)."""
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        digest.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
    elif not stat.S_ISREG(mode):
        digest.update(f"special:{stat.S_IFMT(mode)}".encode())
    else:
        _hash_file(path, digest)


def _hash_file(path: Path, digest: hashlib._Hash) -> None:
    with path.open("rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
