"""URL fetching against hostile servers and DNS, all on 127.0.0.1.

A resolver stub (`netaddr.system_resolver`) plays DNS: names that answer differently on each
lookup (rebinding), mixed public/private answers. To let a loopback server stand in for a public
one, `netaddr.is_public` is widened to 127.0.0.1 only; every other private address stays blocked.
"""

from __future__ import annotations

import gzip
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from pdfdesk.core import netaddr, remote
from pdfdesk.core.config import Config
from pdfdesk.core.errors import BLOCKED_ADDRESS, FETCH_FAILED, NOT_A_PDF, TOO_LARGE, PdfDeskError
from pdfdesk.core.references import resolve_reference

pytestmark = pytest.mark.network


class Hostile(BaseHTTPRequestHandler):
    pdf: bytes = b""
    hosts: ClassVar[list[str]] = []
    sent: ClassVar[dict[str, int]] = {}

    def log_message(self, *args):
        pass

    def _head(self, status: int = 200, ctype: str = "application/pdf", extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        Hostile.hosts.append(self.headers.get("Host", ""))
        route = self.path.split("?")[0]
        try:
            if route == "/doc.pdf":
                self._head(extra={"Content-Length": str(len(self.pdf))})
                self.wfile.write(self.pdf)
            elif route.startswith("/redirect/"):
                self._redirect(route[len("/redirect/"):].replace("__", "://", 1))
            elif route == "/trickle.pdf":  # a byte every 50 ms: never idle long enough for a read timeout
                self._head()
                self.wfile.write(b"%PDF-1.7\n")
                for _ in range(400):
                    self.wfile.write(b"0")
                    self.wfile.flush()
                    time.sleep(0.05)
            elif route == "/stall.pdf":
                self._head()
                self.wfile.write(b"%PDF-1.7\n")
                self.wfile.flush()
                time.sleep(6)
            elif route == "/endless.html":  # a web page that never ends, without a length
                self._head(ctype="text/html")
                sent = 0
                for _ in range(2000):
                    self.wfile.write(b"<p>" + b"x" * 4096 + b"</p>")
                    sent += 4103
                    Hostile.sent["endless"] = sent
            elif route == "/gzip-bomb.pdf":
                body = gzip.compress(b"%PDF-1.7\n" + b"0" * 60_000_000, 9)
                self._head(extra={"Content-Encoding": "gzip", "Content-Length": str(len(body))})
                self.wfile.write(body)
            elif route == "/video.pdf":
                self._head(ctype="video/mp4")
                self.wfile.write(b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 5000)
            else:
                self._head(404, "text/plain", {"Content-Length": "0"})
        except (BrokenPipeError, ConnectionResetError):  # the client gave up, as it should
            pass


@pytest.fixture(scope="module")
def port(text_pdf: Path):
    Hostile.pdf = text_pdf.read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_port
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def dns(monkeypatch):
    """name -> list of answers, one per lookup (the last repeats); records every lookup."""
    table: dict[str, list[list[str]]] = {}
    lookups: list[str] = []
    real = netaddr.system_resolver

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            return real(host, port)
        lookups.append(host)
        answers = table[host]
        return answers.pop(0) if len(answers) > 1 else answers[0]

    monkeypatch.setattr(netaddr, "system_resolver", resolve)
    return table, lookups


@pytest.fixture
def loopback_is_public(monkeypatch):
    real = netaddr.is_public
    monkeypatch.setattr(netaddr, "is_public", lambda address: address == "127.0.0.1" or real(address))


STRICT = Config(fetch_timeout_s=5.0)
PRIVATE_OK = Config(allow_private_addresses=True, fetch_timeout_s=5.0)


def code_of(url: str, config: Config) -> str | None:
    try:
        resolve_reference(url, config)
    except PdfDeskError as exc:
        return exc.code
    return None


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/x.pdf",
                                    "http://[::1]:{port}/doc.pdf", "http://127.0.0.2:{port}/doc.pdf",
                                    "http://[::ffff:192.168.0.1]/x.pdf", "http://0.0.0.0:{port}/doc.pdf",
                                    "http://2130706434:{port}/doc.pdf", "http://0x7f.2:{port}/doc.pdf"])
def test_redirects_to_private_targets_are_blocked(port, loopback_is_public, target):
    hop = target.format(port=port).replace("://", "__", 1)
    assert code_of(f"http://127.0.0.1:{port}/redirect/{hop}", STRICT) == BLOCKED_ADDRESS


def test_redirect_to_another_scheme_is_refused(port, loopback_is_public):
    assert code_of(f"http://127.0.0.1:{port}/redirect/file__/etc/passwd", STRICT) == "unsupported_pdf_reference"


