"""Where a webhook may point: the address check on literal addresses (nothing connects), and
the setting that lifts it."""

from ipaddress import ip_address

import httpx
import pytest

from server.settings import Settings, SettingsError
from server.webhooks.targets import (
    TargetRefused,
    checked,
    host_and_port,
    refusal,
    target_address,
)


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.9.9.9", "loopback"),
        ("::1", "loopback"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("fc00::1", "private"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("239.255.255.250", "multicast"),
        ("ff02::1", "multicast"),
        # IPv6 addresses that stand for IPv4 ones: mapped, 6to4 and NAT64.
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:169.254.169.254", "link-local"),
        ("2002:7f00:1::", "loopback"),
        ("2002:a00:1::", "private"),
        ("64:ff9b::a9fe:a9fe", "link-local"),
    ],
)
def test_addresses_a_webhook_may_not_use(address: str, kind: str) -> None:
    assert refusal(ip_address(address)) == kind


@pytest.mark.parametrize(
    # Shared (carrier-grade NAT), documentation, benchmarking, reserved, broadcast, Teredo,
    # IPv4-compatible: whichever name Python's registry gives them.
    "address",
    ["100.64.0.1", "192.0.2.1", "198.18.0.1", "240.0.0.1", "255.255.255.255", "2001::1", "::a00:1"],
)
def test_other_non_global_addresses_are_refused(address: str) -> None:
    assert refusal(ip_address(address)) is not None


@pytest.mark.parametrize(
    "address",
    ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.215.14", "2002:5db8::1"],
)
def test_public_addresses_are_allowed(address: str) -> None:
    assert refusal(ip_address(address)) is None


def test_a_host_with_one_private_address_among_public_ones_is_refused() -> None:
    public = ip_address("93.184.215.14")
    assert checked("example.test", [public]) == public
    with pytest.raises(TargetRefused, match=r"10\.0\.0\.7, a private address"):
        checked("example.test", [public, ip_address("10.0.0.7")])


@pytest.mark.parametrize(
    ("url", "host", "port"),
    [
        ("http://127.0.0.1/hook", "127.0.0.1", 80),
        ("https://[::1]:8443/hook", "::1", 8443),
        ("https://bücher.example/x", "xn--bcher-kva.example", 443),
    ],
)
def test_the_host_and_port_to_resolve(url: str, host: str, port: int) -> None:
    assert host_and_port(httpx.URL(url)) == (host, port)


async def test_a_literal_address_and_localhost_resolve_without_dns_and_are_checked() -> None:
    """Literal addresses, and localhost from /etc/hosts: no lookup leaves the machine."""
    with pytest.raises(TargetRefused, match=r"127\.0\.0\.1, a loopback address.*ALLOW_PRIVATE"):
        await target_address("localhost", 80, allow_private=False)
    with pytest.raises(TargetRefused, match="a private address"):
        await target_address("10.0.0.1", 80, allow_private=False)
    assert await target_address("::ffff:7f00:1", 80, allow_private=True) == ip_address(
        "::ffff:127.0.0.1"
    )
    public = await target_address("93.184.215.14", 443, allow_private=False)
    assert public == ip_address("93.184.215.14")


def test_the_setting_that_allows_private_targets() -> None:
    assert not Settings.from_env({}).webhook_allow_private
    assert not Settings.from_env({"SKIRMISH_WEBHOOK_ALLOW_PRIVATE": "0"}).webhook_allow_private
    assert Settings.from_env({"SKIRMISH_WEBHOOK_ALLOW_PRIVATE": "1"}).webhook_allow_private
    for wrong in ("yes", "true", "2"):
        with pytest.raises(SettingsError, match="SKIRMISH_WEBHOOK_ALLOW_PRIVATE"):
            Settings.from_env({"SKIRMISH_WEBHOOK_ALLOW_PRIVATE": wrong})
