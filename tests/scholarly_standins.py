"""Loopback stand-ins for Crossref, OpenAlex, arXiv, Semantic Scholar, DBLP, DataCite and Europe PMC.

One threaded HTTP server on 127.0.0.1 answers under a path prefix per service
(`/crossref`, `/openalex`, `/arxiv`, `/s2`, `/dblp`, `/datacite`, `/europepmc`) with the
services' documented shapes: Crossref's `message` envelope (`items` for a query), OpenAlex's
`meta` + `results` (with `is_retracted`) and its `X-RateLimit-*` headers, arXiv's Atom feed,
Semantic Scholar's `data` (match, search), paper objects and the batch list (with nulls), DBLP's
`result.hits.hit[].info`, DataCite's JSON:API `data.attributes`, Europe PMC's
`resultList.result[]`. Under `/web/` it answers HEAD requests for `pages` (path → status).
It answers from a small library of `StandInWork`s and records every request; a work's
`as_sent` replaces fields of one service's record with what that service really sends
(markup in titles, numbered names, `issued: [[null]]`, ...). Faults are per service: a
status (with Retry-After) for the next N requests, a malformed body, a latency.
`environment()` gives the `AUDITEX_*_URL` variables pointing at it.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, unquote, urlsplit
from xml.sax.saxutils import escape

from loopback import LoopbackServer
from rapidfuzz import fuzz, process

SERVICES = ("crossref", "openalex", "arxiv", "s2", "dblp", "datacite", "europepmc")
ENV = {
    "crossref": "AUDITEX_CROSSREF_URL",
    "openalex": "AUDITEX_OPENALEX_URL",
    "arxiv": "AUDITEX_ARXIV_URL",
    "s2": "AUDITEX_S2_URL",
    "dblp": "AUDITEX_DBLP_URL",
    "datacite": "AUDITEX_DATACITE_URL",
    "europepmc": "AUDITEX_EUROPEPMC_URL",
}
BASE_PATH = {"s2": "/graph/v1", "europepmc": "/europepmc/webservices/rest"}  # the path each real base URL carries


@dataclass
class StandInWork:
    title: str
    authors: list[str]
    year: int
    venue: str = ""
    doi: str = ""
    arxiv: str = ""
    retracted: bool = False  # OpenAlex is_retracted and a Crossref "updated-by" retraction
    preprint: bool = False  # an arXiv record (CoRR in DBLP, posted-content in Crossref)
    published_venue: str = ""  # a preprint's journal_ref
    published_doi: str = ""
    services: frozenset[str] = frozenset(SERVICES) - {"datacite"}  # DataCite holds only what is registered there
    pmid: str = ""
    as_sent: dict[str, dict] = field(default_factory=dict)  # service → fields of its record as that service really sends them
    ident: int = 0


@dataclass
class Fault:
    status: int = 0  # answer this status ...
    times: int = 10**9  # ... this many times, then normally
    retry_after: str | None = None
    malformed: bool = False


@dataclass
class StandIns(LoopbackServer):
    works: list[StandInWork] = field(default_factory=list)
    latency_s: float = 0.0
    faults: dict[str, Fault] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)  # /web/<path> → the status a HEAD request gets
    requests: list[tuple[str, str, dict[str, list[str]]]] = field(default_factory=list)  # (service, path, query)
    headers: list[dict[str, str]] = field(default_factory=list)  # each request's headers, in order

    def __post_init__(self) -> None:
        for index, work in enumerate(self.works):
            work.ident = index + 1
        owner = self
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                owner._handle(self, None)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                owner._handle(self, self.rfile.read(length))

            def do_HEAD(self) -> None:
                owner._handle(self, None)

        self._listen(Handler)

    # Life

    def environment(
        self, only: tuple[str, ...] = SERVICES, unreachable: tuple[str, ...] = (), wrong_path: tuple[str, ...] = ()
    ) -> dict[str, str]:
        """`wrong_path`: services whose base URL lacks its path (every endpoint answers 404, as a real server would)."""
        env = {ENV[name]: f"{self.url}/{name}" + BASE_PATH.get(name, "") for name in only}
        for name in unreachable:
            env[ENV[name]] = "http://127.0.0.1:9"  # the discard port: connection refused
        for name in wrong_path:
            env[ENV[name]] = f"{self.url}/{name}/wrong"
        return env

    def count(self, service: str | None = None) -> int:
        return sum(1 for name, _, _ in self.requests if service is None or name == service)

    # Answering

    def _handle(self, handler: BaseHTTPRequestHandler, body: bytes | None) -> None:
        parts = urlsplit(handler.path)
        service, _, rest = parts.path.lstrip("/").partition("/")
        query = parse_qs(parts.query)
        with self._lock:
            self.requests.append((service, "/" + rest, query))
            self.headers.append(dict(handler.headers.items()))
            fault = self.faults.get(service)
            active = fault is not None and fault.times > 0
            if active and fault.status:
                fault.times -= 1
        if self.latency_s:
            time.sleep(self.latency_s)
        if active and fault.status:
            headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
            return self._send(handler, fault.status, {"message": "Too Many Requests" if fault.status == 429 else "error"}, headers=headers)
        if active and fault.malformed:
            return self._send(handler, 200, "<html>Service temporarily unavailable</html>", content_type="text/html")
        if service == "web":
            return self._send(handler, self.pages.get("/" + rest, 404), "", content_type="text/html")
        try:
            status, payload, content_type = getattr(self, f"_{service}")("/" + rest, query, body)
        except KeyError:
            status, payload, content_type = 404, {"error": "not found"}, "application/json"
        headers = {"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "990"} if service == "openalex" else {}
        self._send(handler, status, payload, content_type, headers)

    def _send(
        self,
        handler: BaseHTTPRequestHandler,
        status: int,
        payload: object,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(data)

    def _in(self, service: str) -> list[StandInWork]:
        return [work for work in self.works if service in work.services]

    def _by_doi(self, service: str, doi: str) -> StandInWork | None:
        return next((w for w in self._in(service) if w.doi and w.doi.lower() == doi.lower()), None)

    def _ranked(self, service: str, text: str, cutoff: float) -> list[StandInWork]:
        works = self._in(service)
        ranked = process.extract(
            text.lower(), [work.title.lower() for work in works], scorer=fuzz.token_set_ratio, limit=20, score_cutoff=cutoff
        )
        return [works[index] for _, _, index in ranked]

    # Crossref: /works/{doi}, /works?query.bibliographic=&rows=

    def _crossref(self, path: str, query: dict, body: bytes | None):
        if path.startswith("/works/"):
            work = self._by_doi("crossref", unquote(path[len("/works/") :]))
            if work is None:
                return 404, "Resource not found.", "text/plain"
            return (
                200,
                {
                    "status": "ok",
                    "message-type": "work",
                    "message-version": "1.0.0",
                    "message": _sent("crossref", work, _crossref_item(work)),
                },
                "application/json",
            )
        if path == "/works":
            text = query["query.bibliographic"][0]
            rows = int(query.get("rows", ["20"])[0])
            items = [
                _sent("crossref", work, _crossref_item(work)) for work in self._ranked("crossref", text, 0)[:rows]
            ]  # Crossref always ranks something
            return (
                200,
                {
                    "status": "ok",
                    "message-type": "work-list",
                    "message-version": "1.0.0",
                    "message": {
                        "facets": {},
                        "total-results": len(items),
                        "items": items,
                        "items-per-page": rows,
                        "query": {"start-index": 0, "search-terms": text},
                    },
                },
                "application/json",
            )
        raise KeyError(path)

    # OpenAlex: /works?filter=doi:A|B, /works?search=, /works/doi:{doi}

    def _openalex(self, path: str, query: dict, body: bytes | None):
        if path.startswith("/works/doi:"):
            work = self._by_doi("openalex", unquote(path[len("/works/doi:") :]))
            if work is None:
                return 404, {"error": "Not Found", "message": "The requested resource could not be found."}, "application/json"
            return 200, _sent("openalex", work, _openalex_item(work)), "application/json"
        if path == "/works":
            per_page = int(query.get("per-page", ["25"])[0])
            if "filter" in query:
                dois = query["filter"][0].removeprefix("doi:").split("|")
                found = [work for doi in dois if (work := self._by_doi("openalex", doi)) is not None]
            else:
                found = self._ranked("openalex", query["search"][0], 60)
            results = [_sent("openalex", work, _openalex_item(work)) for work in found[:per_page]]
            return (
                200,
                {
                    "meta": {"count": len(found), "db_response_time_ms": 12, "page": 1, "per_page": per_page},
                    "results": results,
                    "group_by": [],
                },
                "application/json",
            )
        raise KeyError(path)

    # arXiv: /api/query?id_list=

    def _arxiv(self, path: str, query: dict, body: bytes | None):
        if path != "/api/query":
            raise KeyError(path)
        entries = []
        for arxiv_id in query.get("id_list", [""])[0].split(","):
            work = next((w for w in self._in("arxiv") if w.arxiv and w.arxiv == arxiv_id.split("v")[0]), None)
            if work is not None:
                entries.append(_arxiv_entry(work))
            elif arxiv_id and not arxiv_id[0].isdigit():
                entries.append(
                    f"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{escape(arxiv_id)}</id>"
                    "<title>Error</title><summary>incorrect id format</summary></entry>"
                )
        feed = (
            '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
            'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">'
            '<link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>'
            '<title type="html">ArXiv Query: id_list</title><id>http://arxiv.org/api/x</id><updated>2024-01-01T00:00:00-05:00</updated>'
            f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex>"
            f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>{''.join(entries)}</feed>"
        )
        return 200, feed, "application/atom+xml"

    # Semantic Scholar: /graph/v1/paper/search/match, /paper/search, /paper/{id}, POST /paper/batch

    def _s2(self, path: str, query: dict, body: bytes | None):
        path = path.removeprefix("/graph/v1")
        if path == "/paper/search/match":
            ranked = self._ranked("s2", query["query"][0], 85)
            if not ranked:
                return 404, {"error": "Title match not found"}, "application/json"
            return 200, {"data": [{**_sent("s2", ranked[0], _s2_paper(ranked[0])), "matchScore": 180.5}]}, "application/json"
        if path == "/paper/search":
            limit = int(query.get("limit", ["10"])[0])
            ranked = self._ranked("s2", query["query"][0], 60)[:limit]
            return 200, {"total": len(ranked), "offset": 0, "data": [_sent("s2", w, _s2_paper(w)) for w in ranked]}, "application/json"
        if path == "/paper/batch" and body is not None:
            ids = json.loads(body)["ids"]
            return 200, [_sent("s2", w, _s2_paper(w)) if (w := self._s2_lookup(i)) else None for i in ids], "application/json"
        if path.startswith("/paper/"):
            work = self._s2_lookup(unquote(path[len("/paper/") :]))
            if work is None:
                return 404, {"error": f"Paper with id {unquote(path[len('/paper/') :])} not found"}, "application/json"
            return 200, _sent("s2", work, _s2_paper(work)), "application/json"
        raise KeyError(path)

    def _s2_lookup(self, identifier: str) -> StandInWork | None:
        kind, _, value = identifier.partition(":")
        if kind.upper() == "DOI":
            return self._by_doi("s2", value)
        if kind.upper() == "ARXIV":
            return next((w for w in self._in("s2") if w.arxiv == value), None)
        return None

    # DBLP: /search/publ/api?q=&format=json

    def _dblp(self, path: str, query: dict, body: bytes | None):
        if path != "/search/publ/api":
            raise KeyError(path)
        limit = int(query.get("h", ["30"])[0])
        ranked = self._ranked("dblp", query["q"][0], 70)[:limit]
        hits: dict = {"@total": str(len(ranked)), "@computed": str(len(ranked)), "@sent": str(len(ranked)), "@first": "0"}
        if ranked:
            hits["hit"] = [
                {"@score": "7", "@id": str(w.ident), "info": _sent("dblp", w, _dblp_info(w)), "url": f"https://dblp.org/rec/x/{w.ident}"}
                for w in ranked
            ]
        return (
            200,
            {
                "result": {
                    "query": query["q"][0],
                    "status": {"@code": "200", "text": "OK"},
                    "time": {"@unit": "msecs", "text": "1.00"},
                    "hits": hits,
                }
            },
            "application/json",
        )

    # DataCite: /dois/{doi}

    def _datacite(self, path: str, query: dict, body: bytes | None):
        if not path.startswith("/dois/"):
            raise KeyError(path)
        work = self._by_doi("datacite", unquote(path[len("/dois/") :]))
        if work is None:
            return 404, {"errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]}, "application/json"
        return 200, {"data": _sent("datacite", work, _datacite_record(work))}, "application/json"

    # Europe PMC: /europepmc/webservices/rest/search?query=DOI:"…" | EXT_ID:… AND SRC:MED | TITLE:"…"

    def _europepmc(self, path: str, query: dict, body: bytes | None):
        if path != "/europepmc/webservices/rest/search":
            raise KeyError(path)
        text = query["query"][0]
        rows = int(query.get("pageSize", ["25"])[0])
        if text.startswith("DOI:"):
            found = [w for w in [self._by_doi("europepmc", text[4:].strip('"'))] if w is not None]
        elif text.startswith("EXT_ID:"):
            pmid = text.split()[0].removeprefix("EXT_ID:")
            found = [w for w in self._in("europepmc") if w.pmid and w.pmid == pmid]
        else:
            found = self._ranked("europepmc", text.removeprefix("TITLE:").strip('"'), 70)
        results = [_sent("europepmc", w, _europepmc_result(w)) for w in found[:rows]]
        return (
            200,
            {
                "version": "6.9",
                "hitCount": len(found),
                "nextCursorMark": "AoE=",
                "request": {"queryString": text, "resultType": "core", "cursorMark": "*", "pageSize": rows, "sort": "", "synonym": False},
                "resultList": {"result": results},
            },
            "application/json",
        )


def _sent(service: str, work: StandInWork, record: dict) -> dict:
    """The record with the fields the service really sends for this work in place of the generated ones."""
    return {**record, **work.as_sent.get(service, {})}


def _datacite_record(work: StandInWork) -> dict:
    return {
        "id": work.doi,
        "type": "dois",
        "attributes": {
            "doi": work.doi,
            "identifiers": [],
            "creators": [
                {
                    "name": f"{_split(n)[1]}, {_split(n)[0]}",
                    "nameType": "Personal",
                    "givenName": _split(n)[0],
                    "familyName": _split(n)[1],
                    "affiliation": [],
                    "nameIdentifiers": [],
                }
                for n in work.authors
            ],
            "titles": [{"title": work.title}],
            "publisher": work.venue or "Zenodo",
            "publicationYear": work.year,
            "types": {
                "ris": "COMP",
                "bibtex": "misc",
                "citeproc": "article",
                "schemaOrg": "SoftwareSourceCode",
                "resourceTypeGeneral": "Software",
            },
            "url": f"https://zenodo.org/record/{work.ident}",
            "state": "findable",
        },
        "relationships": {"client": {"data": {"id": "cern.zenodo", "type": "clients"}}},
    }


def _europepmc_result(work: StandInWork) -> dict:
    return {
        "id": work.pmid or f"PPR{work.ident}",
        "source": "MED" if work.pmid else "PPR",
        "pmid": work.pmid or None,
        "doi": work.doi or None,
        "title": work.title + ".",
        "authorString": ", ".join(f"{_split(n)[1]} {''.join(p[0] for p in _split(n)[0].split())}" for n in work.authors) + ".",
        "authorList": {
            "author": [
                {
                    "fullName": f"{_split(n)[1]} {''.join(p[0] for p in _split(n)[0].split())}",
                    "firstName": _split(n)[0],
                    "lastName": _split(n)[1],
                    "initials": "".join(p[0] for p in _split(n)[0].split()),
                }
                for n in work.authors
            ]
        },
        "journalInfo": {"journal": {"title": work.venue, "isoabbreviation": work.venue}, "yearOfPublication": work.year},
        "pubYear": str(work.year),
        "pubTypeList": {"pubType": ["research-article", "Journal Article"]},
        "isOpenAccess": "N",
    }


def _split(name: str) -> tuple[str, str]:
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1]


def _crossref_item(work: StandInWork) -> dict:
    item = {
        "DOI": work.doi or f"10.9999/standin.{work.ident}",
        "title": [work.title],
        "type": "posted-content" if work.preprint else "journal-article",
        "author": [
            {"given": _split(n)[0], "family": _split(n)[1], "sequence": "first" if i == 0 else "additional", "affiliation": []}
            for i, n in enumerate(work.authors)
        ],
        "container-title": [work.venue] if work.venue and not work.preprint else [],
        "issued": {"date-parts": [[work.year]]},
        "URL": f"https://doi.org/{work.doi}",
        "score": 42.0,
    }
    if work.retracted:
        item["updated-by"] = [
            {
                "DOI": f"10.9999/retraction.{work.ident}",
                "type": "retraction",
                "source": "retraction-watch",
                "label": "Retraction",
                "updated": {"date-parts": [[2023, 5, 1]]},
            }
        ]
    return item


def _openalex_item(work: StandInWork) -> dict:
    source_type = "repository" if work.preprint else "journal"
    primary = {
        "is_oa": True,
        "landing_page_url": f"https://arxiv.org/abs/{work.arxiv}" if work.preprint and work.arxiv else f"https://doi.org/{work.doi}",
        "source": {
            "id": f"https://openalex.org/S{work.ident}",
            "display_name": "arXiv (Cornell University)" if work.preprint else work.venue,
            "type": source_type,
        },
    }
    locations = [primary]
    if work.preprint and work.published_venue:
        locations.append(
            {
                "is_oa": False,
                "landing_page_url": f"https://doi.org/{work.published_doi}",
                "source": {"id": "https://openalex.org/S9", "display_name": work.published_venue, "type": "journal"},
            }
        )
    return {
        "id": f"https://openalex.org/W{work.ident}",
        "doi": f"https://doi.org/{work.doi}" if work.doi else None,
        "title": work.title,
        "display_name": work.title,
        "publication_year": work.year,
        "type": "preprint" if work.preprint else "article",
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {"id": f"https://openalex.org/A{i}", "display_name": n, "orcid": None},
                "institutions": [],
            }
            for i, n in enumerate(work.authors)
        ],
        "primary_location": primary,
        "locations": locations,
        "is_retracted": work.retracted,
        "ids": {"openalex": f"https://openalex.org/W{work.ident}", **({"doi": f"https://doi.org/{work.doi}"} if work.doi else {})},
    }


def _arxiv_entry(work: StandInWork) -> str:
    extra = ""
    if work.published_doi:
        extra += f'<arxiv:doi>{escape(work.published_doi)}</arxiv:doi><link title="doi" href="http://dx.doi.org/{escape(work.published_doi)}" rel="related"/>'
    if work.published_venue:
        extra += f"<arxiv:journal_ref>{escape(work.published_venue)}</arxiv:journal_ref>"
    authors = "".join(f"<author><name>{escape(n)}</name></author>" for n in work.authors)
    return (
        f"<entry><id>http://arxiv.org/abs/{work.arxiv}v2</id><updated>{work.year}-06-01T00:00:00Z</updated>"
        f"<published>{work.year}-01-15T17:57:34Z</published><title>{escape(work.title)}</title>"
        f"<summary>An abstract.</summary>{authors}{extra}"
        f'<link href="http://arxiv.org/abs/{work.arxiv}v2" rel="alternate" type="text/html"/>'
        '<arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/></entry>'
    )


def _s2_paper(work: StandInWork) -> dict:
    venue = "arXiv.org" if work.preprint and not work.published_venue else (work.published_venue or work.venue)
    external = {"CorpusId": work.ident, **({"DOI": work.doi} if work.doi else {}), **({"ArXiv": work.arxiv} if work.arxiv else {})}
    return {
        "paperId": f"{work.ident:040x}",
        "externalIds": external,
        "title": work.title,
        "venue": venue,
        "year": work.year,
        "authors": [{"authorId": str(i), "name": n} for i, n in enumerate(work.authors)],
        "publicationTypes": ["JournalArticle"] if not work.preprint else None,
        "journal": {"name": venue} if venue else None,
        "publicationVenue": {"id": "v", "name": venue, "type": "journal"} if venue else None,
    }


def _dblp_info(work: StandInWork) -> dict:
    authors = [{"@pid": f"{i}/{work.ident}", "text": n} for i, n in enumerate(work.authors)]
    return {
        "authors": {"author": authors[0] if len(authors) == 1 else authors},
        "title": work.title + ".",
        "venue": "CoRR" if work.preprint else work.venue,
        "year": str(work.year),
        "type": "Informal Publications" if work.preprint else "Journal Articles",
        "key": f"x/{work.ident}",
        **({"doi": work.doi} if work.doi else {}),
        "ee": f"https://arxiv.org/abs/{work.arxiv}" if work.preprint and work.arxiv else f"https://doi.org/{work.doi}",
        "url": f"https://dblp.org/rec/x/{work.ident}",
    }


# Well-known works: the library of the reference verification tests and the BIB rule fixtures.
ATTENTION = StandInWork(
    "Attention Is All You Need",
    ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
    2017,
    "Advances in Neural Information Processing Systems",
    arxiv="1706.03762",
)
RESNET = StandInWork(
    "Deep Residual Learning for Image Recognition",
    ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
    2016,
    "IEEE Conference on Computer Vision and Pattern Recognition",
    doi="10.1109/cvpr.2016.90",
)
DEEP = StandInWork("Deep learning", ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"], 2015, "Nature", doi="10.1038/nature14539")
RETRACTED = StandInWork(
    "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children",
    ["Andrew Wakefield", "Simon Murch"],
    1998,
    "The Lancet",
    doi="10.1016/s0140-6736(97)11096-0",
    retracted=True,
)
ADAM = StandInWork(
    "Adam: A Method for Stochastic Optimization",
    ["Diederik P. Kingma", "Jimmy Ba"],
    2014,
    arxiv="1412.6980",
    preprint=True,
    published_venue="International Conference on Learning Representations",
)
LIBRARY = [ATTENTION, RESNET, DEEP, RETRACTED, ADAM]