@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "2002:7f00:1::1", "::ffff:10.0.0.1",
                                     "2001:0:4136:e378:8000:63bf:f5ff:fffe", "100.64.0.1", "198.18.0.1", "fd00::1",
                                     "ff02::1"])
def test_addresses_that_reach_private_hosts_are_not_public(address):
    assert not netaddr.is_public(address)


def test_rebinding_answers_cannot_move_the_connection(port, dns, loopback_is_public):
    """The name is resolved once per hop and the connection goes to that checked address; a
    second lookup (which would say 10.0.0.1) never happens."""
    table, lookups = dns
    table["files.example"] = [["127.0.0.1"], ["10.0.0.1"]]
    Hostile.hosts.clear()
    source = resolve_reference(f"http://files.example:{port}/doc.pdf", STRICT)
    assert source.data.startswith(b"%PDF") and source.url == f"http://files.example:{port}/doc.pdf"
    assert lookups == ["files.example"]
    assert Hostile.hosts == [f"files.example:{port}"]  # the server saw the name, not the address


def test_rebinding_on_a_redirect_hop_is_checked_again(port, dns, loopback_is_public):
    table, lookups = dns
    table["cdn.example"] = [["10.9.8.7"]]
    assert code_of(f"http://127.0.0.1:{port}/redirect/http__cdn.example:{port}/doc.pdf", STRICT) == BLOCKED_ADDRESS
    assert lookups == ["cdn.example"]


def test_any_private_answer_blocks_the_host(port, dns, loopback_is_public):
    table, _lookups = dns
    table["mixed.example"] = [["127.0.0.1", "192.168.1.20"]]
    assert code_of(f"http://mixed.example:{port}/doc.pdf", STRICT) == BLOCKED_ADDRESS


def test_allowed_private_fetches_are_pinned_too(port, dns):
    table, lookups = dns
    table["intranet.example"] = [["127.0.0.1"], ["127.0.0.3"]]  # nothing listens on .3
    assert resolve_reference(f"http://intranet.example:{port}/doc.pdf", PRIVATE_OK).data.startswith(b"%PDF")
    assert lookups == ["intranet.example"]


def test_a_trickling_body_is_cut_at_the_total_deadline(port):
    started = time.monotonic()
    assert code_of(f"http://127.0.0.1:{port}/trickle.pdf", PRIVATE_OK.replace(fetch_timeout_s=1.0)) == FETCH_FAILED
    assert time.monotonic() - started < 2.5


def test_a_stalled_body_is_cut_by_the_read_timeout(port):
    started = time.monotonic()
    assert code_of(f"http://127.0.0.1:{port}/stall.pdf", PRIVATE_OK.replace(fetch_timeout_s=2.0)) == FETCH_FAILED
    assert time.monotonic() - started < 3.5


def test_a_web_page_is_abandoned_at_its_first_kilobyte(port):
    Hostile.sent.clear()
    started = time.monotonic()
    assert code_of(f"http://127.0.0.1:{port}/endless.html", PRIVATE_OK.replace(max_download_mb=1000)) == NOT_A_PDF
    assert time.monotonic() - started < 2
    time.sleep(0.2)
    assert Hostile.sent.get("endless", 0) < 2_000 * 4103  # the client hung up long before the end


def test_wrong_content_with_a_pdf_name_is_not_a_pdf(port):
    assert code_of(f"http://127.0.0.1:{port}/video.pdf", PRIVATE_OK) == NOT_A_PDF


def test_a_compression_bomb_stops_at_the_download_cap(port):
    started = time.monotonic()
    assert code_of(f"http://127.0.0.1:{port}/gzip-bomb.pdf", PRIVATE_OK.replace(max_download_mb=5)) == TOO_LARGE
    assert time.monotonic() - started < 5


# -- the address the connection uses, in every spelling ---------------------------------------------------
@pytest.fixture
def no_dns(monkeypatch):
    """Any lookup fails the test: these hosts are addresses, and a resolver must never see them."""
    def refuse(host: str, port: int) -> list[str]:
        raise AssertionError(f"DNS lookup of {host!r}")

    monkeypatch.setattr(netaddr, "system_resolver", refuse)


@pytest.mark.parametrize("host", [
    "2130706433", "0x7f000001", "0x7f.1", "0X7F.0.0.1", "0177.0.0.1", "017700000001", "127.1", "127.0.1",
    "127.0.0.1.", "0", "0x0", "0xa.1", "3232235777", "0xe0000001", "4294967295",
    "[::127.0.0.1]", "[::7f00:1]", "[::1.2.3.4]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::ffff:0:7f00:1]",
    "[64:ff9b::7f00:1]", "[64:ff9b::10.0.0.1]", "[64:ff9b:1::a00:1]", "[2002:7f00:1::1]", "[2002:a9fe:a9fe::]",
    "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[::]", "[::1]", "[fe80::1]", "[fec0::1]", "[ff0e::1]",
])
def test_disguised_private_addresses_are_blocked_without_dns(host, no_dns):
    assert code_of(f"http://{host}:8/x.pdf", STRICT) == BLOCKED_ADDRESS


