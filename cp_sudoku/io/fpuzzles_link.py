"""The three forms of an f-puzzles puzzle, decoded to its JSON object, and encoded back.

- the JSON text itself (``{"size": 9, "grid": [...], ...}``);
- the compressed string, ``LZString.compressToBase64`` of the JSON (it starts
  ``N4Ig``, as every such string of a text starting ``{"`` does);
- a link carrying that string: ``https://www.f-puzzles.com/?load=<string>``
  (percent-encoded or not), SudokuPad's ``https://sudokupad.app/fpuzzles<string>``
  and ``.../fpuz<string>``, or the bare string after such a prefix.

A link is read only from the hosts in :data:`HOSTS` (f-puzzles and SudokuPad,
any subdomain, http or https); nothing is fetched, but a link from another
site may carry another format, so it is refused with a message that says
how to read its string anyway (paste the ``N4Ig...`` string alone).

Compression is the PyPI ``lzstring`` package (a port of pieroxy's lz-string,
the library f-puzzles uses), never our own.  Links of the form ``?id=...``
name a puzzle kept on the f-puzzles server and cannot be read offline.
"""

from __future__ import annotations

import json
import re
from typing import Any, cast
from urllib.parse import quote, unquote, urlsplit

from lzstring import LZString  # type: ignore[import-untyped]

from cp_sudoku.model import PuzzleError

#: Where f-puzzles opens a puzzle given as a string.
FPUZZLES_URL = "https://www.f-puzzles.com/?load="
#: lz-string's base64 alphabet (``=`` pads).
_BASE64 = re.compile(r"[A-Za-z0-9+/]+=*")
#: The sites whose links carry f-puzzles strings: f-puzzles and SudokuPad (and its older
#: home at app.crackingthecryptic.com), with any subdomain.
HOSTS = ("f-puzzles.com", "sudokupad.app", "crackingthecryptic.com")
#: The most characters a string may decompress to (the largest f-puzzles JSON in
#: ``../shared/data/fpuzzles`` has 5,863): lz-string is LZW, whose output can grow as the
#: square of its input, so a 70 KB string of repeats took 1.4 GB to decompress.
MAX_JSON = 4 * 1024 * 1024
#: The base64 alphabet's values, as lz-string reads them.
_VALUES = {
    ch: k
    for k, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
}
#: The string, after ``load=`` or a SudokuPad ``fpuzzles``/``fpuz`` prefix, or alone.
_STRING = re.compile(r"(?:^|load=|fpuz(?:zles)?)(N4Ig[^\s&#]*)")


def looks_like_fpuzzles(text: str) -> bool:
    """Whether ``text`` (one line) is an f-puzzles string or a link carrying one."""
    text = text.strip()
    return (
        text.startswith("N4Ig")
        or "load=N4Ig" in unquote(text)
        or (("fpuz" in text) and "N4Ig" in text)
        or _a_link(text)
    )


def _a_link(text: str) -> bool:
    """Whether ``text`` is one word addressing a page of :data:`HOSTS`, with or without its
    scheme (an ``?id=`` link, a string cut short, a SudokuPad short link): read as a link,
    it gets the link's own error, not a grid's."""
    if not text or "." not in text or any(ch.isspace() for ch in text):
        return False
    return _known_host(_host(text))


def _host(link: str) -> str:
    """The host of ``link`` (with or without its scheme), or "" when it names none."""
    try:
        return urlsplit(link if "://" in link else "//" + link).hostname or ""
    except ValueError:  # a malformed address (an unclosed IPv6 bracket)
        return ""


def _known_host(host: str) -> bool:
    return any(host == known or host.endswith("." + known) for known in HOSTS)


