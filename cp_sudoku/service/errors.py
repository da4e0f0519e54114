"""The service's error answers: JSON ``{"error": ...}`` with the HTTP status, one handler each.

400 for a body that is not JSON (where it breaks: line, column, character),
422 for input the server cannot use (with the CLI's located message and its
``source``, ``line``, ``column``), 413 past a size limit, 404 for an unknown
job or file, 503 with ``Retry-After`` when every worker is busy and the queue
is full, or the server stops before a request's answer comes.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from cp_sudoku.service import solving
from cp_sudoku.service.limits import OverLimit
from cp_sudoku.service.runner import Busy, InputFailure

#: Seconds a client is told to wait after a 503.
RETRY_AFTER = 1


def error(status: int, message: str, /, **extra: Any) -> JSONResponse:
    """The JSON answer ``{"error": message, **extra}`` (with ``Retry-After`` for a 503)."""
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


def validation_message(failure: RequestValidationError) -> str:
    """The first problem of a refused request as ``field: what is wrong``.

    A field the request may not carry is named: ``backend: extra inputs are not permitted``.
    """
    first = failure.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    said = str(first.get("msg", "invalid"))
    return f"{where}: {said}" if where else said


def not_json(failure: RequestValidationError) -> str | None:
    """For a body that is not JSON, ``the body is not valid JSON: Expecting value at line 1
    column 1 (char 0)`` (FastAPI keeps the decoder's words and position); else None."""
    first = failure.errors()[0]
    if first.get("type") != "json_invalid":
        return None
    body = failure.body
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body or "")
    at = first["loc"][-1] if isinstance(first["loc"][-1], int) else 0
    said = json.JSONDecodeError(str(first.get("ctx", {}).get("error", "invalid")), text, at)
    at_words = said.msg if said.msg.endswith(" at") else f"{said.msg} at"  # "starting at"
    return (
        f"the body is not valid JSON: {at_words} line {said.lineno} column {said.colno} "
        f"(char {said.pos})"
    )


def install(app: FastAPI) -> None:
    """Register the error handlers on ``app``."""

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, failure: RequestValidationError) -> JSONResponse:
        broken = not_json(failure)
        return error(400, broken) if broken else error(422, validation_message(failure))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, failure: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own refusals (a body it cannot decode: 400; an unknown path: 404)
        return error(failure.status_code, str(failure.detail))

    @app.exception_handler(solving.ClientError)
    async def bad_input(_request: Request, failure: solving.ClientError) -> JSONResponse:
        fields = solving.error_fields(failure)
        return error(422, fields.pop("error"), **fields)

    @app.exception_handler(InputFailure)
    async def refused(_request: Request, failure: InputFailure) -> JSONResponse:
        fields = dict(failure.fields)
        return error(422, fields.pop("error"), **fields)

    @app.exception_handler(OverLimit)
    async def over(_request: Request, failure: OverLimit) -> JSONResponse:
        return error(failure.status, failure.message)

    @app.exception_handler(Busy)
    async def busy(_request: Request, busy: Busy) -> JSONResponse:
        return error(503, str(busy) or "every worker is busy and the queue is full; retry shortly")
