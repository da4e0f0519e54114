"""The HTTP API for one puzzle, against the in-process test client and a real uvicorn server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from service_support import PATIENCE, TUTORIAL, TUTORIAL_SOLUTION, cli_records, comparable, served

from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.cli import main as cli
from cp_sudoku.encodings.exporters import EXPORTERS
from cp_sudoku.io import read_text
from cp_sudoku.model import is_solution
from cp_sudoku.service.app import Settings, create_app
from cp_sudoku.service.limits import Limits
from cp_sudoku.service.runner import Busy, Runner
from cp_sudoku.service.store import Store

LIMITS = Limits(body_bytes=4096, max_limit=5000, max_time_limit=5.0)


@pytest.fixture(scope="module")
def inprocess(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("api") / "jobs.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, limits=LIMITS))) as client:
        yield client


@pytest.fixture(scope="module")
def uvicorn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    db = tmp_path_factory.mktemp("api-uvicorn") / "jobs.sqlite3"
    with (
        served(db, 1, "--max-body", "4", "--max-limit", "5000", "--max-time-limit", "5") as (
            url,
            _,
        ),
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        yield client


@pytest.fixture(params=["inprocess", "uvicorn"])
def api(request: pytest.FixtureRequest) -> httpx.Client:
    """Each test runs against both: the in-process client and a real server on 127.0.0.1."""
    name = "inprocess" if request.param == "inprocess" else "uvicorn_server"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


def test_check_gives_the_record_of_check_json(api: httpx.Client) -> None:
    answer = api.post("/v1/check", json={"puzzle": TUTORIAL}, params={"drawing": "true"})
    assert answer.status_code == 200
    record = answer.json()
    assert record["status"] == "unique"
    assert record["solution"] == TUTORIAL_SOLUTION
    assert record["source"] == "<request>"
    assert {r["status"] for r in record["backends"].values()} == {"unique"}
    (expected,) = cli_records(TUTORIAL)
    served = {key: value for key, value in record.items() if key not in ("rendered", "drawing")}
    assert list(served) == list(expected)  # the same fields in the same order
    assert comparable(served)["status"] == comparable(expected)["status"]
    assert comparable(served)["solution"] == comparable(expected)["solution"]
    assert record["rendered"]["puzzle"].splitlines()[0] == "5 3 . | . 7 . | . . ."
    assert record["rendered"]["solution"].splitlines()[0] == "5 3 4 | 6 7 8 | 9 1 2"
    assert record["drawing"]["solution"] == list(TUTORIAL_SOLUTION)
    plain = api.post("/v1/check", json={"puzzle": TUTORIAL}).json()
    assert list(plain) == [*expected, "rendered"]  # the drawing only when asked


def test_check_reads_variants_and_limits_the_back_ends(api: httpx.Client) -> None:
    example = files("cp_sudoku.service").joinpath("static/examples.json").read_text("utf-8")
    text = json.loads(example)["kenken"]
    body = {"puzzle": text, "backends": ["sat", "backtrack"]}
    record = api.post("/v1/check", json=body, params={"drawing": "true"}).json()
    assert record["status"] == "unique"
    assert list(record["backends"]) == ["sat", "backtrack"]
    puzzle = next(read_text(text)).puzzle
    assert puzzle is not None
    assert is_solution(puzzle, tuple(int(s) for s in record["solution"]))
    assert [c["label"] for c in record["drawing"]["cages"]][:2] == ["2*", "7+"]


def test_the_default_back_ends_are_chosen_per_puzzle_and_named_ones_all_run(
    api: httpx.Client,
) -> None:
    classic = api.post("/v1/check", json={"puzzle": TUTORIAL}).json()
    assert list(classic["backends"]) == ["sat", "kernel"]
    example = files("cp_sudoku.service").joinpath("static/examples.json").read_text("utf-8")
    kenken = api.post("/v1/check", json={"puzzle": json.loads(example)["kenken"]}).json()
    assert list(kenken["backends"]) == ["cpsat", "sat", "kernel", "backtrack"]
    assert kenken["declined"] == ["kernel"] and kenken["status"] == "unique"
    named = {"puzzle": TUTORIAL, "backends": ["cpsat", "sat", "kernel"]}
    assert list(api.post("/v1/check", json=named).json()["backends"]) == named["backends"]
    listed = {b["name"]: b["default_on"] for b in api.get("/v1/backends").json()["backends"]}
    assert listed["sat"] == listed["kernel"] == "every puzzle" and listed["mip"] is None
    assert listed["cpsat"].startswith("puzzles with rules the kernel declines")


def test_check_of_a_puzzle_with_several_solutions(api: httpx.Client) -> None:
    record = api.post("/v1/check", json={"puzzle": "." * 16}, params={"drawing": "1"}).json()
    assert record["status"] == "multiple"
    assert record["solution"] is None
    assert record["drawing"]["solution"] is not None  # one of them is drawn


def test_count_gives_the_record_of_count_json(api: httpx.Client) -> None:
    record = api.post("/v1/count", json={"puzzle": "." * 16, "backends": ["sat", "cpsat"]}).json()
    assert record == record | {"count": 288, "exact": True, "limit": 1000}
    expected = json.loads(
        CliRunner()
        .invoke(cli, ["count", "." * 16, "--json", "--backend", "sat", "--backend", "cpsat"])
        .stdout
    )
    assert list(record) == list(expected)
    assert list(record["backends"]["sat"]) == list(expected["backends"]["sat"])
    stopped = api.post("/v1/count", json={"puzzle": "." * 16, "limit": 10}).json()
    assert stopped["exact"] is False
    assert stopped["count"] >= 10  # each back end stopped at 10; the union is counted


def test_export(api: httpx.Client) -> None:
    body = {"puzzle": "......122..4.4.."}
    dimacs = api.post("/v1/export", params={"to": "dimacs"}, json=body)
    assert dimacs.status_code == 200
    assert dimacs.headers["content-type"].startswith("text/plain")
    expected = CliRunner().invoke(cli, ["export", "......122..4.4..", "--to", "dimacs"]).stdout
    assert dimacs.text == expected
    proto = api.post("/v1/export", params={"to": "cpsat"}, json=body)
    assert "variables" in proto.text
    refused = api.post("/v1/export", params={"to": "pdf"}, json=body)
    assert refused.status_code == 422
    assert refused.json()["error"].endswith(f"choose one of {', '.join(EXPORTERS)}")
    fpuzzles = api.post("/v1/export", params={"to": "fpuzzles"}, json=body)
    assert fpuzzles.status_code == 200 and "f-puzzles.com/?load=" in fpuzzles.text


def test_the_service_page_lists_every_export_target() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "service.md").read_text()
    assert f"POST /v1/export?to={'|'.join(EXPORTERS)}" in page


def test_prove_gives_a_certificate_and_its_files(api: httpx.Client) -> None:
    answer = api.post("/v1/prove", json={"puzzle": "......122..4.4.."})
    if answer.status_code == 501:  # the prover cannot be imported in this checkout
        assert "not available" in answer.json()["error"]
        return
    assert answer.status_code == 200, answer.text
    done = answer.json()
    assert done["status"] == done["certificate"]["status"] == "unique"
    assert done["certificate"]["checked"] is True
    assert done["failures"] == []
    cnf = api.get(done["cnf_url"])
    assert cnf.headers["content-disposition"].endswith('certificate.cnf"')
    assert "p cnf" in cnf.text
    assert api.get(done["proof_url"]).status_code == 200
    assert api.get("/v1/files/nope").status_code == 404


def test_bad_puzzle_gets_the_cli_message_and_location(api: httpx.Client) -> None:
    bad = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7x"
    answer = api.post("/v1/check", json={"puzzle": bad})
    assert answer.status_code == 422
    error = answer.json()
    said = CliRunner().invoke(cli, ["check", bad]).stderr.splitlines()[0]
    assert said == f"cp-sudoku: error: <argument>:1:{error['column']}: {error['message']}"
    assert error["error"] == f"<request>:1:{error['column']}: {error['message']}"
    assert (error["source"], error["line"], error["column"]) == ("<request>", 1, 81)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"puzzle": TUTORIAL, "backends": ["nope"]}, "unknown back end 'nope'"),
        ({"puzzle": TUTORIAL, "backends": []}, "no back end"),
        ({"puzzle": TUTORIAL, "format": "xcsp3"}, "unknown format 'xcsp3'"),
        ({"puzzle": TUTORIAL, "box": "3by3"}, "expected a box RxC such as 2x3"),
        ({"puzzle": TUTORIAL, "box": "0x9"}, "expected a box RxC such as 2x3, got '0x9'"),
        ({"puzzle": TUTORIAL, "alphabet": "11"}, "repeated symbol"),
        ({"puzzle": TUTORIAL, "limit": 0}, "limit"),
        ({"puzzle": TUTORIAL, "limit": 10**6}, "cap of 5,000 (--max-limit)"),
        ({"puzzle": TUTORIAL, "time_limit": 60}, "cap of 5 s (--max-time-limit)"),
        ({"puzzle": TUTORIAL, "time_limit": -1}, "time_limit"),
        ({"puzzle": TUTORIAL + "\n" + TUTORIAL}, "takes one puzzle; the text holds 2"),
        ({"puzzle": ""}, "no puzzle found"),
        ({"puzzle": "kind: kenken\nsize: 4\ncages:\n9* r1c1 r1c2"}, ""),
        ({"puzzle": 12}, "puzzle"),
        ({"puzzle": TUTORIAL, "backend": ["sat"]}, "backend: Extra inputs are not permitted"),
        ({"puzzle": TUTORIAL, "explain": True}, "explain: Extra inputs are not permitted"),
        ({"puzzle": TUTORIAL, "limit": True}, "limit: Input should be a valid integer"),
        ({"puzzle": TUTORIAL, "limit": "2"}, "limit: Input should be a valid integer"),
        ({"puzzle": TUTORIAL, "limit": 2.5}, "limit: Input should be a valid integer"),
        ({"puzzle": TUTORIAL, "time_limit": "2"}, "time_limit: Input should be a valid number"),
        ({"puzzle": TUTORIAL, "backends": ["sat"] * 40}, "backends: List should have at most"),
        ({}, "puzzle"),
        ([], ""),
    ],
)
def test_bad_requests_are_422_with_a_reason(api: httpx.Client, body: object, says: str) -> None:
    answer = api.post("/v1/check", json=body)
    assert answer.status_code == 422, answer.text
    assert says in answer.json()["error"]


def test_a_repeated_back_end_runs_once(api: httpx.Client) -> None:
    body = {"puzzle": TUTORIAL, "backends": ["sat", "backtrack", "sat", "sat"]}
    record = api.post("/v1/check", json=body).json()
    assert list(record["backends"]) == ["sat", "backtrack"]
    assert record["status"] == "unique"


@pytest.mark.parametrize(
    "content",
    [b"{", b"\xff\xfe\x00", b"null", b'{"puzzle": "' + b"\xc3" + b'"}', b"[" * 2000],
)
def test_malformed_bodies_are_4xx_never_500(api: httpx.Client, content: bytes) -> None:
    answer = api.post("/v1/check", content=content, headers={"content-type": "application/json"})
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["error"]


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"not json", "Expecting value at line 1 column 1 (char 0)"),
        (b'{"puzzle": "12.4....', "Unterminated string starting at line 1 column 12 (char 11)"),
        (b'{\n  "puzzle": "1234",\n  oops}', "double quotes at line 3 column 3 (char 24)"),
    ],
)
def test_a_body_that_is_not_json_is_400_saying_where(
    api: httpx.Client, content: bytes, where: str
) -> None:
    answer = api.post("/v1/check", content=content, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    said = answer.json()["error"]
    assert said.startswith("the body is not valid JSON: ") and said.endswith(where), said


def test_body_over_the_limit_is_413(api: httpx.Client) -> None:
    answer = api.post("/v1/check", json={"puzzle": "." * 5000})
    assert answer.status_code == 413
    assert "4,096 bytes (--max-body)" in answer.json()["error"]
    chunked = api.post("/v1/check", content=iter([b'{"puzzle": "', b"." * 5000, b'"}']))
    assert chunked.status_code == 413


def test_listings_health_and_schema(api: httpx.Client) -> None:
    backends = api.get("/v1/backends").json()["backends"]
    assert [b["name"] for b in backends if b["default"]] == list(DEFAULT_BACKENDS)
    sat = next(b for b in backends if b["name"] == "sat")
    assert sat["options"]["encoding"]["choices"] == [
        "minimal",
        "efficient",
        "extended",
        "optimised",
    ]
    assert "conflicts" in sat["statistics"]
    kinds = {k["kind"]: k["example"] for k in api.get("/v1/kinds").json()["kinds"]}
    assert set(kinds) >= {"sudoku", "killer", "kenken", "kakuro", "jigsaw", "x-sudoku", "windoku"}
    assert all(kinds.values())  # an example for every kind
    assert api.get("/healthz").json()["status"] == "ok"
    paths = api.get("/openapi.json").json()["paths"]
    assert {"/v1/check", "/v1/count", "/v1/export", "/v1/prove", "/v1/jobs"} <= set(paths)
    assert api.get("/v1/nothing").status_code == 404


def test_every_kind_example_is_unique(inprocess: TestClient) -> None:
    for kind in inprocess.get("/v1/kinds").json()["kinds"]:
        body = {"puzzle": kind["example"]}
        record = inprocess.post("/v1/check", json=body, params={"drawing": "true"}).json()
        assert record["status"] == "unique", kind["kind"]
        assert record["drawing"]["kind"] in (kind["kind"], "sudoku")  # x-sudoku: sudoku + extras


def test_the_page_fetches_nothing_from_elsewhere(api: httpx.Client) -> None:
    for path in ("/", "/app.js", "/app.css"):
        answer = api.get(path)
        assert answer.status_code == 200
        assert not re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//""", answer.text)
    assert '<table id="entry"' in api.get("/").text


