"""Access control: with tokens set, every request needs one, and a job is its token's alone.

``cp-sudoku serve --token TOKEN`` (or the environment variable
``CP_SUDOKU_TOKEN``; :mod:`cp_sudoku.service.tokens`) turns it on.  A
request shows its token in the header ``Authorization: Bearer TOKEN``, or
in the cookie a browser gets by opening
any page once with ``?token=TOKEN`` (the answer is a redirect to the same
address without it, setting an ``HttpOnly``, ``SameSite=Strict`` cookie, so
the page and ``/docs`` work from the browser).  A request without a valid
token is answered 401.  Tokens are compared in constant time.

The owner of what a request makes (a job, a certificate's files) is a hash of
its token, never the token itself; the store shows a job or a file only to
requests of the same owner.  Without tokens everything has the owner ``""``.
"""

from __future__ import annotations

import hmac
import json
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from cp_sudoku.service.errors import error
from cp_sudoku.service.tokens import owner_of

COOKIE = "cp_sudoku_token"
#: Where the owner of a request is kept in its ASGI scope.
OWNER_KEY = "cp_sudoku.owner"
NEEDED = (
    "this server needs a token: send the header 'Authorization: Bearer TOKEN', "
    "or open /?token=TOKEN once in a browser"
)


def request_owner(scope: Scope) -> str:
    """The owner of a request (``""`` on a server without tokens)."""
    return str(scope.get(OWNER_KEY, ""))


class TokenGate:
    """ASGI middleware: a request without one of ``tokens`` is answered 401; a valid one
    gets its owner in the scope.  See the module docstring."""

    def __init__(self, app: ASGIApp, tokens: frozenset[str]) -> None:
        self.app = app
        self.owners = {owner_of(token): token for token in tokens}

    def _valid(self, token: str | None) -> str | None:
        if token is None:
            return None
        found = None
        for known_owner, known in self.owners.items():  # every one compared: constant time
            if hmac.compare_digest(token.encode(), known.encode()):
                found = known_owner
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        offered = dict(query).get("token")
        if scope["method"] == "GET" and offered is not None:
            await self._let_browser_in(scope, send, query, self._valid(offered), offered)
            return
        found = self._valid(_bearer(headers) or _cookie(headers))
        if found is None:
            answer = error(401, NEEDED)
            answer.headers["WWW-Authenticate"] = "Bearer"
            await answer(scope, receive, send)
            return
        await self.app({**scope, OWNER_KEY: found}, receive, send)

    async def _let_browser_in(
        self,
        scope: Scope,
        send: Send,
        query: list[tuple[str, str]],
        found: str | None,
        offered: str,
    ) -> None:
        """``GET ...?token=``: 303 to the address without it, setting the cookie; 401 if
        the token is wrong."""
        if found is None:
            status, headers = 401, [(b"www-authenticate", b"Bearer")]
            body = json.dumps({"error": NEEDED}).encode()
        else:
            rest = urlencode([(key, value) for key, value in query if key != "token"])
            where = scope["path"] + (f"?{rest}" if rest else "")
            cookie = f"{COOKIE}={offered}; Path=/; HttpOnly; SameSite=Strict"
            status, body = 303, b""
            headers = [(b"location", where.encode()), (b"set-cookie", cookie.encode())]
        headers.append((b"content-type", b"application/json"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _bearer(headers: dict[bytes, bytes]) -> str | None:
    value = headers.get(b"authorization", b"").decode("latin-1")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _cookie(headers: dict[bytes, bytes]) -> str | None:
    raw = headers.get(b"cookie")
    if raw is None:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw.decode("latin-1"))
    except CookieError:  # a malformed cookie header carries no token
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value
