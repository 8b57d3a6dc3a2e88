"""Opening a submitted manuscript safely: a folder, a .tex file or an archive.

A submission is untrusted input. Archives are unpacked by hand, member by
member, into a private temporary folder: every name is checked before it
touches the disk, only regular files and folders are created, and bytes are
counted while they stream, so a lying header or a compression bomb is stopped
by what actually comes out, not by what the archive claims. Nothing from the
submission is ever executed, and no file keeps its permission bits.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import shutil
import stat
import tarfile
import tempfile
import weakref
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO, Literal, cast

from pydantic import BaseModel, ConfigDict, PositiveFloat, PositiveInt

from .record import record
from .sandbox import SUBMISSION_FOLDER_PREFIX

MIB = 1024 * 1024
CHUNK = 64 * 1024
# Names that authors give the file to compile, best first.
COMMON_ROOT_NAMES = ("main.tex", "ms.tex", "paper.tex")
# \documentclass sits in the first lines and long preambles stay far below this.
ROOT_SNIFF_BYTES = 1 * MIB

RefusalKind = Literal[
    "absolute_path",
    "path_traversal",
    "symlink",
    "hardlink",
    "device",
    "too_large",
    "too_many_files",
    "compression_ratio",
    "corrupt_archive",
    "unsupported",
]


class ExtractionLimits(BaseModel):
    """How much an archive may unpack to before extraction stops."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_total_bytes: PositiveInt = 200 * MIB
    max_file_bytes: PositiveInt = 50 * MIB
    # Every entry counts (folders, refused members), so a flood of junk entries stops too.
    max_files: PositiveInt = 5000
    max_compression_ratio: PositiveFloat = 100.0
    # Tiny files compress wildly; the ratio is only judged past this many bytes.
    ratio_min_bytes: PositiveInt = 1 * MIB


@record
class Refusal:
    """One archive member (or the whole archive) that was not extracted, and why."""

    member: str
    reason: str
    kind: RefusalKind


class Submission:
    """An opened submission; as a context manager it removes what it extracted."""

    def __init__(
        self,
        source: Path,
        folder: Path,
        root_file: Path | None,
        other_root_candidates: list[Path],
        refusals: list[Refusal],
        *,
        extracted: bool,
    ) -> None:
        self.source = source
        self.folder = folder
        self.root_file = root_file
        self.other_root_candidates = other_root_candidates
        self.refusals = refusals
        self.extracted = extracted
        # A user's own folder is never deleted; an extraction folder always is, even if
        # the caller forgets to close (finalize runs at garbage collection or exit).
        self._cleanup = weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True) if extracted else None

    def cleanup(self) -> None:
        if self._cleanup is not None:
            self._cleanup()

    def __enter__(self) -> Submission:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cleanup()


def open_submission(path: Path, limits: ExtractionLimits | None = None) -> Submission:
    """Open a folder, a .tex file or an archive (tar, tar.gz, zip, gzipped .tex).

    Archives are recognised by their content, so arXiv e-prints without an
    extension work. Raises FileNotFoundError if `path` does not exist; every
    problem inside an archive becomes a `Refusal` instead of an exception.
    """
    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"No such file or folder: {path}")
    if path.is_dir():
        root, others = find_root_file(path)
        return Submission(path, path, root, others, [], extracted=False)
    if path.suffix.lower() == ".tex":
        return Submission(path, path.parent, path, [], [], extracted=False)

    folder = Path(tempfile.mkdtemp(prefix=SUBMISSION_FOLDER_PREFIX))
    submission = Submission(path, folder, None, [], [], extracted=True)
    _Extractor(path, folder, limits or ExtractionLimits(), submission.refusals).run()
    submission.root_file, submission.other_root_candidates = find_root_file(folder)
    return submission


def find_root_file(folder: Path) -> tuple[Path | None, list[Path]]:
    """The .tex file to compile and the other candidates, best first.

    Symlinks are neither followed nor read: in a user's folder they may point anywhere.
    """
    candidates = sorted(_root_candidates(folder), key=lambda p: _root_rank(p, folder))
    if not candidates:
        return None, []
    return candidates[0], candidates[1:]


