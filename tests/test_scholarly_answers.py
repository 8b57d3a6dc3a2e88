"""Reference verification on what the services really send, through loopback stand-ins.

Each work's `as_sent` carries a structure the real service returns (taken from its public
documentation and the shapes of recorded answers): Crossref's JATS titles and `issued`
without a date, DBLP's HTML entities, OpenAlex's numbered display names and affiliations
listed as authors, Semantic Scholar's names in two scripts and abbreviated venues. Then the
status codes: a 404 on a search or batch endpoint (a base URL without its path), a 429
without Retry-After, a burst of 429s; software, web and dataset references; DataCite,
Europe PMC, OpenAlex's key and prices. No test reaches the internet.
"""

from __future__ import annotations

import asyncio

import pytest
from scholarly_standins import SERVICES, Fault, StandIns, StandInWork
from test_reference_verification import _apply, cache, fast, project, verify, widget_studies  # noqa: F401 (cache: the fixture)

from auditex.analyzers.online_verification import OnlineChecker
from auditex.analyzers.rules import default_registry
from auditex.analyzers.scholarly.cited_references import from_bib, from_bibitem, split_authors
from auditex.analyzers.scholarly.matching import title_score
from auditex.analyzers.scholarly.normalise import person_name, plain_text
from auditex.analyzers.scholarly.resolver import Verifier

KRAS = StandInWork(
    "Mutant KRAS and CO2 shape the tumour microenvironment",
    ["Ana Ruiz", "Li Wei"],
    2019,
    "Cancer Cell",
    doi="10.1016/j.ccell.2019.01.001",
    services=frozenset({"crossref"}),
    as_sent={"crossref": {"title": ["Mutant <i>KRAS</i> and CO<sub>2</sub> shape the\n   tumour microenvironment"]}},
)
UNDATED = StandInWork(
    "Neural population dynamics during reaching",
    ["Mark Churchland", "John Cunningham"],
    2003,
    "Journal of Neural Engineering",
    doi="10.1088/1741-2560/1/1/001",
    services=frozenset({"crossref"}),
    # `issued` without a date: the year is the print date (2003), not `created`, the deposit (2004).
    as_sent={
        "crossref": {
            "issued": {"date-parts": [[None]]},
            "published-print": {"date-parts": [[2003, 11]]},
            "created": {"date-parts": [[2004, 2, 3]], "date-time": "2004-02-03T10:00:00Z", "timestamp": 1075802400000},
        }
    },
)
ENTITIES = StandInWork(
    "Don't Stop Pretraining: Adapt Language Models to Domains & Tasks",
    ["Suchin Gururangan", "Ana Marasovic", "Noah A. Smith"],
    2020,
    "ACL",
    services=frozenset({"dblp"}),
    as_sent={"dblp": {"title": "Don&apos;t Stop Pretraining: Adapt Language Models to Domains &amp; Tasks."}},
)
NUMBERED = StandInWork(
    "Trained immunity: a program of innate immune memory in health and disease",
    ["Mihai G Netea", "Leo A B Joosten"],
    2016,
    "Science",
    doi="10.1126/science.aaf1098",
    services=frozenset({"openalex"}),
    as_sent={
        "openalex": {
            "authorships": [
                {"author_position": "first", "author": {"id": "https://openalex.org/A1", "display_name": "Mihai G Netea (15649)"}},
                {"author_position": "middle", "author": {"id": "https://openalex.org/A2", "display_name": "Leo A B Joosten"}},
                # An affiliation OpenAlex listed as an author.
                {
                    "author_position": "last",
                    "author": {"id": "https://openalex.org/A3", "display_name": ",LAGEP, Université de Lyon, Villeurbanne, France"},
                },
            ]
        }
    },
)
TWO_SCRIPTS = StandInWork(
    "Adversarial attacks on graph neural networks for molecular property prediction",
    ["Kyriacos Athanasiou", "Maria Papadopoulou"],
    2022,
    "Nature Machine Intelligence",
    services=frozenset({"s2"}),
    as_sent={
        "s2": {
            "authors": [
                {"authorId": "1", "name": "Kyriacos, Κυριάκος, Athanasiou, Αθανασίου"},
                {"authorId": "2", "name": "Maria Papadopoulou"},
            ],
            "venue": "Nat. Mac. Intell.",
            "journal": {"name": "Nature Machine Intelligence", "volume": "4"},
            "publicationVenue": None,
        }
    },
)
REAL_WORKS = [KRAS, UNDATED, ENTITIES, NUMBERED, TWO_SCRIPTS]
CITED = {
    "kras": "@article{kras,\n  title = {Mutant {KRAS} and {CO2} shape the tumour microenvironment},\n  author = {Ruiz, Ana and Wei, Li},\n"
    "  journal = {Cancer Cell},\n  year = {2019},\n  doi = {10.1016/j.ccell.2019.01.001}\n}\n",
    "undated": "@article{undated,\n  title = {Neural population dynamics during reaching},\n  author = {Churchland, Mark and Cunningham, John},\n"
    "  journal = {Journal of Neural Engineering},\n  year = {2003},\n  doi = {10.1088/1741-2560/1/1/001}\n}\n",
    "dontstop": "@inproceedings{dontstop,\n  title = {Don't Stop Pretraining: Adapt Language Models to Domains \\& Tasks},\n"
    "  author = {Gururangan, Suchin and Marasovi{\\'c}, Ana and Smith, Noah A.},\n  booktitle = {ACL},\n  year = {2020}\n}\n",
    "netea": "@article{netea,\n  title = {Trained immunity: a program of innate immune memory in health and disease},\n"
    "  author = {Netea, Mihai G. and Joosten, Leo A. B.},\n  journal = {Science},\n  year = {2016},\n  doi = {10.1126/science.aaf1098}\n}\n",
    "graphs": "@article{graphs,\n  title = {Adversarial attacks on graph neural networks for molecular property prediction},\n"
    "  author = {Athanasiou, Kyriacos and Papadopoulou, Maria},\n  journal = {Nature Machine Intelligence},\n  year = {2022}\n}\n",
}
FABRICATED = (
    "@article{fake,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n"
)


