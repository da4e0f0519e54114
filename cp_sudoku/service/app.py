"""The HTTP API and the page: a FastAPI app over the worker pool and the job store.

Routes (JSON, versioned under ``/v1``; the OpenAPI schema is at ``/openapi.json``
and ``/docs`` shows it with Swagger UI's files served from here, so it works with
no internet; fastapi-offline bundles them), one
router per area in :mod:`cp_sudoku.service.routes`:

- ``POST /v1/check``, ``/v1/count``, ``/v1/export?to=``, ``/v1/prove``: one puzzle;
- ``POST /v1/candidates``, ``/v1/suggest``, ``/v1/why``, ``/v1/workbench``: the
  setter's workbench on one puzzle (:mod:`cp_sudoku.service.routes.workbench`);
- ``POST /v1/generate``: unique, minimal puzzles of a kind, symmetry and grade
  (:mod:`cp_sudoku.service.routes.generate`);
- ``POST /v1/jobs`` (multipart file or a text body), ``GET /v1/jobs``,
  ``GET /v1/jobs/{id}``, ``GET /v1/jobs/{id}/results``, ``DELETE /v1/jobs/{id}``;
- ``GET /v1/backends``, ``GET /v1/kinds``, ``GET /healthz``;
- ``GET /`` the page, with ``/app.js`` and ``/app.css``.

Errors are JSON ``{"error": ...}`` (:mod:`cp_sudoku.service.errors`).  A
request's paths and fields never reach the filesystem: the page's files are
read once at start-up and a job id is only ever a key in the store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from cp_sudoku import __version__
from cp_sudoku.service import errors
from cp_sudoku.service.access import TokenGate
from cp_sudoku.service.body_limit import BodyLimit, upload_routes
from cp_sudoku.service.routes import about, generate, jobs, page, puzzles, workbench
from cp_sudoku.service.runner import Runner
from cp_sudoku.service.state import Settings
from cp_sudoku.service.store import Store

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; the store and the pool start with the app's lifespan."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db)
        runner = Runner(store, settings.workers, settings.limits.queue)
        await runner.start()
        app.state.store, app.state.runner = store, runner
        try:
            yield
        finally:
            await runner.close()
            store.close()

    app = FastAPIOffline(  # /docs and /redoc with their scripts served from here, not a CDN
        title="cp-sudoku",
        version=__version__,
        summary="Check, count and export Sudoku-like puzzles; jobs over whole files.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.listings = {}
    routers = [area.router for area in (puzzles, workbench, generate, jobs, about, page)]
    for router in routers:
        app.include_router(router)
    errors.install(app)
    limits = settings.limits
    uploads = upload_routes(routers)
    app.add_middleware(
        BodyLimit, body=limits.body_bytes, upload=limits.upload_bytes, uploads=uploads
    )
    if settings.tokens:  # outermost: a request without a token is refused before all else
        app.add_middleware(TokenGate, tokens=settings.tokens)
    return app