class _LimitExceeded(Exception):
    """A limit was crossed; `fatal` stops the whole extraction, else only the member."""

    def __init__(self, kind: RefusalKind, reason: str, *, fatal: bool) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.fatal = fatal


class _Budget:
    """Counts every decompressed byte of the archive against the overall limits."""

    def __init__(self, limits: ExtractionLimits, archive_bytes: int) -> None:
        self.limits = limits
        self.archive_bytes = max(archive_bytes, 1)
        self.total = 0

    def consume(self, count: int) -> None:
        self.total += count
        limits = self.limits
        if self.total > limits.max_total_bytes:
            raise _LimitExceeded(
                "too_large",
                f"The archive unpacks to more than {_size(limits.max_total_bytes)}, the total size limit, so extraction stopped.",
                fatal=True,
            )
        if self.total > limits.ratio_min_bytes and self.total > limits.max_compression_ratio * self.archive_bytes:
            raise _LimitExceeded(
                "compression_ratio",
                f"The archive expands more than {limits.max_compression_ratio:g} times its "
                "own size (a compression bomb), so extraction stopped.",
                fatal=True,
            )


class _MeteredStream(io.RawIOBase):
    """A decompressed stream whose every byte is charged to the budget as it is read."""

    def __init__(self, source: IO[bytes], budget: _Budget) -> None:
        self._source = source
        self._budget = budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._source.read(len(buffer))
        self._budget.consume(len(data))
        buffer[: len(data)] = data
        return len(data)


# Magic bytes of the compressed streams we unwrap before looking for a tar.
_DECOMPRESSORS: dict[bytes, Callable[[BinaryIO], IO[bytes]]] = {
    b"\x1f\x8b": lambda raw: cast(IO[bytes], gzip.GzipFile(fileobj=raw)),  # typeshed: BZ2File is an IO[bytes], GzipFile not
    b"BZh": bz2.BZ2File,
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}
# What a damaged archive raises from the stdlib readers.
_CORRUPTION_ERRORS = (
    tarfile.TarError,
    zipfile.BadZipFile,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    gzip.BadGzipFile,
)

# Refusal reasons, one sentence each.
_ABSOLUTE = "The member has an absolute path, which would land outside the extraction folder."
_TRAVERSAL = "The member climbs out of the extraction folder with `..`."
_CONTROL_CHARACTERS = "The member name contains control characters, which no LaTeX source needs."
_SYMLINK = "The member is a symbolic link{link}, which could expose files outside the submission."
_HARDLINK = "The member is a hard link to `{link}`, which could alias files outside the submission."
_DEVICE = "The member is a device, FIFO or socket, which has no place in a LaTeX source."
_SPECIAL_ENTRY = "The member is a special tar entry that no LaTeX source needs."
_NOT_AN_ARCHIVE = "The file is neither a folder, a .tex file, nor a tar, zip or gzip archive."
_CORRUPT = "The archive is damaged or truncated ({error}), so extraction stopped."
_SPECIAL_FILE_TYPES = {stat.S_IFCHR, stat.S_IFBLK, stat.S_IFIFO, stat.S_IFSOCK}


