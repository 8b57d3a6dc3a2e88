"""Reference verification: every cited reference resolved against the indexes, one verdict each.

Resolution follows `order` (default: the DOI, the PMID, the arXiv id, then a title and
first-author search). DOIs are looked up at OpenAlex (one by one when few, 50 to a request
otherwise), then at the registrars, Crossref and DataCite; arXiv ids go in one `id_list`
request, preprints' published versions in one Semantic Scholar `/paper/batch`. A search asks
one index at a time and stops at the first candidate that matches: first the free indexes
(Crossref, DBLP, Europe PMC for biomedical references, and OpenAlex when a key pays for its
searches; the first chosen by a stable hash of the reference, weighted by each index's rate
limit, so a long bibliography spreads over them), then Semantic Scholar, then OpenAlex
without a key.

A reference is "not found" only when at least two indexes answered and none had a match,
and every index asked did answer: an index that was unreachable, rate limiting or misconfigured
leaves it "unchecked", never "not found". Software, web pages, datasets, reports and
URL-only entries are never "not found": no index holding them, they are checked at their
own URL (one HEAD request) or reported as unchecked.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import matching
from .arxiv import ArXiv
from .crossref import Crossref
from .datacite import DataCite
from .dblp import DBLP
from .europepmc import EuropePMC, is_biomedical
from .http import HostPolicy, HttpClient, ServiceUnavailable
from .index_cache import AnswerCache
from .normalise import is_preprint_venue
from .openalex import OpenAlex
from .semantic_scholar import SemanticScholar
from .service import Service
from .web import WebPage
from .work import MismatchModel, Reference, Status, Verdict, Work

Step = Literal["doi", "pmid", "arxiv", "search"]
SearchName = Literal["openalex", "crossref", "dblp", "semantic-scholar", "europe-pmc"]


class OnlineSettings(BaseModel):
    """`[online]` in `.auditex.toml`."""

    model_config = ConfigDict(extra="forbid")
    order: list[Step] = Field(default_factory=lambda: list[Step](("doi", "pmid", "arxiv", "search")))
    search: list[SearchName] = Field(
        default_factory=lambda: list[SearchName](("openalex", "crossref", "dblp", "semantic-scholar", "europe-pmc"))
    )
    urls: bool = True  # a software, web or dataset reference no index holds: one HEAD request to its own URL
    budget_s: float = Field(default=120.0, gt=0)  # the whole run; what is left unasked is "unchecked"
    concurrency: int = Field(default=16, ge=1, le=64)

    @classmethod
    def from_config(cls, table: Mapping[str, Any] | None) -> tuple[OnlineSettings, str | None]:
        try:
            return cls.model_validate(dict(table or {})), None
        except ValidationError as error:
            first = error.errors()[0]
            return cls(), f"[online] {'.'.join(str(p) for p in first.get('loc', ()))}: {first.get('msg', 'invalid value')}"


def default_policies(services: Sequence[Service], env: Mapping[str, str]) -> dict[str, HostPolicy]:
    """Each service's polite rate: arXiv 1 request / 3 s, Semantic Scholar 1 / s without a key."""
    result = {}
    for service in services:
        if isinstance(service, ArXiv):
            policy = HostPolicy(3.0, 1)
        elif isinstance(service, SemanticScholar):
            policy = HostPolicy(0.2 if env.get("SEMANTIC_SCHOLAR_API_KEY") else 1.0, 1)
        elif isinstance(service, (OpenAlex, DataCite)):
            policy = HostPolicy(0.1, 4)
        elif isinstance(service, EuropePMC):
            policy = HostPolicy(0.1, 2)
        elif isinstance(service, Crossref):
            policy = HostPolicy(0.1, 3) if env.get("CROSSREF_MAILTO") else HostPolicy(0.2, 1)
        else:  # DBLP publishes no number; it answers 429 with Retry-After past its limit
            policy = HostPolicy(0.5, 1)
        result[service.base_url + "/"] = policy
    return result


@dataclass
class _Lookup:
    """What resolving one reference has learned so far, step by step."""

    found: Work | None = None
    identified: bool = False  # found by its identifier alone (software and data: the title is often a release name)
    problems: list[str] = field(default_factory=list)  # what its identifiers name instead of the cited work
    unavailable: list[str] = field(default_factory=list)  # why an index that may hold it did not answer
    answered: list[str] = field(default_factory=list)  # the search indexes that answered
    candidates: list[Work] = field(default_factory=list)


