"""The body of a one-puzzle request, and the solving options it gives.

Fields are checked strictly: an unknown field is refused (422 naming it, so
a typo such as ``"backend"`` is not silently ignored), and ``limit`` must be
a JSON integer (``true`` and ``"2"`` are refused).  A job's options arrive
as text (form fields or the query string) and are read with the same model,
numbers from their decimal text.
"""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.service import solving
from cp_sudoku.service.limits import Limits

#: The most back ends a request may name (each at most once counts; repeats are dropped).
MAX_BACKENDS = 16


class PuzzleRequest(BaseModel):
    """One puzzle and how to read and check it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    puzzle: str = Field(description="One puzzle in any format `check` reads, variants included.")
    format: str | None = Field(None, description=f"One of {', '.join(solving.FORMATS)}.")
    alphabet: str | None = Field(None, description="Symbols of 1..n: 0-9A-F, 1-9A-G, numbers.")
    box: str | None = Field(None, description="Box shape ROWSxCOLUMNS, e.g. 2x3.")
    backends: list[str] | None = Field(
        None,
        max_length=MAX_BACKENDS,
        description="Back ends (default: sat and kernel; cpsat, sat and backtrack on a puzzle "
        "with rules the kernel declines); a repeated name runs once.",
    )
    limit: int | None = Field(
        None, ge=1, description="Solutions per back end (default 2 for check, 1000 for count)."
    )
    time_limit: float | None = Field(
        None, gt=0, description="Seconds per back end; default and cap: --max-time-limit."
    )
    grade: bool = Field(
        False, description="Also grade the puzzle by logic (check): band, rating, techniques."
    )


def from_text_fields(text: str, fields: dict[str, Any]) -> PuzzleRequest:
    """A job's request: ``text`` and the option ``fields`` as a form or query string gives them.

    Raises:
        RequestValidationError: an unknown field, or a value that does not read.
    """
    try:
        return PuzzleRequest.model_validate({"puzzle": text, **fields}, strict=False)
    except ValidationError as failure:
        raise RequestValidationError(failure.errors()) from None


def options(request: PuzzleRequest, limits: Limits, default_limit: int) -> solving.Options:
    """The validated solving options of ``request`` under the server's ``limits``.

    Raises:
        solving.InputError: an unknown format or back end, a bad alphabet or box.
        OverLimit: ``limit`` or ``time_limit`` over its cap.
    """
    chosen = {}
    if request.backends is not None:  # each named back end runs once
        chosen["backends"] = tuple(dict.fromkeys(request.backends))
    return solving.Options(
        format=request.format,
        alphabet=request.alphabet,
        box=None if request.box is None else parse_box(request.box),
        limit=limits.limit(request.limit or default_limit),
        time_limit=limits.time_limit(request.time_limit),
        grade=request.grade,
        **chosen,
    ).validate()
