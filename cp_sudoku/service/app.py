"""The HTTP API and the page: a FastAPI app over the worker pool and the job store.

Routes (JSON, versioned under ``/v1``; the OpenAPI schema is at ``/docs``):

- ``POST /v1/check``, ``/v1/count``, ``/v1/export?to=``, ``/v1/prove``: one puzzle;
- ``POST /v1/jobs`` (multipart file or a text body), ``GET /v1/jobs``,
  ``GET /v1/jobs/{id}``, ``GET /v1/jobs/{id}/results``, ``DELETE /v1/jobs/{id}``;
- ``GET /v1/backends``, ``GET /v1/kinds``, ``GET /healthz``;
- ``GET /`` the page, with ``/app.js`` and ``/app.css``.

Errors are JSON ``{"error": ...}``: 422 for input the server cannot use (with
the CLI's located message and its ``source``, ``line``, ``column``), 413 past
a size limit, 404 for an unknown job, 503 with ``Retry-After`` when every
worker is busy and the queue is full.  A request's paths and fields never
reach the filesystem: the page's files are read once at start-up and a job
id is only ever a key in the store.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cp_sudoku import __version__
from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.service import solving
from cp_sudoku.service.limits import Limits, OverLimit
from cp_sudoku.service.runner import Busy, InputFailure, Runner, as_json
from cp_sudoku.service.store import Store

#: Seconds a client is told to wait after a 503.
RETRY_AFTER = 1
#: The fields of a job's options, from a form or the query string.
_OPTION_FIELDS = ("format", "alphabet", "box", "backends", "limit", "time_limit")
_JOB_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: The page's files: URL path -> (file in ``static/``, media type).
PAGE_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}


@dataclass(frozen=True)
class Settings:
    """What ``cp-sudoku serve`` configures: the store's file, the workers, the limits."""

    db: Path
    workers: int
    limits: Limits = field(default_factory=Limits)


class PuzzleRequest(BaseModel):
    """One puzzle and how to read and check it."""

    puzzle: str = Field(description="One puzzle in any format `check` reads, variants included.")
    format: str | None = Field(None, description=f"One of {', '.join(solving.FORMATS)}.")
    alphabet: str | None = Field(None, description="Symbols of 1..n: 0-9A-F, 1-9A-G, numbers.")
    box: str | None = Field(None, description="Box shape ROWSxCOLUMNS, e.g. 2x3.")
    backends: list[str] | None = Field(
        None, description="Back ends (default cpsat, sat, backtrack)."
    )
    limit: int | None = Field(
        None, ge=1, description="Solutions per back end (default 2 for check, 1000 for count)."
    )
    time_limit: float | None = Field(
        None, gt=0, description="Seconds per back end; default and cap: --max-time-limit."
    )


# --- Errors -----------------------------------------------------------------------------------


def _error(status: int, message: str, /, **extra: Any) -> JSONResponse:
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


def _validation_message(error: RequestValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))


class BodyLimit:
    """ASGI middleware: a request body over its limit is answered 413 before the app reads it.

    ``POST /v1/jobs`` may carry ``upload`` bytes, any other request ``body``
    bytes.  The body is read here (bounded) and handed on whole.
    """

    def __init__(self, app: ASGIApp, body: int, upload: int) -> None:
        self.app, self.body, self.upload = app, body, upload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_upload = scope["method"] == "POST" and scope["path"].rstrip("/") == "/v1/jobs"
        limit, what = (self.upload, "upload") if is_upload else (self.body, "request body")
        flag = "--max-upload" if is_upload else "--max-body"
        message = f"the {what} is over this server's limit of {limit:,} bytes ({flag})"
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _error(413, message)(scope, receive, send)
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
                await _error(413, message)(scope, receive, send)
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