@pytest.mark.parametrize(("host", "address"), [
    ("134744072", "8.8.8.8"), ("0x8.0x8.0x8.0x8", "8.8.8.8"), ("010.8.8.8", "8.8.8.8"), ("8.8.2056", "8.8.8.8"),
    ("::ffff:8.8.8.8", "::ffff:808:808"), ("2002:808:808::1", "2002:808:808::1"),
    ("64:ff9b::8.8.8.8", "64:ff9b::808:808"),
])
def test_public_addresses_in_any_spelling_pass_as_that_address(host, address, no_dns):
    assert remote.check_host(host, 443) == [address]


@pytest.mark.parametrize("host", ["1.2.3.999", "0x1.0x100.1.1", "09.1.1.1", "1.2.3.4.5", "1.2.0xzz"])
def test_numeric_hosts_that_are_no_address_are_refused_without_dns(host, no_dns):
    assert code_of(f"http://{host}/x.pdf", STRICT) == FETCH_FAILED


@pytest.mark.parametrize("spelling", ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0x7f000001"])
def test_an_allowed_private_fetch_connects_to_the_address_it_checked(port, spelling):
    Hostile.hosts.clear()
    source = resolve_reference(f"http://{spelling}:{port}/doc.pdf", PRIVATE_OK)
    assert source.data.startswith(b"%PDF")
    assert Hostile.hosts == [f"127.0.0.1:{port}"]  # the canonical address, the one connected to


@pytest.mark.parametrize("answer", ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.31.0.1", "192.168.0.10",
                                    "169.254.169.254", "100.64.1.1", "0.0.0.0", "224.0.0.251", "239.255.255.250",
                                    "255.255.255.255", "::1", "::", "fe80::1%2", "fd12::1", "ff02::fb",
                                    "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe"])
def test_names_resolving_to_non_public_addresses_are_blocked_before_connecting(port, answer):
    lookups: list[str] = []

    def resolver(host: str, resolver_port: int) -> list[str]:
        lookups.append(host)
        return ["93.184.216.34", answer]  # one public answer does not excuse a private one

    Hostile.hosts.clear()
    with pytest.raises(PdfDeskError) as err:
        remote.fetch_pdf(f"http://docs.example:{port}/doc.pdf", STRICT, resolver=resolver)
    assert err.value.code == BLOCKED_ADDRESS and answer in err.value.message
    assert lookups == ["docs.example"] and Hostile.hosts == []


def test_an_injected_resolver_is_the_only_lookup_and_its_answer_is_used(port):
    lookups: list[str] = []

    def resolver(host: str, resolver_port: int) -> list[str]:
        lookups.append(f"{host}:{resolver_port}")
        return ["127.0.0.1"]

    Hostile.hosts.clear()
    data, final = remote.fetch_pdf(f"http://Docs.Example:{port}/doc.pdf", PRIVATE_OK, resolver=resolver)
    assert data.startswith(b"%PDF") and final == f"http://Docs.Example:{port}/doc.pdf"
    assert lookups == [f"docs.example:{port}"] and Hostile.hosts == [f"docs.example:{port}"]


@pytest.mark.parametrize("target", ["http://0177.0.0.2:{port}/doc.pdf", "http://[::127.0.0.2]:{port}/doc.pdf",
                                    "http://[::ffff:7f00:2]:{port}/doc.pdf", "http://[64:ff9b::a00:1]/x.pdf",
                                    "http://127.2:{port}/doc.pdf", "http://2130706434:{port}/doc.pdf"])
def test_redirects_to_disguised_private_targets_are_blocked(port, loopback_is_public, target):
    hop = target.format(port=port).replace("://", "__", 1)
    assert code_of(f"http://127.0.0.1:{port}/redirect/{hop}", STRICT) == BLOCKED_ADDRESS


def test_credentials_in_a_url_are_not_sent(port):
    Hostile.hosts.clear()
    assert resolve_reference(f"http://user:secret@127.0.0.1:{port}/doc.pdf", PRIVATE_OK).data.startswith(b"%PDF")
    assert Hostile.hosts == [f"127.0.0.1:{port}"]


@pytest.mark.parametrize("url", ["http://127.0.0.1:99999/x.pdf", "http://exa mple.com/x.pdf"])
def test_malformed_urls_are_coded_errors(url, no_dns):
    assert code_of(url, PRIVATE_OK) in ("unsupported_pdf_reference", FETCH_FAILED)
