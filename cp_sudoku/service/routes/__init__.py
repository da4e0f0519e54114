"""The service's routes, one router per area: :mod:`.puzzles` (one puzzle), :mod:`.jobs`
(whole files), :mod:`.about` (listings and health) and :mod:`.page` (the web page);
:func:`record_answer` is the body of every route that answers one puzzle's JSON record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.responses import Response

from cp_sudoku.service.runner import Runner, as_json
from cp_sudoku.service.schema import PuzzleRequest, options
from cp_sudoku.service.state import Settings


async def record_answer(
    request: PuzzleRequest,
    runner: Runner,
    settings: Settings,
    default_limit: int,
    function: Callable[..., Any],
    *args: Any,
) -> Response:
    """``function(puzzle, options, *args)`` run in a worker, its record answered as JSON.

    ``options`` are the request's, under the server's limits, with ``limit``
    ``default_limit`` when the request gives none.

    Raises:
        solving.InputError, OverLimit: bad options (see :func:`~cp_sudoku.service.schema.options`);
        runner.Busy, runner.InputFailure: as :meth:`~cp_sudoku.service.runner.Runner.call`.
    """
    chosen = options(request, settings.limits, default_limit)
    record = await runner.call(as_json, function, request.puzzle, chosen, *args)
    return Response(record, media_type="application/json")