def decode(text: str) -> dict[str, Any]:
    """The f-puzzles JSON object of ``text`` in any of its three forms.

    Raises:
        PuzzleError: ``text`` is none of the three forms, the string does not
            decompress to JSON, or the JSON is not an object; the message says
            what was expected.
    """
    text = text.strip()
    if text.startswith("{"):
        return _json_object(text)
    if "?id=" in text or "&id=" in text:
        raise PuzzleError(
            "malformed link: an f-puzzles '?id=' link names a puzzle kept on the "
            "f-puzzles server; open it there and copy the '?load=' link"
        )
    plain_text = unquote(text).replace(" ", "+")
    found = _STRING.search(plain_text)
    if found is None:
        raise PuzzleError(
            "malformed link: expected f-puzzles JSON, a compressed string starting 'N4Ig', "
            "or a link with '?load=N4Ig...' (SudokuPad: '/fpuzzlesN4Ig...')"
        )
    _check_host(plain_text[: found.start()])
    string = found.group(1)
    if not _BASE64.fullmatch(string):
        bad = next(ch for ch in string if not re.match(r"[A-Za-z0-9+/=]", ch))
        raise PuzzleError(
            f"malformed link: {bad!r} is not in the base64 alphabet of an f-puzzles string"
        )
    if _decompressed_length(string, MAX_JSON) > MAX_JSON:
        raise PuzzleError(
            f"malformed link: the string ({len(string)} characters) decompresses to more than "
            f"{MAX_JSON:,} characters, far past any f-puzzles JSON"
        )
    try:
        plain = LZString().decompressFromBase64(string)
    except (KeyError, IndexError, ValueError):
        plain = None
    if not plain or not plain.startswith("{"):
        raise PuzzleError(
            f"malformed link: the string ({len(string)} characters, starting "
            f"{string[:12]!r}) does not decompress to f-puzzles JSON; is it cut short?"
        )
    return _json_object(plain)


def _decompressed_length(text: str, cap: int) -> int:
    """How many characters ``LZString().decompressFromBase64(text)`` gives, read from its
    codes without building a string; the count stops once past ``cap`` (0 for a string
    that does not decompress).  This follows the decoder of the ``lzstring`` package
    (``_decompress``: a code of ``bits`` bits, read lowest first from 6-bit characters;
    0 and 1 a new 8- or 16-bit character, 2 the end, others a dictionary entry), tracking
    only each entry's length, so that a bomb is refused before it is decompressed."""
    values = [_VALUES.get(ch, 0) for ch in text]
    value, position, index = (values[0] if values else 0), 32, 1

    def read(bits: int) -> int:
        nonlocal value, position, index
        number = 0
        for power in range(bits):
            if value & position:
                number |= 1 << power
            position >>= 1
            if position == 0:
                position, value = 32, values[index] if index < len(values) else 0
                index += 1
        return number

    first = read(2)
    if first == 2:
        return 0
    read(8 if first == 0 else 16)
    lengths: dict[int, int] = {3: 1}
    size, bits, enlarge, last, total = 4, 3, 4, 1, 1
    while index <= len(values):
        code = read(bits)
        if code in (0, 1):
            read(8 if code == 0 else 16)
            lengths[size] = 1
            code, size, enlarge = size, size + 1, enlarge - 1
        elif code == 2:
            return total
        if enlarge == 0:
            enlarge, bits = 2**bits, bits + 1
        entry = lengths.get(code, last + 1 if code == size else 0)
        if entry == 0:
            return 0
        total += entry
        if total > cap:
            return total
        lengths[size] = last + 1
        size, enlarge, last = size + 1, enlarge - 1, entry
        if enlarge == 0:
            enlarge, bits = 2**bits, bits + 1
    return 0


def _check_host(before: str) -> None:
    """Refuse a link whose host is not one of :data:`HOSTS` (``before``: the text before
    ``load=`` or the ``fpuzzles`` prefix; empty or ``?`` is no link)."""
    if before in ("", "?"):
        return
    host = _host(before)
    if not _known_host(host):
        raise PuzzleError(
            f"malformed link: {host or before[:40]!r} is not an f-puzzles or SudokuPad "
            f"address ({', '.join(HOSTS)}); to read the puzzle anyway, paste the string "
            "after 'load=' (it starts N4Ig) on its own"
        )


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(
            f"not f-puzzles JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise PuzzleError("not f-puzzles JSON: nested deeper than about 1,000 levels") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise PuzzleError("not f-puzzles JSON: a number of more than 4,300 digits") from None
    if not isinstance(data, dict):
        raise PuzzleError("not f-puzzles JSON: expected an object with 'size' and 'grid'")
    return data


def encode(data: dict[str, Any]) -> str:
    """The compressed string of an f-puzzles JSON object (starts ``N4Ig``)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return cast(str, LZString().compressToBase64(text))


def link(data: dict[str, Any]) -> str:
    """The f-puzzles link that opens ``data`` (the string percent-encoded)."""
    return FPUZZLES_URL + quote(encode(data), safe="")
