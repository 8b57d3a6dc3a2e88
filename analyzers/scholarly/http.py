"""The one HTTP layer every scholarly service goes through (httpx, async).

It is a polite client: a per-host rate limit and concurrency cap, retries with
exponential backoff that honour `Retry-After`, an overall time budget after which
nothing more is asked, and a request counter (the tests and the benchmark read it).
Whatever goes wrong (unreachable, refused, rate limited past the retries, a body
that is not what the service documents, the budget spent) becomes `ServiceUnavailable`
with one sentence: the caller then counts the question as unanswered, never as
"not found".

A 404 means what the endpoint says it means: on a lookup by id (`missing="record"`) there
is no such record (`NotFound`); on a search, list or batch endpoint the endpoint itself is
wrong (a base URL without its path), so the service is unavailable for the rest of the run.
After a failure (429, 5xx, a timeout) one request at a time probes the host again: a burst
of queued requests shares one retry budget instead of each retrying on its own.

Only what the caller passes is sent: reference metadata (a DOI, an arXiv id, a title
and an author's surname). Nothing here knows about manuscripts.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from ...latex.record import record

USER_AGENT = "auditex (reference verification; https://github.com/auditex)"
# A service that has not accepted the connection by then is taken for unreachable (no network).
CONNECT_TIMEOUT_S = 5.0
Missing = Literal["record", "endpoint"]  # what a 404 means: no such record, or a wrong endpoint


class ServiceUnavailable(Exception):
    """A service could not answer; `str(error)` says why in one sentence."""


class NotFound(Exception):
    """The service answered that it has no such record (HTTP 404)."""


@record
class HostPolicy:
    """How often one host may be asked: at least `interval_s` between request starts, at most `concurrency` at once."""

    interval_s: float = 0.0
    concurrency: int = 4


@dataclass
class _HostState:
    policy: HostPolicy
    semaphore: asyncio.Semaphore
    lock: asyncio.Lock
    probe: asyncio.Lock
    next_start: float = 0.0
    down: str | None = None  # why the host gave up on us this run: later requests fail at once
    failures: int = 0  # failed probes since the last answer; past the retries the host is down
    generation: int = 0  # bumped at each counted failure: a request sent before it shares that failure


@dataclass
class RequestStats:
    requests: int = 0
    retries: int = 0
    by_host: dict[str, int] = field(default_factory=dict)


class HttpClient:
    """An async HTTP client shared by the services of one run (one event loop); `policies`: base URL prefix → its rate."""

    def __init__(
        self,
        policies: Mapping[str, HostPolicy] | None = None,
        *,
        timeout_s: float = 15.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        max_retry_after_s: float = 30.0,
        budget_s: float | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.policies = dict(policies or {})
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_retry_after_s = max_retry_after_s
        self.deadline = time.monotonic() + budget_s if budget_s is not None else None
        self.stats = RequestStats()
        self._hosts: dict[str, _HostState] = {}
        self._transport = transport
        self._client: httpx.AsyncClient | None = None

    async def __aenter__(self) -> HttpClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=self.timeout_s,
                transport=self._transport,
                follow_redirects=True,
                headers={"User-Agent": USER_AGENT},
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=32),
            )
        return self._client

    def remaining_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _host(self, url: str) -> _HostState:
        """The rate-limit state of the service `url` belongs to: the longest policy prefix, else its host."""
        prefix = max((p for p in self.policies if url.startswith(p)), key=len, default=None)
        name = prefix or urlsplit(url).netloc
        state = self._hosts.get(name)
        if state is None:
            policy = self.policies.get(prefix, HostPolicy()) if prefix else HostPolicy()
            state = _HostState(policy, asyncio.Semaphore(max(1, policy.concurrency)), asyncio.Lock(), asyncio.Lock())
            self._hosts[name] = state
        return state

    async def _wait_turn(self, state: _HostState) -> None:
        async with state.lock:
            now = time.monotonic()
            wait = state.next_start - now
            state.next_start = max(now, state.next_start) + state.policy.interval_s
        if wait > 0:
            self._check_budget(wait, "")
            await asyncio.sleep(wait)

    def _check_budget(self, wait: float, name: str) -> None:
        remaining = self.remaining_s()
        if remaining is not None and wait >= remaining:
            raise ServiceUnavailable(f"{name or 'the service'} was not asked: the time budget for online checks is spent.")

    def unavailable(self) -> list[str]:
        """Why each host that gave up on us this run did (one sentence each)."""
        return [state.down for state in self._hosts.values() if state.down is not None]

    async def get_json(
        self,
        name: str,
        url: str,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        missing: Missing = "endpoint",
        record_says: str = "",
    ) -> Any:
        response = await self.request(name, "GET", url, params=params, headers=headers, missing=missing, record_says=record_says)
        return json_of(name, response)

    async def post_json(
        self, name: str, url: str, body: Any, params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None
    ) -> Any:
        response = await self.request(name, "POST", url, params=params, headers=headers, json_body=body)
        return json_of(name, response)

    async def get_text(self, name: str, url: str, params: Mapping[str, Any] | None = None) -> str:
        response = await self.request(name, "GET", url, params=params)
        return response.text

    async def request(
        self,
        name: str,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        json_body: Any = None,
        missing: Missing = "endpoint",
        record_says: str = "",
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """One request with the host's rate limit and retries.

        A 404 raises NotFound when `missing` is "record" (a lookup by id) and its body contains
        `record_says` (when given: the service's own wording, which a wrong path does not have); on
        any other endpoint it means the endpoint is wrong and the host is down for the run.
        Anything else failing raises ServiceUnavailable.
        """
        state = self._host(url)
        while True:
            if state.down is not None:
                raise ServiceUnavailable(state.down)
            self._check_budget(0, name)
            async with state.semaphore:
                # After a failure the host is probed by one request at a time until it answers again.
                probing = state.failures > 0
                if probing:
                    await state.probe.acquire()
                try:
                    await self._wait_turn(state)
                    if state.down is not None:
                        raise ServiceUnavailable(state.down)
                    generation = state.generation
                    response, failure, retry_after = await self._send(
                        state, name, method, url, params, headers, json_body, follow_redirects
                    )
                finally:
                    if probing:
                        state.probe.release()
                if response is not None:
                    return _answered(state, name, url, response, missing, record_says)
                if retry_after is not None:
                    # Everyone waiting on this host waits too: the service asked for a pause.
                    state.next_start = max(state.next_start, time.monotonic() + min(retry_after, self.max_retry_after_s))
                if generation == state.generation:  # the first to hear of this failure counts it for everyone sent with it
                    state.generation += 1
                    state.failures += 1
                    self.stats.retries += 1
                attempt = state.failures - 1
            if attempt >= self.retries or (retry_after or 0) > self.max_retry_after_s:
                # Unreachable, failing or rate limiting past the retries: not asked again this run.
                state.down = failure
                raise ServiceUnavailable(failure)
            wait = retry_after if retry_after is not None else self.backoff_s * (2**attempt)
            self._check_budget(wait, name)
            if retry_after is None:
                await asyncio.sleep(wait)

    async def _send(
        self,
        state: _HostState,
        name: str,
        method: str,
        url: str,
        params: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
        json_body: Any,
        follow_redirects: bool,
    ) -> tuple[httpx.Response | None, str, float | None]:
        """One attempt: (the response, "", None) when the service answered for good or ill, else (None, why, Retry-After).
        A refused or unanswered connection marks the service down for the run at once: asking again would only wait."""
        self._check_budget(0, name)
        remaining = self.remaining_s()
        timeout = self.timeout_s if remaining is None else max(0.1, min(self.timeout_s, remaining))
        self.stats.requests += 1
        host = urlsplit(url).netloc
        self.stats.by_host[host] = self.stats.by_host.get(host, 0) + 1
        try:
            response = await self.client.request(
                method,
                url,
                params=dict(params or {}),
                headers=dict(headers or {}),
                json=json_body,
                timeout=httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT_S, timeout)),
                follow_redirects=follow_redirects,
            )
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            why = "the connection timed out" if isinstance(error, httpx.ConnectTimeout) else "the connection was refused or failed"
            state.down = f"{name} is unreachable ({why})."
            raise ServiceUnavailable(state.down) from None
        except httpx.TimeoutException:
            return None, f"{name} did not answer in time.", None
        except (httpx.HTTPError, httpx.InvalidURL) as error:  # an entry's malformed URL too
            return None, f"{name} is unreachable ({type(error).__name__}).", None
        retry_after = _retry_after(response.headers.get("Retry-After"))
        if response.status_code == 429:
            return None, f"{name} rate limited the check (HTTP 429).", retry_after
        if response.status_code >= 500 or response.status_code == 408:
            return None, f"{name} failed (HTTP {response.status_code}).", retry_after
        return response, "", None


def json_of(name: str, response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        raise ServiceUnavailable(f"{name} answered with something that is not JSON.") from None


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds or as an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _answered(state: _HostState, name: str, url: str, response: httpx.Response, missing: Missing, record_says: str) -> httpx.Response:
    """The response of a host that answered, when it is a success; NotFound or ServiceUnavailable otherwise (see request)."""
    if response.status_code == 404:
        state.failures = 0
        if missing == "record" and record_says.lower() in response.text.lower():
            raise NotFound(f"{name} has no such record.")
        path = urlsplit(url).path or "/"
        state.down = (
            f"{name} answered 404 (not found) at {path}: that is not one of its endpoints (check its base URL); "
            f"{name} was not asked again this run."
        )
        raise ServiceUnavailable(state.down)
    if response.status_code < 400:
        state.failures = 0
        return response
    raise ServiceUnavailable(f"{name} refused the request (HTTP {response.status_code}).")
