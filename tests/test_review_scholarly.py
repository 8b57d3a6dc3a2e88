"""The scholarly clients against a loopback server with the services' real JSON shapes; the review's parser."""

from __future__ import annotations

import pytest
from review_fixtures import ScholarlyServer

from auditex.analyzers.review.structure import parse_review
from auditex.analyzers.scholarly.related import FirstAvailable, ScholarlyUnavailable, abstract_from_inverted_index, make_search
from auditex.analyzers.scholarly.related import OpenAlexSearch as OpenAlex
from auditex.analyzers.scholarly.related import SemanticScholarSearch as SemanticScholar


async def test_semantic_scholar_reads_the_graph_api_search_answer() -> None:
    with ScholarlyServer() as server:
        works = await SemanticScholar(f"{server.url}/graph/v1", api_key="k").search("sparse widgets", 5)
        [(path, query)] = server.queries
    assert path == "/graph/v1/paper/search"
    assert query == {"query": ["sparse widgets"], "limit": ["5"], "fields": ["title,year,authors,venue,abstract,externalIds,url"]}
    first, second = works
    assert (first.title, first.year, first.authors, first.venue, first.doi) == (
        "Dense Widgets",
        2020,
        ["A. Smith"],
        "Journal of Widgets",
        "10.1000/widgets.2020",
    )
    assert first.abstract == "Dense widgets are accurate but slow." and first.source == "Semantic Scholar"
    assert (second.year, second.abstract, second.doi) == (None, "", "")


async def test_openalex_reads_works_and_rebuilds_the_abstract() -> None:
    with ScholarlyServer() as server:
        [work] = await OpenAlex(server.url, mailto="me@example.org").search("sparse widgets", 3)
        [(path, query)] = server.queries
    assert path == "/works" and query == {"search": ["sparse widgets"], "per-page": ["3"], "mailto": ["me@example.org"]}
    assert (work.title, work.year, work.authors, work.venue) == ("Pruned Gadgets", 2019, ["B. Jones"], "Gadget Letters")
    assert work.doi == "10.1000/gadgets.2019" and work.url == "https://openalex.org/W2741809807"
    assert work.abstract == "Gadgets can be pruned."


def test_inverted_index_tolerates_junk() -> None:
    assert abstract_from_inverted_index({"b": [1], "a": [0], "x": "bad"}) == "a b"
    assert abstract_from_inverted_index(None) == ""


async def test_rate_limit_is_unavailable_and_the_next_service_answers() -> None:
    with ScholarlyServer(status=429) as limited, ScholarlyServer() as working:
        with pytest.raises(ScholarlyUnavailable, match="rate limited"):
            await SemanticScholar(limited.url).search("q", 2)
        works = await FirstAvailable([SemanticScholar(limited.url), OpenAlex(working.url)]).search("q", 2)
    assert [w.source for w in works] == ["OpenAlex"]


def test_make_search_choices() -> None:
    assert make_search("none") is None
    assert isinstance(make_search("openalex", "http://127.0.0.1:9"), OpenAlex)
    assert isinstance(make_search("auto", env={}), FirstAvailable)
    with pytest.raises(ValueError, match="needs one service"):
        make_search("auto", "http://127.0.0.1:9")


def test_review_parser_tolerates_numbered_and_bold_headings() -> None:
    review = parse_review(
        "**1) Summary**\nA method.\n**Strengths**\n1. **Clear**: see Fig. 2.\n"
        "### Weaknesses\n* **Thin**: Appendix B is short.\n    * also Eq. (3)\n"
        "## Score\n- **Overall (10):** 7 - fine\n- Confidence (5): 9 - out of range\n"
    )
    assert review.summary == "A method."
    assert [(p.title, p.anchors) for p in review.strengths] == [("Clear", ["Fig. 2"])]
    assert review.weaknesses[0].subpoints == ["also Eq. (3)"] and review.weaknesses[0].anchors == ["Appendix B", "Eq. (3)"]
    assert review.scores.overall == 7 and review.scores.confidence is None
    assert review.missing_sections == ["Suggestions for Improvement"]
