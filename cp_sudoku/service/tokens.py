"""Access tokens of ``cp-sudoku serve``: how they are given and checked, and whom they stand for.

No web library is imported here: the CLI checks ``--token`` and ``--host``
before it starts the server (:mod:`cp_sudoku.service.access` enforces them).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from collections.abc import Iterable

from cp_sudoku.model import UsageError

#: The environment variable that holds the tokens (several separated by spaces).
TOKEN_VARIABLE = "CP_SUDOKU_TOKEN"
#: Shortest token accepted, in characters.
MIN_TOKEN = 16
_TOKEN = re.compile(r"^[A-Za-z0-9._~+/=-]+$")  # safe in a header, a cookie and a query
MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"


def check_tokens(tokens: Iterable[str]) -> frozenset[str]:
    """The tokens, each checked.

    Raises:
        UsageError: a token shorter than :data:`MIN_TOKEN` characters, or with a
            character outside ``A-Z a-z 0-9 . _ ~ + / = -``.
    """
    checked = frozenset(tokens)
    for token in checked:
        if len(token) < MIN_TOKEN or not _TOKEN.match(token):
            raise UsageError(
                f"a token needs at least {MIN_TOKEN} characters of A-Z a-z 0-9 . _ ~ + / = -;"
                f" make one with: {MAKE_ONE}"
            )
    return checked


def owner_of(token: str) -> str:
    """The owner a token stands for: its SHA-256, hex (the store never holds a token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only: ``localhost``, 127.0.0.0/8 or ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # another host name: it may resolve beyond loopback
        return False