def by_key(findings) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for finding in findings:
        result.setdefault(finding.identity.split(":", 1)[0], []).append(finding.code)
    return result


def test_real_answers_raise_no_finding_and_a_warm_rerun_sends_nothing(tmp_path, cache) -> None:
    folder = project(tmp_path, CITED)
    with StandIns(REAL_WORKS) as stand_ins:
        findings, summary, _ = verify(folder, stand_ins, cache)
        asked = stand_ins.count()
        again, second, _ = verify(folder, stand_ins, cache)
        assert stand_ins.count() == asked and second.requests == 0
    assert [(f.code, f.message) for f in findings] == [] and again == []
    assert (summary.verified, summary.unchecked, summary.not_found) == (5, 0, 0)


def test_what_each_service_sends_is_normalised(cache) -> None:
    async def run(stand_ins: StandIns):
        async with Verifier(None, cache, stand_ins.environment(), fast(stand_ins)) as verifier:
            kras = await verifier.crossref.lookup_doi(KRAS.doi)
            undated = await verifier.crossref.lookup_doi(UNDATED.doi)
            netea = await verifier.openalex.lookup_doi(NUMBERED.doi)
            [dblp] = await verifier.dblp.search(from_bib("k", "article", {"title": ENTITIES.title.replace("&", "\\&")}))
            [s2] = await verifier.s2.match(from_bib("k", "article", {"title": TWO_SCRIPTS.title}))
            return kras, undated, netea, dblp, s2

    with StandIns(REAL_WORKS) as stand_ins:
        kras, undated, netea, dblp, s2 = asyncio.run(run(stand_ins))
    assert kras.title == "Mutant KRAS and CO2 shape the tumour microenvironment"
    assert undated.year == 2003
    assert netea.authors == ["Mihai G Netea", "Leo A B Joosten"]  # no "(15649)", no affiliation
    assert dblp.title == "Don't Stop Pretraining: Adapt Language Models to Domains & Tasks"
    assert s2.authors[0] == "Kyriacos Athanasiou" and s2.venue == "Nature Machine Intelligence"


