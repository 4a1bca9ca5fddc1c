"""Which network addresses a URL fetch may reach, and the one resolution of a host name.

A hostile link names a private host in many disguises: a name whose DNS answer is 127.0.0.1, an
IPv4 address spelled in decimal, hex, octal or with parts left out (`2130706433`, `0x7f.1`,
`0177.0.0.1`, `127.1`, which the C resolver and browsers all accept), or an IPv6 address that
carries an IPv4 one inside it (mapped, compatible, NAT64, 6to4, Teredo). So the host is turned into
addresses exactly once (a literal without DNS, a name through the resolver within the fetch's time
budget), every address is judged, and the connection later goes to one of these very addresses.
The judgement does not lean on the Python version's idea of `is_global` alone: the ranges that
matter are listed here.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]

_V4_BLOCKED = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
))
_V6_BLOCKED = tuple(ipaddress.ip_network(n) for n in (
    "::/96",            # IPv4-compatible (deprecated), with :: and ::1: some stacks reach the IPv4 host
    "64:ff9b:1::/48",   # local-use NAT64: the IPv4 part sits where the operator chose
    "100::/64", "2001::/32",  # discard; Teredo (tunnels to the IPv4 host it embeds)
    "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
))
_V4_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_V4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """`host` read as an IPv4 address the way inet_aton and browsers read it (1 to 4 parts, each
    decimal, 0x-hex or 0-octal, the last one filling the remaining bytes); None for anything else."""
    text = host.removesuffix(".")
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    values = [_number(part) for part in parts]
    if any(value is None for value in values):
        return None
    numbers = [value for value in values if value is not None]
    *leading, last = numbers
    if any(value > 255 for value in leading) or last >= 256 ** (5 - len(numbers)):
        return None
    address = last
    for position, value in enumerate(leading):
        address |= value << (8 * (3 - position))
    return ipaddress.IPv4Address(address)


def _number(part: str) -> int | None:
    """One part of an IPv4 spelling, or None when it is not a number."""
    if part[:2].lower() == "0x":
        digits, base = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if not digits or not digits.isascii() or not digits.isalnum():
        return None
    try:
        return int(digits, base)
    except ValueError:
        return None


def looks_numeric(host: str) -> bool:
    """True when the last label is a number: such a host must be an IPv4 address (as browsers
    decide), never a name sent to DNS."""
    last = host.removesuffix(".").rsplit(".", 1)[-1]
    return bool(last) and (last.isdigit() or (last[:2].lower() == "0x" and last[2:].isalnum()))


def literal_address(host: str) -> IPAddress | None:
    """The address a URL host names without DNS (any IPv4 spelling, or IPv6), else None."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            return None
    return parse_ipv4(host)


def is_public(address: str) -> bool:
    """A globally routable unicast address, judged by the IPv4 host inside an IPv6 address where
    there is one (that is the host the packets reach)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            return is_public(str(embedded))
        if any(ip in net for net in _V6_BLOCKED):
            return False
    elif any(ip in net for net in _V4_BLOCKED):
        return False
    return ip.is_global and not ip.is_multicast


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, translated, NAT64, 6to4), else None."""
    if ip in _V4_MAPPED or ip in _V4_TRANSLATED or ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _SIX_TO_FOUR:
        return ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)
    return None


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for `host`, in its order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class ResolveTimeout(Exception):
    """The resolver did not answer within the time left."""


def resolve_within(resolver: Resolver, host: str, port: int, timeout: float) -> list[str]:
    """`resolver(host, port)` given at most `timeout` seconds. getaddrinfo cannot be interrupted,
    so it runs on a daemon thread that is left to finish on its own when time is up."""
    answers: list[list[str]] = []
    failures: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            answers.append(list(resolver(host, port)))
        except BaseException as exc:  # re-raised in the caller's thread
            failures.append(exc)
        done.set()

    threading.Thread(target=run, name="pdfdesk-resolve", daemon=True).start()
    if not done.wait(max(0.0, timeout)):
        raise ResolveTimeout(host)
    if failures:
        raise failures[0]
    return answers[0]
