"""Injected breaches of the machines' rules (breakdowns, fascines, carrying, arms, anti-tank rifles).

Same contract as inject.py's: change the legal lines at an index so that one rule is broken and
return (the index the auditor judges, the rule id), or None when the line there does not fit. An
injection that adds an event copies the envelope of the line before it (turn, phase, side).
"""
from __future__ import annotations

import copy
import random
from typing import Any, Optional

from domain.rules.infernal_machines.generator.inject_ground import deployed
from domain.rules.infernal_machines.vehicles import spec_named

Line = dict[str, Any]


def insert(lines: list[Line], at: int, kind: str, data: dict[str, Any], side: Optional[str]) -> None:
    line = copy.deepcopy(lines[at - 1])
    line.update({"type": kind, "data": data, "side": side})
    lines.insert(at, line)


def is_roll(line: Line, purpose: str) -> bool:
    return line["type"] == "DieRolled" and line["data"]["purpose"] == purpose


def breakdown_die_missing(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A breakdown without its second d6 (IM.TANK.BREAKDOWN: judged at the broken-down status)."""
    if not is_roll(lines[i], "IM.TANK.BREAKDOWN") or lines[i - 1]["type"] != "UnitStatusChanged":
        return None
    del lines[i]
    return i - 1, "IM.TANK.BREAKDOWN"


def breakdown_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """An even second die, and the tank repaired at once: it is broken down for the next turn
    (IM.TANK.BREAKDOWN)."""
    roll = lines[i]
    if not is_roll(roll, "IM.TANK.BREAKDOWN") or roll["data"]["result"] % 2:
        return None
    insert(lines, i + 1, "UnitStatusChanged", {"unit": roll["data"]["subject"], "status": "repaired"}, roll["side"])
    return i + 1, "IM.TANK.BREAKDOWN"


def wrong_die(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """The second breakdown die or a fascine die rolled on a d10 ("a six-sided die": IM.CORE.DICE)."""
    roll = lines[i]
    if not any(is_roll(roll, p) for p in ("IM.TANK.BREAKDOWN", "IM.TANK.FASCINE.DROP", "IM.TANK.FASCINE.UNJAM")):
        return None
    roll["data"]["die"] = "d10"
    return i, "IM.CORE.DICE"


def fascine_twice(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A tank drops its fascine again after it dropped it (IM.TANK.FASCINE.ONCE)."""
    marker = lines[i]
    if marker["type"] != "MarkerPlaced" or marker["data"]["marker"] != "fascine" or not is_roll(lines[i - 1], "IM.TANK.FASCINE.DROP"):
        return None
    again = copy.deepcopy(lines[i - 1]["data"])
    again["result"] = rng.randint(3, 6)
    insert(lines, i + 1, "DieRolled", again, lines[i - 1]["side"])
    return i + 1, "IM.TANK.FASCINE.ONCE"


def location_of(lines: list[Line], unit: str) -> Optional[str]:
    """Where the lines last put the unit (its deployment, then its moves)."""
    where = None
    for l in lines:
        if l["type"] == "UnitDeployed" and l["data"]["unit"] == unit:
            where = l["data"].get("location")
        elif l["type"] == "UnitMoved" and l["data"]["unit"] == unit:
            where = l["data"]["path"][-1]
    return where


def over_capacity(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """Both British squads board the Mk V*, which "could carry only one squad" (IM.VEH.MKVSTAR_IX.CAPACITY),
    and get off again where they stood (so that the rest of the game reads as before)."""
    line = lines[i]
    if line["type"] != "PhaseStarted" or line["phase"] != "vehicle-movement" or line["data"]["active"] != "british":
        return None
    tank = deployed(lines, "b-tank")
    if tank is None or spec_named(str(tank["data"]["attrs"].get("model"))) != spec_named("mk-v-star"):
        return None
    gone = {l["data"]["unit"] for l in lines[:i] if l["type"] == "UnitStatusChanged" and l["data"]["status"] == "eliminated"}
    if gone & {"b-tank", "b-sq1", "b-sq2"}:
        return None
    squads = ["b-sq1", "b-sq2"]
    places = [location_of(lines[:i], s) for s in squads]
    insert(lines, i + 1, "Embarked", {"carrier": "b-tank", "units": squads}, "british")
    for n, (squad, place) in enumerate(zip(squads, places), start=2):
        insert(lines, i + n, "Disembarked", {"carrier": "b-tank", "units": [squad], "location": place}, "british")
    return i + 1, "IM.VEH.MKVSTAR_IX.CAPACITY"


def arms_exceeded(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """An armoured car fires 2 more than its machine guns give (IM.TANK.BLAST.SUM)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "SmallArmsFired" or d["firers"] != ["g-car"]:
        return None
    d["firepower"] = d["firepower"] + 2
    return i, "IM.TANK.BLAST.SUM"


def rifle_critical_missing(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """An anti-tank rifle's hit without its critical dice (IM.SW.ATR.CRIT: judged at the resolution); what
    the dice did (a destroyed tank's elimination) goes with them."""
    res = lines[i]
    if res["type"] != "AntiTankResolved" or res["data"]["results"][0]["result"] != "hit":
        return None
    end = i + 1
    while end < len(lines) and is_roll(lines[end], "IM.SW.ATR.CRIT"):
        end += 1
    if end == i + 1:
        return None
    if end < len(lines) and lines[end]["type"] == "UnitStatusChanged" and lines[end]["data"].get("cause") == res["data"]["attack"]:
        end += 1
    del lines[i + 1:end]
    return i, "IM.SW.ATR.CRIT"


KINDS = {
    "breakdown-die-missing": breakdown_die_missing,
    "breakdown-ignored": breakdown_ignored,
    "wrong-die": wrong_die,
    "fascine-twice": fascine_twice,
    "over-capacity": over_capacity,
    "arms-exceeded": arms_exceeded,
    "rifle-critical-missing": rifle_critical_missing,
}
