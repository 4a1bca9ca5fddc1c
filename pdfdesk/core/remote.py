"""Fetch a PDF over http(s) with the limits a desktop app needs when handed a hostile link.

Redirects are followed by hand (at most `max_redirects`) so every hop's host is resolved and
refused when it is loopback, private, link-local or otherwise not a public address
(`blocked_address`), unless the config allows private addresses. The body is streamed with a byte
cap and must start like a PDF.
"""

from __future__ import annotations

import ipaddress
import socket
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


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def check_host(host: str, port: int) -> None:
    """Raise blocked_address if `host` resolves to any non-public address."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise PdfDeskError(
            FETCH_FAILED, f"Could not resolve the host {host!r}: {exc}.",
            "Check the address and your network connection.",
        ) from None
    for info in infos:
        address = str(info[4][0])
        if not _is_public(address):
            raise PdfDeskError(
                BLOCKED_ADDRESS,
                f"{host} resolves to {address}, a loopback, private or link-local address.",
                "pdfdesk does not fetch from local networks. Download the file and open it from disk, "
                "or allow private addresses in settings if you trust this host.",
            )


def _cap_error(url: str, cap: int) -> PdfDeskError:
    return PdfDeskError(
        TOO_LARGE, f"{url} is larger than the download limit of {cap / 1048576:.0f} MB.",
        "Download it yourself and open the local file, or raise the download limit in settings.",
        limit_bytes=cap,
    )


def fetch_pdf(url: str, config: Config) -> tuple[bytes, str]:
    """Download `url`; returns the PDF bytes and the final URL after redirects."""
    if not config.allow_remote:
        raise PdfDeskError(
            REMOTE_DISABLED, f"Fetching URLs is turned off, so {url} was not downloaded.",
            "Download the file and open it from disk, or turn off the sandbox in settings.",
        )
    cap = config.max_download_bytes
    timeout = httpx.Timeout(config.fetch_timeout_s, connect=min(10.0, config.fetch_timeout_s))
    current = url
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False) as client:
            for _hop in range(config.max_redirects + 1):
                parts = urlsplit(current)
                if parts.scheme not in ("http", "https") or not parts.hostname:
                    raise PdfDeskError(
                        UNSUPPORTED_PDF_REFERENCE, f"{current} is not an http(s) URL.",
                        "Use an http:// or https:// link, or a local path.",
                    )
                if not config.allow_private_addresses:
                    check_host(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
                with client.stream("GET", current, headers={"Accept": "application/pdf, */*;q=0.5"}) as resp:
                    if resp.is_redirect and "location" in resp.headers:
                        current = urljoin(current, resp.headers["location"])
                        continue
                    if resp.status_code >= 400:
                        raise PdfDeskError(
                            FETCH_FAILED, f"{current} answered HTTP {resp.status_code} {resp.reason_phrase}.",
                            "Check that the link is right and still online.", status=resp.status_code,
                        )
                    declared = resp.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > cap:
                        raise _cap_error(current, cap)
                    body = bytearray()
                    for chunk in resp.iter_bytes():
                        body += chunk
                        if len(body) > cap:
                            raise _cap_error(current, cap)
                    if not looks_like_pdf(bytes(body[:PDF_MAGIC_WINDOW])):
                        ctype = resp.headers.get("content-type", "unknown")
                        raise PdfDeskError(
                            NOT_A_PDF, f"{current} did not return a PDF (content type {ctype}).",
                            "Use the direct link to the PDF file rather than to a web page about it.",
                        )
                    return bytes(body), current
    except httpx.TimeoutException:
        raise PdfDeskError(
            FETCH_FAILED, f"Fetching {current} timed out after {config.fetch_timeout_s:g} s.",
            "Try again later or download the file yourself.",
        ) from None
    except httpx.HTTPError as exc:
        raise PdfDeskError(
            FETCH_FAILED, f"Fetching {current} failed: {exc}.",
            "Check the address and your network connection.",
        ) from None
    raise PdfDeskError(
        FETCH_FAILED, f"{url} redirected more than {config.max_redirects} times.",
        "Use the final address of the PDF directly.",
    )
