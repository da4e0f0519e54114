"""The command synopsis, generated from the click definitions (for the README and docs/cli.md).

``python -m cp_sudoku.cli.synopsis`` prints it; a test holds docs/cli.md to it.
"""

from __future__ import annotations

import textwrap

import click

from cp_sudoku.cli import main

WIDTH = 100


def synopsis(group: click.Group = main) -> str:
    """One block per command: ``cp-sudoku NAME ARGUMENTS [--option VALUE] ...``,
    wrapped at :data:`WIDTH` columns, every option of every command included."""
    context = click.Context(group, info_name="cp-sudoku")
    blocks = []
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        sub = click.Context(command, info_name=name, parent=context)
        shown = [p for p in command.get_params(sub) if p is not command.get_help_option(sub)]
        pieces = [_piece(param, sub) for param in shown]
        head = f"cp-sudoku {name} "
        blocks.append(
            textwrap.fill(
                " ".join(p for p in pieces if p),
                width=WIDTH,
                initial_indent=head,
                subsequent_indent=" " * len(head),
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return "\n".join(blocks)


def _piece(param: click.Parameter, context: click.Context) -> str:
    """How one parameter reads in the synopsis (``\xa0`` keeps an option with its value)."""
    if isinstance(param, click.Argument):
        return param.make_metavar(context)
    assert isinstance(param, click.Option)
    names = "|".join(sorted(param.opts, key=len, reverse=True))
    if param.is_flag:
        text = names
    else:
        metavar = param.make_metavar(context)
        text = f"{names}\xa0{metavar}" + ("..." if param.multiple else "")
    return text if param.required else f"[{text}]"


if __name__ == "__main__":
    print(synopsis().replace("\xa0", " "))
