"""One puzzle: ``POST /v1/check``, ``/v1/count``, ``/v1/export?to=``, ``/v1/prove``, and
``GET /v1/files/{id}`` for a certificate's files."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from cp_sudoku.service import solving
from cp_sudoku.service.errors import error
from cp_sudoku.service.routes import record_answer
from cp_sudoku.service.schema import PuzzleRequest, options
from cp_sudoku.service.state import OwnerDep, RunnerDep, SettingsDep, StoreDep

router = APIRouter(tags=["puzzles"])
#: A kept file's id as the store makes them (URL-safe base64).
FILE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@router.post("/v1/check")
async def check(
    request: PuzzleRequest,
    runner: RunnerDep,
    settings: SettingsDep,
    drawing: Annotated[bool, Query(description="Add what the page draws.")] = False,
) -> Response:
    """One line of `check --json` for the puzzle, plus its rendered grids."""
    return await record_answer(request, runner, settings, 2, solving.check_one, drawing)


@router.post("/v1/count")
async def count(request: PuzzleRequest, runner: RunnerDep, settings: SettingsDep) -> Response:
    """The record of `count --json`: distinct solutions up to `limit` (default 1000)."""
    return await record_answer(request, runner, settings, 1000, solving.count_one)


@router.post("/v1/export", response_class=PlainTextResponse)
async def export(
    request: PuzzleRequest,
    runner: RunnerDep,
    settings: SettingsDep,
    to: Annotated[str, Query(description=f"One of {', '.join(solving.EXPORTS)}.")],
    encoding: Annotated[str, Query(description="CNF encoding for dimacs.")] = "optimised",
) -> PlainTextResponse:
    """The puzzle's model as text: DIMACS CNF or the CP-SAT model as a text proto."""
    chosen = options(request, settings.limits, 2)
    text = await runner.call(solving.export_one, request.puzzle, chosen, to, encoding)
    return PlainTextResponse(text)


@router.post("/v1/prove")
async def prove(
    request: PuzzleRequest,
    runner: RunnerDep,
    settings: SettingsDep,
    store: StoreDep,
    owner: OwnerDep,
) -> JSONResponse:
    """The certificate of `cp-sudoku prove` (verified once written), with links to
    download its CNF and its DRAT proof (`cnf_url`, `proof_url`)."""
    chosen = options(request, settings.limits, 2)
    done = await runner.call(solving.prove_one, request.puzzle, chosen)
    if done["status"] == "unavailable":
        return error(501, f"certificates are not available here: {done['error']}")
    if done["certificate"] is None:
        return JSONResponse({"status": done["status"], "certificate": None})
    links = {}
    for key, media in (("cnf", "text/plain"), ("proof", "text/plain")):
        name = done["certificate"][key]
        if name is not None:
            links[f"{key}_url"] = f"/v1/files/{store.add_file(name, media, done[key], owner)}"
    return JSONResponse(
        {
            "status": done["status"],
            "certificate": done["certificate"],
            "failures": done["failures"],
            **links,
        }
    )


@router.get("/v1/files/{file_id}")
async def download(file_id: str, store: StoreDep, owner: OwnerDep) -> Response:
    """A file kept for download: a certificate's CNF or proof (of this request's token)."""
    found = store.file(file_id, owner) if FILE_ID.match(file_id) else None
    if found is None:
        return error(404, "no such file")
    name, media, content = found
    return Response(
        content,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
