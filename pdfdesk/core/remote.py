"""Fetch a PDF over http(s) with the limits a desktop app needs when handed a hostile link.

Every hop (redirects are followed by hand, at most `max_redirects`) turns its host into addresses
once (`netaddr`: any IPv4 spelling or IPv6 literal without DNS, a name through the resolver) and is
refused (`blocked_address`) when any of them is loopback, private, link-local or otherwise not
public, unless the config allows private addresses. The connection then goes to a checked address
(`pinned_http`: Host header, TLS SNI and certificate keep the name), so a DNS answer that changes
between check and connect cannot reach a private host.

Time: one budget of `fetch_timeout_s` covers the whole fetch, redirects included, and each wait
inside it has its own smaller limit (connect, response headers, silence), so a server that trickles
its headers or body a byte at a time ends in `fetch_failed` when the budget does. The body is
streamed with a byte cap, must start like a PDF, and is abandoned at its first KiB when it does not.
Proxy variables are ignored: a proxy would resolve names itself, after the check.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from pdfdesk.core import netaddr
from pdfdesk.core.config import Config
from pdfdesk.core.errors import (
    BLOCKED_ADDRESS, FETCH_FAILED, NOT_A_PDF, REMOTE_DISABLED, TOO_LARGE,
    UNSUPPORTED_PDF_REFERENCE, PdfDeskError,
)
from pdfdesk.core.pinned_http import CONNECT, HEADERS, STALL, TOTAL, Budget, PinnedTransport

PDF_MAGIC_WINDOW = 1024  # the header may follow up to 1 KiB of junk (PDF 32000 annex H)
_HEADERS = {"Accept": "application/pdf, */*;q=0.5", "Accept-Encoding": "identity", "User-Agent": "pdfdesk"}
_HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?", re.IGNORECASE)  # the ASCII (IDNA) form of a DNS name


def looks_like_pdf(head: bytes) -> bool:
    """True when the first KiB holds the %PDF header."""
    return b"%PDF" in head[:PDF_MAGIC_WINDOW]


def fetch_budget(config: Config) -> Budget:
    """The fetch's limits: connecting may take 10 s, the response headers half the budget and any
    silence a quarter (never under 2 s, so a slow live server fits), all inside `fetch_timeout_s`."""
    total = config.fetch_timeout_s
    return Budget(total_s=total, connect_s=min(10.0, total), headers_s=max(2.0, total / 2),
                  stall_s=max(2.0, total / 4))


def check_host(host: str, port: int, resolver: netaddr.Resolver | None = None) -> list[str]:
    """The addresses `host` stands for, resolved once; blocked_address if any is not public."""
    return resolve_checked(host, port, allow_private=False, timeout=30.0, resolver=resolver)


def resolve_checked(host: str, port: int, allow_private: bool, timeout: float,
                    resolver: netaddr.Resolver | None = None) -> list[str]:
    """`host`'s addresses, each checked unless `allow_private`; `netaddr.ResolveTimeout` when the
    resolver takes longer than `timeout`. A literal address in any spelling is used as it is (no
    DNS); a host whose last label is a number must be one."""
    literal = netaddr.literal_address(host)
    if literal is not None:
        addresses = [str(literal)]
    elif netaddr.looks_numeric(host):
        raise PdfDeskError(FETCH_FAILED, f"{host!r} is not a valid IPv4 address.", "Check the address.")
    else:
        try:
            addresses = netaddr.resolve_within(resolver or netaddr.system_resolver, host, port, timeout)
        except (OSError, UnicodeError) as exc:
            raise PdfDeskError(
                FETCH_FAILED, f"Could not resolve the host {host!r}: {exc}.",
                "Check the address and your network connection.",
            ) from None
        if not addresses:
            raise PdfDeskError(FETCH_FAILED, f"The host {host!r} has no address.", "Check the address.")
    if not allow_private:
        for address in addresses:
            if not netaddr.is_public(address):
                raise PdfDeskError(
                    BLOCKED_ADDRESS,
                    f"{host} is {address}, a loopback, private, link-local or otherwise non-public address.",
                    "pdfdesk does not fetch from local networks. Download the file and open it from disk, "
                    "or allow private addresses in settings if you trust this host.",
                )
    return addresses


def _target(url: str) -> tuple[httpx.URL, str, int]:
    """The URL to request (no credentials or fragment; a numeric host in its canonical form, the
    address that is connected to), the host as the connection pool spells it, and the port."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PdfDeskError(UNSUPPORTED_PDF_REFERENCE, f"{url} is not an http(s) URL.",
                           "Use an http:// or https:// link, or a local path.")
    literal = netaddr.literal_address(parts.hostname)
    if literal is None and netaddr.looks_numeric(parts.hostname):
        raise PdfDeskError(FETCH_FAILED, f"{parts.hostname!r} in {url} is not a valid IPv4 address.",
                           "Check the address.")
    try:
        port = parts.port
        host = parts.hostname if literal is None else str(literal)
        if isinstance(literal, ipaddress.IPv6Address):
            host = f"[{host}]"
        netloc = host if port is None else f"{host}:{port}"
        target = httpx.URL(urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")))
        name = target.raw_host.decode("ascii")
        if literal is None and not _HOST_NAME.fullmatch(name):
            raise ValueError(f"{parts.hostname!r} is not a host name")
    except (ValueError, httpx.InvalidURL, UnicodeError) as exc:
        raise PdfDeskError(UNSUPPORTED_PDF_REFERENCE, f"{url} is not a valid URL ({exc}).",
                           "Check the link.") from None
    return target, name, port or (443 if parts.scheme == "https" else 80)


def _cap_error(url: str, cap: int) -> PdfDeskError:
    return PdfDeskError(
        TOO_LARGE, f"{url} is larger than the download limit of {cap / 1048576:.0f} MB.",
        "Download it yourself and open the local file, or raise the download limit in settings.",
        limit_bytes=cap,
    )


def _timed_out(url: str, config: Config, budget: Budget) -> PdfDeskError:
    which = budget.tripped or TOTAL
    message = {
        TOTAL: f"Fetching {url} did not finish within {config.fetch_timeout_s:g} s.",
        HEADERS: f"{url} did not send its response headers within {budget.headers_s:g} s.",
        STALL: f"{url} sent nothing for {budget.stall_s:g} s.",
        CONNECT: f"Could not connect to the server of {url} within {budget.connect_s:g} s.",
    }[which]
    return PdfDeskError(
        FETCH_FAILED, message,
        "The server is slow or sends the file very slowly; try again later or download it yourself.",
        limit=which, timeout_s=config.fetch_timeout_s,
    )


def _not_a_pdf(url: str, ctype: str) -> PdfDeskError:
    return PdfDeskError(
        NOT_A_PDF, f"{url} did not return a PDF (content type {ctype}).",
        "Use the direct link to the PDF file rather than to a web page about it.",
    )


def fetch_pdf(url: str, config: Config, resolver: netaddr.Resolver | None = None) -> tuple[bytes, str]:
    """Download `url`; returns the PDF bytes and the final URL after redirects. `resolver` stands
    in for DNS (the system resolver when None)."""
    if not config.allow_remote:
        raise PdfDeskError(
            REMOTE_DISABLED, f"Fetching URLs is turned off, so {url} was not downloaded.",
            "Download the file and open it from disk, or turn off the sandbox in settings.",
        )
    budget = fetch_budget(config)
    current = url
    try:
        # The transport directly, not an httpx.Client: a client parses every Location header itself
        # (and fails on spellings such as 0177.0.0.1), while here each hop goes through `_target`.
        with PinnedTransport(budget) as transport:
            for _hop in range(config.max_redirects + 1):
                target, name, port = _target(current)
                if budget.remaining() <= 0:
                    budget.tripped = TOTAL
                    raise _timed_out(current, config, budget)
                try:
                    addresses = resolve_checked(name, port, config.allow_private_addresses,
                                                budget.remaining(), resolver)
                except netaddr.ResolveTimeout:
                    budget.tripped = TOTAL
                    raise _timed_out(current, config, budget) from None
                transport.pin(name, port, addresses)
                resp = transport.handle_request(httpx.Request("GET", target, headers=_HEADERS))
                try:
                    if resp.is_redirect and "location" in resp.headers:
                        current = urljoin(current, resp.headers["location"])
                        continue
                    return _read_body(resp, current, config.max_download_bytes, budget, config), current
                finally:
                    resp.close()
    except httpx.TimeoutException:
        raise _timed_out(current, config, budget) from None
    except httpx.HTTPError as exc:
        raise PdfDeskError(
            FETCH_FAILED, f"Fetching {current} failed: {exc}.",
            "Check the address and your network connection.",
        ) from None
    raise PdfDeskError(
        FETCH_FAILED, f"{url} redirected more than {config.max_redirects} times.",
        "Use the final address of the PDF directly.",
    )


def _read_body(resp: httpx.Response, url: str, cap: int, budget: Budget, config: Config) -> bytes:
    """The body within the byte cap; stops at the first KiB when it is not a PDF."""
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
        if budget.remaining() <= 0:  # decoding a compressed body takes time the sockets do not see
            budget.tripped = TOTAL
            raise _timed_out(url, config, budget)
    if not looks_like_pdf(bytes(body[:PDF_MAGIC_WINDOW])):
        raise _not_a_pdf(url, ctype)
    return bytes(body)
