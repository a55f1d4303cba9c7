"""What the two tabletop rule systems' `RuleSet`s share: the tabletop board's fold, extended by
each with its own handlers."""
from __future__ import annotations

from types import ModuleType
from typing import Callable, Mapping, Sequence

from domain.rulebook import beside
from domain.rulesets import RuleSet
from domain.tabletop import board


def tabletop_ruleset(events: ModuleType, *, own_board: Mapping[str, Callable], interpretations: Sequence,
                     rule_modules: Callable[[], Sequence[type]], **identity: str) -> RuleSet:
    """A tabletop rule system's RuleSet from its events module (PHASES, EVENTS, REFERENCES,
    NESTED_REFERENCES, DECLARES, check_line, advance_line, and START: its GameStarted schema if
    it narrows the core one), its board handlers, its interpretations and rule modules;
    `identity` is its id, prefix, book and title."""
    return RuleSet(
        geometry="tabletop", phases=events.PHASES, events=events.EVENTS,
        unit_refs=unit_refs(events.REFERENCES, events.NESTED_REFERENCES), declares=events.DECLARES,
        board_handlers=board_handlers(own_board), check_line=events.check_line, advance_line=events.advance_line,
        interpretations=lambda: interpretations, rulebook=lambda: beside(events.__file__),
        rule_modules=rule_modules, start_schema=getattr(events, "START", None), **identity)


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
