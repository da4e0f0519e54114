"""The solve loop: input order kept, several processes, bounded memory, stated solutions."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import cycle, islice
from pathlib import Path

from conftest import lines

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.display import error_record, verdict_record
from cp_sudoku.io import Entry, parse_line, read_text
from cp_sudoku.run import InProcess, Outcome, Plan, ProcessPool, check, run, stated_mismatch
from cp_sudoku.run.loop import CHUNK_MOST
from cp_sudoku.run.summary import Summary
from cp_sudoku.run.work import Checked

ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
EASTER_SOLUTION = tuple(
    int(ch)
    for ch in "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
)


def check_entries(entries: Iterator[Entry], plan: Plan, jobs: int = 1) -> Iterator[Outcome]:
    """Cross-check every entry in ``jobs`` processes (this process for 1)."""
    return run(entries, check, plan, ProcessPool(jobs) if jobs > 1 else InProcess())


def verdict_of(outcome: Outcome):  # type: ignore[no-untyped-def]
    return outcome.value.verdict if outcome.value is not None else None


def summary(outcome: Outcome) -> tuple:
    """What must not depend on the number of processes (everything but the times)."""
    verdict = verdict_of(outcome)
    if verdict is None:
        return (outcome.entry.line, str(outcome.entry.error))
    return (
        outcome.entry.line,
        verdict.status,
        verdict.solution,
        # Which grids a back end shows for a puzzle with several solutions depends on
        # its history (the sat back end reuses one solver per shape), so only counts.
        tuple((name, r.status, len(r.solutions)) for name, r in verdict.results.items()),
    )


def test_two_processes_give_the_same_outcomes_in_input_order(data: Path) -> None:
    text = lines(data / "sudoku" / "royle-17clue.txt", 20, step=997)
    text += lines(data / "sudoku" / "serg-benchmark-multi.txt", 5)
    text[3] = text[3][:-1]  # a bad line in the middle
    text[11] = text[11].replace("0", "x", 1)
    source = "\n".join(text)
    one = [summary(o) for o in check_entries(read_text(source), Plan(), jobs=1)]
    two = [summary(o) for o in check_entries(read_text(source), Plan(), jobs=2)]
    assert one == two
    assert [row[0] for row in two] == list(range(1, 26))
    statuses = [row[1] for row in two if len(row) > 2]
    assert statuses == ["unique"] * 18 + ["multiple"] * 5
    assert "expected n*n symbols" in two[3][1] and "unexpected symbol 'x'" in two[11][1]


def big_result(size: int) -> bytes:
    """A result too big for one pipe write (a worker task of the test below)."""
    return b"x" * size


def test_a_worker_killed_while_it_sends_a_result_does_not_hang_the_stop() -> None:
    # Ctrl-C kills the workers; one killed halfway through sending its result left the pool's
    # manager thread waiting for the rest of the message, and the stop waited forever.
    pool = ProcessPool(1)
    pool.submit(big_result, 200_000_000)
    reader = pool._pool._result_queue._reader  # type: ignore[union-attr]
    assert reader.poll(60), "the worker never started sending"
    stopping = threading.Thread(target=pool.stop, kwargs={"interrupted": True}, daemon=True)
    stopping.start()
    stopping.join(30)
    assert not stopping.is_alive(), "ProcessPool.stop hung after killing a worker mid-result"


def test_a_future_lock_left_taken_by_a_ctrl_c_does_not_hang_the_stop() -> None:
    # A KeyboardInterrupt raised while the main thread held a future's lock leaves it taken;
    # the pool's manager thread blocked on it when failing that future, and the stop waited.
    pool = ProcessPool(1)
    future = pool.submit(time.sleep, 60)
    deadline = time.monotonic() + 60
    while not future.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    future._condition.acquire()  # type: ignore[attr-defined]  # as the interrupt left it
    try:
        stopping = threading.Thread(target=pool.stop, kwargs={"interrupted": True}, daemon=True)
        stopping.start()
        stopping.join(30)
        assert not stopping.is_alive(), "ProcessPool.stop hung on a future's lock"
    finally:  # let the manager thread end: the interpreter's exit joins it
        future._condition.release()  # type: ignore[attr-defined]


_STUCK_MANAGER_THEN_CTRL_C = """
import time
from cp_sudoku.cli import exits
from cp_sudoku.run import ProcessPool
if __name__ == "__main__":
    pool = ProcessPool(2)
    pool.submit(time.sleep, 0.01).result()
    still_held = (pool._pool._call_queue, pool._pool._result_queue)  # a manager not yet ended
    pool.stop(interrupted=True)
    exits.interrupted(exits.Tally())