def test_docs_need_no_internet(api: httpx.Client) -> None:
    docs = api.get("/docs")
    assert docs.status_code == 200
    scripts = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", docs.text)
    assert scripts, docs.text
    for address in scripts:
        assert not re.match(r"(https?:)?//", address), address  # nothing from a CDN
        fetched = api.get(address)
        assert fetched.status_code == 200, address
        assert len(fetched.content) > 1000  # the real Swagger UI files
    assert "SwaggerUIBundle" in docs.text


def test_full_queue_is_503_with_retry_after(inprocess: TestClient) -> None:
    runner: Runner = inprocess.app.state.runner  # type: ignore[attr-defined]
    held = runner.admitted
    runner.admitted = runner.capacity  # every worker busy, every queue place taken
    try:
        answer = inprocess.post("/v1/check", json={"puzzle": TUTORIAL})
    finally:
        runner.admitted = held
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    assert inprocess.post("/v1/check", json={"puzzle": TUTORIAL}).status_code == 200


def test_busy_is_raised_past_the_capacity(tmp_path: Path) -> None:
    async def scenario() -> None:
        runner = Runner(Store(tmp_path / "jobs.sqlite3"), workers=1, queue=0)
        try:
            runner.admitted = 1
            with pytest.raises(Busy):
                await runner.call(print)
        finally:
            await runner.close()

    asyncio.run(scenario())


def test_a_killed_worker_is_replaced(inprocess: TestClient) -> None:
    runner: Runner = inprocess.app.state.runner  # type: ignore[attr-defined]
    victim = runner._pool._workers[0].process
    os.kill(victim.pid, signal.SIGKILL)  # type: ignore[arg-type]
    victim.join(PATIENCE)
    for _ in range(2 * runner.workers):  # every worker answers, the new one included
        answer = inprocess.post("/v1/check", json={"puzzle": TUTORIAL})
        assert answer.status_code in (200, 503)  # 503 only for a request the kill caught
    assert inprocess.post("/v1/check", json={"puzzle": TUTORIAL}).json()["status"] == "unique"
    assert victim not in [w.process for w in runner._pool._workers]


def test_check_grades_when_asked(api: httpx.Client) -> None:
    graded = api.post("/v1/check", json={"puzzle": TUTORIAL, "grade": True}).json()
    assert graded["status"] == "unique"
    assert graded["grade"]["band"] == "easy" and graded["grade"]["solved"] is True
    assert graded["grade"]["rating"] == 1.2 and graded["grade"]["techniques"]["hidden single"] > 0
    assert "grade" not in api.post("/v1/check", json={"puzzle": TUTORIAL}).json()
