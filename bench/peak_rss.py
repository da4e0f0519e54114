"""Run a command and report the peak resident memory of it and of every process it starts.

Polls ``/proc/PID/status`` (``VmHWM``: the kernel's peak resident set) of the
command's process tree twice a second; prints one line per process seen, by
peak, and the command's wall-clock time.  Linux only.

Usage::

    python bench/peak_rss.py -- cp-sudoku check big.csv --cluster local:2 --output big.parquet
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the task ended meanwhile
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _tree(root: int) -> list[int]:
    todo, seen = [root], []
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo += _children(pid)
    return seen


def _peak_kib(pid: int) -> tuple[int, str] | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]), command.strip()[:90]
    return None


def main(argv: list[str]) -> int:
    """Run ``argv`` (after ``--``); print each process's peak RSS in MiB and the wall time."""
    command = argv[argv.index("--") + 1 :] if "--" in argv else argv
    start = time.perf_counter()
    process = subprocess.Popen(command)
    peaks: dict[int, tuple[int, str]] = {}
    while process.poll() is None:
        for pid in _tree(process.pid):
            found = _peak_kib(pid)
            if found and found[0] >= peaks.get(pid, (0, ""))[0]:
                peaks[pid] = found
        time.sleep(0.5)
    wall = time.perf_counter() - start
    for pid, (kib, name) in sorted(peaks.items(), key=lambda item: -item[1][0]):
        print(f"peak RSS {kib / 1024:7.1f} MiB  pid {pid}  {name}", file=sys.stderr)
    print(f"exit {process.returncode}, {wall:,.1f} s wall", file=sys.stderr)
    return process.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
