"""Whose failed sign-ins count together: django-axes locks a username out from one
client address, and this says what that address is."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The address of the browser that sent ``request`` (``AXES_CLIENT_IP_CALLABLE``).

    Behind the HTTPS proxy every request comes from the proxy, so five wrong passwords
    from anyone would lock the real user out. The proxy appends the address it saw to
    X-Forwarded-For; everything before that last entry is whatever the client sent, so
    only the last one is believed, and only with ``BEHIND_HTTPS_PROXY`` (without a proxy
    the whole header is the client's own)."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not settings.BEHIND_HTTPS_PROXY:
        return remote
    last = request.META.get("HTTP_X_FORWARDED_FOR", "").rpartition(",")[2].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        # A proxy that sent no usable address: count the attempt against the proxy.
        return remote