class _Extractor:
    """Unpacks one archive into `folder`, appending a Refusal for everything it skips."""

    def __init__(self, archive: Path, folder: Path, limits: ExtractionLimits, refusals: list[Refusal]) -> None:
        self.archive = archive
        self.folder = folder
        self.limits = limits
        self.refusals = refusals
        self.budget = _Budget(limits, archive.stat().st_size)
        self.entries = 0
        # The member being extracted, named by a refusal that stops everything.
        self.current: str | None = None

    def run(self) -> None:
        try:
            self._extract()
        except _LimitExceeded as stop:
            self._stop(stop.kind, stop.reason)
        except _CORRUPTION_ERRORS as error:
            self._stop("corrupt_archive", _CORRUPT.format(error=error))
        except NotImplementedError as error:  # a zip feature the stdlib cannot read
            self._stop("unsupported", f"The archive cannot be read ({error}).")
        except OSError as error:
            if error.errno is None:  # decompressors report bad data as an OSError without errno
                self._stop("corrupt_archive", _CORRUPT.format(error=error))
            else:
                self._stop("unsupported", f"The archive could not be extracted ({error.strerror}).")

    def _stop(self, kind: RefusalKind, reason: str) -> None:
        """Refuse the member in progress, or the archive itself between members."""
        self._refuse(self.current if self.current is not None else self.archive.name, kind, reason)

    def _extract(self) -> None:
        with self.archive.open("rb") as raw:
            magic = raw.read(8)
            raw.seek(0)
            if magic.startswith(b"PK"):
                self._zip(raw)
                return
            opener = next((o for m, o in _DECOMPRESSORS.items() if magic.startswith(m)), None)
            source = opener(raw) if opener else raw
            stream = io.BufferedReader(_MeteredStream(source, self.budget), CHUNK)
            if _looks_like_tar(stream.peek(tarfile.BLOCKSIZE)[: tarfile.BLOCKSIZE]):
                self._tar(stream)
            elif opener is not None:
                self._single_file(stream)
            else:
                self._refuse(self.archive.name, "unsupported", _NOT_AN_ARCHIVE)

    # -- formats ---------------------------------------------------------

    def _tar(self, stream: BinaryIO) -> None:
        # Stream mode reads strictly forward: no seeking back, no trusting an index.
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                self._tar_member(tar, member)
                self.current = None

    def _tar_member(self, tar: tarfile.TarFile, member: tarfile.TarInfo) -> None:
        name = member.name
        target = self._admit(name)
        if target is None:
            return
        if member.isdir():
            self._make_folder(name, target)
        elif member.issym():
            link = f" to `{_printable(member.linkname)}`"
            self._refuse(name, "symlink", _SYMLINK.format(link=link))
        elif member.islnk():
            self._refuse(name, "hardlink", _HARDLINK.format(link=_printable(member.linkname)))
        elif member.ischr() or member.isblk() or member.isfifo():
            self._refuse(name, "device", _DEVICE)
        elif member.isreg() and not member.issparse():
            source = tar.extractfile(member)
            assert source is not None  # a regular member always has data
            self._write_file(name, target, source, compressed_size=None)
        else:
            self._refuse(name, "unsupported", _SPECIAL_ENTRY)

    def _zip(self, raw: BinaryIO) -> None:
        with zipfile.ZipFile(raw) as archive:
            for info in archive.infolist():
                self._zip_member(archive, info)
                self.current = None

    def _zip_member(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        name = info.filename
        target = self._admit(name)
        if target is None:
            return
        mode = info.external_attr >> 16 if info.create_system == 3 else 0  # 3: made on Unix
        if info.is_dir():
            self._make_folder(name, target)
        elif stat.S_ISLNK(mode):
            self._refuse(name, "symlink", _SYMLINK.format(link=""))
        elif stat.S_IFMT(mode) in _SPECIAL_FILE_TYPES:
            self._refuse(name, "device", _DEVICE)
        else:
            # A zip keeps a central index, so one unreadable member need not stop the others.
            try:
                with archive.open(info) as source:
                    self._write_file(name, target, source, compressed_size=info.compress_size)
            except (RuntimeError, NotImplementedError) as error:  # encrypted, unknown method
                self._refuse(name, "unsupported", f"The member cannot be read ({error}).")
            except (zipfile.BadZipFile, EOFError, zlib.error, lzma.LZMAError) as error:
                self._refuse(name, "corrupt_archive", f"The member is damaged ({error}).")

    def _single_file(self, stream: BinaryIO) -> None:
        name = _single_file_name(self.archive)
        target = self._admit(name)
        if target is not None:
            self._write_file(name, target, stream, compressed_size=None)

    # -- members ---------------------------------------------------------

    def _admit(self, name: str) -> Path | None:
        """Count the entry and say where it lands, or None (and a refusal) if its name is unsafe."""
        self.current = name
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise _LimitExceeded(
                "too_many_files",
                f"The archive holds more than {self.limits.max_files} entries, the file-count limit, so extraction stopped.",
                fatal=True,
            )
        posix = name.replace("\\", "/")  # archives made on Windows separate with backslashes
        if posix.startswith("/") or re.match(r"[A-Za-z]:/", posix):
            self._refuse(name, "absolute_path", _ABSOLUTE)
            return None
        parts = [part for part in PurePosixPath(posix).parts if part != "."]
        if ".." in parts:
            self._refuse(name, "path_traversal", _TRAVERSAL)
            return None
        if not posix.isprintable():
            self._refuse(name, "unsupported", _CONTROL_CHARACTERS)
            return None
        return self.folder.joinpath(*parts) if parts else None

    def _make_folder(self, name: str, target: Path) -> None:
        try:
            target.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            self._refuse(name, "unsupported", f"The folder cannot be created ({error.strerror}).")

    def _write_file(self, name: str, target: Path, source: IO[bytes], *, compressed_size: int | None) -> None:
        """Copy a member's bytes under the per-file limits; a partial file never stays on disk."""
        try:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # O_NOFOLLOW: belt and braces, since no symlink is ever created in the folder.
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
            descriptor = os.open(target, flags, 0o600)
        except OSError as error:
            self._refuse(name, "unsupported", f"The file cannot be created ({error.strerror}).")
            return
        try:
            with os.fdopen(descriptor, "wb") as sink:
                self._copy(source, sink, compressed_size)
        except BaseException as error:
            target.unlink(missing_ok=True)
            if not isinstance(error, _LimitExceeded) or error.fatal:
                raise
            self._refuse(name, error.kind, error.reason)

    def _copy(self, source: IO[bytes], sink: BinaryIO, compressed_size: int | None) -> None:
        limits = self.limits
        written = 0
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if compressed_size is not None:  # tar and gzip streams are charged by _MeteredStream
                self.budget.consume(len(chunk))
            if written > limits.max_file_bytes:
                raise _LimitExceeded(
                    "too_large",
                    f"The member unpacks to more than {_size(limits.max_file_bytes)}, the single-file limit.",
                    fatal=False,
                )
            if (
                compressed_size is not None
                and written > limits.ratio_min_bytes
                and written > limits.max_compression_ratio * max(compressed_size, 1)
            ):
                raise _LimitExceeded(
                    "compression_ratio",
                    f"The member expands more than {limits.max_compression_ratio:g} times its compressed size (a zip bomb).",
                    fatal=False,
                )
            sink.write(chunk)

    def _refuse(self, member: str, kind: RefusalKind, reason: str) -> None:
        self.refusals.append(Refusal(_printable(member), reason, kind))


def _looks_like_tar(block: bytes) -> bool:
    try:
        tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
    except tarfile.HeaderError:
        return False
    return True


def _single_file_name(archive: Path) -> str:
    """Name of the one file inside a gzip: arXiv ships `2101.00001.gz` or no extension at all."""
    name = re.sub(r"\.(gz|gzip|bz2|xz)$", "", archive.name, flags=re.IGNORECASE)
    return name if name.lower().endswith(".tex") else f"{name}.tex"


def _root_candidates(folder: Path) -> Iterator[Path]:
    for directory, subfolders, files in os.walk(folder):
        # Hidden folders and macOS resource forks hold no sources worth compiling.
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d != "__MACOSX")
        for name in sorted(files):
            path = Path(directory, name)
            is_source = name.lower().endswith(".tex") and not name.startswith("._")
            if is_source and not path.is_symlink() and _is_root_source(path):
                yield path


_COMMENT = re.compile(rb"(?<!\\)%.*")


def _is_root_source(path: Path) -> bool:
    try:
        with path.open("rb") as source:
            head = source.read(ROOT_SNIFF_BYTES)
    except OSError:
        return False
    text = _COMMENT.sub(b"", head)
    return b"\\documentclass" in text and re.search(rb"\\begin\s*\{document\}", text) is not None


def _root_rank(path: Path, folder: Path) -> tuple[int, int, str]:
    """Shallowest first (nested copies are often old versions), then common names, then by name."""
    relative = path.relative_to(folder)
    name = path.name.lower()
    common = COMMON_ROOT_NAMES.index(name) if name in COMMON_ROOT_NAMES else len(COMMON_ROOT_NAMES)
    return len(relative.parts), common, relative.as_posix()


def _printable(name: str, limit: int = 200) -> str:
    """A member name safe to print: control characters escaped, length capped."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _size(count: int) -> str:
    return f"{count / MIB:g} MB"