def _look_up_arxiv(reference: Reference, by_arxiv: dict[str, Work | None] | str, lookup: _Lookup) -> None:
    """The work the reference's arXiv id names (`by_arxiv` is why arXiv did not answer), if it is the cited one."""
    if isinstance(by_arxiv, str):
        lookup.unavailable.append(by_arxiv)
        return
    work = by_arxiv.get(reference.arxiv)
    if work is None:
        lookup.problems.append(f"arXiv id {reference.arxiv} does not resolve")
    elif not reference.title or matching.score(reference, work) > 0:
        lookup.found = work
    else:
        lookup.problems.append(f"arXiv id {reference.arxiv} is a different work: {_title_and_year(work)}")


def _title_and_year(work: Work) -> str:
    return f'"{work.title}"' + (f" ({work.year})" if work.year else "")


class Verifier:
    """The services of one run, sharing one HTTP client, one cache and one time budget."""

    def __init__(
        self,
        settings: OnlineSettings | None = None,
        cache: AnswerCache | None = None,
        env: Mapping[str, str] | None = None,
        policies: Mapping[str, HostPolicy] | None = None,
        retries: int = 3,
        timeout_s: float = 15.0,
        backoff_s: float = 0.5,
        check_urls: bool = True,
    ) -> None:
        import os

        self.settings = settings or OnlineSettings()
        self.check_urls = check_urls and self.settings.urls
        self.env = os.environ if env is None else env
        self.cache = cache
        self.http = HttpClient(budget_s=self.settings.budget_s, retries=retries, timeout_s=timeout_s, backoff_s=backoff_s)
        self.crossref = Crossref(self.http, cache, self.env)
        self.openalex = OpenAlex(self.http, cache, self.env)
        self.arxiv = ArXiv(self.http, cache, self.env)
        self.s2 = SemanticScholar(self.http, cache, self.env)
        self.dblp = DBLP(self.http, cache, self.env)
        self.datacite = DataCite(self.http, cache, self.env)
        self.europepmc = EuropePMC(self.http, cache, self.env)
        self.web = WebPage(self.http, cache)
        services: list[Service] = [self.crossref, self.openalex, self.arxiv, self.s2, self.dblp, self.datacite, self.europepmc]
        self.http.policies = {**default_policies(services, self.env), **(policies or {})}
        named: dict[str, Any] = {
            "openalex": self.openalex,
            "crossref": self.crossref,
            "dblp": self.dblp,
            "semantic-scholar": self.s2,
            "europe-pmc": self.europepmc,
        }
        self.searchers = [named[name] for name in self.settings.search]
        # Searched first, spread by a hash: the indexes whose searches cost nothing (and OpenAlex when a key
        # gives it a thousand searches a day); then S2 (one a second without a key), then OpenAlex without a
        # key (some ten searches a day).
        last = [self.s2] if self.openalex.has_key else [self.s2, self.openalex]
        self._free = [s for s in self.searchers if s not in last]
        self._last = [s for s in last if s in self.searchers]
        # How much of the search load each free index takes first: its allowed requests per second.
        self._weights = [max(1, round(1 / max(self.http.policies[s.base_url + "/"].interval_s, 0.05))) for s in self._free]

    @property
    def requests(self) -> int:
        return self.http.stats.requests

    def notes(self) -> list[str]:
        """What the run should say besides its counts: services down for the run, and OpenAlex's spend."""
        notes = self.http.unavailable()
        spend = self.openalex.spend
        if any(spend.calls.values()):
            notes.append(spend.line())
        if not self.openalex.has_key and (any(spend.calls.values()) or any(n.startswith("OpenAlex") for n in notes)):
            notes.append("OPENALEX_API_KEY is not set: without a key OpenAlex allows about $0.01 a day (ten searches)")
        return notes

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> Verifier:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def verify(self, references: Sequence[Reference], on_verdict: Callable[[Verdict], None] | None = None) -> list[Verdict]:
        """A verdict per reference, in order; `on_verdict` hears each as soon as it is known."""
        order = self.settings.order
        by_doi: dict[str, Work | None] | str = {}
        by_arxiv: dict[str, Work | None] | str = {}
        s2_batch: dict[str, Work | None] = {}
        dois = [r.doi for r in references if r.doi] if "doi" in order else []
        ids = [r.arxiv for r in references if r.arxiv] if "arxiv" in order else []
        preprint_ids = [f"ARXIV:{r.arxiv}" for r in references if r.arxiv and r.is_preprint]

        async def doi_batch() -> None:
            nonlocal by_doi
            try:
                by_doi = await self.openalex.lookup_dois(dois) if dois else {}
            except ServiceUnavailable as error:
                by_doi = str(error)

        async def arxiv_batch() -> None:
            nonlocal by_arxiv
            try:
                by_arxiv = await self.arxiv.lookup_ids(ids) if ids else {}
            except ServiceUnavailable as error:
                by_arxiv = str(error)

        async def s2_preprints() -> None:
            nonlocal s2_batch
            try:
                s2_batch = await self.s2.batch(preprint_ids) if preprint_ids else {}
            except ServiceUnavailable:
                s2_batch = {}

        await asyncio.gather(doi_batch(), arxiv_batch(), s2_preprints())
        gate = asyncio.Semaphore(self.settings.concurrency)

        async def one(reference: Reference) -> Verdict:
            async with gate:
                verdict = await self._resolve(reference, by_doi, by_arxiv, s2_batch)
            if on_verdict is not None:
                on_verdict(verdict)
            return verdict

        return list(await asyncio.gather(*(one(reference) for reference in references)))

    async def _resolve(
        self,
        reference: Reference,
        by_doi: dict[str, Work | None] | str,
        by_arxiv: dict[str, Work | None] | str,
        s2_batch: dict[str, Work | None],
    ) -> Verdict:
        lookup = _Lookup()
        for step in self.settings.order:
            if lookup.found is not None:
                break
            if step in ("doi", "pmid") and (reference.doi if step == "doi" else reference.pmid):
                await self._look_up_identifier(reference, step, by_doi, lookup)
            elif step == "arxiv" and reference.arxiv:
                _look_up_arxiv(reference, by_arxiv, lookup)
            elif step == "search" and reference.title:
                await self._search(reference, lookup)
        if lookup.found is None:
            return await self._unresolved(reference, lookup)
        return await self._resolved(reference, lookup.found, lookup, s2_batch)

    async def _look_up_identifier(self, reference: Reference, step: Step, by_doi: dict[str, Work | None] | str, lookup: _Lookup) -> None:
        """The work the reference's DOI or PMID names, if it is the cited one (or, for software and data, any)."""
        if step == "doi":
            work, why = await self._doi(reference, by_doi)
            named = f"DOI {reference.doi}"
        else:
            work, why = await self._pmid(reference.pmid)
            named = f"PMID {reference.pmid}"
        if why:
            lookup.unavailable.append(why)
        elif work is None:
            lookup.problems.append(f"{named} does not resolve (no index knows it)")
        elif not reference.title or matching.score(reference, work) > 0:
            lookup.found = work
        elif reference.kind != "work":
            lookup.found, lookup.identified = work, True
        else:
            lookup.problems.append(f"{named} resolves to a different work: {_title_and_year(work)}")

    async def _search(self, reference: Reference, lookup: _Lookup) -> None:
        """Ask the search indexes in turn until one holds a match."""
        for service in self._search_order(reference):
            try:
                answer = await service.search(reference)
            except ServiceUnavailable as error:
                lookup.unavailable.append(str(error))
                continue
            lookup.answered.append(service.name)
            lookup.candidates += answer
            lookup.found = matching.best(reference, answer)
            if lookup.found is not None:
                return
            service.demote(*service.search_key(reference))  # asked again after a day: the work may be indexed by then

    async def _unresolved(self, reference: Reference, lookup: _Lookup) -> Verdict:
        # An index that did not answer (its identifier lookup or its search) may hold the work: never "not found".
        answered, unavailable = lookup.answered, lookup.unavailable
        status: Status = "not_found" if len(answered) >= 2 and not unavailable and reference.kind == "work" else "unchecked"
        at_url = False
        if status == "unchecked" and reference.kind != "work":
            at_url, why = await self._at_url(reference)
            unavailable.append(why)
        return Verdict(
            key=reference.key,
            status="verified" if at_url else status,
            identifier_problem="; ".join(lookup.problems),
            answered=answered,
            unavailable=[] if at_url else unavailable,
        )

    async def _resolved(self, reference: Reference, found: Work, lookup: _Lookup, s2_batch: dict[str, Work | None]) -> Verdict:
        retracted_by = await self._retraction(found)
        published = self._published(reference, found, lookup.candidates, s2_batch)
        # Software and data are cited by name while their records carry a release title ("… v1.2"): titles are not compared.
        found_mismatches = [
            MismatchModel(**vars(m))
            for m in ([] if lookup.identified else matching.mismatches(reference, found))
            if reference.kind == "work" or m.field != "title"
        ]
        return Verdict(
            key=reference.key,
            status="mismatch" if found_mismatches else "verified",
            work=found,
            mismatches=found_mismatches,
            identifier_problem="; ".join(lookup.problems),
            retracted_by=retracted_by,
            published=published,
            answered=lookup.answered,
            unavailable=lookup.unavailable,
        )

    async def _at_url(self, reference: Reference) -> tuple[bool, str]:
        """A software, web or dataset reference no index holds: does its own URL answer? (answered, why not)."""
        what = f"'{reference.key}' is a {reference.kind} reference no scholarly index holds"
        if not reference.url:
            return False, f"{what}, and it gives no URL"
        if not self.check_urls:
            return False, f"{what} ([online] urls = false: its URL was not asked)"
        try:
            exists = await self.web.exists(reference.url)
        except ServiceUnavailable as error:
            return False, f"{what}, and its URL could not be asked: {error}"
        if exists is None:
            return False, f"{what}, and its URL is not an http(s) URL"
        return exists, "" if exists else f"{what}, and its URL answered 404 (not found)"

    def _search_order(self, reference: Reference) -> list[Any]:
        """The free indexes once each, starting at one picked by a stable hash weighted by their rates; then S2 and OpenAlex.

        Europe PMC is asked only about biomedical references."""
        rotation: list[Any] = []
        if self._free:
            digest = int(hashlib.blake2b(f"{reference.key}\x1f{reference.title}".encode(), digest_size=8).hexdigest(), 16)
            point = digest % sum(self._weights)
            first = 0
            for index, weight in enumerate(self._weights):
                if point < weight:
                    first = index
                    break
                point -= weight
            rotation = self._free[first:] + self._free[:first]
        return [s for s in rotation + self._last if s is not self.europepmc or is_biomedical(reference)]

    async def _doi(self, reference: Reference, by_doi: dict[str, Work | None] | str) -> tuple[Work | None, str]:
        """The DOI's work; (None, "") when the registrars (Crossref, DataCite) both say there is none, (None, why) when none could say.

        OpenAlex answered first (the batch); when a registrar cannot answer, Europe PMC (for a
        biomedical reference) and Semantic Scholar are the last resorts."""
        doi = reference.doi
        if not isinstance(by_doi, str) and by_doi.get(doi) is not None:
            return by_doi[doi], ""
        reasons = [by_doi] if isinstance(by_doi, str) else []
        registrars_said_none = 0
        for service in (self.crossref, self.datacite):
            try:
                work = await service.lookup_doi(doi)
            except ServiceUnavailable as error:
                reasons.append(str(error))
                continue
            if work is not None:
                return work, ""
            registrars_said_none += 1
        if registrars_said_none == 2:
            return None, ""
        fallbacks: list[Callable[[str], Awaitable[Work | None]]] = [lambda d: self.s2.paper(f"DOI:{d}")]
        if is_biomedical(reference):
            fallbacks.insert(0, self.europepmc.lookup_doi)
        for lookup in fallbacks:
            try:
                work = await lookup(doi)
            except ServiceUnavailable as error:
                reasons.append(str(error))
                continue
            if work is not None:
                return work, ""
        return None, " ".join(reasons)

    async def _pmid(self, pmid: str) -> tuple[Work | None, str]:
        try:
            return await self.europepmc.lookup_pmid(pmid), ""
        except ServiceUnavailable as error:
            return None, str(error)

    async def _retraction(self, work: Work) -> str:
        if work.is_retracted:
            return work.source
        if work.source in ("OpenAlex", "Crossref") or not work.doi:
            return ""
        try:
            record = await self.openalex.lookup_doi(work.doi)
        except ServiceUnavailable:
            return ""
        return record.source if record is not None and record.is_retracted else ""

    def _published(self, reference: Reference, found: Work, candidates: list[Work], s2_batch: dict[str, Work | None]) -> Work | None:
        if not reference.is_preprint:
            return None
        if not found.is_preprint and found.venue and not is_preprint_venue(found.venue):
            return found
        if found.published_venue or found.published_doi:
            # The index knows the version of record only by name: its year is not the preprint's.
            return found.model_copy(
                update={"venue": found.published_venue or found.venue, "doi": found.published_doi or found.doi, "year": None}
            )
        s2 = s2_batch.get(f"ARXIV:{reference.arxiv}") if reference.arxiv else None
        if s2 is not None and s2.published_venue:
            return s2
        for candidate in candidates:
            if (
                not candidate.is_preprint
                and candidate.venue
                and not is_preprint_venue(candidate.venue)
                and matching.title_score(reference.title, candidate.title) >= matching.MATCH
            ):
                return candidate
        return None
