"""Stable aggregate ids derived from the log's own ids (so a re-import finds the same aggregates)."""
from uuid import NAMESPACE_URL, UUID, uuid5

_NS = uuid5(NAMESPACE_URL, "https://umpire.invalid/ledger")


def game_uuid(game: str) -> UUID:
    return uuid5(_NS, f"game:{game}")


def unit_uuid(game: str, unit: str) -> UUID:
    return uuid5(_NS, f"unit:{game}:{unit}")


def element_uuid(game: str, element: str) -> UUID:
    return uuid5(_NS, f"element:{game}:{element}")
