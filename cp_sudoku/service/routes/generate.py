"""Generation: ``POST /v1/generate``, what ``cp-sudoku generate --json`` prints, as one reply."""

from __future__ import annotations

import time
from contextlib import closing
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from cp_sudoku.generate import KINDS, SYMMETRIES, OutOfTries, Request
from cp_sudoku.generate.grading import parse_target
from cp_sudoku.generate.stream import generate as stream
from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.model import UsageError
from cp_sudoku.service.runner import as_json
from cp_sudoku.service.state import RunnerDep, SettingsDep

router = APIRouter(tags=["generate"])
#: The most puzzles one request may ask for (each is made, graded and cross-checked).
MAX_COUNT = 100


class GenerateRequest(BaseModel):
    """What to generate (the options of ``cp-sudoku generate``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: str = Field("sudoku", description=f"One of {', '.join(KINDS)}.")
    size: int | None = Field(None, ge=2, le=36, description="n (default 9; Kakuro 6).")
    box: str | None = Field(None, description="Box shape ROWSxCOLUMNS, e.g. 2x3.")
    extras: list[str] = Field([], description="Sudoku extras: diagonals, windows, ...")
    regions: str | None = Field(None, description="Jigsaw regions: n*n labels, row-major.")
    symmetry: str = Field("none", description=f"One of {', '.join(SYMMETRIES)}.")
    minimal: bool = Field(True, description="Dig until no given (orbit) can go.")
    grade: str | None = Field(None, description="A band (easy ... extreme), BAND+ for harder.")
    rating: str | None = Field(None, description="An ER-like range LOW-HIGH, e.g. 6.0-7.5.")
    seed: int = Field(0, description="Puzzle k depends only on the seed and k.")
    count: int = Field(1, ge=1, le=MAX_COUNT, description=f"Puzzles, 1..{MAX_COUNT}.")
    max_tries: int = Field(200, ge=1, le=2000, description="Drafts per puzzle for a grade.")
    time_limit: float | None = Field(
        None,
        gt=0,
        description="Wall-clock seconds per puzzle; default and cap: --max-time-limit. "
        "A puzzle not made in time is listed under `failed`.",
    )


def generate_records(fields: dict[str, Any]) -> dict[str, Any]:
    """In a worker: the records of the puzzles asked for, and the ones out of tries.

    Raises:
        UsageError: a bad option (a symmetry the shape cannot have, a grade no
            puzzle reaches, an unknown kind).
    """
    size = fields["size"] or (6 if fields["kind"] == "kakuro" else 9)
    regions = fields["regions"]
    if regions is not None:
        regions = tuple(ch for ch in regions if not ch.isspace())
        if len(regions) != size * size:
            raise UsageError(f"regions needs {size * size} labels, got {len(regions)}")
    if fields["symmetry"] not in SYMMETRIES:
        raise UsageError(f"unknown symmetry {fields['symmetry']!r}: one of {', '.join(SYMMETRIES)}")
    request = Request(
        kind=fields["kind"],
        size=size,
        box=parse_box(fields["box"]) if fields["box"] else None,
        extras=tuple(fields["extras"]),
        regions=regions,
        symmetry=fields["symmetry"],
        minimal=fields["minimal"],
        target=parse_target(fields["grade"], fields["rating"]),
        max_tries=fields["max_tries"],
        time_limit=fields["time_limit"],
    )
    made, failed = [], []
    count, budget = fields["count"], fields["request_seconds"]
    deadline = time.monotonic() + budget
    with closing(stream(request, count, seed=fields["seed"])) as results:
        for done, result in enumerate(results, start=1):
            if isinstance(result, OutOfTries):
                failed.append(str(result))
            else:
                made.append(result.record())
            if done < count and time.monotonic() >= deadline:
                failed.append(
                    f"puzzles {done + 1} to {count} not made: the request passed its "
                    f"{budget:g} s (--max-time-limit)"
                )
                break
    return {"puzzles": made, "failed": failed}


@router.post("/v1/generate")
async def generate(request: GenerateRequest, runner: RunnerDep, settings: SettingsDep) -> Response:
    """Unique, minimal puzzles (cross-checked by the default back ends) of a kind,
    symmetry and grade: each as in `generate --json` (variant `text`, one `line` for a
    plain Sudoku, `solution`, `grade`, `seed` and `index`); `failed` says which were
    not made (out of tries, or past `time_limit`).  The whole request stops making
    puzzles once it has run for the server's `--max-time-limit` (so it holds a worker
    at most about twice that); the rest are listed under `failed`."""
    fields = request.model_dump()
    fields["time_limit"] = settings.limits.time_limit(request.time_limit)
    fields["request_seconds"] = settings.limits.max_time_limit
    record = await runner.call(as_json, generate_records, fields)
    return Response(record, media_type="application/json")
