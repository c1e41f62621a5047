"""Where a webhook may point: public addresses only, unless the operator allows private ones.

A webhook is a request the server makes for anyone who can create a game, so it must not
reach what only the server can reach (its loopback, its network, a cloud's metadata
service). The host is checked when the webhook is set and again at every delivery, after
resolving it; the delivery then connects to the address that was checked, so that a DNS
answer that changes in between cannot send it elsewhere.
"""

import asyncio
import socket
from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address

import httpx

IPAddress = IPv4Address | IPv6Address

ALLOW_PRIVATE = "SKIRMISH_WEBHOOK_ALLOW_PRIVATE"
# NAT64's well-known prefix: the last 32 bits are an IPv4 address the gateway reaches.
_NAT64 = IPv6Network("64:ff9b::/96")


class TargetRefused(Exception):
    """The webhook's host does not resolve, or resolves to an address it may not use."""


def refusal(address: IPAddress) -> str | None:
    """What kind of address this is when a webhook may not use it ("loopback",
    "private", ...); None for a public unicast address."""
    inner = _embedded_ipv4(address) or address
    if inner.is_unspecified:
        return "unspecified"
    if inner.is_loopback:
        return "loopback"
    if inner.is_link_local:
        return "link-local"
    if inner.is_multicast:
        return "multicast"
    if inner.is_private:
        return "private"
    if inner.is_reserved:
        return "reserved"
    return None if inner.is_global else "non-global"


def _embedded_ipv4(address: IPAddress) -> IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, 6to4, NAT64), whose kind decides."""
    if isinstance(address, IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return IPv4Address(int(address) & 0xFFFF_FFFF)
    return None


def host_and_port(url: httpx.URL) -> tuple[str, int]:
    """The host to resolve (IDNA-encoded, an IPv6 address without brackets) and the port."""
    return url.raw_host.decode("ascii"), url.port or (443 if url.scheme == "https" else 80)


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address the host resolves to (a literal address is itself, with no lookup)."""
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
    except (socket.gaierror, UnicodeError) as error:
        raise TargetRefused(f"the host {host} does not resolve ({error})") from None
    addresses = [ip_address(sockaddr[0]) for *_, sockaddr in found]
    if not addresses:
        raise TargetRefused(f"the host {host} does not resolve")
    return addresses


def checked(host: str, addresses: list[IPAddress]) -> IPAddress:
    """The address to connect to, if every address of the host is public; a name with a
    single private address among public ones is refused too, as a lookup may give either."""
    for address in addresses:
        kind = refusal(address)
        if kind is not None:
            raise TargetRefused(
                f"the host {host} is at {address}, a {kind} address: webhooks go to public "
                f"addresses only (unless the operator sets {ALLOW_PRIVATE}=1)"
            )
    return addresses[0]


async def target_address(host: str, port: int, *, allow_private: bool) -> IPAddress:
    """Resolve the host and return the address a delivery connects to; TargetRefused when
    it does not resolve, or (unless private targets are allowed) is not public."""
    addresses = await resolve(host, port)
    return addresses[0] if allow_private else checked(host, addresses)
