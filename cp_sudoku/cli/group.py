"""The ``cp-sudoku`` group: commands loaded by name when used, one error policy for all."""

from __future__ import annotations

import gc
import sys
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any

import click

from cp_sudoku.cli import exits

#: Allocations of containers between two collections of the youngest generation.
YOUNG_GENERATION = 10_000
#: Commands that keep Python's threshold: a server's requests leave garbage in cycles (an
#: error's traceback holds its request body), kept longer at YOUNG_GENERATION (its memory
#: measured in docs/performance.md, "The collector's young generation and the server").
SERVERS = frozenset({"serve"})


class Group(click.Group):
    """A click group whose commands are ``"module:attribute"`` strings, imported when
    used (so ``serve`` does not import FastAPI for ``check``), and whose every error
    ends as :mod:`cp_sudoku.cli.exits` says: one line, a documented code, no traceback.
    """

    def __init__(self, *args: Any, lazy: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command: the lazy ones in their registry's order, then any added."""
        return [*self.lazy, *(name for name in super().list_commands(ctx) if name not in self.lazy)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, imported on first use."""
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(import_module(module), attribute), cmd_name)
            # The modules' objects live as long as the process: out of the collector's
            # sight, a full collection during a run no longer walks them (about 10 us a
            # puzzle of `check`, docs/performance.md).  A run makes many short-lived
            # containers a puzzle, freed by their counts: a young collection every
            # YOUNG_GENERATION of them, not Python's 700, walks the survivors less often
            # (not in a server, SERVERS).
            gc.freeze()
            if cmd_name not in SERVERS:
                gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; every error it raises ends as :mod:`cp_sudoku.cli.exits` says."""
        tally = ctx.ensure_object(exits.Tally)
        try:
            with exits.interrupts_held(tally):
                return super().invoke(ctx)
        except (SystemExit, click.exceptions.Exit):
            raise
        except BaseException as error:
            exits.handle(error, tally)

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any
    ) -> Any:
        """Parse and run a command, then exit with its code (see :mod:`cp_sudoku.cli.exits`)."""
        extra.pop("standalone_mode", None)
        held = next((arg for arg in (sys.argv[1:] if args is None else args) if "\0" in arg), None)
        if held is not None:  # from Python only (a shell cannot pass one): no path may hold it
            exits.fail(f"an argument holds a NUL byte, which no file name may: {held[:80]!r}")
        if sys.stdout is None:  # started with stdout closed (`>&-`): every result would be lost
            exits.fail(
                "stdout is closed: cp-sudoku writes its results there "
                "(redirect it to a file, or to /dev/null to drop them)"
            )
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:  # no command: the help, no "error:"
            click.echo(error.format_message(), err=True)
            raise SystemExit(exits.BAD_INPUT) from None
        except click.ClickException as error:  # the group's own arguments
            exits.fail(error.format_message())
        except click.Abort:
            exits.interrupted(exits.Tally())
        raise SystemExit(code if isinstance(code, int) else exits.OK)
