"""A whole check of a folder, kept in the analysis cache: an unchanged folder's findings without parsing.

Re-checking a folder where nothing changed is the common case in CI and before
a commit. The record of a check holds what it read (see latex/inputs.py): the
digest of the folder's paths, and the digest of every .tex file and every file
its projects read, as they were read. The next check of the same path under the
same settings lists the folder and re-reads those files; when every digest is
equal, the findings are those of the record. Anything else (a path added or
removed, one changed character, other settings, another auditex) is a miss, and
the check runs as usual, served by the finer entries of the cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..latex.inputs import file_digests, scan_tree, text_digest
from ..latex.project import Project
from ..latex.sandbox import ProjectRoot
from ..latex.source import value_hash
from .analysis_cache import AnalysisCache
from .dismissals import DISMISSALS_FILE
from .finding import Finding
from .project_config import CONFIG_FILE, Config

# Read by every check besides the .tex files: the settings and the dismissed findings.
_SETTINGS_FILES = [CONFIG_FILE, DISMISSALS_FILE.as_posix()]


@dataclass
class CheckRecord:
    tree: str
    reads: dict[str, str]  # project-relative path → its text's digest
    roots: list[str]
    files: list[str]  # the projects' source files, clean ones included
    findings: list[Finding]


class KeptCheck:
    """The check of `path` (project-relative) under `config`: its record if nothing it read has changed, and keeping a new one.

    The folder is listed and its .tex files read when this is made, before the check
    runs: a file that changes while it runs leaves a record that the next run cannot match.
    """

    def __init__(self, cache: AnalysisCache, root: ProjectRoot, path: str, config: Config) -> None:
        self.cache = cache
        self.root = root
        # The boundary too: a named project root reads less than the work tree around it.
        self.key = (path, value_hash((config.model_dump_json(), config.problems, str(root.boundary))))
        self.tree = scan_tree(root.folder)
        self._before: dict[str, str] | None = None

    def reuse(self) -> CheckRecord | None:
        if self.tree is None:
            return None
        record = self.cache.load_check(self.key)
        if not isinstance(record, CheckRecord) or record.tree != self.tree.digest:
            return None
        if file_digests(self.root, list(record.reads)) != record.reads:
            return None
        return record

    def before(self) -> None:
        """Read the folder's .tex files and settings as they are before the check."""
        if self.tree is not None:
            self._before = file_digests(self.root, [*self.tree.tex_files, *_SETTINGS_FILES])

    def keep(self, projects: list[Project], roots: list[str], findings: list[Finding]) -> None:
        if self.tree is None or self._before is None:
            return
        reads = dict(self._before)
        files = list(dict.fromkeys(path for project in projects for path in (*project.documents, *project.bibliographies)))
        for project in projects:
            read = [(path, document.source.hash, document.read_problem) for path, document in project.documents.items()]
            read += [(path, bibliography.source.hash, bibliography.read_problem) for path, bibliography in project.bibliographies.items()]
            for path, text_hash, problem in read:
                digest = text_digest(text_hash, problem)
                if reads.setdefault(path, digest) != digest:
                    return  # the file changed while the check read it: this check describes no state of the folder
        self.cache.save_check(self.key, CheckRecord(self.tree.digest, reads, roots, files, findings))
