"""What the two tabletop rule systems' `RuleSet`s share: the tabletop board's fold, extended by
each with its own handlers."""
from __future__ import annotations

from typing import Callable, Mapping

from domain.tabletop import board


def board_handlers(own: Mapping[str, Callable] = {}) -> Callable[[], Mapping[str, Callable]]:
    """The `board_handlers` of a tabletop RuleSet: the shared fold, then the rule system's own."""
    return lambda: {**board.HANDLERS, **own}


def keep(name: str, key: str, value: Callable[[dict], object]) -> Callable:
    """A board handler keeping one value per `key` of the event's data under `extra[name]`
    (a unit's cohesion lost, an army list per side, ...)."""
    def handler(s, line) -> None:
        data = line["data"]
        s.extra.setdefault(name, {})[data[key]] = value(data)
    return handler


def unit_refs(top: Mapping[str, tuple[str, ...]], nested: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """A rule system's unit references, top-level and nested ("sides[].units"), as one Refs."""
    merged = {kind: tuple(fields) for kind, fields in top.items()}
    for kind, paths in nested.items():
        merged[kind] = merged.get(kind, ()) + tuple(paths)
    return merged
