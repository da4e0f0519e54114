"""Ctrl-C during start-up, while the command line is still being imported (issue 20).

:mod:`cp_sudoku.cli.start` sets SIGINT handling before any heavy import, so a Ctrl-C
from then on prints the one interrupt line and exits 130, never a traceback.  The
processes here are real; a small launcher (the console script's two lines, plus an
import hook) says when the import phase has been reached, so each moment is
deterministic.  What comes before the launcher's first line (Python's own start-up,
its ``site`` module) is outside the package: see docs/cli.md.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time

import pytest

from cp_sudoku.cli import exits, start

#: The console script (``from cp_sudoku.cli.start import main; main()``), with an import
#: hook that writes one byte to ``FD`` when ``MODULE`` is first imported, then waits
#: ``PAUSE`` seconds inside that import.
LAUNCHER = """
import os, sys, time
class Hook:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            os.write({fd}, b".")
            time.sleep({pause})
        return None
sys.meta_path.insert(0, Hook())
sys.argv = ["cp-sudoku", *{args!r}]
from cp_sudoku.cli.start import main
main()
"""
SOLVE = ["solve", "--example", "--backend", "sat"]


def launch(module: str, pause: float, args: list[str], after: float) -> tuple[int, str]:
    """Start the command, send SIGINT ``after`` seconds after ``module``'s import began;
    the exit code and stderr."""
    read, write = os.pipe()
    code = LAUNCHER.format(module=module, fd=write, pause=pause, args=args)
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        pass_fds=(write,),
        start_new_session=True,
    )
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], 60)
        assert ready and os.read(read, 1) == b".", "the launcher never reached the import"
        time.sleep(after)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)  # a hang is the failure
    finally:
        os.close(read)
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stderr.decode()


def test_the_early_line_is_the_interrupt_line() -> None:
    assert f"cp-sudoku: {exits.Tally().describe()}" == start.EARLY_LINE
    assert start.INTERRUPTED == exits.INTERRUPTED
    assert start.STOPPING == exits.STOPPING
    terminated = exits.Tally(signum=signal.SIGTERM).describe()
    assert f"cp-sudoku: {terminated}" == start.EARLY_LINE.replace("interrupted", "terminated")


def test_importing_the_console_script_imports_nothing_heavy() -> None:
    code = (
        "import sys; import cp_sudoku.cli.start; "
        "print(sorted(m for m in sys.modules if m.startswith(('cp_sudoku', 'click'))))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert shown.stdout.split() == ["['cp_sudoku',", "'cp_sudoku.cli',", "'cp_sudoku.cli.start']"]


@pytest.mark.parametrize(
    "module",
    [
        "click",  # the first import after the handler is set
        "cp_sudoku.model",  # the package's own modules, before the command runs
        "cp_sudoku.cli.check",  # the command's module, imported under the command's handler
    ],
)
def test_a_ctrl_c_inside_an_import_prints_the_line_and_exits_130(module: str) -> None:
    args = ["check", "--example"] if module == "cp_sudoku.cli.check" else SOLVE
    code, stderr = launch(module, 30, args, 0.05)
    assert "Traceback" not in stderr
    assert code == exits.INTERRUPTED, stderr
    assert stderr == start.EARLY_LINE + "\n"


@pytest.mark.parametrize("slow", [pytest.param(True, marks=pytest.mark.slow), False])
def test_a_ctrl_c_at_any_moment_of_start_up_is_an_interrupt(slow: bool) -> None:
    """From the first heavy import on, at random moments: the interrupt line and 130, or
    the command finished first (0)."""
    seed = random.randrange(1_000_000)
    moments = random.Random(seed).sample(range(0, 800), 24 if slow else 3)
    for milliseconds in moments:
        code, stderr = launch("click", 0, SOLVE, milliseconds / 1000)
        assert "Traceback" not in stderr, (seed, milliseconds, stderr)
        assert code in (0, exits.INTERRUPTED), (seed, milliseconds, stderr)
        if code == exits.INTERRUPTED:
            assert stderr.splitlines()[-1].startswith("cp-sudoku: interrupted after 0 "), stderr
