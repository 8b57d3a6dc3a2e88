"""The persistent analysis cache: chunk parses and rule results, kept on disk between runs.

It holds what the in-memory caches hold while a process lives: each file's chunk
parses (by the chunk's content hash), a bibliography's parse (by its text's hash),
the index's facts of its blocks (by their text), each rule's results by unit (by the
rule's facet digests and the section keys, see engine.py) and, for a folder
checked before, the whole check (see folder_record.py). Every entry is found by
those content digests under a fingerprint of auditex's own code (its version, the
source of latex/ and analyzers/, the versions of pylatexenc and bibtexparser), so a
changed manuscript or a changed auditex can only miss, never get a stale answer.

Entries live in diskcache under the user cache directory (platformdirs), or
`AUDITEX_CACHE_DIR` when set, in `analysis/`. An entry that cannot be read, does
not unpickle, or was written by another version is a miss, logged and dropped:
never trusted. `AUDITEX_NO_CACHE=1` (or `auditex check --no-cache`) turns the
cache off.
"""

from __future__ import annotations

import hashlib
import logging
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__

if TYPE_CHECKING:  # the store's database loads when a cache is opened, not with a check that has it off
    import diskcache

log = logging.getLogger(__name__)

CACHE_ENV = "AUDITEX_CACHE_DIR"
NO_CACHE_ENV = "AUDITEX_NO_CACHE"
_SIZE_LIMIT = 1024 * 1024 * 1024
# The code whose behaviour the entries record.
_CODE_FOLDERS = ("latex", "analyzers")
# The libraries whose output the entries keep.
_PARSERS = ("pylatexenc", "bibtexparser")


def cache_root(env: dict[str, str] | None = None) -> Path:
    """The user cache directory of auditex (`AUDITEX_CACHE_DIR` overrides it)."""
    env = dict(os.environ) if env is None else env
    base = env.get(CACHE_ENV)
    if base:
        return Path(base)
    import platformdirs

    return Path(platformdirs.user_cache_dir("auditex"))


def cache_disabled(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    return env.get(NO_CACHE_ENV, "").strip().lower() not in ("", "0", "false", "no")


@cache
def code_fingerprint() -> str:
    """auditex's version, the parsers' versions and a digest of the code that produces parses and findings."""
    from importlib import metadata  # a check that keeps no results (--no-cache) never reads it

    package = Path(__file__).resolve().parents[1]
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    for library in _PARSERS:
        digest.update(f"{library} {metadata.version(library)}".encode())
    for folder in _CODE_FOLDERS:
        for path in sorted((package / folder).rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class AnalysisCache:
    """One folder's view of the cache: what each file yields (its chunk parses, its blocks'
    facts) and rule results by (root, rule, facet digests)."""

    def __init__(self, folder: Path, directory: Path | None = None) -> None:
        self.folder = str(folder)
        self.directory = directory or cache_root() / "analysis"
        self.fingerprint = code_fingerprint()
        self._store: diskcache.Cache | None = None
        try:
            import diskcache

            self._store = diskcache.Cache(str(self.directory), size_limit=_SIZE_LIMIT)
        except Exception as error:  # a damaged database: run without the cache rather than fail
            log.warning("analysis cache at %s is unusable (%s); checking without it", self.directory, error)

    # The two kinds of entries

    def load(self, kind: str, path: str, value_type: type) -> dict[str, Any]:
        """What an earlier run kept of one file (see latex.chunk_parser.Store)."""
        values = self._get((kind, self.folder, path))
        if not isinstance(values, dict) or not all(isinstance(value, value_type) for value in values.values()):
            return {}
        return values

    def save(self, kind: str, path: str, values: dict[str, Any]) -> None:
        self._set((kind, self.folder, path), values)

    def load_units(self, key: tuple[str, ...]) -> dict[str, list[Any]]:
        """A rule's results by unit under (root file, rule code, facet digests, …)."""
        units = self._get(("units", self.folder, *key))
        if not isinstance(units, dict) or not all(isinstance(value, list) for value in units.values()):
            return {}
        return units

    def save_units(self, key: tuple[str, ...], units: dict[str, list[Any]]) -> None:
        self._set(("units", self.folder, *key), units)

    def load_check(self, key: tuple[str, ...]) -> Any:
        """A whole check's record under (path, settings digest), see folder_record.py."""
        return self._get(("check", self.folder, *key))

    def save_check(self, key: tuple[str, ...], record: Any) -> None:
        self._set(("check", self.folder, *key), record)

    # Storage

    def _key(self, parts: tuple[str, ...]) -> str:
        return hashlib.blake2b("\x1f".join((self.fingerprint, *parts)).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()

    def _get(self, parts: tuple[str, ...]) -> Any:
        if self._store is None:
            return None
        key = self._key(parts)
        try:
            entry = self._store.get(key)
        except Exception as error:  # unreadable row or value file, a pickle of something else
            log.warning("ignoring an unreadable analysis cache entry (%s)", type(error).__name__)
            self._drop(key)
            return None
        if entry is None:
            return None
        if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] == self.fingerprint):
            log.warning("ignoring a foreign analysis cache entry")
            self._drop(key)
            return None
        return entry[1]

    def _set(self, parts: tuple[str, ...], value: Any) -> None:
        if self._store is None:
            return
        try:
            self._store.set(self._key(parts), (self.fingerprint, value))
        except Exception as error:  # a full disk, or a value that does not pickle, must not fail the check
            log.warning("could not write the analysis cache at %s (%s)", self.directory, type(error).__name__)

    def _drop(self, key: str) -> None:
        if self._store is None:
            return
        try:
            self._store.delete(key)
        except Exception:
            pass

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
