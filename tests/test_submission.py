"""Opening hostile submissions: every fixture is built here, in tmp_path, never committed."""

from __future__ import annotations

import gzip
import io
import os
import stat
import struct
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pydantic
import pytest

from auditex.latex.submission import ExtractionLimits, Submission, open_submission

ROOT_TEX = b"\\documentclass{article}\n\\begin{document}\nHello.\n\\end{document}\n"
INPUT_TEX = b"\\section{Intro}\nSome text.\n"
ZEROS_50MB = bytes(50 * 1024 * 1024)


# -- archive builders ----------------------------------------------------------


TarEntry = tuple[tarfile.TarInfo, bytes]
ZipEntry = tuple[zipfile.ZipInfo, bytes]


def tar_entry(name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE, **fields) -> TarEntry:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


def make_tar(path: Path, entries: list[TarEntry], mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode, format=tarfile.GNU_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return path


def zip_entry(name: str, data: bytes = b"", unix_mode: int | None = None) -> ZipEntry:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    if unix_mode is not None:
        info.create_system = 3
        info.external_attr = unix_mode << 16
    return info, data


def make_zip(path: Path, entries: list[ZipEntry]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for info, data in entries:
            archive.writestr(info, data)
    return path


def make_archive(path: Path, fmt: str, files: list[tuple[str, bytes]]) -> Path:
    """The same regular files as a tar.gz or a zip."""
    if fmt == "zip":
        return make_zip(path.with_suffix(".zip"), [zip_entry(n, d) for n, d in files])
    return make_tar(path.with_suffix(".tar.gz"), [tar_entry(n, d) for n, d in files])


# -- opening under the recorder --------------------------------------------------


@pytest.fixture
def open_checked(open_recorder) -> Iterator[Callable[..., Submission]]:
    """Open a submission and prove it touched nothing but the archive and its own folder."""
    opened_submissions: list[Submission] = []

    def open_and_check(archive: Path, limits: ExtractionLimits | None = None) -> Submission:
        with open_recorder() as opened:
            submission = open_submission(archive, limits)
        opened_submissions.append(submission)
        assert opened.outside(submission.folder, archive) == []
        assert opened.written_outside(submission.folder) == []
        if submission.extracted:
            assert submission.folder != archive.parent
            assert opened.written, "the recorder saw the extraction"
            assert stat.S_IMODE(submission.folder.stat().st_mode) == 0o700
            for path in submission.folder.rglob("*"):
                assert not path.is_symlink()
                assert path.is_dir() or path.is_file()
        return submission

    yield open_and_check
    for submission in opened_submissions:
        submission.cleanup()


def kinds(submission: Submission) -> list[str]:
    return [refusal.kind for refusal in submission.refusals]


def extracted(submission: Submission) -> set[str]:
    folder = submission.folder
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


# -- hostile names --------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_zip_slip_members_are_refused_and_the_rest_extracted(tmp_path, open_checked, fmt):
    archive = make_archive(
        tmp_path / "slip",
        fmt,
        [
            ("main.tex", ROOT_TEX),
            ("../evil.tex", b"evil"),
            ("sub/../../evil2.tex", b"evil"),
            ("..\\evil3.tex", b"evil"),
            ("sections/intro.tex", INPUT_TEX),
        ],
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["path_traversal"] * 3
    assert [r.member for r in submission.refusals] == [
        "../evil.tex",
        "sub/../../evil2.tex",
        "..\\evil3.tex",
    ]
    assert extracted(submission) == {"main.tex", "sections/intro.tex"}
    assert submission.root_file == submission.folder / "main.tex"


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_absolute_member_paths_are_refused(tmp_path, open_checked, fmt):
    target = tmp_path / "abs.tex"
    archive = make_archive(
        tmp_path / "absolute",
        fmt,
        [(str(target), b"evil"), ("C:\\abs.tex", b"evil"), ("main.tex", ROOT_TEX)],
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["absolute_path", "absolute_path"]
    assert submission.refusals[0].member == str(target)
    assert "absolute path" in submission.refusals[0].reason
    assert extracted(submission) == {"main.tex"}
    assert not target.exists()


def test_control_characters_in_names_are_refused_and_never_printed(tmp_path, open_checked):
    files = [("evil\x1b[2J.tex", b"x"), ("main.tex", ROOT_TEX)]
    archive = make_archive(tmp_path / "ansi", "tar.gz", files)
    submission = open_checked(archive)

    assert kinds(submission) == ["unsupported"]
    assert submission.refusals[0].member == "evil\\x1b[2J.tex"
    assert extracted(submission) == {"main.tex"}


# -- links and special files ------------------------------------------------------


def test_tar_symlink_to_etc_is_refused_and_never_followed(tmp_path, open_checked):
    archive = make_tar(
        tmp_path / "symlink.tar.gz",
        [
            tar_entry("etc", kind=tarfile.SYMTYPE, linkname="/etc"),
            tar_entry("etc/planted.tex", b"planted"),  # would land in /etc through the link
            tar_entry("main.tex", ROOT_TEX),
        ],
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["symlink"]
    assert "`/etc`" in submission.refusals[0].reason
    assert extracted(submission) == {"etc/planted.tex", "main.tex"}
    assert not Path("/etc/planted.tex").exists()


def test_zip_symlink_is_refused(tmp_path, open_checked):
    archive = make_zip(
        tmp_path / "symlink.zip",
        [
            zip_entry("etc", b"/etc", unix_mode=stat.S_IFLNK | 0o777),
            zip_entry("main.tex", ROOT_TEX, unix_mode=stat.S_IFREG | 0o644),
        ],
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["symlink"]
    assert extracted(submission) == {"main.tex"}


def test_hard_links_are_refused(tmp_path, open_checked):
    archive = make_tar(
        tmp_path / "hardlink.tar",
        [
            tar_entry("main.tex", ROOT_TEX),
            tar_entry("passwd.tex", kind=tarfile.LNKTYPE, linkname="/etc/passwd"),
            tar_entry("copy.tex", kind=tarfile.LNKTYPE, linkname="main.tex"),
        ],
        mode="w",
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["hardlink", "hardlink"]
    assert extracted(submission) == {"main.tex"}


def test_device_and_fifo_members_are_refused(tmp_path, open_checked):
    archive = make_tar(
        tmp_path / "devices.tar.gz",
        [
            tar_entry("null", kind=tarfile.CHRTYPE, devmajor=1, devminor=3),
            tar_entry("disk", kind=tarfile.BLKTYPE, devmajor=8, devminor=0),
            tar_entry("pipe", kind=tarfile.FIFOTYPE),
            tar_entry("main.tex", ROOT_TEX),
        ],
    )
    zip_archive = make_zip(
        tmp_path / "fifo.zip",
        [zip_entry("pipe", b"", unix_mode=stat.S_IFIFO | 0o644), zip_entry("main.tex", ROOT_TEX)],
    )
    submission = open_checked(archive)
    from_zip = open_checked(zip_archive)

    assert kinds(submission) == ["device"] * 3
    assert extracted(submission) == {"main.tex"}
    assert kinds(from_zip) == ["device"]
    assert extracted(from_zip) == {"main.tex"}


def test_unknown_tar_entry_types_are_refused(tmp_path, open_checked):
    archive = make_tar(tmp_path / "odd.tar.gz", [tar_entry("volume", kind=b"V"), tar_entry("main.tex", ROOT_TEX)])
    submission = open_checked(archive)

    assert kinds(submission) == ["unsupported"]
    assert extracted(submission) == {"main.tex"}


def test_extracted_files_lose_their_permission_bits(tmp_path, open_checked):
    archive = make_tar(tmp_path / "modes.tar.gz", [tar_entry("run.sh", b"rm -rf ~", mode=0o4777)])
    submission = open_checked(archive)

    assert stat.S_IMODE((submission.folder / "run.sh").stat().st_mode) == 0o600


# -- limits --------------------------------------------------------------------------


def test_zip_bomb_member_is_refused_by_its_ratio_and_the_rest_extracted(tmp_path, open_checked):
    archive = make_zip(
        tmp_path / "bomb.zip",
        [
            zip_entry("main.tex", ROOT_TEX),
            zip_entry("bomb.tex", ZEROS_50MB),
            zip_entry("after.tex", INPUT_TEX),
        ],
    )
    submission = open_checked(archive)

    assert kinds(submission) == ["compression_ratio"]
    assert submission.refusals[0].member == "bomb.tex"
    assert extracted(submission) == {"main.tex", "after.tex"}


def test_tar_gz_bomb_stops_extraction_by_the_overall_ratio(tmp_path, open_checked):
    entries = [tar_entry("main.tex", ROOT_TEX), tar_entry("bomb.tex", ZEROS_50MB)]
    archive = make_tar(tmp_path / "bomb.tar.gz", entries)
    submission = open_checked(archive)

    assert kinds(submission) == ["compression_ratio"]
    assert submission.refusals[0].member == "bomb.tex"
    assert extracted(submission) == {"main.tex"}


def test_a_bomb_hidden_in_tar_headers_is_metered_too(tmp_path, open_checked):
    # A 20 MB member name: tarfile would read it into memory before we see the member.
    entries = [tar_entry("main.tex", ROOT_TEX), tar_entry("n" * (20 * 1024 * 1024), b"x")]
    archive = make_tar(tmp_path / "names.tar.gz", entries)

    submission = open_checked(archive)

    assert kinds(submission) == ["compression_ratio"]
    assert submission.refusals[0].member == "names.tar.gz"
    assert extracted(submission) == {"main.tex"}


def test_a_gzipped_single_file_bomb_is_stopped(tmp_path, open_checked):
    archive = tmp_path / "2101.00003.gz"
    archive.write_bytes(gzip.compress(ZEROS_50MB))

    submission = open_checked(archive)

    assert kinds(submission) == ["compression_ratio"]
    assert submission.refusals[0].member == "2101.00003.tex"
    assert extracted(submission) == set()


def test_a_zip_header_that_lies_about_the_size_is_caught(tmp_path, open_checked):
    archive = tmp_path / "liar.zip"
    make_zip(archive, [zip_entry("big.tex", bytes(5 * 1024 * 1024)), zip_entry("main.tex", ROOT_TEX)])
    data = bytearray(archive.read_bytes())
    # Claim 1000 bytes for big.tex in both the local header and the central directory.
    struct.pack_into("<I", data, 22, 1000)
    struct.pack_into("<I", data, data.index(b"PK\x01\x02") + 24, 1000)
    archive.write_bytes(bytes(data))

    submission = open_checked(archive)

    assert kinds(submission) == ["corrupt_archive"]
    assert submission.refusals[0].member == "big.tex"
    assert extracted(submission) == {"main.tex"}


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_a_file_past_the_single_file_limit_is_refused_and_the_rest_kept(tmp_path, open_checked, fmt):
    files = [("main.tex", ROOT_TEX), ("big.dat", os.urandom(6000)), ("after.tex", INPUT_TEX)]
    limits = ExtractionLimits(max_file_bytes=5000)
    submission = open_checked(make_archive(tmp_path / "big", fmt, files), limits)

    assert kinds(submission) == ["too_large"]
    assert submission.refusals[0].member == "big.dat"
    assert "single-file limit" in submission.refusals[0].reason
    assert extracted(submission) == {"main.tex", "after.tex"}


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_the_total_size_limit_stops_extraction(tmp_path, open_checked, fmt):
    # Incompressible, so only the size limit can fire; tar is charged as its stream is read.
    files = [("main.tex", ROOT_TEX)] + [(f"{n}.dat", os.urandom(300_000)) for n in "abcde"]
    limits = ExtractionLimits(max_total_bytes=1_000_000)
    submission = open_checked(make_archive(tmp_path / "total", fmt, files), limits)

    assert kinds(submission) == ["too_large"]
    assert "total size limit" in submission.refusals[0].reason
    assert {"main.tex", "a.dat", "b.dat"} <= extracted(submission)
    assert "d.dat" not in extracted(submission) and "e.dat" not in extracted(submission)


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_twenty_thousand_tiny_files_are_refused_by_the_count(tmp_path, open_checked, fmt):
    files = [("main.tex", ROOT_TEX)] + [(f"tiny/{i:05}.tex", b"x") for i in range(20_000)]
    archive = make_archive(tmp_path / "many", fmt, files)

    submission = open_checked(archive)

    assert kinds(submission) == ["too_many_files"]
    assert submission.refusals[0].member == "tiny/04999.tex"  # the 5001st entry
    assert len(extracted(submission)) == ExtractionLimits().max_files
    assert submission.root_file == submission.folder / "main.tex"


# -- damaged archives -------------------------------------------------------------


def test_truncated_tar_gz_keeps_complete_members_and_drops_the_partial_one(tmp_path, open_checked):
    entries = [tar_entry("main.tex", ROOT_TEX), tar_entry("figure.png", os.urandom(200_000))]
    whole = make_tar(tmp_path / "whole.tar.gz", entries)
    archive = tmp_path / "cut.tar.gz"
    archive.write_bytes(whole.read_bytes()[:120_000])

    submission = open_checked(archive)

    assert kinds(submission) == ["corrupt_archive"]
    assert submission.refusals[0].member == "figure.png"
    assert "damaged or truncated" in submission.refusals[0].reason
    assert extracted(submission) == {"main.tex"}


@pytest.mark.parametrize(
    "name, content",
    [
        ("cut.zip", lambda zip_bytes: zip_bytes[: len(zip_bytes) // 2]),
        ("garbage.tar.gz", lambda _: gzip.compress(b"\0" * 100)[:-6] + b"garbage!"),
        ("headers.tar", lambda _: b"ustar".ljust(512, b"\1") * 3),
    ],
)
def test_damaged_archives_give_a_refusal_not_a_traceback(tmp_path, open_checked, name, content):
    zip_bytes = make_zip(tmp_path / "ok.zip", [zip_entry("main.tex", ROOT_TEX * 50)]).read_bytes()
    archive = tmp_path / name
    archive.write_bytes(content(zip_bytes))

    submission = open_checked(archive)

    assert kinds(submission) in (["corrupt_archive"], ["unsupported"])
    assert submission.root_file is None


def test_a_file_that_is_no_archive_is_unsupported(tmp_path, open_checked):
    pdf = tmp_path / "submission.pdf"
    pdf.write_bytes(b"%PDF-1.5\n" + os.urandom(1000))

    submission = open_checked(pdf)

    assert kinds(submission) == ["unsupported"]
    assert submission.refusals[0].member == "submission.pdf"
    assert extracted(submission) == set()


# -- well-formed submissions ---------------------------------------------------------


@pytest.mark.parametrize(
    "archive_name, tex_name",
    [
        ("2101.00001.gz", "2101.00001.tex"),
        ("2101.00001", "2101.00001.tex"),
        ("paper.tex.gz", "paper.tex"),
    ],
)
def test_gzipped_single_tex_from_arxiv(tmp_path, open_checked, archive_name, tex_name):
    archive = tmp_path / archive_name
    archive.write_bytes(gzip.compress(ROOT_TEX))

    submission = open_checked(archive)

    assert submission.refusals == []
    assert submission.root_file == submission.folder / tex_name
    assert submission.root_file.read_bytes() == ROOT_TEX


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2", "w:xz", "w"])
def test_arxiv_tarball_without_extension_is_sniffed(tmp_path, open_checked, mode):
    archive = make_tar(tmp_path / "2101.00002", [tar_entry("ms.tex", ROOT_TEX)], mode=mode)

    submission = open_checked(archive)

    assert submission.refusals == []
    assert submission.root_file == submission.folder / "ms.tex"


def test_zip_with_nested_folder_finds_main_and_names_it_relative(tmp_path, open_checked):
    archive = make_zip(
        tmp_path / "paper.zip",
        [
            zip_entry("paper-v2/"),
            zip_entry("paper-v2/main.tex", ROOT_TEX),
            zip_entry("paper-v2/sections/intro.tex", INPUT_TEX),
            zip_entry("paper-v2/figures/plot.tex", ROOT_TEX),  # a standalone figure
            zip_entry("__MACOSX/paper-v2/._main.tex", ROOT_TEX),
        ],
    )
    submission = open_checked(archive)

    assert submission.refusals == []
    assert submission.root_file == submission.folder / "paper-v2/main.tex"
    assert submission.other_root_candidates == [submission.folder / "paper-v2/figures/plot.tex"]


def test_tar_with_several_root_candidates_picks_deterministically(tmp_path, open_checked):
    commented = b"% \\documentclass{article}\n% \\begin{document}\n"
    archive = make_tar(
        tmp_path / "two.tar.gz",
        [
            tar_entry("supplement.tex", ROOT_TEX),
            tar_entry("notes.tex", commented),
            tar_entry("main.tex", ROOT_TEX),
            tar_entry("old/paper.tex", ROOT_TEX),
        ],
    )
    unnamed = make_tar(tmp_path / "unnamed.tar", [tar_entry("b.tex", ROOT_TEX), tar_entry("a.tex", ROOT_TEX)], mode="w")

    submission = open_checked(archive)
    without_common_name = open_checked(unnamed)

    folder = submission.folder
    assert submission.root_file == folder / "main.tex"
    assert submission.other_root_candidates == [folder / "supplement.tex", folder / "old/paper.tex"]
    assert without_common_name.root_file == without_common_name.folder / "a.tex"
    assert without_common_name.other_root_candidates == [without_common_name.folder / "b.tex"]


def test_a_member_that_collides_with_a_file_is_refused(tmp_path, open_checked):
    files = [("main.tex", ROOT_TEX), ("main.tex/inner.tex", b"x")]
    archive = make_archive(tmp_path / "clash", "tar.gz", files)

    submission = open_checked(archive)

    assert kinds(submission) == ["unsupported"]
    assert extracted(submission) == {"main.tex"}


# -- folders, files and lifetime -------------------------------------------------------


def test_folder_is_opened_in_place_without_reading_symlinked_sources(tmp_path, open_checked):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.tex").write_bytes(ROOT_TEX)
    project = tmp_path / "project"
    (project / "sections").mkdir(parents=True)
    (project / "main.tex").write_bytes(ROOT_TEX)
    (project / "sections" / "intro.tex").write_bytes(INPUT_TEX)
    (project / "aaa.tex").symlink_to(outside / "secret.tex")
    (project / "linked").symlink_to(outside)

    submission = open_checked(project)
    submission.cleanup()

    assert not submission.extracted
    assert submission.folder == project.resolve()
    assert submission.root_file == project.resolve() / "main.tex"
    assert submission.other_root_candidates == []
    assert (project / "main.tex").exists(), "cleanup never deletes the user's folder"


def test_tex_file_is_opened_in_place(tmp_path, open_checked):
    (tmp_path / "paper.tex").write_bytes(ROOT_TEX)

    submission = open_checked(tmp_path / "paper.tex")

    assert submission.folder == tmp_path.resolve()
    assert submission.root_file == tmp_path.resolve() / "paper.tex"


def test_missing_path_raises_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="No such file or folder"):
        open_submission(tmp_path / "nope.tar.gz")


def test_leaving_the_context_removes_the_extraction_folder(tmp_path):
    archive = make_archive(tmp_path / "ok", "zip", [("main.tex", ROOT_TEX)])

    with open_submission(archive) as submission:
        assert (submission.folder / "main.tex").read_bytes() == ROOT_TEX

    assert not submission.folder.exists()
    assert archive.exists()


def test_limits_are_validated():
    assert ExtractionLimits(max_files=10).max_files == 10
    with pytest.raises(pydantic.ValidationError):
        ExtractionLimits(max_files=0)
    with pytest.raises(pydantic.ValidationError):
        ExtractionLimits(max_size=1)


# -- the recorder itself -------------------------------------------------------------


def test_recorder_sees_reads_and_writes_outside_a_root(tmp_path, open_recorder):
    tmp_path = tmp_path.resolve()
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("s")

    with open_recorder() as opened:
        (root / "inside.txt").write_text("fine")
        (tmp_path / "secret.txt").read_text()
        os.close(os.open(tmp_path / "written.txt", os.O_WRONLY | os.O_CREAT))
        (tmp_path / "made").mkdir()
        import json  # noqa: F401  (imports are ignored)

    secret, written, made = (tmp_path / n for n in ("secret.txt", "written.txt", "made"))
    assert opened.outside(root) == [secret, written, made]
    assert opened.written_outside(root) == [written, made]
    assert opened.outside(tmp_path) == []
    assert root / "inside.txt" in opened.written
