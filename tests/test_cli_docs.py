"""The synopsis in docs/cli.md (and in the README, once it carries the markers) is the
one generated from the click definitions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cp_sudoku.cli.synopsis import synopsis

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"<!-- synopsis: begin -->\n```\n(.*?)\n```\n<!-- synopsis: end -->", re.S)


@pytest.mark.parametrize("name", ["docs/cli.md", "README.md"])
def test_synopsis_matches_the_commands(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    found = BLOCK.search(text)
    if found is None and name == "README.md":
        pytest.skip("the README does not carry the generated synopsis yet")
    assert found is not None, f"{name} has no synopsis block"
    assert found[1] == synopsis().replace("\xa0", " "), (
        f"{name}: regenerate with python -m cp_sudoku.cli.synopsis"
    )


def test_synopsis_lists_every_command_and_option() -> None:
    from cp_sudoku.cli import COMMANDS, main

    text = synopsis()
    for name in COMMANDS:
        assert f"cp-sudoku {name} " in text
        command = main.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert opt in text, (name, opt)