"""


def test_the_interrupt_line_is_the_last_line_even_when_the_pool_manager_lives_on(
    tmp_path: Path,
) -> None:
    # CI saw the resource tracker warn of 5 leaked semaphores after the CLI's last line: the
    # pool's manager thread outlived the 1 s grace, so its queues' named semaphores were alive
    # at os._exit.
    script = tmp_path / "stuck.py"
    script.write_text(_STUCK_MANAGER_THEN_CTRL_C)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 130
    assert done.stderr == "cp-sudoku: interrupted after 0 puzzles\n"


def test_results_stream_without_reading_the_whole_input() -> None:
    """An endless source: outcomes still come, and only a bounded window is read ahead."""
    consumed = 0
    puzzle = parse_line("......122..4.4..")

    def endless() -> Iterator[Entry]:
        nonlocal consumed
        for number in cycle([1]):
            consumed += 1
            yield Entry("endless", consumed + number - 1, "", puzzle=puzzle)

    jobs, chunk = 2, CHUNK_MOST  # chunks grow to it
    first = list(islice(check_entries(endless(), Plan(("sat",)), jobs=jobs), 40))
    assert [o.entry.line for o in first] == list(range(1, 41))
    assert all(verdict_of(o) and verdict_of(o).status == "unique" for o in first)
    assert consumed <= 40 + 4 * jobs * chunk + chunk


def test_bad_entries_pass_through_without_a_verdict() -> None:
    found = list(check_entries(read_text("......122..4.4..\n..x.\n"), Plan(("sat",))))
    assert verdict_of(found[0]) is not None and verdict_of(found[0]).status == "unique"
    assert found[1].value is None and found[1].entry.error is not None


def test_back_end_options_reach_the_back_end() -> None:
    plan = Plan(("backtrack-plain",), {"backtrack-plain": {"max_tries": 10}})
    [outcome] = check_entries(read_text(ANTI_BACKTRACK), plan)
    verdict = verdict_of(outcome)
    assert verdict is not None and verdict.status == "unknown"
    assert verdict.results["backtrack-plain"].stats["tries"] in (10, 11)  # stops at the cap


def test_stated_solution_that_agrees() -> None:
    puzzle = parse_line(EASTER)
    verdict = crosscheck(puzzle, ["sat"])
    assert stated_mismatch(puzzle, verdict, EASTER_SOLUTION) is None


def test_stated_solution_that_breaks_a_rule() -> None:
    puzzle = parse_line(EASTER)
    wrong = (2, *EASTER_SOLUTION[1:])
    message = stated_mismatch(puzzle, crosscheck(puzzle, ["sat"]), wrong)
    assert message is not None and message.startswith("the stated solution is not a solution: ")


def test_stated_solution_against_each_verdict() -> None:
    """A puzzle with exactly two solutions; each stated solution is valid."""
    text = "349618572782359...651742389273895...195476238864231957527164893918523764436987125"
    puzzle = parse_line(text)
    verdict = crosscheck(puzzle, ["sat"])
    assert verdict.status == "multiple" and len(verdict.solutions) == 2
    first, other = verdict.solutions
    assert stated_mismatch(puzzle, verdict, other) is None  # one of several: no contradiction
    # A verdict that claims one solution while the source states another valid one:
    claimed = replace(verdict, status="unique", solution=first, solutions=(first,))
    message = stated_mismatch(puzzle, claimed, other)
    assert message is not None and message.startswith("the stated solution differs at r")
    nothing = replace(verdict, status="none", solution=None, solutions=())
    assert stated_mismatch(puzzle, nothing, other) == (
        "the stated solution is valid, but the verdict is none"
    )


def test_a_service_record_counts_as_its_outcome() -> None:
    """The service's jobs feed the run summary with ``check --json`` records: the same
    counts, disagreements, mismatches, seconds and exit code as the outcomes they came from."""
    text = "puzzle,solution\n......122..4.4..,1243431221343421\n"
    text += "......122..4.4..,2134341221434321\n1...............,\nnot a puzzle,\n"
    plan = Plan(backends=("sat", "backtrack"))
    backends = plan.built()
    by_outcome, by_record = Summary(), Summary()
    for entry in read_text(text):
        if entry.puzzle is None:
            outcome: Outcome[Checked] = Outcome(entry)
            record = error_record(entry)
        else:
            checked = check(entry, backends, plan)
            outcome = Outcome(entry, checked)
            record = verdict_record(entry, checked.verdict, checked.mismatch)
        by_outcome.add(outcome)
        by_record.add_record(json.loads(json.dumps(record)))
    assert by_record.statuses == by_outcome.statuses
    assert (by_record.disagreements, by_record.mismatches) == (by_outcome.disagreements, 1)
    assert by_record.code == by_outcome.code == 3  # the contradicted stated solution
    assert by_record.seconds.keys() == by_outcome.seconds.keys() == {"sat", "backtrack"}
