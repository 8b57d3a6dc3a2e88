"""What the REF rules share: where the labels of a build may be defined besides its own `\\label`s."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.index import LabelEntry
from ....latex.project import ProjectProblem
from ....latex.sandbox import ProjectRoot
from ...context import RuleContext

# Files a build generates that define labels: xr-hyper's or a book's own `\\input{main.labels}`.
_GENERATED_LABEL_FILES = (".labels", ".aux")


# Labels a package defines at the end of the document: \pageref{LastPage} with lastpage.
_PACKAGE_LABELS = {"LastPage": "lastpage", "VeryLastPage": "lastpage", "TotPages": "totpages"}
# A use of a key by a reference command we may not know (\hyperref[key], \zcref{key}): not a definition.
_REFERENCE_BEFORE = DeferredPattern(r"\\\w*ref\w*\*?\s*[\[{](?:[^{}\[\]]*,)?\s*$")


_EXTERNAL_DOCUMENT = DeferredPattern(r"^[^%\n]*\\externaldocument\s*(?:\[[^\]]*\])?\s*\{", re.M)
_LABEL = DeferredPattern(r"^[^%\n]*?\\label\s*\{([^{}]+)\}", re.M)


@dataclass(slots=True)
class LabelSources:
    """Where the labels of a build may come from besides its own `\\label`s."""

    defined: dict[str, list[LabelEntry]]  # the build's labels
    missing: list[ProjectProblem]  # includes not in the project, which may hold labels
    generated: list[ProjectProblem]  # of those, generated labels files (main.labels, .aux), which surely do
    elsewhere: dict[str, str]  # undefined keys another root's file labels -> that file
    external: bool  # xr's \externaldocument reads the labels of the other document's build
    packages: set[str]  # the packages loaded, some of which define labels (lastpage)
    unresolved: set[str]  # the keys of references that `define` does not define: the references to look at
    # Where the references stand (a key there is a use, not a definition): read only to look for a mention.
    uses: set[tuple[str, int]] | None = None
    # Key → where it stands outside the references, looked for once per key (a key may have thousands of references).
    mentions: dict[str, tuple[str, int] | None] = field(default_factory=dict)

    @classmethod
    def of(cls, ctx: RuleContext) -> LabelSources:
        missing = [p for p in ctx.project.problems if p.kind == "missing_file" and p.target]
        defined = ctx.index.labels
        undefined = {ref.key for _, ref in ctx.index.refs} - defined.keys()
        elsewhere = _labels_outside_the_build(ctx, undefined) if undefined else {}
        external = bool(elsewhere) and _EXTERNAL_DOCUMENT.search("\n".join(ctx.source(path).text for path in ctx.project.files)) is not None
        sources = cls(
            defined=defined,
            missing=missing,
            generated=[p for p in missing if (p.target or "").endswith(_GENERATED_LABEL_FILES)],
            elsewhere=elsewhere,
            external=external,
            packages={
                site.target for path in ctx.project.files for site in ctx.project.documents[path].parsed.includes if site.kind == "package"
            },
            unresolved=set(),
        )
        sources.unresolved = {key for key in undefined if not sources.define(key)}
        return sources

    def define(self, key: str) -> bool:
        """Whether `key` is defined for the build: labelled, a macro's parameter, a package's, or the external document's."""
        if key in self.defined or "#" in key or _PACKAGE_LABELS.get(key) in self.packages:
            return True
        return key in self.elsewhere and self.external

    def mention(self, ctx: RuleContext, key: str) -> tuple[str, int] | None:
        """Where `key` stands outside the references, if anywhere: a command auditex does not read may define it there."""
        if key not in self.mentions:
            if self.uses is None:
                self.uses = {(file, ref.start) for file, ref in ctx.index.refs}
            self.mentions[key] = _mention_outside_references(ctx, key, self.uses)
        return self.mentions[key]


def _labels_outside_the_build(ctx: RuleContext, keys: set[str]) -> dict[str, str]:
    """Which of `keys` the other .tex files of the folder label (another root's appendix), and where."""
    found: dict[str, str] = {}
    folder = ctx.project.root.folder
    for path in sorted(folder.rglob("*.tex")):
        relative = path.relative_to(folder).as_posix()
        if relative in ctx.project.documents:
            continue
        try:
            status = path.stat()
        except OSError:
            continue  # gone since the folder was listed
        for key in _labels_in(ctx.project.root, relative, status.st_size, status.st_mtime_ns):
            if key in keys:
                found.setdefault(key, relative)
    return found


@lru_cache(maxsize=256)
def _labels_in(root: ProjectRoot, relative: str, size: int, modified: int) -> tuple[str, ...]:
    """The labels of one of the folder's other files, read again only when its size or time changed: REF001
    re-runs as the text changes, and these files rarely do."""
    return tuple(match.group(1).strip() for match in _LABEL.finditer(root.read(relative).text))


@lru_cache(maxsize=64)
def _comment_starts(text: str) -> list[int]:
    """Where each comment (an unescaped `%`) starts, in order."""
    return [match.start() for match in re.finditer(r"(?<!\\)%", text)]


def _mention_outside_references(ctx: RuleContext, key: str, uses: set[tuple[str, int]]) -> tuple[str, int] | None:
    """Where `key` stands as a whole argument or option value (`{key}`, `label=key`) outside the
    references and comments: a command auditex does not read may define it there."""
    for path in ctx.project.files:
        source = ctx.source(path)
        text = source.text
        comments = _comment_starts(text)
        position = text.find(key)
        while position != -1:
            end = position + len(key)
            before, after = text[max(0, position - 20) : position].rstrip()[-1:], text[end : end + 20].lstrip()[:1]
            # Line starts and comments looked up, not scanned for: a file of one long line has many mentions.
            line_start = source.line_starts[source.line_of(position)]
            comment = bisect.bisect_left(comments, line_start)
            if (
                before in ("{", "=", ",")
                and after in ("}", ",", "]")
                and (path, position) not in uses
                and not (comment < len(comments) and comments[comment] < position)
                and not _REFERENCE_BEFORE.search(text, max(line_start, position - 80), position)
            ):
                return path, position
            position = text.find(key, end)
    return None