def test_only_real_markup_is_removed_and_only_non_names_are_dropped() -> None:
    assert plain_text("Data <http://dx.doi.org/10.1/x> (2017)") == "Data <http://dx.doi.org/10.1/x> (2017)"
    assert plain_text("When a<b and c>d") == "When a<b and c>d"
    assert plain_text("<jats:title>CO<jats:sub>2</jats:sub> &amp; <mml:math><mml:mi>x</mml:mi></mml:math></jats:title>") == "CO2 & x"
    assert plain_text("El Ni&#xf1;o") == "El Niño"
    assert person_name(", Michael Busch") == "Michael Busch"
    assert split_authors("Busch,, Michael and King, Jr., Martin Luther") == (["Michael Busch", "Martin Luther King"], False)
    assert person_name("The DREAM5 Consortium") == "The DREAM5 Consortium"
    assert person_name("Department of Physics, University of Oslo") is None
    assert title_score("Über Stoß- und Gleitvorgänge", "ÜBER STOSS- UND GLEITVORGÄNGE") == 1.0


def test_replace_with_verified_metadata_writes_clean_latex_escaped_bibtex(tmp_path, cache) -> None:
    entry = (
        "@article{kras,\n  title = {Mutant KRAS shapes tumours},\n  author = {Ruiz, Ana and Wei, Li},\n  journal = {Cancer Cell},\n"
        "  year = {2019},\n  doi = {10.1016/j.ccell.2019.01.001}\n}\n"
    )
    work = StandInWork(
        "Mutant KRAS & CO2 shape 50% of tumours",
        ["Ana Ruiz", "Jörg Müller"],
        2019,
        "Cancer Cell",
        doi=KRAS.doi,
        services=frozenset({"crossref"}),
        as_sent={"crossref": {"title": ["Mutant <i>KRAS</i> &amp; CO<sub>2</sub> shape 50% of tumours"]}},
    )
    with StandIns([work]) as stand_ins:
        findings, _, _ = verify(project(tmp_path, {"kras": entry}), stand_ins, cache)
    [title] = [f for f in findings if f.identity.endswith(":title")]
    new = _apply((tmp_path / "refs.bib").read_text(), title.fixes[0].edits)
    assert "title = {Mutant KRAS \\& CO2 shape 50\\% of tumours}" in new.replace("{\\&}", "\\&").replace("{\\%}", "\\%")
    assert 'author = {Ruiz, Ana and M{\\"u}ller, J{\\"o}rg}' in new
    assert "<" not in new and "&amp;" not in new


# Status codes by meaning


ONLY_THERE = {
    "crossref": (
        "@article{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020}\n}\n",
        {},
    ),
    "openalex": (
        "@article{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020}\n}\n",
        {},
    ),
    "dblp": (
        "@article{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020}\n}\n",
        {},
    ),
    "s2": ("@article{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020}\n}\n", {}),
    "arxiv": (
        "@misc{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020},\n"
        "  eprint = {2001.01234},\n  archivePrefix = {arXiv}\n}\n",
        {"arxiv": "2001.01234", "preprint": True},
    ),
    "europepmc": (
        "@article{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n"
        "  journal = {Journal of Clinical Medicine},\n  year = {2020}\n}\n",
        {"venue": "Journal of Clinical Medicine"},
    ),
    "datacite": (
        "@software{only,\n  title = {Sparse widget lattices for federated gadgets},\n  author = {Doe, Jane},\n  year = {2020},\n"
        "  doi = {10.5281/zenodo.1234}\n}\n",
        {"doi": "10.5281/zenodo.1234"},
    ),
}