# --- The app ----------------------------------------------------------------------------------


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; the store and the pool start with the app's lifespan."""
    limits = settings.limits
    static = files("cp_sudoku.service") / "static"
    page = {
        path: ((static / name).read_bytes(), media) for path, (name, media) in PAGE_FILES.items()
    }
    examples: dict[str, str] = json.loads((static / "examples.json").read_text("utf-8"))
    listings: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db)
        runner = Runner(store, settings.workers, limits.queue)
        await runner.start()
        app.state.store, app.state.runner = store, runner
        try:
            yield
        finally:
            await runner.close()
            store.close()

    app = FastAPI(
        title="cp-sudoku",
        version=__version__,
        summary="Check, count and export Sudoku-like puzzles; jobs over whole files.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, body=limits.body_bytes, upload=limits.upload_bytes)

    def runner() -> Runner:
        return app.state.runner  # type: ignore[no-any-return]

    def store() -> Store:
        return app.state.store  # type: ignore[no-any-return]

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own refusals (a body it cannot decode: 400; an unknown path: 404)
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(solving.ClientError)
    async def bad_input(_request: Request, error: solving.ClientError) -> JSONResponse:
        fields = solving.error_fields(error)
        return _error(422, fields.pop("error"), **fields)

    @app.exception_handler(InputFailure)
    async def refused(_request: Request, error: InputFailure) -> JSONResponse:
        fields = dict(error.fields)
        return _error(422, fields.pop("error"), **fields)

    @app.exception_handler(OverLimit)
    async def over(_request: Request, error: OverLimit) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(Busy)
    async def busy(_request: Request, _busy: Busy) -> JSONResponse:
        return _error(503, "every worker is busy and the queue is full; retry shortly")

    def options(request: PuzzleRequest, default_limit: int) -> solving.Options:
        chosen = {} if request.backends is None else {"backends": tuple(request.backends)}
        return solving.Options(
            format=request.format,
            alphabet=request.alphabet,
            box=None if request.box is None else parse_box(request.box),
            limit=limits.limit(request.limit or default_limit),
            time_limit=limits.time_limit(request.time_limit),
            **chosen,
        ).validate()

    # --- One puzzle ---

    @app.post("/v1/check", tags=["puzzles"])
    async def check(
        request: PuzzleRequest,
        drawing: Annotated[bool, Query(description="Add what the page draws.")] = False,
    ) -> Response:
        """One line of `check --json` for the puzzle, plus its rendered grids."""
        chosen = options(request, 2)
        record = await runner().call(as_json, solving.check_one, request.puzzle, chosen, drawing)
        return Response(record, media_type="application/json")

    @app.post("/v1/count", tags=["puzzles"])
    async def count(request: PuzzleRequest) -> Response:
        """The record of `count --json`: distinct solutions up to `limit` (default 1000)."""
        chosen = options(request, 1000)
        record = await runner().call(as_json, solving.count_one, request.puzzle, chosen)
        return Response(record, media_type="application/json")

    @app.post("/v1/export", tags=["puzzles"], response_class=PlainTextResponse)
    async def export(
        request: PuzzleRequest,
        to: Annotated[str, Query(description=f"One of {', '.join(solving.EXPORTS)}.")],
        encoding: Annotated[str, Query(description="CNF encoding for dimacs.")] = "optimised",
    ) -> PlainTextResponse:
        """The puzzle's model as text: DIMACS CNF or the CP-SAT model as a text proto."""
        text = await runner().call(
            solving.export_one, request.puzzle, options(request, 2), to, encoding
        )
        return PlainTextResponse(text)

    @app.post("/v1/prove", tags=["puzzles"])
    async def prove(request: PuzzleRequest) -> JSONResponse:
        """The certificate of `cp-sudoku prove` (verified once written), with links to
        download its CNF and its DRAT proof (`cnf_url`, `proof_url`)."""
        done = await runner().call(solving.prove_one, request.puzzle, options(request, 2))
        if done["status"] == "unavailable":
            return _error(501, f"certificates are not available here: {done['error']}")
        if done["certificate"] is None:
            return JSONResponse({"status": done["status"], "certificate": None})
        links = {}
        for key, media in (("cnf", "text/plain"), ("proof", "text/plain")):
            name = done["certificate"][key]
            if name is not None:
                links[f"{key}_url"] = f"/v1/files/{store().add_file(name, media, done[key])}"
        return JSONResponse(
            {
                "status": done["status"],
                "certificate": done["certificate"],
                "failures": done["failures"],
                **links,
            }
        )

    @app.get("/v1/files/{file_id}", tags=["puzzles"])
    async def download(file_id: str) -> Response:
        """A file kept for download: a certificate's CNF or proof."""
        found = store().file(file_id) if _JOB_ID.match(file_id) else None
        if found is None:
            return _error(404, "no such file")
        name, media, content = found
        return Response(
            content,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    # --- Jobs ---

    @app.post("/v1/jobs", tags=["jobs"], status_code=202)
    async def create_job(request: Request) -> JSONResponse:
        """Start a job: a multipart `file` with the check options as form fields, or a text
        body of puzzles with the options in the query string.  202 with `Location`."""
        text, name, fields = await _job_input(request, limits.upload_bytes)
        try:
            body = PuzzleRequest.model_validate({"puzzle": text, **fields})
        except ValidationError as error:
            raise RequestValidationError(error.errors()) from None
        chosen = options(body, 2)
        if store().waiting() >= limits.queued_jobs:
            raise OverLimit(
                503,
                f"{limits.queued_jobs} jobs are already queued or running, this server's "
                "limit (--max-jobs); retry when one is done",
            )
        total = await runner().call(solving.count_puzzles, text, chosen)
        limits.puzzles(total)
        stored = {
            "format": chosen.format,
            "alphabet": chosen.alphabet,
            "box": chosen.box,
            "backends": list(chosen.backends),
            "limit": chosen.limit,
            "time_limit": chosen.time_limit,
        }
        job_id = store().create(name, stored, text, total)
        runner().wake()
        job = store().get(job_id)
        assert job is not None
        return JSONResponse(
            job.public(), status_code=202, headers={"Location": f"/v1/jobs/{job_id}"}
        )

    @app.get("/v1/jobs", tags=["jobs"])
    async def list_jobs() -> JSONResponse:
        """The latest 100 jobs, newest first."""
        return JSONResponse({"jobs": [job.public() for job in store().jobs()]})

    def job_or_404(job_id: str) -> Any:
        job = store().get(job_id) if _JOB_ID.match(job_id) else None
        if job is None:
            return _error(404, "no such job")
        return job

    @app.get("/v1/jobs/{job_id}", tags=["jobs"])
    async def get_job(job_id: str) -> JSONResponse:
        """State, done/total, rate (puzzles/s), eta_seconds and counts by status."""
        job = job_or_404(job_id)
        return job if isinstance(job, JSONResponse) else JSONResponse(job.public())

    @app.get("/v1/jobs/{job_id}/results", tags=["jobs"])
    async def job_results(
        job_id: str, start: Annotated[int, Query(ge=0, description="First index.")] = 0
    ) -> Response:
        """JSON lines in input order: what is done so far, everything once done."""
        job = job_or_404(job_id)
        if isinstance(job, JSONResponse):
            return job
        lines = (line + "\n" for line in store().results(job.id, start))
        filename = f"cp-sudoku-{job.id}.jsonl"
        return StreamingResponse(
            lines,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.delete("/v1/jobs/{job_id}", tags=["jobs"])
    async def cancel_job(job_id: str) -> JSONResponse:
        """Cancel a queued or running job; its finished results stay. 409 if it was over."""
        job = job_or_404(job_id)
        if isinstance(job, JSONResponse):
            return job
        if not runner().cancel(job.id):
            return _error(409, f"the job is already {job.state}")
        return JSONResponse(store().get(job.id).public())  # type: ignore[union-attr]

    # --- Listings and the page ---

    @app.get("/v1/backends", tags=["about"])
    async def backends() -> JSONResponse:
        """The back ends: which run by default, summary, options, statistics, and the
        constraint types each compiles.  A request names back ends and sets `limit` and
        `time_limit`; the back ends' own options keep their defaults."""
        if "backends" not in listings:  # built in a worker: it imports the solvers
            listings["backends"] = await runner().call(solving.backends_listing)
        return JSONResponse({"backends": listings["backends"]})

    @app.get("/v1/kinds", tags=["about"])
    async def kinds() -> JSONResponse:
        """The puzzle kinds, each with an example in the `variant` text format."""
        return JSONResponse(
            {"kinds": [{"kind": kind, "example": examples.get(kind)} for kind in solving.kinds()]}
        )

    @app.get("/healthz", tags=["about"])
    async def healthz() -> JSONResponse:
        """`ok`, the version, the workers and the requests admitted now."""
        return JSONResponse(
            {
                "status": "ok",
                "version": __version__,
                "workers": settings.workers,
                "admitted": runner().admitted,
            }
        )

    for path, (content, media) in page.items():
        app.add_api_route(
            path,
            _page_route(content, media),
            methods=["GET"],
            include_in_schema=False,
        )
    return app


def _page_route(content: bytes, media: str) -> Any:
    async def serve() -> Response:
        return Response(content, media_type=media)

    return serve


async def _job_input(request: Request, upload_bytes: int) -> tuple[str, str, dict[str, Any]]:
    """(puzzles text, display name, option fields) of ``POST /v1/jobs``.

    Multipart: the ``file`` part and the option fields, held in memory (the
    body is bounded by ``--max-upload``).  Otherwise the body is the text and
    the options come from the query string.

    Raises:
        solving.InputError: no ``file`` part, or the text is not UTF-8.
    """
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        parser = MultiPartParser(request.headers, request.stream(), max_files=1, max_fields=16)
        parser.spool_max_size = upload_bytes  # in memory: nothing of a request goes to disk
        parser.max_part_size = upload_bytes
        try:
            form = await parser.parse()
        except MultiPartException as error:
            raise solving.InputError(f"bad multipart body: {error.message}") from None
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise solving.InputError("the multipart body has no 'file' part")
        data, name = await upload.read(), upload.filename or "upload"
        fields: dict[str, Any] = {k: v for k, v in form.multi_items() if k != "file"}
        names = [str(value) for value in form.getlist("backends")]
    else:
        data, name = await request.body(), "body"
        fields = dict(request.query_params)
        names = request.query_params.getlist("backends")
    if names:  # repeated, or comma-separated
        fields["backends"] = [part for value in names for part in value.split(",") if part]
    fields = {k: v for k, v in fields.items() if k in _OPTION_FIELDS and v != ""}
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise solving.InputError(
            f"not a UTF-8 text file ({error.reason} at byte {error.start})"
        ) from None
    return text, Path(name).name[:200], fields
