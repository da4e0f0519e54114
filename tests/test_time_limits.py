"""``--time-limit`` (and the service's ``time_limit``) bounds the whole work of a puzzle on
each back end, compiling included: a compile still running at the limit answers
``unknown``, stopped by the ``time limit``, within twice the limit.

The puzzle is issue 20's: a 6x6 KenKen with one cage over all 36 cells, target 126 (every
Latin square meets it, so the answer is ``multiple``).  With ``+`` most back ends encode the
sum directly; with a hidden operator ``?`` (sum or product) they enumerate its table, which
the clock stops.  Each back end's ``seconds`` (its own wall clock, compiling included) is
compared with twice the limit; the machine may be loaded, so nothing here is a speed target.
The service is the shared one of ``conftest.py`` (default limits: a 10 s cap, one worker).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from cp_sudoku.backends import available
from cp_sudoku.backends.minizinc import missing
from cp_sudoku.cli import main

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

CELLS = " ".join(f"r{r}c{c}" for r in range(1, 7) for c in range(1, 7))
#: The cage over all 36 cells, with an operator given (``+``) and hidden (``?``).
CAGE = {op: f"kind: kenken\nsize: 6\ncages:\n126{op} {CELLS}\n" for op in "+?"}
LIMIT = 2.0
#: What a back end may answer on the one-cage KenKen: the truth, or an honest unknown.
HONEST = {
    ("multiple", "solution limit"),
    ("unknown", "time limit"),
    ("unknown", "declined"),
}


def _check_cli(tmp_path: Path, text: str, backends: list[str]) -> dict[str, dict[str, object]]:
    path = tmp_path / "one-cage.txt"
    path.write_text(text)
    chosen = [option for name in backends for option in ("--backend", name)]
    result = CliRunner().invoke(
        main, ["check", str(path), *chosen, "--time-limit", str(LIMIT), "--json", "--jobs", "1"]
    )
    assert result.exit_code in (1, 3), result.output
    return json.loads(result.stdout.splitlines()[0])["backends"]  # type: ignore[no-any-return]


def _check_service(client: TestClient, text: str, backends: list[str]) -> dict[str, dict]:
    # a quick request first: the bound below is for the limited work, not for the worker
    # process's start (its imports take seconds on a loaded machine)
    assert client.post("/v1/check", json={"puzzle": "." * 16, "backends": ["sat"]}).is_success
    started = time.perf_counter()
    answer = client.post(
        "/v1/check", json={"puzzle": text, "backends": backends, "time_limit": LIMIT}
    )
    assert answer.status_code == 200, answer.text
    # every back end runs in turn: at most twice the limit each, and a second to answer
    assert time.perf_counter() - started < 2 * LIMIT * len(backends) + 5
    return answer.json()["backends"]  # type: ignore[no-any-return]


def _assert_bounded(ran: dict[str, dict[str, object]]) -> None:
    for name, result in ran.items():
        assert (result["status"], result["stopped"]) in HONEST, (name, result)
        assert float(result["seconds"]) < 2 * LIMIT, (name, result)  # type: ignore[arg-type]


def test_the_clock_stops_a_table_on_the_command_line_and_in_the_service(
    tmp_path: Path, service: TestClient
) -> None:
    """The quick representative: the hidden-operator cage's table on ``sat``."""
    for ran in (
        _check_cli(tmp_path, CAGE["?"], ["sat"]),
        _check_service(service, CAGE["?"], ["sat"]),
    ):
        assert (ran["sat"]["status"], ran["sat"]["stopped"]) == ("unknown", "time limit")
        _assert_bounded(ran)


@pytest.mark.slow
@pytest.mark.parametrize("op", ["+", "?"])
def test_every_back_end_keeps_the_time_limit(tmp_path: Path, service: TestClient, op: str) -> None:
    backends = [name for name in available() if name != "minizinc" or missing() is None]
    cli = _check_cli(tmp_path, CAGE[op], backends)
    served = _check_service(service, CAGE[op], backends)
    assert set(cli) >= set(backends) and set(served) >= set(backends)
    _assert_bounded(cli)
    _assert_bounded(served)
