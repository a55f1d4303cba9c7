"""What the two tabletop rule systems share in reading a core procedure from a table pack
(game-log-tabletop.md: "Core procedures the seeds rely on but do not contain ... are checked only
when the game's table pack holds that procedure, else `unverifiable`"): a table's shape, with the
check that refuses a pack of the wrong shape, the comparisons a club types ("<=", ">=", ...) and
the keys a card is read by. No value of any procedure is held here: the pack gives them all."""
from __future__ import annotations

import operator
import re
from typing import Any, Callable, Optional

from domain.tabletop.events import RANKS, SUITS

# How a die (or a total) is compared with the number it is rolled against.
COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
}
DICE = re.compile(r"^[1-9]\d*d[1-9]\d*$")
Problem = Optional[str]   # where in the table, and what was expected; None when the table is right


class TableShape(str):
    """A table's shape as people read it (docs/table-packs.md), carrying `check(table) -> Problem`
    that the pack loader (domain/rules/tables.py) runs on the table."""

    def __new__(cls, text: str, check: Callable[[Any], Problem]):
        shape = super().__new__(cls, text)
        shape.check = check
        return shape


def compares(how: str, roll: int, against: int) -> bool:
    return COMPARISONS[how](roll, against)


# -- the pieces of a shape ------------------------------------------------------------------------

def is_face(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def comparison(table: dict, key: str) -> Problem:
    if table.get(key) not in COMPARISONS:
        return f".{key}: one of {', '.join(repr(c) for c in COMPARISONS)}, not {table.get(key)!r}"
    return None


def dice(table: dict, key: str) -> Problem:
    value = table.get(key)
    if not isinstance(value, str) or not DICE.match(value):
        return f".{key}: dice as NdM (\"2d6\"), not {value!r}"
    return None


def faces(table: dict, key: str) -> Problem:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(is_face(v) for v in value):
        return f".{key}: a list of die faces (whole numbers from 1), not {value!r}"
    return None


def an_object(table: Any) -> Problem:
    return None if isinstance(table, dict) else f": an object, not {type(table).__name__}"


def first(*problems: Callable[[], Problem]) -> Problem:
    for problem in problems:
        found = problem()
        if found:
            return found
    return None


def keyed(check: Callable[[str, Any], Problem]) -> Callable[[Any], Problem]:
    """A table that is an object of entries, each checked by `check(key, entry)`."""
    def table_check(table: Any) -> Problem:
        if not isinstance(table, dict) or not table:
            return ": a non-empty object"
        for key, entry in table.items():
            found = check(key, entry)
            if found:
                return f".{key}{found}"
        return None
    return table_check


def bands(entry: Any) -> Problem:
    """`[[up to, value], ...]` ascending in its first number (a range band's last inch)."""
    if not isinstance(entry, list) or not entry:
        return ": a non-empty list of [up to, value]"
    for i, row in enumerate(entry):
        if not (isinstance(row, list) and len(row) == 2 and is_number(row[0]) and is_face(row[1])):
            return f"[{i}]: [up to (a number), value (a whole number from 1)], not {row!r}"
        if i and row[0] <= entry[i - 1][0]:
            return f"[{i}]: the bands ascend: {row[0]} after {entry[i - 1][0]}"
    return None


def banded(entry: list, value: float) -> Optional[int]:
    """The value of the first band that `value` is within, None past the last."""
    return next((row[1] for row in entry if value <= row[0]), None)


# -- cards ----------------------------------------------------------------------------------------

CARD_KEYS = "the card (\"QH\"), its rank (\"Q\"), its suit (\"H\"), its colour (\"red\", \"black\"), then \"any\""


def card_keys(card: str) -> list[str]:
    """The keys a card is looked up by, in order: CARD_KEYS."""
    rank, suit = card[:-1], card[-1:]
    if rank not in RANKS or suit not in SUITS:
        return [card, "any"]
    return [card, rank, suit, "red" if suit in "DH" else "black", "any"]


def card_meaning(table: dict, card: str) -> Optional[str]:
    return next((table[key] for key in card_keys(card) if key in table), None)


def meanings(key: str, entry: Any) -> Problem:
    return None if isinstance(entry, str) and entry else f": a meaning as recorded (a string), not {entry!r}"


CARDS = TableShape(f"card key -> meaning as recorded in CardDrawn.meaning; a card is read by {CARD_KEYS}",
                   keyed(meanings))