@pytest.mark.parametrize("service", SERVICES)
def test_a_wrong_base_path_makes_the_service_unavailable_for_the_run_never_not_found(tmp_path, cache, service) -> None:
    entry, fields = ONLY_THERE[service]
    work = StandInWork("Sparse widget lattices for federated gadgets", ["Jane Doe"], 2020, services=frozenset({service}), **fields)
    folder = project(tmp_path, {"only": entry, "fake": FABRICATED})
    with StandIns([work]) as stand_ins:
        checker = OnlineChecker(
            default_registry(), cache=cache, env=stand_ins.environment(wrong_path=(service,)), policies=fast(stand_ins), backoff_s=0.01
        )
        findings, summary, _ = verify(folder, stand_ins, cache, checker)
        asked = [path for name, path, _ in stand_ins.requests if name == service]
    assert asked and all(path.startswith("/wrong") for path in asked)
    codes = by_key(findings)
    assert "BIB001" not in codes.get("only", [])
    # The fabricated title is "not found" only when the broken service is not one its search asks.
    searched = service in ("crossref", "openalex", "dblp", "s2")
    assert codes.get("fake") == (None if searched else ["BIB001"])
    assert summary.not_found == (0 if searched else 1) and summary.unchecked >= 1
    assert any("answered 404 (not found) at /" in note and "not asked again this run" in note for note in summary.notes)
    assert "answered 404" in summary.line()


def test_a_404_on_a_lookup_by_id_is_no_such_record(tmp_path, cache) -> None:
    entry = "@article{d,\n  title = {Deep learning},\n  author = {LeCun, Yann},\n  year = {2015},\n  doi = {10.1038/nature00000}\n}\n"
    deep = StandInWork("Deep learning", ["Yann LeCun"], 2015, "Nature", doi="10.1038/nature14539")
    with StandIns([deep]) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, {"d": entry}), stand_ins, cache)
    assert [f.code for f in findings] == ["BIB003"] and "does not resolve" in findings[0].message
    assert summary.notes == [] or all("404" not in note for note in summary.notes)


def test_429_without_retry_after_backs_off_and_leaves_the_work_unchecked(tmp_path, cache) -> None:
    only_s2 = StandInWork("Sparse widget lattices for federated gadgets", ["Jane Doe"], 2020, services=frozenset({"s2"}))
    entry = ONLY_THERE["s2"][0]
    with StandIns([only_s2], faults={"s2": Fault(429)}) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, {"only": entry}), stand_ins, cache)
        s2_requests = stand_ins.count("s2")
    assert findings == [] and summary.unchecked == 1 and summary.not_found == 0
    assert s2_requests == 4  # the first try and three backed-off retries, then S2 is left alone for the run
    assert "Semantic Scholar rate limited the check (HTTP 429)" in summary.line()


def test_a_burst_of_429s_retries_once_per_host_not_per_request(tmp_path, cache) -> None:
    works, entries = widget_studies(7)
    with StandIns(works, faults={"crossref": Fault(429, retry_after="0")}) as stand_ins:
        checker = OnlineChecker(
            default_registry(), cache=cache, env=stand_ins.environment(unreachable=("openalex",)), policies=fast(stand_ins), backoff_s=0.01
        )
        findings, summary, _ = verify(project(tmp_path, entries), stand_ins, cache, checker)
        crossref = stand_ins.count("crossref")
    # 7 lookups sent at once, then one probe at a time: at most 3 more before Crossref is left alone.
    assert crossref <= 7 + 3
    assert "BIB001" not in [f.code for f in findings] and summary.not_found == 0


def test_found_none_in_an_arxiv_batch_is_cached(tmp_path, cache) -> None:
    entries = {
        f"a{i}": f"@misc{{a{i},\n  title = {{Sparse widget lattices number {i}}},\n  author = {{Doe, Jane}},\n  year = {{2020}},\n"
        f"  eprint = {{2001.0123{i}}},\n  archivePrefix = {{arXiv}}\n}}\n"
        for i in range(2)
    }
    folder = project(tmp_path, entries)
    with StandIns([]) as stand_ins:
        verify(folder, stand_ins, cache)
        assert stand_ins.count("arxiv") == 1
        verify(folder, stand_ins, cache)
        assert stand_ins.count("arxiv") == 1  # the empty feed was remembered: nothing re-sent


