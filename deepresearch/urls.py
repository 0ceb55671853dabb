"""The one URL policy: which URLs may be fetched or extracted.

Every fetch or extract of a URL goes through :class:`UrlPolicy` first. A URL passes when

1. a search in this session returned it, or the user gave it (in the question);
2. it is a local corpus document (a path a corpus search returned: no scheme, no host), or
   its scheme is ``http`` or ``https``; and
3. its host is a public address. IP literals (IPv4 and IPv6, IPv4-mapped included) are
   checked as written; host names are resolved first and every address they resolve to must
   be public. Loopback, private, link-local (cloud metadata at ``169.254.169.254``), shared,
   multicast, reserved and unspecified addresses are refused unless
   ``allow_private=True`` (``Config.allow_private_urls``), which is for a research server on
   your own network. A host name that does not resolve is refused too: nothing could be
   fetched from it, and refusing keeps a DNS failure from turning into a private fetch later.

Model-chosen URLs are untrusted input: a source can ask the model to "extract" any address.
Refusals raise :class:`~deepresearch.errors.UrlRefused`; :meth:`UrlPolicy.allowed` filters a
list and records each refusal as a ``url_refused`` event.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any, Protocol
from urllib.parse import urlsplit

from deepresearch.errors import UrlRefused
from deepresearch.state import EventKind, ResearchState

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# Resolves a host name to the IP addresses a fetch would connect to.
Resolver = Callable[[str], Awaitable[list[str]]]

ALLOWED_SCHEMES = frozenset({"http", "https"})
# URLs a person wrote into the question count as given by the user.
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)


class EventSink(Protocol):
    """Where refusals are recorded (the run's audit trail)."""

    def emit(self, state: ResearchState, kind: EventKind, payload: dict[str, Any]) -> None:
        """Record one event (a refused URL).

        Args:
            state: the run's state.
            kind: the event kind.
            payload: its data.
        """


async def system_resolver(host: str) -> list[str]:
    """Resolve ``host`` with the operating system's resolver, off the event loop."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def user_urls(state: ResearchState) -> set[str]:
    """URLs the user gave: those written into the question."""
    return {m.group(0).rstrip(".,;:!?") for m in _URL_IN_TEXT.finditer(state.question)}


def session_urls(state: ResearchState) -> set[str]:
    """Every URL this session may fetch: what its searches returned (with the passages
    around the passages they returned, Source.around) plus what the user gave."""
    around = {url for s in state.sources for url in s.around}
    return state.seen_urls() | around | user_urls(state)


def is_public(address: Address) -> bool:
    """True for a globally routable unicast address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


class UrlPolicy:
    """Decides whether a URL may be fetched or extracted (see the module docstring).

    Args:
        allow_private: also allow loopback, private and link-local hosts.
        resolver: resolves host names; the default asks the operating system. Tests pass a
            static one (``deepresearch.testing.static_resolver``) so nothing touches DNS.
    """

    def __init__(self, *, allow_private: bool = False, resolver: Resolver | None = None) -> None:
        self.allow_private = allow_private
        self._resolver = resolver

    def __repr__(self) -> str:
        return f"UrlPolicy(allow_private={self.allow_private})"

    async def check(self, url: str, *, known_urls: Collection[str]) -> str:
        """Return ``url`` (stripped) if it may be fetched, else raise :class:`UrlRefused`.

        Args:
            url: the URL a model or a person asked for.
            known_urls: the URLs this session's searches returned or the user gave
                (:func:`session_urls`).
        """
        url = url.strip()
        if url not in known_urls:
            raise UrlRefused(url, "no search in this session returned it")
        parts = urlsplit(url)
        if not parts.scheme and not parts.netloc:
            return url  # a local corpus document: read from the index, never fetched
        if parts.scheme.lower() not in ALLOWED_SCHEMES:
            raise UrlRefused(url, f"scheme {parts.scheme!r} is not http or https")
        try:
            host = parts.hostname
        except ValueError:
            host = None
        if not host:
            raise UrlRefused(url, "it has no host")
        if not self.allow_private:
            await self._check_host(url, host)
        return url

    async def allowed(
        self,
        urls: Iterable[str],
        *,
        known_urls: Collection[str],
        events: EventSink,
        state: ResearchState,
        scope: str | None = None,
    ) -> list[str]:
        """The URLs of ``urls`` that pass, in order; each refusal becomes a ``url_refused`` event."""
        passed: list[str] = []
        for url in urls:
            try:
                checked = await self.check(url, known_urls=known_urls)
            except UrlRefused as exc:
                events.emit(
                    state,
                    EventKind.URL_REFUSED,
                    {"url": exc.url, "reason": exc.reason, "scope": scope},
                )
                continue
            if checked not in passed:
                passed.append(checked)
        return passed

    async def _check_host(self, url: str, host: str) -> None:
        try:
            literal: Address | None = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            literal = None
        if literal is not None:
            if not is_public(literal):
                raise UrlRefused(url, f"{host} is not a public address")
            return
        try:
            resolved = await (self._resolver or system_resolver)(host)
        except (OSError, UnicodeError) as exc:
            raise UrlRefused(url, f"host {host!r} does not resolve ({exc})") from None
        if not resolved:
            raise UrlRefused(url, f"host {host!r} does not resolve")
        for text in resolved:
            address = ipaddress.ip_address(text.split("%", 1)[0])
            if not is_public(address):
                raise UrlRefused(url, f"host {host!r} resolves to {address}, not a public address")


__all__ = ["ALLOWED_SCHEMES", "UrlPolicy", "is_public", "session_urls", "system_resolver"]
