"""Reference verification (BIB) through the real client code against loopback stand-ins.

No test reaches the internet: every service's base URL points at `scholarly_standins`
on 127.0.0.1 (or at a closed port, for "unreachable"), and the answer cache lives in
a temporary folder.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from scholarly_standins import LIBRARY, RETRACTED, SERVICES, Fault, StandIns, StandInWork

from auditex.analyzers.online_verification import OnlineChecker
from auditex.analyzers.policy import Policy
from auditex.analyzers.project_config import load_config
from auditex.analyzers.rules import default_registry
from auditex.analyzers.scholarly.cited_references import cited_references, from_bib, from_bibitem
from auditex.analyzers.scholarly.http import HostPolicy, HttpClient, ServiceUnavailable
from auditex.analyzers.scholarly.index_cache import AnswerCache
from auditex.analyzers.scholarly.resolver import OnlineSettings, Verifier, default_policies
from auditex.latex.project import Project

BIB = {
    "vaswani2017": "@inproceedings{vaswani2017,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},\n"
    "  booktitle = {NeurIPS},\n  year = {2017}\n}\n",
    "he2016": "@inproceedings{he2016,\n  title = {Deep Residual Learning for Image Recognition},\n  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},\n"
    "  booktitle = {CVPR},\n  year = {2016},\n  doi = {10.1109/CVPR.2016.90}\n}\n",
}


def project(tmp_path: Path, entries: dict[str, str], tex_extra: str = "") -> Path:
    cites = "".join(f"See \\cite{{{key}}}.\n" for key in entries)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n" + cites + tex_extra + "\\bibliography{refs}\n\\end{document}\n"
    )
    (tmp_path / "refs.bib").write_text("".join(entries.values()))
    return tmp_path


def fast(stand_ins: StandIns) -> dict[str, HostPolicy]:
    """No politeness pauses against the loopback (the defaults are tested on their own)."""
    return {f"{stand_ins.url}/{name}/": HostPolicy(0.0, 8) for name in SERVICES} | {f"{stand_ins.url}/s2/graph/v1/": HostPolicy(0.0, 8)}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(tmp_path / "cache"))
    answers = AnswerCache(tmp_path / "cache" / "scholarly")
    yield answers
    answers.close()


def verify(folder: Path, stand_ins: StandIns, cache: AnswerCache | None, checker: OnlineChecker | None = None, **env_options):
    checker = checker or OnlineChecker(
        default_registry(), cache=cache, env=stand_ins.environment(**env_options), policies=fast(stand_ins), backoff_s=0.01
    )
    built = Project(folder, "main.tex")
    findings, summary = asyncio.run(checker.check(built, Policy(load_config(folder))))
    return findings, summary, checker


def codes(findings) -> list[tuple[str, str]]:
    return sorted((f.code, f.identity.rsplit(":", 1)[0]) for f in findings)


# Found, mismatched, fabricated, retracted, another work's DOI, a preprint published since


def test_found_references_raise_nothing(tmp_path, cache) -> None:
    with StandIns(LIBRARY) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, BIB), stand_ins, cache)
    assert findings == []
    assert (summary.cited, summary.verified, summary.unchecked) == (2, 2, 0)


def test_mismatched_title_authors_year_venue(tmp_path, cache) -> None:
    entries = {
        "bad": "@article{bad,\n  title = {Deep Residual Learning for Image Recognition Tasks},\n  author = {Zhang, Xiangyu and He, Kaiming},\n"
        "  journal = {Journal of Marine Biology},\n  year = {2012},\n  doi = {10.1109/cvpr.2016.90}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    by_field = {f.identity.rsplit(":", 1)[1]: f for f in findings if f.code == "BIB002"}
    assert set(by_field) == {"title", "authors", "year", "venue"}
    assert by_field["title"].severity.value == "warning" and by_field["authors"].severity.value == "warning"
    assert by_field["year"].severity.value == "information" and by_field["venue"].severity.value == "information"
    assert 'cited "2012", found "2016"' in by_field["year"].message
    assert "first author Xiangyu Zhang, found Kaiming He" in by_field["authors"].message
    fix = by_field["title"].fixes[0]
    assert fix.title.startswith("Replace with verified metadata (title: Deep Residual Learning for Image Recognition;")
    assert not fix.safe
    text = (tmp_path / "refs.bib").read_text()
    lines = text.split("\n")
    new = _apply(text, fix.edits)
    assert "title = {Deep Residual Learning for Image Recognition}" in new
    assert "author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}" in new
    assert "year = {2016}" in new and lines[0] == new.split("\n")[0]


def _apply(text: str, edits) -> str:
    from auditex.latex.source import SourceText

    source = SourceText(text)
    spans = sorted(
        (
            (source.offset(e.range.start.line, e.range.start.character), source.offset(e.range.end.line, e.range.end.character), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def test_missing_and_extra_authors(tmp_path, cache) -> None:
    entries = {
        "v": "@inproceedings{v,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish and Bengio, Yoshua},\n  year = {2017}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    [authors] = [f for f in findings if f.code == "BIB002"]
    assert "missing Noam Shazeer, Niki Parmar" in authors.message and "not an author of the found work: Yoshua Bengio" in authors.message


def test_fabricated_reference_needs_two_answering_indexes(tmp_path, cache) -> None:
    entries = {
        "fake": "@article{fake,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n"
    }
    folder = project(tmp_path, entries)
    with StandIns(LIBRARY) as stand_ins:
        findings, summary, _ = verify(folder, stand_ins, cache)
    [finding] = findings
    assert finding.code == "BIB001" and finding.severity.value == "warning"
    assert "matches no work in" in finding.message and summary.not_found == 1


def test_unreachable_or_rate_limited_indexes_never_make_a_reference_not_found(tmp_path, cache) -> None:
    entries = {
        "fake": "@article{fake,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n"
    }
    folder = project(tmp_path, entries)
    faults = {"crossref": Fault(429), "dblp": Fault(503), "s2": Fault(429, retry_after="0")}
    with StandIns(LIBRARY, faults=faults) as stand_ins:
        checker = OnlineChecker(
            default_registry(), cache=cache, env=stand_ins.environment(unreachable=("openalex",)), policies=fast(stand_ins), backoff_s=0.01
        )
        findings, summary, _ = verify(folder, stand_ins, cache, checker)
    assert findings == []
    assert summary.unchecked == 1 and summary.not_found == 0
    assert summary.reasons  # the summary says why
    # Nothing that failed was cached: a second run asks again.
    with StandIns(LIBRARY) as stand_ins:
        findings, summary, _ = verify(folder, stand_ins, cache)
    assert [f.code for f in findings] == ["BIB001"]


def test_retracted_work_is_an_error(tmp_path, cache) -> None:
    entries = {
        "w": "@article{w,\n  title = {Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children},\n"
        "  author = {Wakefield, Andrew and Murch, Simon},\n  journal = {The Lancet},\n  year = {1998},\n  doi = {10.1016/S0140-6736(97)11096-0}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    [finding] = findings
    assert (finding.code, finding.severity.value) == ("BIB004", "error") and "retracted, according to OpenAlex" in finding.message


def test_crossref_retraction_update_when_openalex_lacks_the_doi(tmp_path, cache) -> None:
    only_crossref = StandInWork(
        RETRACTED.title, RETRACTED.authors, 1998, "The Lancet", doi=RETRACTED.doi, retracted=True, services=frozenset({"crossref"})
    )
    entries = {
        "w": "@article{w,\n  title = {" + RETRACTED.title + "},\n  author = {Wakefield, Andrew and Murch, Simon},\n  year = {1998},\n"
        "  doi = {10.1016/s0140-6736(97)11096-0}\n}\n"
    }
    with StandIns([only_crossref]) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    assert [(f.code, "Crossref" in f.message) for f in findings] == [("BIB004", True)]


def test_doi_of_another_work_and_a_doi_that_does_not_resolve(tmp_path, cache) -> None:
    entries = {
        "he": "@inproceedings{he,\n  title = {Deep Residual Learning for Image Recognition},\n  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},\n"
        "  year = {2016},\n  doi = {10.1038/nature14539}\n}\n",
        "nodoi": "@article{nodoi,\n  title = {Deep learning},\n  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},\n  journal = {Nature},\n"
        "  year = {2015},\n  doi = {10.1038/nature00000}\n}\n",
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    by_key = {f.identity.rsplit(":", 1)[0]: f for f in findings}
    assert set(by_key) == {"he", "nodoi"} and {f.code for f in findings} == {"BIB003"}
    assert 'resolves to a different work: "Deep learning" (2015)' in by_key["he"].message
    assert by_key["he"].fixes and "doi: 10.1109/cvpr.2016.90" in by_key["he"].fixes[0].title
    assert "does not resolve" in by_key["nodoi"].message


def test_a_doi_falls_back_to_semantic_scholar_when_openalex_and_crossref_are_down(tmp_path, cache) -> None:
    entries = {
        "he": "@inproceedings{he,\n  title = {Deep Residual Learning for Image Recognition},\n  author = {He, Kaiming},\n"
        "  year = {2016},\n  doi = {10.1038/nature14539}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache, unreachable=("openalex", "crossref"))
        asked = [path for service, path, _ in stand_ins.requests if service == "s2"]
    assert "/graph/v1/paper/DOI:10.1038/nature14539" in asked
    assert any(f.code == "BIB003" and 'resolves to a different work: "Deep learning"' in f.message for f in findings)


def test_arxiv_id_of_another_work(tmp_path, cache) -> None:
    entries = {
        "a": "@misc{a,\n  title = {Deep Residual Learning for Image Recognition},\n  author = {He, Kaiming},\n  eprint = {1706.03762},\n"
        "  archivePrefix = {arXiv},\n  year = {2016}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
    assert any(f.code == "BIB003" and "arXiv id 1706.03762 is a different work" in f.message for f in findings)


def test_preprint_with_a_published_version_is_a_hint(tmp_path, cache) -> None:
    entries = {
        "adam": "@article{adam,\n  title = {Adam: A Method for Stochastic Optimization},\n  author = {Kingma, Diederik P. and Ba, Jimmy},\n"
        "  journal = {arXiv preprint arXiv:1412.6980},\n  year = {2014}\n}\n"
    }
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(project(tmp_path, entries), stand_ins, cache)
        batch = [query for service, path, query in stand_ins.requests if path.endswith("/paper/batch")]
    [finding] = findings
    assert (finding.code, finding.severity.value) == ("BIB005", "hint")
    assert "published in International Conference on Learning Representations" in finding.message
    assert len(batch) == 1  # the preprints' published versions: one Semantic Scholar batch


# The wire: batching, 429 with Retry-After, malformed bodies, rate limits


def widget_studies(count: int) -> tuple[list[StandInWork], dict[str, str]]:
    """`count` works with a DOI each, and their correct `.bib` entries."""
    works = [
        StandInWork(f"Widget study number {i} on sparse gadgets", [f"Ann Author{i}"], 2020, "Widget Journal", doi=f"10.1000/w.{i}")
        for i in range(count)
    ]
    entries = {
        f"w{i}": f"@article{{w{i},\n  title = {{Widget study number {i} on sparse gadgets}},\n  author = {{Author{i}, Ann}},\n"
        f"  journal = {{Widget Journal}},\n  year = {{2020}},\n  doi = {{10.1000/w.{i}}}\n}}\n"
        for i in range(count)
    }
    return works, entries


def test_dois_are_batched_fifty_to_an_openalex_request(tmp_path, cache) -> None:
    works, entries = widget_studies(60)
    with StandIns(works) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, entries), stand_ins, cache)
        filters = [query["filter"][0] for service, path, query in stand_ins.requests if service == "openalex" and "filter" in query]
    assert findings == [] and summary.verified == 60
    assert [len(f.removeprefix("doi:").split("|")) for f in filters] == [50, 10]
    assert stand_ins.count() == 2


def test_429_with_retry_after_is_honoured_then_answered(cache) -> None:
    async def run(stand_ins: StandIns) -> tuple[float, object]:
        async with HttpClient(backoff_s=5.0) as http:
            started = time.monotonic()
            body = await http.get_json("OpenAlex", f"{stand_ins.url}/openalex/works", {"search": "attention", "per-page": 5})
            return time.monotonic() - started, body

    with StandIns(LIBRARY, faults={"openalex": Fault(429, times=1, retry_after="1")}) as stand_ins:
        elapsed, body = asyncio.run(run(stand_ins))
        assert stand_ins.count("openalex") == 2
    assert 0.9 <= elapsed < 4  # waited the Retry-After second, not the 5 s backoff
    assert body["results"][0]["display_name"] == "Attention Is All You Need"


def test_a_malformed_body_is_unavailable_not_not_found(tmp_path, cache) -> None:
    entries = {"vaswani2017": BIB["vaswani2017"]}
    faults = {name: Fault(malformed=True) for name in SERVICES}
    with StandIns(LIBRARY, faults=faults) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, entries), stand_ins, cache)
    assert findings == [] and summary.unchecked == 1
    assert any("not JSON" in reason for reason in summary.reasons)


def test_unreachable_services_leave_references_unchecked(tmp_path, cache) -> None:
    with StandIns(LIBRARY) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, BIB), stand_ins, cache, unreachable=SERVICES)
        assert stand_ins.count() == 0
    assert findings == [] and summary.unchecked == 2 and "unreachable" in summary.line()


def test_rate_limits_space_requests_to_one_host(cache) -> None:
    async def run(url: str) -> float:
        async with HttpClient({f"{url}/arxiv/": HostPolicy(0.3, 1)}) as http:
            started = time.monotonic()
            await asyncio.gather(*(http.get_text("arXiv", f"{url}/arxiv/api/query", {"id_list": "1706.03762"}) for _ in range(3)))
            return time.monotonic() - started

    with StandIns(LIBRARY) as stand_ins:
        assert asyncio.run(run(stand_ins.url)) >= 0.6
    verifier_policies = default_policies(Verifier(env={}).searchers + [Verifier(env={}).arxiv], {})
    assert verifier_policies["https://export.arxiv.org/"].interval_s == 3.0
    assert verifier_policies["https://api.semanticscholar.org/graph/v1/"].interval_s == 1.0


def test_the_time_budget_leaves_the_rest_unchecked(tmp_path, cache) -> None:
    (tmp_path / ".auditex.toml").write_text("[online]\nbudget_s = 0.3\n")
    with StandIns(LIBRARY, latency_s=0.5) as stand_ins:
        started = time.monotonic()
        findings, summary, _ = verify(project(tmp_path, BIB), stand_ins, cache)
    assert findings == [] and summary.unchecked == 2 and time.monotonic() - started < 3


def test_mailto_and_key_come_from_the_environment(tmp_path, cache) -> None:
    with StandIns(LIBRARY) as stand_ins:
        env = {
            **stand_ins.environment(),
            "OPENALEX_MAILTO": "me@example.org",
            "CROSSREF_MAILTO": "me@example.org",
            "OPENALEX_API_KEY": "oa-key",
        }
        checker = OnlineChecker(default_registry(), cache=cache, env=env, policies=fast(stand_ins))
        verify(project(tmp_path, {"he2016": BIB["he2016"]}), stand_ins, cache, checker)
        [(path, query)] = [(path, query) for service, path, query in stand_ins.requests if service == "openalex"]
    # One DOI: OpenAlex's free single-work lookup, not a priced filter call; the key as OpenAlex documents it.
    assert path == "/works/doi:10.1109/cvpr.2016.90"
    assert query["mailto"] == ["me@example.org"] and query["api_key"] == ["oa-key"]
    headers = {}
    with StandIns(LIBRARY) as stand_ins:
        original = stand_ins._handle

        def spy(handler, body):
            headers.update({k.lower(): v for k, v in handler.headers.items()})
            original(handler, body)

        stand_ins._handle = spy
        env = {**stand_ins.environment(), "SEMANTIC_SCHOLAR_API_KEY": "s2-key"}
        settings = OnlineSettings(search=["semantic-scholar"])

        async def run():
            async with Verifier(settings, None, env, fast(stand_ins)) as verifier:
                return await verifier.verify([from_bib("v", "misc", {"title": "Attention Is All You Need"})])

        [verdict] = asyncio.run(run())
    assert verdict.status == "verified" and headers.get("x-api-key") == "s2-key"


# The cache and incrementality


def test_a_recheck_makes_no_request_and_an_edit_re_resolves_only_that_entry(tmp_path, cache) -> None:
    entries = {
        **BIB,
        "deep": "@article{deep,\n  title = {Deep learning},\n  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},\n  journal = {Nature},\n  year = {2015}\n}\n",
    }
    folder = project(tmp_path, entries)
    with StandIns(LIBRARY) as stand_ins:
        verify(folder, stand_ins, cache)
        first = stand_ins.count()
        assert first > 0
        # A fresh run (new process state, same disk cache): 0 requests.
        findings, summary, _ = verify(folder, stand_ins, cache)
        assert stand_ins.count() == first and summary.requests == 0 and findings == []
        # Edit one entry's year: its verdict is recomputed from the cached answers (the query is unchanged).
        bib = (folder / "refs.bib").read_text().replace("year = {2015}", "year = {2009}")
        (folder / "refs.bib").write_text(bib)
        findings, summary, _ = verify(folder, stand_ins, cache)
        assert stand_ins.count() == first
        assert [f.code for f in findings] == ["BIB002"] and "2009" in findings[0].message
        # Edit one entry's title: only that entry is asked about.
        (folder / "refs.bib").write_text(bib.replace("title = {Deep learning}", "title = {Deep learning for sparse widgets}"))
        findings, summary, _ = verify(folder, stand_ins, cache)
        asked = stand_ins.requests[first:]
    assert asked and all("Deep learning for sparse widgets" in json.dumps(query) for _, _, query in asked)
    assert summary.cited == 3


def test_ids_the_arxiv_answer_lacked_are_not_asked_again_on_a_re_run(tmp_path, cache) -> None:
    # arXiv answers a known id and says nothing of an unknown one, or of an old-style id it files under another
    # name: their absence is kept (as a "not found", for a day), so a re-run sends no id_list request at all.
    entries = {
        "adam": "@article{adam,\n  title = {Adam: A Method for Stochastic Optimization},\n  author = {Kingma, Diederik P. and Ba, Jimmy},\n"
        "  journal = {arXiv preprint arXiv:1412.6980},\n  year = {2014}\n}\n",
        "ghost": "@misc{ghost,\n  title = {Quantum Widgets},\n  author = {Smith, John},\n  eprint = {2101.99999v2},\n  archivePrefix = {arXiv},\n"
        "  year = {2021}\n}\n",
        "old": "@misc{old,\n  title = {Strings},\n  author = {Smith, John},\n  url = {https://arxiv.org/abs/math.GT/0309136},\n  year = {2003}\n}\n",
    }
    folder = project(tmp_path, entries)
    with StandIns(LIBRARY) as stand_ins:
        verify(folder, stand_ins, cache)
        [asked] = [query["id_list"] for service, _, query in stand_ins.requests if service == "arxiv"]
        first = stand_ins.count()
        _, summary, _ = verify(folder, stand_ins, cache)
        assert stand_ins.count() == first and summary.requests == 0
    assert sorted(asked[0].split(",")) == ["1412.6980", "2101.99999", "math.gt/0309136"]


def test_the_checker_reuses_verdicts_in_memory(tmp_path, cache) -> None:
    folder = project(tmp_path, BIB)
    with StandIns(LIBRARY) as stand_ins:
        _, _, checker = verify(folder, stand_ins, cache)
        before = cache.hits + cache.misses
        verify(folder, stand_ins, cache, checker)
        assert cache.hits + cache.misses == before  # not even a cache lookup


def test_suppression_severity_override_and_ignore_apply_to_bib_findings(tmp_path, cache) -> None:
    entries = {
        "fake": "@article{fake, % auditex: ignore[BIB001]\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  year = {2021}\n}\n",
        "w": "@article{w,\n  title = {" + RETRACTED.title + "},\n  author = {Wakefield, Andrew and Murch, Simon},\n  year = {1998},\n"
        "  doi = {10.1016/s0140-6736(97)11096-0}\n}\n",
    }
    folder = project(tmp_path, entries)
    (folder / ".auditex.toml").write_text('[rules]\nseverity = { BIB004 = "warning" }\n')
    with StandIns(LIBRARY) as stand_ins:
        findings, _, _ = verify(folder, stand_ins, cache)
        assert [(f.code, f.severity.value) for f in findings] == [("BIB004", "warning")]
        (folder / ".auditex.toml").write_text('[rules]\nignore = ["BIB"]\n')
        findings, _, _ = verify(folder, stand_ins, cache)
    assert findings == []


# References from .bbl and \bibitem


def test_bibitems_are_read_and_checked(tmp_path, cache) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nSee \\cite{vaswani} and \\cite{ghost}.\n\\begin{thebibliography}{2}\n"
        "\\bibitem{vaswani} Ashish Vaswani, Noam Shazeer, and Niki Parmar.\n\\newblock Attention is all you need.\n\\newblock In {\\em NeurIPS}, 2017.\n"
        "\\bibitem{ghost} John Smith.\n\\newblock Quantum gradient widgets for sparse hyperbolic attention.\n\\newblock {\\em J. Widgets}, 2021.\n"
        "\\end{thebibliography}\n\\end{document}\n"
    )
    with StandIns(LIBRARY) as stand_ins:
        findings, summary, _ = verify(tmp_path, stand_ins, cache)
    assert [(f.code, f.file) for f in findings] == [("BIB001", "main.tex")] and "ghost" in findings[0].message
    assert summary.verified == 1


def test_reference_parsing() -> None:
    reference = from_bib(
        "k",
        "article",
        {
            "title": '{BERT}: Pre-training of Deep {\\"o} Transformers',
            "author": "Devlin, Jacob and Chang, Ming-Wei and others",
            "year": "2019",
            "journal": "arXiv preprint arXiv:1810.04805",
        },
    )
    assert reference.title == "BERT: Pre-training of Deep ö Transformers" and reference.authors == ["Jacob Devlin", "Ming-Wei Chang"]
    assert reference.more_authors and reference.arxiv == "1810.04805" and reference.is_preprint
    item = from_bibitem(
        "k",
        "Shaohan Huang, Li~Dong, and Furu Wei.\n\\newblock Language is not all you need: Aligning perception with language\n  models, 2023{\\natexlab{a}}.",
    )
    assert item.title == "Language is not all you need: Aligning perception with language models" and item.year == 2023
    assert item.authors == ["Shaohan Huang", "Li Dong", "Furu Wei"]


def test_only_reference_metadata_is_sent(tmp_path, cache) -> None:
    folder = project(tmp_path, BIB, tex_extra="SECRET-MANUSCRIPT-SENTENCE about our unpublished results.\n")
    with StandIns(LIBRARY) as stand_ins:
        verify(folder, stand_ins, cache)
        sent = json.dumps(stand_ins.requests)
    assert "SECRET" not in sent and "unpublished" not in sent


# Offline stays the default; the command line


def test_check_without_online_makes_no_request(tmp_path) -> None:
    folder = project(tmp_path, BIB)
    with StandIns(LIBRARY) as stand_ins:
        env = {**_base_env(tmp_path), **stand_ins.environment()}
        result = subprocess.run(
            [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--fail-on", "never"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert stand_ins.count() == 0
    assert result.returncode == 0 and "BIB" not in result.stdout


def test_check_online_reports_and_summarises(tmp_path) -> None:
    entries = {
        **BIB,
        "fake": "@article{fake,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n",
    }
    folder = project(tmp_path, entries)
    with StandIns(LIBRARY) as stand_ins:
        env = {**_base_env(tmp_path), **stand_ins.environment()}
        command = [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--online", "--format", "json", "--fail-on", "never"]
        first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        asked = stand_ins.count()
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert stand_ins.count() == asked  # the disk cache answered everything
    report = json.loads(first.stdout)
    assert [f["code"] for f in report["findings"] if f["code"].startswith("BIB")] == ["BIB001"]
    notes = report["references"].pop("notes")
    assert report["references"] == {"cited": 3, "verified": 2, "with_findings": 1, "not_found": 1, "unchecked": 0, "requests": asked}
    # The fabricated title was searched at OpenAlex last, after the free indexes; the spend and the missing key are said.
    assert notes[0].startswith("OpenAlex: 1 singleton, 1 search ($0.0010, 990 of 1000 left today)")
    assert notes[1].startswith("OPENALEX_API_KEY is not set") and notes[1] in first.stderr
    assert "references: 3 checked online, 2 verified" in first.stderr
    assert json.loads(second.stdout)["references"]["requests"] == 0


def _base_env(tmp_path: Path) -> dict[str, str]:
    import os

    env = {key: value for key, value in os.environ.items() if not key.startswith("AUDITEX_")}
    env["AUDITEX_CACHE_DIR"] = str(tmp_path / "cli-cache")
    return env


def test_settings_validation() -> None:
    settings, problem = OnlineSettings.from_config({"order": ["search", "doi"], "budget_s": 10})
    assert settings.order == ["search", "doi"] and problem is None
    _, problem = OnlineSettings.from_config({"order": ["nope"]})
    assert problem and problem.startswith("[online] order")


def test_cited_references_follow_the_cites(tmp_path) -> None:
    folder = project(tmp_path, BIB)
    (folder / "refs.bib").write_text((folder / "refs.bib").read_text() + "@misc{unused, title = {Never cited}}\n")
    cited = cited_references(Project(folder, "main.tex"))
    assert [c.reference.key for c in cited] == ["vaswani2017", "he2016"]
    assert cited[1].reference.doi == "10.1109/cvpr.2016.90" and cited[0].cites and cited[0].is_bib


def test_service_errors_are_one_sentence(cache) -> None:
    async def run() -> str:
        async with HttpClient(retries=0) as http:
            try:
                await http.get_json("DBLP", "http://127.0.0.1:9/search/publ/api", {"q": "x"})
            except ServiceUnavailable as error:
                return str(error)
        return ""

    assert asyncio.run(run()).startswith("DBLP is unreachable")


def test_cache_lifetimes_found_30_days_not_found_1_day_errors_never(tmp_path, cache) -> None:
    entries = {
        **BIB,
        "fake": "@article{fake,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n",
    }
    with StandIns(LIBRARY, faults={"dblp": Fault(503)}) as stand_ins:
        verify(project(tmp_path, entries), stand_ins, cache)
    now = time.time()
    lifetimes = {}
    for key in cache.cache.iterkeys():
        _, expires = cache.cache.get(key, expire_time=True)
        service, _kind, query = key.split("\x1f", 2)
        lifetimes[(service, "quantum" in query.lower())] = round((expires - now) / 86400)
    assert lifetimes[("OpenAlex", False)] == 30  # the DOI batch and the found search
    assert lifetimes[("Crossref", True)] == 1  # candidates, but not the work: kept like a "not found"
    assert lifetimes[("OpenAlex", True)] == 1
    assert not any(service == "DBLP" for service, _ in lifetimes)  # its errors were never cached