# Software, web pages, datasets


def test_entry_kinds() -> None:
    assert from_bib("p", "misc", {"title": "PyTorch", "howpublished": "\\url{https://pytorch.org}"}).kind == "web"
    assert from_bib("p", "software", {"title": "scikit-learn"}).kind == "software"
    assert from_bib("p", "online", {"title": "A blog", "url": "https://example.org/post"}).url == "https://example.org/post"
    assert from_bib("p", "dataset", {"title": "ImageNet"}).kind == "dataset"
    assert from_bib("p", "techreport", {"title": "A report"}).kind == "report"
    assert from_bib("p", "misc", {"title": "A paper", "journal": "Nature", "url": "https://x.org"}).kind == "work"
    assert from_bibitem("p", "PyTorch contributors. PyTorch. \\url{https://pytorch.org}, 2019.").kind == "web"
    assert from_bibitem("p", "A. Author. A paper. In Proceedings of X, 2019. \\url{https://x.org/p.pdf}").kind == "work"


def test_software_web_and_dataset_references_are_never_likely_fabricated(tmp_path, cache) -> None:
    entries = {
        "pytorch": "@misc{pytorch,\n  title = {PyTorch},\n  author = {{PyTorch Contributors}},\n  year = {2019},\n"
        "  howpublished = {\\url{URL/web/pytorch}}\n}\n",
        "gone": "@online{gone,\n  title = {A vanished blog post},\n  author = {Roe, Richard},\n  year = {2018},\n  url = {URL/web/gone}\n}\n",
        "tool": "@software{tool,\n  title = {Widgetizer: sparse gadget toolkit},\n  author = {Doe, Jane},\n  year = {2021}\n}\n",
        "data": "@dataset{data,\n  title = {The sparse widget corpus},\n  author = {Doe, Jane},\n  year = {2021},\n"
        "  doi = {10.5281/zenodo.77}\n}\n",
    }
    corpus = StandInWork("The Sparse Widget Corpus v1.2", ["Jane Doe"], 2021, doi="10.5281/zenodo.77", services=frozenset({"datacite"}))
    with StandIns([corpus], pages={"/pytorch": 301}) as stand_ins:
        text = {key: value.replace("URL", f"{stand_ins.url}") for key, value in entries.items()}
        findings, summary, _ = verify(project(tmp_path, text), stand_ins, cache)
        heads = [(path, headers) for (service, path, _), headers in zip(stand_ins.requests, stand_ins.headers) if service == "web"]
    assert findings == []  # no BIB001; the dataset's DOI resolved at DataCite, its release title is no mismatch
    assert (summary.verified, summary.unchecked, summary.not_found) == (2, 2, 0)
    assert sorted(path for path, _ in heads) == ["/gone", "/pytorch"]  # one HEAD each, to the entry's own URL only
    assert "'tool' is a software reference no scholarly index holds, and it gives no URL" in summary.line()


def test_a_malformed_url_leaves_the_entry_unchecked(tmp_path, cache) -> None:
    entry = "@online{blog,\n  title = {A post},\n  year = {2019},\n  url = {http://[not-a-host/post}\n}\n"
    with StandIns([]) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, {"blog": entry}), stand_ins, cache)
    assert findings == [] and summary.unchecked == 1 and "its URL is not an http(s) URL" in summary.line()


def test_urls_are_not_asked_without_leave(tmp_path, cache) -> None:
    entry = "@misc{pytorch,\n  title = {PyTorch},\n  year = {2019},\n  howpublished = {\\url{URL/web/pytorch}}\n}\n"
    with StandIns([], pages={"/pytorch": 200}) as stand_ins:
        folder = project(tmp_path, {"pytorch": entry.replace("URL", stand_ins.url)})
        (folder / ".auditex.toml").write_text("[online]\nurls = false\n")
        findings, summary, _ = verify(folder, stand_ins, cache)
        assert stand_ins.count("web") == 0
    assert findings == [] and summary.unchecked == 1


