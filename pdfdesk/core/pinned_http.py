"""An httpx transport that connects only to checked addresses and keeps every socket wait inside
one fetch's time budget.

Socket timeouts alone bound each wait, not the sum: a server that sends its headers or body one
byte at a time, each just before the read timeout, keeps a request alive for hours. Here every
connect, TLS handshake, read and write is given the least of its own limit, the time left for the
response headers and the time left for the whole fetch, so the fetch ends when its budget does.

The URL keeps its host name, so the Host header, TLS SNI and the certificate check all use the
name; only the TCP connection is made to an address the caller resolved and checked (`pin`). A
host nobody pinned is never connected to, so no second DNS lookup can happen behind the check.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpcore
import httpx

CONNECT, HEADERS, STALL, TOTAL = "connect", "headers", "stall", "total"
T = TypeVar("T")


@dataclass
class Budget:
    """The time limits of one fetch, shared by all its redirect hops; the total runs from the
    moment the budget is made. `tripped` names the limit that ran out (CONNECT, HEADERS, STALL or
    TOTAL) once one has."""

    total_s: float
    connect_s: float
    headers_s: float
    stall_s: float
    tripped: str | None = None

    def __post_init__(self) -> None:
        self.ends = time.monotonic() + self.total_s
        self.headers_end: float | None = None

    def remaining(self) -> float:
        return self.ends - time.monotonic()

    def limit(self, own: str) -> tuple[float, str]:
        """Seconds the next wait may take, and which limit that is."""
        now = time.monotonic()
        choices = [(self.connect_s if own == CONNECT else self.stall_s, own), (self.ends - now, TOTAL)]
        if self.headers_end is not None and own != CONNECT:
            choices.append((self.headers_end - now, HEADERS))
        return min(choices)


class _BudgetStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, budget: Budget) -> None:
        self._inner = inner
        self._budget = budget

    def _bounded(self, kind: type[httpcore.TimeoutException], call: Callable[..., T], *args: Any) -> T:
        seconds, which = self._budget.limit(STALL)
        if seconds <= 0:
            self._budget.tripped = which
            raise kind(f"{which} time limit reached")
        try:
            return call(*args, timeout=seconds)
        except httpcore.TimeoutException:
            self._budget.tripped = which
            raise

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._bounded(httpcore.ReadTimeout, self._inner.read, max_bytes)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._bounded(httpcore.WriteTimeout, self._inner.write, buffer)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        inner = self._bounded(httpcore.ConnectTimeout, self._inner.start_tls, ssl_context, server_hostname)
        return _BudgetStream(inner, self._budget)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _PinnedBackend(httpcore.NetworkBackend):
    """TCP connections to pinned addresses only, each stream on the fetch's budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.pins: dict[tuple[str, int], list[str]] = {}
        self._system = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        addresses = self.pins.get((host.lower(), port))
        if not addresses:
            raise httpcore.ConnectError(f"{host}:{port} was not checked before connecting")
        for position, address in enumerate(addresses):
            seconds, which = self.budget.limit(CONNECT)
            if seconds <= 0:
                self.budget.tripped = which
                raise httpcore.ConnectTimeout(f"{which} time limit reached")
            try:
                stream = self._system.connect_tcp(address, port, timeout=seconds, socket_options=socket_options)
                return _BudgetStream(stream, self.budget)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                if position == len(addresses) - 1:
                    if isinstance(exc, httpcore.ConnectTimeout):
                        self.budget.tripped = which
                    raise
        raise AssertionError("unreachable: at least one address was pinned")


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, response: httpcore.Response, request: httpx.Request) -> None:
        self._response = response
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        with _httpx_errors(self._request):
            yield from self._response.iter_stream()

    def close(self) -> None:
        self._response.close()


@contextmanager
def _httpx_errors(request: httpx.Request) -> Iterator[None]:
    """httpcore's exceptions as httpx's, so callers handle one family."""
    try:
        yield
    except httpcore.TimeoutException as exc:
        raise httpx.TimeoutException(str(exc) or type(exc).__name__, request=request) from exc
    except httpcore.ConnectError as exc:
        raise httpx.ConnectError(str(exc) or type(exc).__name__, request=request) from exc
    except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol) as exc:
        raise httpx.TransportError(str(exc) or type(exc).__name__, request=request) from exc


class PinnedTransport(httpx.BaseTransport):
    """HTTP/1.1 with TLS verification, connections only to `pin`ned addresses, waits on `budget`."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._backend = _PinnedBackend(budget)
        self._pool = httpcore.ConnectionPool(ssl_context=httpx.create_ssl_context(), network_backend=self._backend,
                                             retries=0)

    def pin(self, host: str, port: int, addresses: list[str]) -> None:
        """Let connections to `host:port` (as the URL spells it) go to these checked addresses."""
        self._backend.pins[(host.lower(), port)] = list(addresses)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        port = url.port or (443 if url.scheme == "https" else 80)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=port, target=url.raw_path),
            headers=request.headers.raw, content=request.stream, extensions=request.extensions,
        )
        self.budget.headers_end = time.monotonic() + self.budget.headers_s
        try:
            with _httpx_errors(request):
                response = self._pool.handle_request(core_request)
        finally:
            self.budget.headers_end = None
        return httpx.Response(status_code=response.status, headers=response.headers,
                              stream=_ResponseStream(response, request), extensions=response.extensions)

    def close(self) -> None:
        self._pool.close()
