"""The setter's workbench: ``POST /v1/candidates``, ``/v1/suggest``, ``/v1/why`` and
``/v1/workbench`` (everything the page's workbench view shows of one puzzle)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from cp_sudoku.service import setter
from cp_sudoku.service.routes import record_answer
from cp_sudoku.service.schema import PuzzleRequest
from cp_sudoku.service.state import RunnerDep, SettingsDep

router = APIRouter(tags=["workbench"])
#: The largest ``per_candidate`` a request may ask (each count is SAT calls).
MAX_PER_CANDIDATE = 1000
PerCandidate = Annotated[
    int,
    Query(
        ge=0,
        le=MAX_PER_CANDIDATE,
        description="Count the solutions using each candidate, up to this many (0: do not).",
    ),
]


@router.post("/v1/candidates")
async def candidates(
    request: PuzzleRequest,
    runner: RunnerDep,
    settings: SettingsDep,
    per_candidate: PerCandidate = 0,
) -> Response:
    """The record of `candidates --json`: each cell's true candidates, exact."""
    return await record_answer(request, runner, settings, 2, setter.candidates_one, per_candidate)


@router.post("/v1/suggest")
async def suggest(request: PuzzleRequest, runner: RunnerDep, settings: SettingsDep) -> Response:
    """The record of `suggest --json`: givens that make a multiple puzzle unique, checked."""
    return await record_answer(request, runner, settings, 2, setter.suggest_one)


@router.post("/v1/why")
async def why(request: PuzzleRequest, runner: RunnerDep, settings: SettingsDep) -> Response:
    """Why there is no solution: a minimal core of givens and constraints (checked by
    another back end) and the deduction steps to a contradiction."""
    return await record_answer(request, runner, settings, 2, setter.why_one)


@router.post("/v1/workbench")
async def workbench(
    request: PuzzleRequest,
    runner: RunnerDep,
    settings: SettingsDep,
    per_candidate: PerCandidate = 0,
) -> Response:
    """The page's workbench view: the verdict (with `differ` and the count in words), the
    drawing, the true candidates, and a suggestion (multiple) or the core (none)."""
    return await record_answer(request, runner, settings, 2, setter.workbench_one, per_candidate)
