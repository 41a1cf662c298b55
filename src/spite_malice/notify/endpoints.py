"""Which push endpoints the server posts to: only hosts on the internet. A page gives the
endpoint, so without this check anyone could make the server post to its own network (a
loopback, private, link-local or otherwise reserved address, or a name resolving to one).
The test flag :data:`INSECURE_ENV` lifts it, and allows plain http, for a test's own push
service on this machine."""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

INSECURE_ENV = "SPITE_MALICE_PUSH_INSECURE"
"""Set to 1 to take push endpoints over plain http and on this machine's own network (a
test's own push service): browsers' push services are all https, on the internet."""


def insecure() -> bool:
    """Whether the test flag is set."""
    return os.environ.get(INSECURE_ENV) == "1"


def is_internal(address: str) -> bool:
    """Whether the IP ``address`` is not one of the internet's (loopback, private,
    link-local, shared, reserved, multicast, unspecified; an IPv4 address mapped into IPv6
    is judged as itself). ValueError when it is no IP address."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def internal_host(host: str) -> bool:
    """Whether ``host`` is, or resolves to, an internal address (:func:`is_internal`).
    Blocking (it may ask DNS): call it off the event loop. A name that does not resolve is
    not internal: nothing can be posted to it."""
    try:
        return is_internal(host)
    except ValueError:
        pass
    if host.lower().rstrip(".") == "localhost" or host.lower().rstrip(".").endswith(".localhost"):
        return True
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    return any(is_internal(str(info[4][0])) for info in found)


def internal_endpoint(endpoint: str) -> bool:
    """Whether the server must not post to ``endpoint``: its host is internal and the test
    flag is not set."""
    host = urlsplit(endpoint).hostname
    return not insecure() and host is not None and internal_host(host)
