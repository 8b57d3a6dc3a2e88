"""What can go wrong when auditex talks to an LLM, each as one sentence a user can act on.

Providers translate SDK exceptions into these with `from_sdk_error`, so nothing above
the transport layer ever sees an `openai` or `anthropic` exception. No message ever
contains the API key: messages are built from our own words, status codes and URLs,
and the only server text we quote goes through `redact` first.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import ModuleType
from urllib.parse import urlsplit, urlunsplit


class LLMError(Exception):
    """Base class: `str(error)` is one sentence for the user, never a traceback."""

    retryable: bool = False

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class MissingKey(LLMError):
    """No API key in the environment for a provider that needs one."""


class Unreachable(LLMError):
    """The connection to the server failed (refused, DNS, TLS, reset)."""

    retryable = True


class Refused(Unreachable):
    """The server's host refused the connection: nothing listens there, and nothing will by the next retry."""

    retryable = False


class RateLimited(LLMError):
    """HTTP 429: the server asks us to slow down, possibly with Retry-After."""

    retryable = True


class ServerFailed(LLMError):
    """HTTP 5xx (or 408/409): a server-side problem that may pass."""

    retryable = True


class Rejected(LLMError):
    """A 4xx the request will keep getting: bad key, unknown model, malformed request."""


class BadRequest(Rejected):
    """HTTP 400 or 422: the server refused something in the request (a response format it does not know)."""


class BudgetExceeded(LLMError):
    """The next call could take the run past `--budget`; raised before sending it."""


class Timeout(LLMError):
    """The server stayed silent too long, or the overall time limit ran out."""

    retryable = True


class BadResponse(LLMError):
    """The server answered, but not with something auditex can use."""


def display_url(url: str) -> str:
    """The URL without user:password, fit for messages and logs."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def redact(text: str, secret: str | None) -> str:
    if secret:
        text = text.replace(secret, "[redacted]")
    return text


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `Retry-After` as seconds or an HTTP-date."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    import email.utils  # only a server asking to wait pays for it, not every check importing these errors

    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:  # an HTTP-date is always GMT
        return None
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


def from_sdk_error(exc: Exception, sdk: ModuleType, where: str, key_env: str, secret: str | None) -> LLMError:
    """Translate an exception of the `openai` or `anthropic` SDK (passed as `sdk`).

    Both SDKs share the same exception shapes, so one mapping serves both.
    `where` is the display URL of the server, `key_env` the variable the key came from.
    """
    if isinstance(exc, sdk.APITimeoutError):
        return Timeout(f"The LLM server at {where} did not answer in time.")
    if isinstance(exc, sdk.APIConnectionError):
        unreachable = Refused if _refused(exc) else Unreachable
        return unreachable(f"Could not reach {where}{_cause(exc, secret)}; check the URL and that the server is running.")
    if isinstance(exc, sdk.APIStatusError):
        return _from_status(exc.status_code, exc.response.headers, _server_message(exc, secret), where, key_env)
    return BadResponse(f"The LLM server at {where} sent a reply auditex could not read ({type(exc).__name__}).")


def _from_status(status: int, headers: Mapping[str, str], detail: str, where: str, key_env: str) -> LLMError:
    retry_after = parse_retry_after(headers)
    if status == 429:
        return RateLimited(f"The LLM server at {where} is rate limiting requests (HTTP 429).", retry_after_s=retry_after)
    if status in (401, 403):
        # The server's own text is left out on purpose: OpenAI echoes part of a wrong key.
        return Rejected(f"The LLM server at {where} rejected the API key from {key_env} (HTTP {status}).")
    if status in (408, 409) or status >= 500:
        return ServerFailed(f"The LLM server at {where} failed with HTTP {status}{detail}.", retry_after_s=retry_after)
    refused = BadRequest if status in (400, 422) else Rejected
    return refused(f"The LLM server at {where} refused the request with HTTP {status}{detail}.")


def _refused(exc: BaseException) -> bool:
    """Whether a ConnectionRefusedError lies under `exc` (the SDKs wrap it in their transports' errors)."""
    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, ConnectionRefusedError):
        cause = cause.__cause__ or cause.__context__
    return cause is not None


def _cause(exc: Exception, secret: str | None) -> str:
    reason = " ".join(str(exc.__cause__ or "").split())[:160]
    return f" ({redact(reason, secret)})" if reason else ""


def _server_message(exc: Exception, secret: str | None) -> str:
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        message = body["error"].get("message")
    if not isinstance(message, str) or not message.strip():
        return ""
    return ": " + redact(" ".join(message.split())[:300], secret).rstrip(".")
