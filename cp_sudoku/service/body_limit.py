"""Bounding request bodies: an ASGI middleware that answers 413 before the app reads a body.

A route takes a whole file (``--max-upload`` bytes) when its endpoint is
marked with :func:`takes_upload`; every other request may carry
``--max-body`` bytes.  The marks are read from the app's routes once they
are all defined (:func:`upload_routes`), so a new upload endpoint needs only
its mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

from fastapi import APIRouter
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cp_sudoku.service.errors import error

F = TypeVar("F", bound=Callable[..., Any])
#: (HTTP methods, path pattern) of a route that takes an upload.
UploadRoute = tuple[frozenset[str], re.Pattern[str]]


def takes_upload(endpoint: F) -> F:
    """Mark a route's endpoint as taking a whole file (``--max-upload`` bytes)."""
    endpoint.takes_upload = True  # type: ignore[attr-defined]
    return endpoint


def upload_routes(routers: Iterable[APIRouter]) -> list[UploadRoute]:
    """(methods, path pattern) of every route of ``routers`` marked :func:`takes_upload`
    (routers the app includes without a prefix)."""
    return [
        (frozenset(cast("set[str]", route.methods)), route.path_regex)  # set by APIRoute
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and getattr(route.endpoint, "takes_upload", False)
    ]


class BodyLimit:
    """ASGI middleware: a request body over its limit is answered 413 before the app reads it.

    A request to one of ``uploads`` may carry ``upload`` bytes, any other
    ``body`` bytes.  The body is read here (bounded) and handed on whole.
    """

    def __init__(
        self, app: ASGIApp, body: int, upload: int, uploads: Sequence[UploadRoute]
    ) -> None:
        self.app, self.body, self.upload, self.uploads = app, body, upload, tuple(uploads)

    def _is_upload(self, scope: Scope) -> bool:
        return any(
            scope["method"] in methods and pattern.match(scope["path"])
            for methods, pattern in self.uploads
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_upload = self._is_upload(scope)
        limit, what = (self.upload, "upload") if is_upload else (self.body, "request body")
        flag = "--max-upload" if is_upload else "--max-body"
        message = f"the {what} is over this server's limit of {limit:,} bytes ({flag})"
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await error(413, message)(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            event = await receive()
            if event["type"] == "http.disconnect":
                return
            chunks.append(event.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                await error(413, message)(scope, receive, send)
                return
            if not event.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
