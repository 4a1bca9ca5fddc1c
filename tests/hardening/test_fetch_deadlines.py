"""Every URL fetch ends within its time budget, whatever the server does: raw TCP servers on
127.0.0.1 that trickle, stall, never answer, never accept, or redirect slowly."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Callable

import pytest

from pdfdesk.core import remote
from pdfdesk.core.config import Config
from pdfdesk.core.errors import FETCH_FAILED, PdfDeskError
from pdfdesk.core.pinned_http import Budget

pytestmark = pytest.mark.network

T = 1.0  # fetch_timeout_s in these tests
FAST = Config(allow_private_addresses=True, fetch_timeout_s=T, max_redirects=10)
SLACK = 0.6  # scheduling and teardown on a busy CI machine


class RawServer:
    """A TCP server on 127.0.0.1 that runs `behaviour(connection, server)` for each connection."""

    def __init__(self, behaviour: Callable[[socket.socket, RawServer], None]) -> None:
        self.behaviour = behaviour
        self.stop = threading.Event()
        self.connections = 0
        self.received: list[bytes] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            try:
                self.behaviour(conn, self)
            except OSError:  # the client gave up, as it should
                pass

    def request(self, conn: socket.socket) -> bytes:
        data = b""
        conn.settimeout(5)
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        self.received.append(data)
        return data

    def drip(self, conn: socket.socket, byte: bytes, every: float) -> None:
        """`byte` every `every` seconds until the client hangs up or the test ends."""
        while not self.stop.wait(every):
            conn.sendall(byte)

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


@pytest.fixture
def serve():
    servers: list[RawServer] = []

    def start(behaviour: Callable[[socket.socket, RawServer], None]) -> RawServer:
        servers.append(RawServer(behaviour))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def failure(url: str, config: Config = FAST, **kwargs) -> tuple[PdfDeskError, float]:
    started = time.monotonic()
    with pytest.raises(PdfDeskError) as err:
        remote.fetch_pdf(url, config, **kwargs)
    return err.value, time.monotonic() - started


def trickled_headers(conn: socket.socket, server: RawServer, every: float = 0.05) -> None:
    server.request(conn)
    conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
    server.drip(conn, b"a", every)


def test_headers_trickled_a_byte_a_second_end_at_the_total_budget(serve):
    """Each byte comes long before any read timeout; only the total budget can end this."""
    server = serve(lambda conn, srv: trickled_headers(conn, srv, every=1.0))
    config = FAST.replace(fetch_timeout_s=2.0)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf", config)
    assert error.code == FETCH_FAILED and error.extra["limit"] == "total" and "within 2 s" in error.message
    assert 1.9 < elapsed < 2.0 + SLACK


def test_fast_trickled_headers_end_at_the_total_budget(serve):
    server = serve(trickled_headers)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.code == FETCH_FAILED and error.extra["limit"] == "total"
    assert T - 0.1 < elapsed < T + SLACK


def test_headers_have_a_deadline_of_their_own(serve, monkeypatch):
    monkeypatch.setattr(remote, "fetch_budget", lambda config: Budget(total_s=5, connect_s=1, headers_s=0.5, stall_s=1))
    server = serve(trickled_headers)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.code == FETCH_FAILED and error.extra["limit"] == "headers"
    assert "response headers within 0.5 s" in error.message
    assert 0.4 < elapsed < 0.5 + SLACK


def test_a_trickled_body_ends_at_the_total_budget(serve):
    def body(conn: socket.socket, server: RawServer) -> None:
        server.request(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n%PDF-1.7\n")
        server.drip(conn, b"0", 0.05)

    server = serve(body)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.code == FETCH_FAILED and error.extra["limit"] == "total"
    assert T - 0.1 < elapsed < T + SLACK


def never_answers(conn: socket.socket, server: RawServer) -> None:
    server.request(conn)
    server.stop.wait(30)


def test_a_server_that_accepts_and_never_answers(serve):
    server = serve(never_answers)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.code == FETCH_FAILED and error.extra["timeout_s"] == T
    assert T - 0.1 < elapsed < T + SLACK
    assert server.received and server.received[0].startswith(b"GET /a.pdf HTTP/1.1")


def test_silence_is_cut_before_the_total_budget(serve, monkeypatch):
    monkeypatch.setattr(remote, "fetch_budget", lambda config: Budget(total_s=5, connect_s=1, headers_s=3, stall_s=0.4))
    server = serve(never_answers)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.extra["limit"] == "stall" and "sent nothing for 0.4 s" in error.message
    assert elapsed < 0.4 + SLACK


@pytest.mark.skipif(sys.platform != "linux", reason="relies on Linux dropping SYNs to a full accept queue")
def test_a_server_that_never_accepts_the_connection():
    listener = socket.create_server(("127.0.0.1", 0), backlog=0)
    filler = socket.create_connection(listener.getsockname(), timeout=1)  # fills the accept queue
    try:
        error, elapsed = failure(f"http://127.0.0.1:{listener.getsockname()[1]}/a.pdf")
        assert error.code == FETCH_FAILED and error.extra["limit"] in ("connect", "total")
        assert T - 0.1 < elapsed < T + SLACK
    finally:
        filler.close()
        listener.close()


def test_a_slow_redirect_chain_shares_one_budget(serve):
    """Each hop answers in 0.3 s, far inside every per-hop limit; together they overrun."""
    def hop(conn: socket.socket, server: RawServer) -> None:
        server.request(conn)
        if not server.stop.wait(0.3):
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: /next.pdf\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    server = serve(hop)
    error, elapsed = failure(f"http://127.0.0.1:{server.port}/a.pdf")
    assert error.code == FETCH_FAILED and error.extra["limit"] == "total" and "within 1 s" in error.message
    assert T - 0.1 < elapsed < T + SLACK
    assert len(server.received) >= 3 and server.received[-1].startswith(b"GET /next.pdf")


def test_a_resolver_that_never_answers_is_inside_the_budget():
    def stuck(host: str, port: int) -> list[str]:
        time.sleep(5)
        return ["127.0.0.1"]

    error, elapsed = failure("http://slow-dns.example/a.pdf", resolver=stuck)
    assert error.code == FETCH_FAILED and error.extra["limit"] == "total"
    assert elapsed < T + SLACK


def test_https_sends_the_name_for_sni_and_connects_to_the_checked_address(serve):
    def hello(conn: socket.socket, server: RawServer) -> None:
        conn.settimeout(5)
        server.received.append(conn.recv(4096))  # the TLS ClientHello, then hang up

    server = serve(hello)
    lookups: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"]

    error, _elapsed = failure(f"https://docs.example:{server.port}/a.pdf", resolver=resolver)
    assert error.code == FETCH_FAILED
    assert lookups == ["docs.example"]
    assert server.received and server.received[0][:1] == b"\x16"  # a TLS handshake record
    assert b"docs.example" in server.received[0]  # server_name extension: the name, not 127.0.0.1
