"""About the server: ``GET /v1/backends``, ``/v1/kinds`` and ``/healthz``."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from cp_sudoku import __version__
from cp_sudoku.service import solving
from cp_sudoku.service.state import RunnerDep, SettingsDep

router = APIRouter(tags=["about"])
#: One example per kind, in the ``variant`` text format (the page's examples too).
EXAMPLES: dict[str, str] = json.loads(
    (files("cp_sudoku.service") / "static" / "examples.json").read_text("utf-8")
)


@router.get("/v1/backends")
async def backends(request: Request, runner: RunnerDep) -> JSONResponse:
    """The back ends: which run by default, summary, options, statistics, and the
    constraint types each compiles.  A request names back ends and sets `limit` and
    `time_limit`; the back ends' own options keep their defaults."""
    listings: dict[str, Any] = request.app.state.listings
    if "backends" not in listings:  # built in a worker: it imports the solvers
        listings["backends"] = await runner.call(solving.backends_listing)
    return JSONResponse({"backends": listings["backends"]})


@router.get("/v1/kinds")
async def kinds() -> JSONResponse:
    """The puzzle kinds, each with an example in the `variant` text format."""
    return JSONResponse(
        {"kinds": [{"kind": kind, "example": EXAMPLES.get(kind)} for kind in solving.kinds()]}
    )


@router.get("/healthz")
async def healthz(runner: RunnerDep, settings: SettingsDep) -> JSONResponse:
    """`ok`, the version, the workers and the requests admitted now."""
    return JSONResponse(
        {
            "status": "ok",
            "version": __version__,
            "workers": settings.workers,
            "admitted": runner.admitted,
        }
    )
