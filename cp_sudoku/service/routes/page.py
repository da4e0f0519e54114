"""The web page: ``GET /`` with ``/app.js`` and ``/app.css``, read once at import.

Nothing of a request names a file: the routes are fixed and serve bytes held
in memory.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import Response

router = APIRouter(include_in_schema=False)
#: The page's files: URL path -> (file in ``static/``, media type).
PAGE_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}


def _route(content: bytes, media: str) -> Callable[[], Awaitable[Response]]:
    async def serve() -> Response:
        return Response(content, media_type=media)

    return serve


_STATIC = files("cp_sudoku.service") / "static"
for _path, (_name, _media) in PAGE_FILES.items():
    router.add_api_route(_path, _route((_STATIC / _name).read_bytes(), _media), methods=["GET"])
