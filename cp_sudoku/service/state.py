"""What the routes share: the server's settings, and the store and runner its lifespan starts.

The routes reach them through FastAPI dependencies (:data:`RunnerDep`,
:data:`StoreDep`, :data:`SettingsDep`) that read ``app.state``, and the
request's owner through :data:`OwnerDep`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request

from cp_sudoku.service.access import request_owner
from cp_sudoku.service.limits import Limits
from cp_sudoku.service.runner import Runner
from cp_sudoku.service.store import Store


@dataclass(frozen=True)
class Settings:
    """What ``cp-sudoku serve`` configures: the store's file, the workers, the limits,
    the access tokens."""

    db: Path
    workers: int
    limits: Limits = field(default_factory=Limits)
    #: With tokens, every request needs one and sees only its own jobs (:mod:`.access`).
    tokens: frozenset[str] = frozenset()


def _settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


def _runner(request: Request) -> Runner:
    return request.app.state.runner  # type: ignore[no-any-return]


def _store(request: Request) -> Store:
    return request.app.state.store  # type: ignore[no-any-return]


def _owner(request: Request) -> str:
    return request_owner(request.scope)


SettingsDep = Annotated[Settings, Depends(_settings)]
RunnerDep = Annotated[Runner, Depends(_runner)]
StoreDep = Annotated[Store, Depends(_store)]
#: Who made the request: the hash of its token, ``""`` on a server without tokens.
OwnerDep = Annotated[str, Depends(_owner)]
