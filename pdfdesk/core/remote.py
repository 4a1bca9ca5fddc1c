"""Fetch a PDF over http(s) with the limits a desktop app needs when handed a hostile link.

Redirects are followed by hand (at most `max_redirects`) so every hop's host is resolved once and
refused when any of its addresses is loopback, private, link-local or otherwise not public
(`blocked_address`), unless the config allows private addresses. The connection then goes to the
address that was checked (Host header and TLS SNI keep the name), so a DNS answer that changes
between check and connect cannot reach a private host. The body is streamed with a byte cap and a
total deadline (a server trickling bytes cannot hold the call open), must start like a PDF, and
is abandoned at its first KiB when it does not. Proxy variables are ignored (trust_env=False): a
proxy would resolve names itself, after the check.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from urllib.parse import urljoin, urlsplit

import httpx

from pdfdesk.core.config import Config
from pdfdesk.core.errors import (
    BLOCKED_ADDRESS, FETCH_FAILED, NOT_A_PDF, REMOTE_DISABLED, TOO_LARGE,
    UNSUPPORTED_PDF_REFERENCE, PdfDeskError,
)

PDF_MAGIC_WINDOW = 1024  # the header may follow up to 1 KiB of junk (PDF 32000 annex H)


def looks_like_pdf(head: bytes) -> bool:
    """True when the first KiB holds the %PDF header."""
    return b"%PDF" in head[:PDF_MAGIC_WINDOW]


_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _is_public(address: str) -> bool:
    """A globally routable unicast address, also for the IPv4 address inside an IPv6 one
    (v4-mapped, 6to4, Teredo, NAT64): those reach the embedded IPv4 host."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if ip in _NAT64:
            embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if any(v4 is not None and not _is_public(str(v4)) for v4 in embedded):
            return False
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve_addresses(host: str, port: int) -> list[str]:
    """Every address `host` resolves to, in the resolver's order (tests replace this to play DNS)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def check_host(host: str, port: int) -> list[str]:
    """Resolve `host` once and return its addresses; blocked_address if any is not public.

    The fetch connects to these very addresses (the name is not resolved again), so a DNS answer
    that changes between this check and the connection (rebinding) cannot redirect it."""
    return resolve_checked(host, port, allow_private=False)


def resolve_checked(host: str, port: int, allow_private: bool) -> list[str]:
    """`check_host`, or with `allow_private` only the resolution (still pinned)."""
    try:
        addresses = resolve_addresses(host, port)
    except (OSError, UnicodeError) as exc:
        raise PdfDeskError(
            FETCH_FAILED, f"Could not resolve the host {host!r}: {exc}.",
            "Check the address and your network connection.",
        ) from None
    if not addresses:
        raise PdfDeskError(FETCH_FAILED, f"The host {host!r} has no address.", "Check the address.")
    for address in addresses:
        if not allow_private and not _is_public(address):
            raise PdfDeskError(
                BLOCKED_ADDRESS,
                f"{host} resolves to {address}, a loopback, private or link-local address.",
                "pdfdesk does not fetch from local networks. Download the file and open it from disk, "
                "or allow private addresses in settings if you trust this host.",
            )
    return addresses


def _cap_error(url: str, cap: int) -> PdfDeskError:
    return PdfDeskError(
        TOO_LARGE, f"{url} is larger than the download limit of {cap / 1048576:.0f} MB.",
        "Download it yourself and open the local file, or raise the download limit in settings.",
        limit_bytes=cap,
    )


def _timed_out(url: str, config: Config) -> PdfDeskError:
    return PdfDeskError(
        FETCH_FAILED, f"Fetching {url} did not finish within {config.fetch_timeout_s:g} s.",
        "The server is slow or sends the file very slowly; try again later or download it yourself.",
    )


def _not_a_pdf(url: str, ctype: str) -> PdfDeskError:
    return PdfDeskError(
        NOT_A_PDF, f"{url} did not return a PDF (content type {ctype}).",
        "Use the direct link to the PDF file rather than to a web page about it.",
    )


def _pinned_request(client: httpx.Client, url: str, address: str, timeout: httpx.Timeout) -> httpx.Request:
    """A GET of `url` sent to `address`, with the URL's host in the Host header and TLS SNI (and
    certificate check), so the connection goes where the address check said it would."""
    parts = httpx.URL(url)
    host_header = parts.host if parts.port is None else f"{parts.host}:{parts.port}"
    extensions: dict[str, object] = {"timeout": timeout.as_dict()}
    if parts.scheme == "https":
        extensions["sni_hostname"] = parts.host
    return client.build_request(
        "GET", parts.copy_with(host=address, username=None, password=None),
        headers={"Host": host_header, "Accept": "application/pdf, */*;q=0.5", "Accept-Encoding": "identity"},
        extensions=extensions,
    )


def _hop_timeout(config: Config, deadline: float) -> httpx.Timeout:
    """Per-hop socket timeouts inside the total deadline: no single stall may use more than a
    quarter of the budget (at least 2 s), so a fetch ends within 1.25 x timeoutSeconds."""
    remaining = max(0.05, deadline - time.monotonic())
    stall = min(remaining, max(2.0, config.fetch_timeout_s / 4))
    return httpx.Timeout(stall, connect=min(10.0, remaining))


def fetch_pdf(url: str, config: Config) -> tuple[bytes, str]:
    """Download `url`; returns the PDF bytes and the final URL after redirects."""
    if not config.allow_remote:
        raise PdfDeskError(
            REMOTE_DISABLED, f"Fetching URLs is turned off, so {url} was not downloaded.",
            "Download the file and open it from disk, or turn off the sandbox in settings.",
        )
    cap = config.max_download_bytes
    deadline = time.monotonic() + config.fetch_timeout_s
    current = url
    try:
        with httpx.Client(follow_redirects=False, trust_env=False) as client:
            for _hop in range(config.max_redirects + 1):
                parts = urlsplit(current)
                if parts.scheme not in ("http", "https") or not parts.hostname:
                    raise PdfDeskError(
                        UNSUPPORTED_PDF_REFERENCE, f"{current} is not an http(s) URL.",
                        "Use an http:// or https:// link, or a local path.",
                    )
                if time.monotonic() >= deadline:
                    raise _timed_out(current, config)
                port = parts.port or (443 if parts.scheme == "https" else 80)
                addresses = (resolve_checked(parts.hostname, port, allow_private=True)
                             if config.allow_private_addresses else check_host(parts.hostname, port))
                resp = _send_pinned(client, current, addresses or [parts.hostname], _hop_timeout(config, deadline))
                try:
                    if resp.is_redirect and "location" in resp.headers:
                        current = urljoin(current, resp.headers["location"])
                        continue
                    return _read_body(resp, current, cap, deadline, config), current
                finally:
                    resp.close()
    except httpx.TimeoutException:
        raise _timed_out(current, config) from None
    except httpx.HTTPError as exc:
        raise PdfDeskError(
            FETCH_FAILED, f"Fetching {current} failed: {exc}.",
            "Check the address and your network connection.",
        ) from None
    raise PdfDeskError(
        FETCH_FAILED, f"{url} redirected more than {config.max_redirects} times.",
        "Use the final address of the PDF directly.",
    )


def _send_pinned(client: httpx.Client, url: str, addresses: list[str], timeout: httpx.Timeout) -> httpx.Response:
    """Connect to the checked addresses in turn (the next one only when a connection is refused)."""
    for position, address in enumerate(addresses):
        try:
            return client.send(_pinned_request(client, url, address, timeout), stream=True)
        except httpx.ConnectError:
            if position == len(addresses) - 1:
                raise
    raise AssertionError("check_host returns at least one address")


def _read_body(resp: httpx.Response, url: str, cap: int, deadline: float, config: Config) -> bytes:
    """The body within the byte cap and the deadline; stops at the first KiB when it is not a PDF."""
    if resp.status_code >= 400:
        raise PdfDeskError(
            FETCH_FAILED, f"{url} answered HTTP {resp.status_code} {resp.reason_phrase}.",
            "Check that the link is right and still online.", status=resp.status_code,
        )
    ctype = resp.headers.get("content-type", "unknown")
    declared = resp.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise _cap_error(url, cap)
    body = bytearray()
    checked = False
    for chunk in resp.iter_bytes():
        body += chunk
        if len(body) > cap:
            raise _cap_error(url, cap)
        if not checked and len(body) >= PDF_MAGIC_WINDOW:
            if not looks_like_pdf(bytes(body[:PDF_MAGIC_WINDOW])):
                raise _not_a_pdf(url, ctype)  # an HTML page or a video is not downloaded to the end
            checked = True
        if time.monotonic() > deadline:
            raise _timed_out(url, config)
    if not looks_like_pdf(bytes(body[:PDF_MAGIC_WINDOW])):
        raise _not_a_pdf(url, ctype)
    return bytes(body)
