"""Jobs over whole files: ``POST /v1/jobs`` (multipart file or a text body),
``GET /v1/jobs``, ``GET /v1/jobs/{id}``, ``GET /v1/jobs/{id}/results`` and
``DELETE /v1/jobs/{id}``.  A job id is only ever a key in the store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.formparsers import MultiPartException, MultiPartParser

from cp_sudoku.service import solving
from cp_sudoku.service.body_limit import takes_upload
from cp_sudoku.service.errors import error
from cp_sudoku.service.limits import OverLimit
from cp_sudoku.service.schema import from_text_fields, options
from cp_sudoku.service.state import OwnerDep, RunnerDep, SettingsDep, StoreDep
from cp_sudoku.service.store import Job, Store

router = APIRouter(tags=["jobs"])
JOB_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@router.post("/v1/jobs", status_code=202)
@takes_upload
async def create_job(
    request: Request, runner: RunnerDep, settings: SettingsDep, store: StoreDep, owner: OwnerDep
) -> JSONResponse:
    """Start a job: a multipart `file` with the check options as form fields, or a text
    body of puzzles with the options in the query string.  202 with `Location`."""
    limits = settings.limits
    text, name, fields = await _job_input(request, limits.upload_bytes)
    chosen = options(from_text_fields(text, fields), limits, 2)
    if store.waiting() >= limits.queued_jobs:
        raise OverLimit(
            503,
            f"{limits.queued_jobs} jobs are already queued or running, this server's "
            "limit (--max-jobs); retry when one is done",
        )
    total = await runner.call(solving.count_puzzles, text, chosen)
    limits.puzzles(total)
    stored = {
        "format": chosen.format,
        "alphabet": chosen.alphabet,
        "box": chosen.box,
        "backends": None if chosen.backends is None else list(chosen.backends),
        "limit": chosen.limit,
        "time_limit": chosen.time_limit,
    }
    job_id = store.create(name, stored, text, total, owner)
    runner.wake()
    job = store.get(job_id)
    assert job is not None
    return JSONResponse(job.public(), status_code=202, headers={"Location": f"/v1/jobs/{job_id}"})


@router.get("/v1/jobs")
async def list_jobs(store: StoreDep, owner: OwnerDep) -> JSONResponse:
    """The latest 100 jobs of this request's token, newest first."""
    return JSONResponse({"jobs": [job.public() for job in store.jobs(owner)]})


def _job_or_404(store: Store, job_id: str, owner: str) -> Job | JSONResponse:
    """The job, if it exists and the request's token made it; else the 404 answer."""
    job = store.get(job_id, owner) if JOB_ID.match(job_id) else None
    return error(404, "no such job") if job is None else job


@router.get("/v1/jobs/{job_id}")
async def get_job(job_id: str, store: StoreDep, owner: OwnerDep) -> JSONResponse:
    """State, done/total, rate (puzzles/s), eta_seconds and counts by status."""
    job = _job_or_404(store, job_id, owner)
    return job if isinstance(job, JSONResponse) else JSONResponse(job.public())


@router.get("/v1/jobs/{job_id}/results")
async def job_results(
    job_id: str,
    store: StoreDep,
    owner: OwnerDep,
    start: Annotated[int, Query(ge=0, description="First index.")] = 0,
    count: Annotated[int | None, Query(ge=1, description="Lines at most (default: all).")] = None,
) -> Response:
    """JSON lines in input order from `start`: what is done so far, everything once done
    (`count` of them at most: the page shows one page of the table at a time)."""
    job = _job_or_404(store, job_id, owner)
    if isinstance(job, JSONResponse):
        return job
    lines = (line + "\n" for line in store.results(job.id, start, count))
    filename = f"cp-sudoku-{job.id}.jsonl"
    return StreamingResponse(
        lines,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.delete("/v1/jobs/{job_id}")
async def cancel_job(
    job_id: str, runner: RunnerDep, store: StoreDep, owner: OwnerDep
) -> JSONResponse:
    """Cancel a queued or running job; its finished results stay. 409 if it was over."""
    job = _job_or_404(store, job_id, owner)
    if isinstance(job, JSONResponse):
        return job
    if not runner.cancel(job.id):
        return error(409, f"the job is already {job.state}")
    return JSONResponse(store.get(job.id).public())  # type: ignore[union-attr]


async def _job_input(request: Request, upload_bytes: int) -> tuple[str, str, dict[str, Any]]:
    """(puzzles text, display name, option fields) of ``POST /v1/jobs``.

    Multipart: the ``file`` part and the option fields, held in memory (the
    body is bounded by ``--max-upload``).  Otherwise the body is the text and
    the options come from the query string.  ``backends`` may be repeated or
    comma-separated; an empty field counts as absent.

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
        except MultiPartException as failure:
            raise solving.InputError(f"bad multipart body: {failure.message}") from None
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
    fields = {k: v for k, v in fields.items() if v != ""}
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        raise solving.InputError(
            f"not a UTF-8 text file ({failure.reason} at byte {failure.start})"
        ) from None
    return text, Path(name).name[:200], fields
