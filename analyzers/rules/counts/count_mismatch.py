"""CNT001: a count that announces an enumeration ("five datasets: A, B, C and D") with another number of items.

## How it decides
The confidence comes from how the items were told apart: 0.95 for a list environment right
after the count (at most 0.75 when a clause comes between, whatever the items: "four
contributions in this paper:", "three models for our experiments: A, B, C and D"),
0.9 for "(1) … (2) …" markers, 0.85 for a parenthesis or an inline list of three or more
items closed by "and"/"or", 0.75 for "A and B" alone and for ordinal sentences
("First, … Second, …") within the paragraph, 0.6 when the ordinal run is picked up in a later
paragraph. Minus 0.1 when an item carries its own count or its parentheses were set aside,
when the list sits in a table or figure, and for each item beyond one that the counts differ
by (a slip is usually one item; many means the parse likely went wrong). At most 0.5 when the
list may enumerate something else: "tasks with two nouns (A, B, C)" or "three of the four
datasets (A, B, C)"; none when a count earlier in the clause is the list's length ("four
regressions between the two models: (a) … (d)"). A clause between the count and its list
is left alone when it names another set the list may enumerate ("if one of the following
criteria is met:", "except the following:", "four surveys presented as part of three
studies:"). "Our contributions are threefold:" and "The reason is twofold. First, …" count
what follows as any announcement does, and "both" announces two ("both tasks (A, B and C)")
except before ordinals and a breakdown of its members ("both tribes (8 Canini, 1 Vulpini)").
An inline list of statistics ("both measurements: $r^2 = 0.78$; …"), one whose formula names
the items together ("Two indices: $l,r$ for left and right") and one whose commas set off asides
("appendices, which can be read, and …") are not read; nor is a clause past a brace, a parenthesis
or a formula, whose colon is a label's ("six labels in Table~\\ref{table:grade-stats}:"). Below 0.7 the finding is information.

The evidence class is how the items were told apart: its tier is how plainly the source marks
them ("strong: items of a list environment", "strong: numbered markers", "moderate: an inline
list closed by and/or", "moderate: a breakdown whose items carry their counts", "weak: ordinal
sentences", …). Each way misreads its own shapes, so each is measured apart, and so are the items
after a clause, an N-fold announcement or "both" ("moderate: items of a list environment after the
count's clause", "moderate: … after an N-fold announcement", "… after "both"").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import COUNT_WORDS, mismatches


@violation_type
class CountMismatch(Violation):
    announcement: re.Match[str]
    stated: int
    counted: int

    @property
    def message(self) -> str:
        words = " ".join(self.announcement.group(0).split())
        counted = self.announcement.group(2)
        noun = "items" if counted.endswith("fold") else counted  # "are threefold:" counts what follows
        return f'"{words}" announces {self.stated} {noun}, but {self.counted} follow'

    @property
    def fix_title(self) -> str | None:
        spelled = self.spelled_count
        return f'Replace "{self.announcement.group(1)}" with "{spelled}"' if spelled else None

    @property
    def identity(self) -> str:
        return f"{self.announcement.group(0)} {self.counted}"

    @property
    def spelled_count(self) -> str | None:
        """The counted number as the announcement would spell it, when it spells its count in words."""
        word = self.announcement.group(1)
        if word.isdigit() or self.counted - 2 not in range(len(COUNT_WORDS)):
            return None
        spelled = COUNT_WORDS[self.counted - 2]
        return spelled.capitalize() if word[0].isupper() else spelled


@rule("CNT001", "count-mismatch", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def count_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a count that announces an enumeration ("five datasets: A, B, C and D", "six diverse
    document types (A, B, C, D, E)", "three steps:" followed by a list, "four contributions in this paper:" and a list, "Our
    contributions are threefold:", "both tasks (A, B and C)") when the enumeration has another
    number of items. Items are
    counted from `\\item`s of the list that follows, from explicit markers "(1) … (2) …",
    from ordinals ("First, … Second, …", "{\\em First}", "And second, …", "The first step …
    For the second step …", in later paragraphs of the same section too while the run is
    shorter than the count), or from a short comma-separated list closed by "and"/"or". An
    item that carries its own count adds that count ("three conditions: two baselines and
    ours"), and items that each open with a count are a breakdown, long or short ("five
    indicators---two based on claims, one on surveys, and one on searches---", the one
    enumeration a dash sets off); a "Finally," after the ordinals is an item only while the run is short of the
    count (otherwise it wraps up). Open lists ("such as", "including", "e.g.", "\\dots"), a
    number inside a name ("Spin-0 estimators", "GPT-4 models", "palette~2 technologies") and
    a list that goes on in the next sentence ("We also use C.") are left alone.

    ## Why is this bad?
    A count that disagrees with its own list means a dataset, baseline or step was added or
    dropped without the text following; readers and reviewers take the count as the scope of
    the evaluation, so it is a claim distortion.

    ## Example
    ```latex
    We evaluate on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.
    ```

    ## Use instead
    ```latex
    We evaluate on four datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.
    ```

    ## Fix safety
    The fix writes the counted number. It is unsafe: the list may be the side that lost an item.
    """
    # The section's raw text as its files have it: an enumeration stops at the next heading.
    for stretch in section.stretches():
        file = stretch.file
        for match, stated, found in mismatches(ctx.source(file).text[stretch.start : stretch.end]):
            violation = CountMismatch(match, stated, found.counted)
            start, end = stretch.start + match.start(1), stretch.start + match.end(1)
            spelled = violation.spelled_count
            edits = [ctx.edit(file, start, end, spelled)] if spelled else None
            quote = " ".join(match.group(0).split())
            evidence = Evidence(
                kind=found.how,
                statements=[Statement(file=file, range=ctx.range(file, start, end), quote=quote, role="announced count")],
                reason=f"{found.counted} items counted from {found.how.partition(': ')[2]}",
            )
            yield ctx.flag(violation, file, start, end, edits=edits, confidence=round(found.confidence, 2), evidence=evidence)