# Europe PMC, OpenAlex's key and prices


def test_europe_pmc_answers_for_biomedical_references_by_pmid_and_title(tmp_path, cache) -> None:
    trial = StandInWork(
        "Aspirin for the primary prevention of cardiovascular events in the elderly",
        ["John McNeil", "Rory Wolfe"],
        2018,
        "The New England Journal of Medicine",
        pmid="30221597",
        services=frozenset({"europepmc"}),
    )
    cohort = StandInWork(
        "Sleep duration and incident dementia in a clinical cohort",
        ["Sara Lind", "Omar Haddad"],
        2021,
        "Journal of Clinical Medicine",
        services=frozenset({"europepmc"}),
    )
    entries = {
        "aspirin": "@article{aspirin,\n  title = {Aspirin for the primary prevention of cardiovascular events in the elderly},\n"
        "  author = {McNeil, John and Wolfe, Rory},\n  journal = {N Engl J Med},\n  year = {2018},\n  pmid = {30221597}\n}\n",
        "sleep": "@article{sleep,\n  title = {Sleep duration and incident dementia in a clinical cohort},\n  author = {Lind, Sara and Haddad, Omar},\n"
        "  journal = {Journal of Clinical Medicine},\n  year = {2021}\n}\n",
        "vaswani": "@inproceedings{vaswani,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish},\n  booktitle = {NeurIPS},\n"
        "  year = {2017}\n}\n",
    }
    attention = StandInWork("Attention Is All You Need", ["Ashish Vaswani"], 2017, "NeurIPS", services=frozenset({"dblp", "crossref"}))
    with StandIns([trial, cohort, attention]) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, entries), stand_ins, cache)
        queries = [query["query"][0] for service, _, query in stand_ins.requests if service == "europepmc"]
    assert findings == [] and summary.verified == 3
    assert "EXT_ID:30221597 AND SRC:MED" in queries
    assert any("Sleep duration" in query for query in queries)
    assert not any("Attention" in query for query in queries)  # not a biomedical reference


def test_without_a_key_openalex_is_searched_last_and_its_spend_is_reported(tmp_path, cache) -> None:
    attention = StandInWork("Attention Is All You Need", ["Ashish Vaswani"], 2017, "NeurIPS")
    entries = {
        "vaswani": "@inproceedings{vaswani,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish},\n  booktitle = {NeurIPS},\n"
        "  year = {2017}\n}\n",
        "fake": FABRICATED,
    }
    with StandIns([attention]) as stand_ins:
        findings, summary, _ = verify(project(tmp_path, entries), stand_ins, cache)
        searched = [query["search"][0] for service, _, query in stand_ins.requests if service == "openalex" and "search" in query]
    assert searched == ["Quantum Gradient Widgets for Sparse Hyperbolic Attention"]  # only what the free indexes did not find
    assert [f.code for f in findings] == ["BIB001"]
    assert "OpenAlex: 1 search ($0.0010, 990 of 1000 left today)" in summary.notes
    assert any(note.startswith("OPENALEX_API_KEY is not set") for note in summary.notes)


def test_with_a_key_openalex_takes_its_share_of_the_searches(cache) -> None:
    with StandIns([]) as stand_ins:
        keyed = Verifier(None, cache, {**stand_ins.environment(), "OPENALEX_API_KEY": "oa-key"}, fast(stand_ins))
        plain = Verifier(None, cache, stand_ins.environment(), fast(stand_ins))
    references = [from_bib(f"k{i}", "article", {"title": f"Widget study {i}"}) for i in range(40)]
    assert any(keyed._search_order(r)[0] is keyed.openalex for r in references)
    assert all(plain._search_order(r)[-1] is plain.openalex for r in references)
