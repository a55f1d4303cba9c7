"""Rule systems of a test's own, with event types that Umpire's three do not have: each is
Infernal Machines or Dux Bellorum AVBCW plus those types, registered for the test only (as
docs/rulesets.md's club rule system would be by its entry point), and small logs of them."""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Mapping, Optional

import pytest
from pydantic import BaseModel, Field

from domain.events import Data
from domain.locations import HexLocation, HexPath
from domain.rulesets import RuleSet, find, registered
from domain.tabletop import events as tabletop

SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}


class _Registered:
    """A RuleSet installed while the `with` block runs."""

    ruleset: RuleSet

    def __enter__(self) -> RuleSet:
        registered()[self.ruleset.id] = self.ruleset
        return self.ruleset

    def __exit__(self, *exc: Any) -> None:
        registered().pop(self.ruleset.id, None)


class HexRules(_Registered):
    """Infernal Machines with `extra` event types beside its own."""

    def __init__(self, extra: Mapping[str, type]):
        base = find("infernal-machines")
        self.ruleset = replace(base, id="flare-hexes", events={**base.events, **extra}, rule_modules=lambda: ())


class TabletopRules(_Registered):
    """Dux Bellorum AVBCW's events and board with `extra` event types, checked on the table by the
    shared tabletop checks (domain/tabletop/events.py `line_checks`)."""

    def __init__(self, extra: Mapping[str, type]):
        base = find("dux-bellorum-avbcw")
        events = {**base.events, **extra}
        check_line, advance_line = tabletop.line_checks(events)
        self.ruleset = replace(base, id="our-skirmish", events=events, check_line=check_line,
                               advance_line=advance_line, rule_modules=lambda: ())


def _texts(game: str, lines: list[tuple[str, dict, Any]]) -> list[str]:
    return [json.dumps({"v": 1, "game": game, "seq": seq, "turn": 0, "phase": "setup", "side": side,
                        "type": kind, "data": data})
            for seq, (kind, data, side) in enumerate(lines, start=1)]


def hex_log(rules: RuleSet, *events: tuple[str, dict]) -> list[str]:
    """A game of `rules` on map 5: b-1 in 5:6513 and g-1 in 5:6713 (lines 3, 4), then `events`."""
    return _texts("flares", [
        ("GameStarted", {"ruleset": rules.id, "scenario": "test", "date": "1917-04", "sides": SIDES}, None),
        ("MapDefined", {"maps": ["5"], "hexes": {"5:6613": {"terrain": "wood"}}}, None),
        ("UnitDeployed", {"unit": "b-1", "class": "infantry-platoon", "location": "5:6513"}, "british"),
        ("UnitDeployed", {"unit": "g-1", "class": "infantry-platoon", "location": "5:6713"}, "german"),
        *((kind, data, "british") for kind, data in events)])


def tabletop_log(rules: RuleSet, *events: tuple[str, dict]) -> list[str]:
    """A game of `rules` on a 48" x 48" table: r-1 at (10, 10) and b-1 at (30, 30) (lines 3, 4),
    then `events`."""
    def deployed(unit: str, x: float) -> dict:
        return {"unit": unit, "position": {"x": x, "y": x}, "facing": 0, "footprint": {"w": 4.0, "d": 2.0}}
    sides = {side: {**spec, "role": role} for (side, spec), role in zip(SIDES.items(), ("aggressor", "repeller"))}
    return _texts("skirmish", [
        ("GameStarted", {"ruleset": rules.id, "scenario": "test", "date": "1938-06", "sides": sides}, None),
        ("TableDefined", {"width": 48.0, "depth": 48.0, "features": []}, None),
        ("UnitDeployed", deployed("r-1", 10.0), "british"),
        ("UnitDeployed", deployed("b-1", 30.0), "german"),
        *((kind, data, "british") for kind, data in events)])


# -- event types of their own, with location fields typed as the schemas type theirs ------------------
class FlareFired(Data):
    """A flare over a hex, and where it drifts (Infernal Machines has no such event)."""

    unit: str
    target: HexLocation
    drift: Optional[HexPath] = None


class Signal(BaseModel):
    at: tabletop.Point


class ObjectiveSeized(tabletop.TabletopData):
    """A point taken, and signals placed (neither miniatures game has such an event)."""

    unit: str
    point: tabletop.Point
    signals: list[Signal] = []


class Charged(tabletop.TabletopData):
    unit: str
    path: list[tabletop.PathWaypoint] = Field(min_length=1)


@pytest.fixture
def flare_rules():
    with HexRules({"FlareFired": FlareFired}) as rules:
        yield rules


@pytest.fixture
def skirmish_rules():
    with TabletopRules({"ObjectiveSeized": ObjectiveSeized, "Charged": Charged}) as rules:
        yield rules
