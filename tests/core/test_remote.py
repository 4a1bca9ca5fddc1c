"""URL fetches against a real HTTP server on 127.0.0.1."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.errors import (
    BLOCKED_ADDRESS, FETCH_FAILED, NOT_A_PDF, REMOTE_DISABLED, TOO_LARGE, PdfDeskError,
)
from pdfdesk.core.references import resolve_reference
from pdfdesk.core.remote import check_host
from pdfdesk.tools import call_tool

pytestmark = pytest.mark.network

LOCAL = Config(allow_private_addresses=True, fetch_timeout_s=2.0)


class Handler(BaseHTTPRequestHandler):
    pdf: bytes = b""

    def log_message(self, *args):  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, ctype: str = "application/pdf", length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        route = self.path.split("?")[0]
        if route == "/doc.pdf":
            self._send(200, self.pdf)
        elif route == "/junk-first.pdf":
            self._send(200, b"\xef\xbb\xbf junk before header\n" + self.pdf)
        elif route == "/page.html":
            self._send(200, b"<html><body>Not a PDF</body></html>", "text/html")
        elif route == "/mislabelled":
            self._send(200, self.pdf, "text/plain")  # wrong content type, right bytes
        elif route == "/missing.pdf":
            self._send(404, b"gone", "text/plain")
        elif route == "/error.pdf":
            self._send(500, b"boom", "text/plain")
        elif route == "/big.pdf":
            self._send(200, b"%PDF-1.7\n" + b"0" * 3_000_000)
        elif route == "/big-unannounced.pdf":
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.end_headers()
            self.wfile.write(b"%PDF-1.7\n")
            for _ in range(40):
                self.wfile.write(b"0" * 100_000)
        elif route == "/slow.pdf":
            time.sleep(4)
            self._send(200, self.pdf)
        elif route.startswith("/hop/"):
            remaining = int(route.rsplit("/", 1)[1])
            self.send_response(302)
            self.send_header("Location", f"/hop/{remaining - 1}" if remaining > 1 else "/doc.pdf")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif route == "/to-loopback":
            self.send_response(301)
            self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/doc.pdf")
            self.end_headers()
        else:
            self._send(404, b"", "text/plain")


@pytest.fixture(scope="module")
def server(text_pdf: Path):
    Handler.pdf = text_pdf.read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


def fetch_code(url: str, config: Config = LOCAL) -> str:
    with pytest.raises(PdfDeskError) as err:
        resolve_reference(url, config)
    return err.value.code


def test_fetches_a_pdf(server, text_pdf):
    source = resolve_reference(f"{server}/doc.pdf", LOCAL)
    assert source.data == text_pdf.read_bytes()
    assert source.name == "doc.pdf" and source.url == f"{server}/doc.pdf" and source.path is None


def test_tools_work_on_urls(server):
    set_config(LOCAL)
    result = call_tool("pdf_extract_text", {"path": f"{server}/doc.pdf", "pages": "2"})
    assert not result.is_error, result.text
    assert "Page 2 says hello" in result.text
    assert result.details["file"] == f"{server}/doc.pdf"


def test_header_after_junk_and_wrong_content_type_are_accepted(server):
    assert resolve_reference(f"{server}/junk-first.pdf", LOCAL).data.startswith(b"\xef\xbb\xbf")
    assert resolve_reference(f"{server}/mislabelled", LOCAL).data.startswith(b"%PDF")


def test_html_is_not_a_pdf(server):
    with pytest.raises(PdfDeskError) as err:
        resolve_reference(f"{server}/page.html", LOCAL)
    assert err.value.code == NOT_A_PDF and "text/html" in err.value.message


def test_http_errors_are_fetch_failed(server):
    assert fetch_code(f"{server}/missing.pdf") == FETCH_FAILED
    assert fetch_code(f"{server}/error.pdf") == FETCH_FAILED


def test_size_cap_by_header_and_by_stream(server):
    small = LOCAL.replace(max_download_mb=1)
    assert fetch_code(f"{server}/big.pdf", small) == TOO_LARGE
    assert fetch_code(f"{server}/big-unannounced.pdf", small) == TOO_LARGE
    assert len(resolve_reference(f"{server}/big-unannounced.pdf", LOCAL).data) == 4_000_009


def test_redirects_up_to_three_are_followed(server, text_pdf):
    assert resolve_reference(f"{server}/hop/3", LOCAL).data == text_pdf.read_bytes()
    with pytest.raises(PdfDeskError) as err:
        resolve_reference(f"{server}/hop/4", LOCAL)
    assert err.value.code == FETCH_FAILED and "redirected more than 3" in err.value.message


def test_timeout_is_fetch_failed(server):
    started = time.monotonic()
    assert fetch_code(f"{server}/slow.pdf", LOCAL.replace(fetch_timeout_s=0.5)) == FETCH_FAILED
    assert time.monotonic() - started < 3


def test_unreachable_host_is_fetch_failed():
    # port 9 on loopback: nothing listens there, the connection is refused at once
    assert fetch_code("http://127.0.0.1:9/x.pdf") == FETCH_FAILED


def test_loopback_is_blocked_unless_allowed(server):
    strict = Config()
    assert fetch_code(f"{server}/doc.pdf", strict) == BLOCKED_ADDRESS
    assert fetch_code(server.replace("127.0.0.1", "localhost") + "/doc.pdf", strict) == BLOCKED_ADDRESS


def test_redirect_to_loopback_is_checked_at_every_hop(server, monkeypatch):
    # The first check lets the loopback server pass as public, so only the redirect's check can refuse.
    from pdfdesk.core import netaddr

    checked: list[str] = []

    def public_once(address: str) -> bool:
        checked.append(address)
        return len(checked) == 1

    monkeypatch.setattr(netaddr, "is_public", public_once)
    assert fetch_code(f"{server}/to-loopback", Config()) == BLOCKED_ADDRESS
    assert checked == ["127.0.0.1", "127.0.0.1"]


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.5", "192.168.1.1", "169.254.169.254",
                                     "::1", "fe80::1", "fc00::1", "0.0.0.0", "::ffff:127.0.0.1", "224.0.0.1",
                                     "::127.0.0.1", "2130706433", "0x7f.1", "0177.0.0.1", "127.1"])
def test_non_public_addresses_are_blocked(address):
    with pytest.raises(PdfDeskError) as err:
        check_host(address, 80)
    assert err.value.code == BLOCKED_ADDRESS


def test_public_address_passes():
    check_host("8.8.8.8", 443)  # a literal address: no DNS lookup, no connection


def test_sandbox_rejects_urls(server):
    assert fetch_code(f"{server}/doc.pdf", LOCAL.replace(allow_remote=False)) == REMOTE_DISABLED
