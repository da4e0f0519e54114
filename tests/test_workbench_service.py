"""The workbench endpoints: the same records as the commands, and the same refusals."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from workbench_support import snake_palindrome

from cp_sudoku.cli import main as cli

THREE_SOLUTIONS = "34..12.....3...."
HIDDEN_NONE = "8..6......95.......76.........426798...571243...893165......916....3.487....1.532"


@pytest.fixture
def client(service: TestClient) -> TestClient:
    """The session's shared service (tests/conftest.py): default limits, one worker."""
    return service


def _cli(*args: str) -> dict:
    return json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)


def test_candidates_endpoint_equals_the_command(client: TestClient) -> None:
    answer = client.post("/v1/candidates?per_candidate=4", json={"puzzle": THREE_SOLUTIONS})
    assert answer.status_code == 200
    record = answer.json()
    expected = _cli("candidates", THREE_SOLUTIONS, "--per-candidate", "4")
    for key in ("status", "candidates", "counts", "cap", "refuted"):
        assert record[key] == expected[key], key


def test_suggest_and_why_endpoints(client: TestClient) -> None:
    suggestion = client.post("/v1/suggest", json={"puzzle": THREE_SOLUTIONS}).json()
    assert suggestion["status"] == "unique" and suggestion["added"] == 1
    why = client.post("/v1/why", json={"puzzle": HIDDEN_NONE}).json()
    assert why["minimal"] is True and len(why["core"]) == 9
    assert "r1c4" in why["cells"]


def test_workbench_view_multiple_and_none(client: TestClient) -> None:
    multiple = client.post("/v1/workbench", json={"puzzle": THREE_SOLUTIONS}).json()
    assert multiple["check"]["status"] == "multiple" and multiple["check"]["differ"]
    assert multiple["second"] is not None and multiple["suggestion"]["status"] == "unique"
    assert multiple["candidates"]["candidates"]["r1c3"] == [1, 2]
    none = client.post("/v1/workbench", json={"puzzle": HIDDEN_NONE}).json()
    assert none["check"]["status"] == "none" and "cannot all hold" in none["check"]["reason"]
    assert none["core"]["cells"] and none["candidates"]["status"] == "none"


@pytest.mark.parametrize("path", ["/v1/candidates", "/v1/suggest", "/v1/why", "/v1/workbench"])
def test_bad_puzzle_is_refused_as_check_refuses_it(client: TestClient, path: str) -> None:
    answer = client.post(path, json={"puzzle": "12x"})
    checked = client.post("/v1/check", json={"puzzle": "12x"})
    assert answer.status_code == checked.status_code == 422
    assert answer.json()["error"] == checked.json()["error"]


def test_per_candidate_over_the_cap_is_refused(client: TestClient) -> None:
    answer = client.post("/v1/candidates?per_candidate=100000", json={"puzzle": THREE_SOLUTIONS})
    assert answer.status_code in (400, 422)


def test_candidates_endpoint_takes_the_time_limit(client: TestClient, data) -> None:  # type: ignore[no-untyped-def]
    sandwich = (data / "fpuzzles" / "rangsk-sandwich-sudoku.json").read_text(encoding="utf-8")
    answer = client.post("/v1/candidates", json={"puzzle": sandwich, "time_limit": 0.05})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "unknown" and answer.json()["stopped"] == "time limit"
    over = client.post("/v1/candidates", json={"puzzle": THREE_SOLUTIONS, "time_limit": 1e6})
    assert over.status_code == 422 and "time_limit" in over.json()["error"]


def test_why_endpoint_keeps_one_deadline(client: TestClient) -> None:
    """``/v1/why`` under ``time_limit`` 1 on a puzzle whose deduction runs for minutes: an
    answer within twice the limit that says the time limit stopped it."""
    assert client.post("/v1/why", json={"puzzle": HIDDEN_NONE}).is_success  # the worker is up
    started = time.perf_counter()
    answer = client.post("/v1/why", json={"puzzle": snake_palindrome(), "time_limit": 1})
    assert time.perf_counter() - started < 2 * 1 + 1  # a second to answer
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["stopped"] == "time limit" and record["outcome"] == "timeout"
    assert record["minimal"] is not False
