"""The one small interface every model provider implements, and the pieces they share.

A conversation is kept in provider-neutral `Message`s; each provider translates them to its own
wire format, streams a turn back as `StreamText` pieces and one `StreamEnd` (tool calls and stop
reason), and maps its failures to `ProviderError` so retries, fallbacks and messages are uniform.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pdfdesk.core.redact import redact


@dataclass(frozen=True)
class TextPart:
    text: str


@dataclass(frozen=True)
class ImagePart:
    data: str                       # base64
    mime_type: str = "image/png"


@dataclass(frozen=True)
class PdfPart:
    data: str                       # base64 of a whole (sub-)PDF
    name: str = "document.pdf"


Part = TextPart | ImagePart | PdfPart


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)   # provider data to echo back (Gemini thought signatures)


@dataclass
class ToolOutput:
    call_id: str
    name: str
    text: str
    images: list[str] = field(default_factory=list)        # base64 PNGs
    is_error: bool = False


@dataclass
class Message:
    """One conversation entry: a user's parts, an assistant's text and tool calls, or tool outputs."""

    role: Literal["user", "assistant", "tool"]
    parts: list[Part] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_outputs: list[ToolOutput] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @classmethod
    def user(cls, *parts: Part | str) -> Message:
        return cls("user", [TextPart(p) if isinstance(p, str) else p for p in parts])


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    schema: dict[str, Any]


@dataclass
class ChatRequest:
    model: str
    messages: list[Message]
    system: str = ""
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 4096


@dataclass(frozen=True)
class StreamText:
    text: str


@dataclass(frozen=True)
class StreamEnd:
    tool_calls: list[ToolCall]
    stop_reason: str                # "end", "tool_calls", "max_tokens" or the provider's own word


StreamEvent = StreamText | StreamEnd

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})


class ProviderError(Exception):
    """A model request failed; `message` is safe to show (keys redacted)."""

    def __init__(self, message: str, *, status: int | None = None, kind: str = "error",
                 retryable: bool = False, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.kind = kind                # error, timeout, connection, auth, no_key, unsupported
        self.retryable = retryable
        self.retry_after = retry_after
        self.retries = 0

    def describe(self) -> str:
        return f"HTTP {self.status}: {self.message}" if self.status else self.message


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Retry-After (seconds or an HTTP date) or retry-after-ms, when the server sent one."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def body_message(body: object, fallback: str) -> str:
    """The human part of an error body ({"error": {"message": ...}} in every provider's dialect)."""
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str) and error["message"]:
            return error["message"]
    return fallback


def status_error(status: int, message: str, headers: Mapping[str, str] | None, *secrets: str | None) -> ProviderError:
    kind = "auth" if status in (401, 403) else "error"
    return ProviderError(redact(message, *secrets)[:500], status=status, kind=kind,
                         retryable=status in RETRYABLE_STATUS, retry_after=retry_after_seconds(headers))


class Provider(ABC):
    """Streams chat turns with tools and makes one-shot calls; retries transient failures.

    The class attributes are what pdfdesk knows about a provider before talking to it; the model
    catalog, the key lookup and the settings dialog all read them from here."""

    display_name: ClassVar[str] = "OpenAI-compatible server"
    reads_pdf: ClassVar[bool] = False            # takes a PDF itself as input (else: text and page images)
    reads_images: ClassVar[bool] = False         # takes images unless [providers.NAME] images says otherwise
    default_base_url: ClassVar[str | None] = None  # None: the SDK's own endpoint
    key_env_vars: ClassVar[tuple[str, ...]] = ()   # the environment variables that hold its key, first wins
    needs_key: ClassVar[bool] = False            # a cloud service refuses requests without a key

    retry_base_s = 0.5              # first backoff; doubled per retry, with jitter
    retry_cap_s = 8.0               # longest backoff we choose ourselves
    retry_after_cap_s = 30.0        # longest Retry-After we honour before giving up the wait

    def __init__(self, provider: str, api_key: str | None, base_url: str | None,
                 timeout_s: float = 120.0, max_retries: int = 2, images: bool = True) -> None:
        self.provider = provider
        self.api_key = api_key
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.images = images

    # -- what each provider implements -------------------------------------------------------
    @abstractmethod
    def _stream_once(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        """One streamed request, no retries."""

    @abstractmethod
    async def _complete_once(self, request: ChatRequest) -> str:
        """One non-streamed request (the `pdf` tool), no retries; returns the answer text."""

    async def aclose(self) -> None:  # noqa: B027 - a provider without an HTTP client has nothing to release
        """Release the HTTP client."""

    # -- shared behaviour --------------------------------------------------------------------
    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.retry_after_cap_s)
        return min(self.retry_cap_s, self.retry_base_s * (2 ** attempt)) * random.uniform(0.8, 1.2)

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        """A streamed turn; retried while nothing has been streamed yet."""
        attempt = 0
        while True:
            started = False
            try:
                async for event in self._stream_once(request):
                    started = True
                    yield event
                return
            except ProviderError as exc:
                if started or not exc.retryable or attempt >= self.max_retries:
                    exc.retries = attempt
                    raise
                delay = self._backoff(attempt, exc.retry_after)
            attempt += 1
            await asyncio.sleep(delay)

    async def complete(self, request: ChatRequest) -> str:
        """A one-shot answer, retried on 429/5xx and connection failures."""
        attempt = 0
        while True:
            try:
                return await self._complete_once(request)
            except ProviderError as exc:
                if not exc.retryable or attempt >= self.max_retries:
                    exc.retries = attempt
                    raise
                delay = self._backoff(attempt, exc.retry_after)
            attempt += 1
            await asyncio.sleep(delay)

    async def __aenter__(self) -> Provider:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


IMAGES_NOTE = "Images returned by the tool calls above (page renders), in order:"
NO_IMAGES_NOTE = " [{n} image(s) omitted: this model takes no images]"
