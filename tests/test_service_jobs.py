"""Jobs: lifecycle, results in input order as ``check --json`` gives them, cancel, limits,
and a server killed with SIGKILL mid-job that resumes on the same ``--db``."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from service_support import PATIENCE, cli_records, comparable, served, wait_job

from cp_sudoku.datasets import data_dir
from cp_sudoku.model import PuzzleError
from cp_sudoku.service.app import Settings, create_app
from cp_sudoku.service.limits import Limits

LIMITS = Limits(upload_bytes=400_000, puzzles_per_job=4000, queued_jobs=3)


def royle(count: int) -> str:
    """The first ``count`` puzzles of royle-17clue, or a skip when the data is absent."""
    try:
        path = data_dir() / "sudoku" / "royle-17clue.txt"
    except PuzzleError as error:
        pytest.skip(f"shared data absent: {error}")
    with open(path) as handle:
        return "".join(next(handle) for _ in range(count))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("jobs") / "jobs.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, limits=LIMITS))) as test_client:
        yield test_client


def start(client: httpx.Client, text: str, **params: str) -> str:
    answer = client.post("/v1/jobs", content=text, params=params)
    assert answer.status_code == 202, answer.text
    assert answer.headers["location"] == f"/v1/jobs/{answer.json()['id']}"
    return str(answer.json()["id"])


def results(client: httpx.Client, job_id: str) -> list[dict[str, Any]]:
    answer = client.get(f"/v1/jobs/{job_id}/results")
    assert answer.headers["content-type"] == "application/x-ndjson"
    return [json.loads(line) for line in answer.text.splitlines()]


def test_a_job_gives_the_lines_of_check_json_in_input_order(client: TestClient, data: Path) -> None:
    text = royle(150) + "this is not a puzzle\n" + royle(3)
    job_id = start(client, text, backends="sat,backtrack")
    state = wait_job(client, job_id)
    assert state["state"] == "done"
    assert (state["done"], state["total"]) == (154, 154)
    assert state["counts"] == {"unique": 153, "invalid": 1}
    assert state["rate"] > 0
    assert state["eta_seconds"] is None
    got = results(client, job_id)
    expected = cli_records(text, "--backend", "sat", "--backend", "backtrack")
    assert len(got) == len(expected) == 154
    assert [r["line"] for r in got] == list(range(1, 155))
    for served_record, cli_record in zip(got, expected, strict=True):
        assert list(served_record) == list(cli_record)  # same fields, same order
        assert comparable(served_record) | {"error": None} == comparable(cli_record) | {
            "error": None
        }
    assert got[150]["error"] == expected[150]["error"].replace("<stdin>", "<upload>")
    listed = client.get("/v1/jobs").json()["jobs"]
    assert job_id in [job["id"] for job in listed]
    assert client.get(f"/v1/jobs/{job_id}/results", params={"start": 150}).text.count("\n") == 4
    page = client.get(f"/v1/jobs/{job_id}/results", params={"start": 25, "count": 25}).text
    assert [json.loads(line)["line"] for line in page.splitlines()] == list(range(26, 51))
    assert client.delete(f"/v1/jobs/{job_id}").status_code == 409


def test_a_multipart_upload_with_options(client: TestClient, data: Path) -> None:
    text = royle(20)
    answer = client.post(
        "/v1/jobs",
        files={"file": ("../../etc/passwd", text.encode(), "text/plain")},
        data={"backends": "cpsat", "limit": "3", "time_limit": "2"},
    )
    assert answer.status_code == 202, answer.text
    job = answer.json()
    assert job["name"] == "passwd"  # a display name only: never opened, never a path
    assert job["options"] | {"format": None} == job["options"] | {
        "backends": ["cpsat"],
        "limit": 3,
        "time_limit": 2.0,
    }
    assert wait_job(client, job["id"])["counts"] == {"unique": 20}
    assert {tuple(r["backends"]) for r in results(client, job["id"])} == {("cpsat",)}


def test_cancel_keeps_what_is_done(client: TestClient, data: Path) -> None:
    job_id = start(client, royle(4000), backends="backtrack")  # 330 KB: more than a pipe holds
    running = wait_job(client, job_id, lambda s: s["done"] >= 16)
    assert running["state"] == "running"
    assert running["eta_seconds"] > 0
    cancelled = client.delete(f"/v1/jobs/{job_id}").json()
    assert cancelled["state"] == "cancelled"
    time.sleep(0.5)  # let a chunk in flight come back: it must not be stored
    final = client.get(f"/v1/jobs/{job_id}").json()
    kept = results(client, job_id)
    assert final["state"] == "cancelled"
    assert final["done"] == len(kept) < 4000
    assert [r["line"] for r in kept] == list(range(1, len(kept) + 1))


@pytest.mark.parametrize(
    ("content", "params", "status", "says"),
    [
        ("", {}, 422, "no puzzle found"),
        ("#only a comment\n", {}, 422, "no puzzle found"),
        (b"\xff\xfe", {}, 422, "not a UTF-8 text file"),
        ("1" * 16 + "\n", {"backends": "nope"}, 422, "unknown back end 'nope'"),
        ("1" * 16 + "\n", {"limit": "many"}, 422, "limit"),
        ("1" * 16 + "\n", {"limit": "true"}, 422, "limit: Input should be a valid integer"),
        ("1" * 16 + "\n", {"backend": "sat"}, 422, "backend: Extra inputs are not permitted"),
        ("1" * 16 + "\n", {"format": "kuso"}, 422, "unknown format 'kuso'"),
        ("." * 16 + "\n" * 1 + "." * 16 + "\n", {"time_limit": "99"}, 422, "--max-time-limit"),
        (("." * 16 + "\n") * 4001, {}, 413, "4,001 puzzles"),
        ("." * 400_001, {}, 413, "(--max-upload)"),
    ],
)
def test_bad_jobs_are_refused_with_a_reason(
    client: TestClient, content: str | bytes, params: dict[str, str], status: int, says: str
) -> None:
    answer = client.post("/v1/jobs", content=content, params=params)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]


def test_unknown_and_malformed_job_ids_are_404(client: TestClient) -> None:
    for job_id in ("nope", "a" * 65, "..%2F..%2Fetc", "%00"):
        assert client.get(f"/v1/jobs/{job_id}").status_code == 404
        assert client.get(f"/v1/jobs/{job_id}/results").status_code == 404
        assert client.delete(f"/v1/jobs/{job_id}").status_code == 404


def test_job_ids_are_random(client: TestClient) -> None:
    ids = [start(client, "." * 16 + "\n", backends="sat") for _ in range(2)]
    assert ids[0] != ids[1]
    assert all(len(job_id) >= 20 for job_id in ids)
    for job_id in ids:
        wait_job(client, job_id)


def test_past_the_queued_jobs_limit_is_503(client: TestClient, data: Path) -> None:
    first = [start(client, royle(2000), backends="sat") for _ in range(3)]
    answer = client.post("/v1/jobs", content=royle(1))
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    assert "(--max-jobs)" in answer.json()["error"]
    for job_id in first:
        client.delete(f"/v1/jobs/{job_id}")


#: Slow for the tutorial backtracker: it holds a worker until the time limit.
AGAINST_BRUTE_FORCE = (
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
)


@pytest.mark.slow  # three servers, a job through each (8 s): .ci/run runs it
def test_sigterm_then_sigkill_mid_job_then_restart_loses_and_repeats_nothing(
    tmp_path: Path, data: Path
) -> None:
    """One job on one ``--db`` through three servers (each start costs about 2 s of CPU,
    so the two stops share them): the first gets SIGTERM while its worker is busy with a
    long request and stops within 5 s; the second resumes the job and is killed with
    SIGKILL mid-job (the server only: its workers must notice); the third finishes it,
    with nothing lost and nothing repeated."""
    text = royle(600)
    db = tmp_path / "jobs.sqlite3"
    with served(db, 1) as (url, process), httpx.Client(base_url=url, timeout=60) as http:
        job_id = start(http, text, backends="sat")
        before = wait_job(http, job_id, lambda s: s["done"] >= 32)
        slow = {"puzzle": AGAINST_BRUTE_FORCE, "backends": ["backtrack-plain"], "time_limit": 10}
        held: list[httpx.Response] = []
        holder = threading.Thread(target=_post, args=(url, slow, held), daemon=True)
        holder.start()
        deadline = time.monotonic() + PATIENCE
        while http.get("/healthz").json()["admitted"] < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the worker takes the request ahead of the next job chunk
        asked = time.monotonic()
        os.kill(process.pid, signal.SIGTERM)
        process.wait(PATIENCE)
        took = time.monotonic() - asked
        left = _children_of_session(process.pid)
        while left and time.monotonic() < asked + 5:  # e.g. multiprocessing's resource tracker
            time.sleep(0.1)
            left = _children_of_session(process.pid)
        holder.join(PATIENCE)
        said = process.stderr.read().decode()  # type: ignore[union-attr]
    assert took < 5, f"SIGTERM took {took:.1f} s"
    assert not left, f"processes outlived the server by 5 s: {left}"
    # the request it held is told to retry (it was a bare 500, the server's log a traceback)
    assert "Traceback" not in said, said
    assert [(r.status_code, r.headers.get("retry-after")) for r in held] == [(503, "1")]
    assert held[0].json()["error"].startswith("the server is stopping; retry once it is back")
    with served(db, 1) as (url, process), httpx.Client(base_url=url, timeout=60) as http:
        resumed = http.get(f"/v1/jobs/{job_id}").json()
        assert resumed["done"] >= before["done"]  # what was stored is still there
        killed = wait_job(http, job_id, lambda s: s["done"] >= resumed["done"] + 100)
        assert killed["state"] == "running"
        os.kill(process.pid, signal.SIGKILL)  # the server only: its workers must notice
        process.wait(PATIENCE)
        workers = _children_of_session(process.pid)
        deadline = time.monotonic() + 10
        while workers and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children_of_session(process.pid)
        assert not workers, f"workers outlived the server: {workers}"
    with served(db, 1) as (url, _), httpx.Client(base_url=url, timeout=60) as http:
        assert http.get(f"/v1/jobs/{job_id}").json()["done"] >= killed["done"]
        final = wait_job(http, job_id)
        got = results(http, job_id)
    assert final["state"] == "done"
    assert final["done"] == len(got) == 600
    assert [r["line"] for r in got] == list(range(1, 601))  # no gap, no repeat
    expected = cli_records(text, "--backend", "sat")
    assert [r["solution"] for r in got] == [r["solution"] for r in expected]
    assert {r["status"] for r in got} == {"unique"}


def _post(url: str, body: dict[str, Any], answers: list[httpx.Response]) -> None:
    with suppress(httpx.HTTPError):
        answers.append(httpx.post(f"{url}/v1/check", json=body, timeout=PATIENCE))


def _children_of_session(session: int) -> list[int]:
    """Live processes of the session ``session`` (the server's workers), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":  # field 6 of stat: the session id
            found.append(int(entry.name))
    return found
