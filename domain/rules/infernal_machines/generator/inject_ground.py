"""Injected breaches of the ground war's rules (spotting, small arms, squads, Sturmtruppen, morale).

Each function takes the legal lines and an index, changes one event (or removes the roll or spot it
needs) so that one ground-war rule is broken there, and returns (the index the auditor judges, the
rule id its finding carries), or None when the line at the index does not fit.
"""
from __future__ import annotations

import random
from typing import Any, Optional

Line = dict[str, Any]
SQUAD = "infantry-squad"
RANGED = ("infantry-platoon", "mg-platoon", "support-weapon")


def deployed(lines: list[Line], unit: str) -> Optional[Line]:
    return next((l for l in lines if l["type"] == "UnitDeployed" and l["data"]["unit"] == unit), None)


def resolved_after(lines: list[Line], i: int, attack: str) -> Optional[int]:
    return next((k for k in range(i + 1, min(len(lines), i + 12))
                 if lines[k]["type"] == "SmallArmsResolved" and lines[k]["data"]["attack"] == attack), None)


def spotted_before(lines: list[Line], i: int) -> bool:
    """lines[i] is a shot whose firer's spot (and its d10) come just before it."""
    if i < 2 or lines[i]["type"] not in ("SmallArmsFired", "AntiTankFired"):
        return False
    spot, roll, d = lines[i - 1], lines[i - 2], lines[i]["data"]
    return (spot["type"] == "Spotted" and spot["data"]["spotter"] in d["firers"] and spot["data"]["target"] == d["target"]
            and roll["type"] == "DieRolled" and roll["data"]["purpose"] == "IM.SPOT.ROLL")


def unspotted_fire(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A shot without the firer's spot of the target this turn (IM.SPOT.NEEDED): its Spotted and d10
    are removed (only where no other spot of that hex this turn comes before it)."""
    if not spotted_before(lines, i):
        return None
    target, turn = lines[i]["data"]["target"], lines[i]["turn"]
    for l in lines[:i - 1]:
        if l["type"] == "Spotted" and l["turn"] == turn and l["data"]["target"] == target and l["data"]["spotted"]:
            return None
    del lines[i - 2:i]
    return i - 2, "IM.SPOT.NEEDED"


def missing_spot_roll(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A spot recorded without its d10 (IM.SPOT.ROLL). The audit lets a roll name the target's units as
    its subject: no enemy spot roll may lie since the spotter's last spot (the generated units are
    named by their side's initial)."""
    if lines[i]["type"] != "Spotted" or i < 1:
        return None
    roll, spotter = lines[i - 1], lines[i]["data"]["spotter"]
    if roll["type"] != "DieRolled" or roll["data"]["purpose"] != "IM.SPOT.ROLL":
        return None
    for l in reversed(lines[:i - 1]):
        if l["type"] == "Spotted" and l["data"]["spotter"] == spotter:
            break
        if l["type"] == "DieRolled" and l["data"]["purpose"] == "IM.SPOT.ROLL" and \
                str(l["data"].get("subject"))[:1] != spotter[:1]:
            return None
    del lines[i - 1]
    return i - 1, "IM.SPOT.ROLL"


def range_beyond(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A platoon, machine gun or anti-tank rifle fires beyond its printed range: its counter's range
    is set one short of a shot it makes (the first shot that far; IM.CORE.RANGE)."""
    d = lines[i]["data"]
    if lines[i]["type"] not in ("SmallArmsFired", "AntiTankFired") or len(d["firers"]) != 1 or (d.get("range") or 0) < 2:
        return None
    firer = d["firers"][0]
    counter = deployed(lines, firer)
    if counter is None or counter["data"]["class"] not in RANGED or counter["data"]["attrs"].get("sturmtruppen"):
        return None
    if any(l["type"] == lines[i]["type"] and firer in l["data"]["firers"] and (l["data"].get("range") or 0) >= d["range"]
           for l in lines[:i]):
        return None
    counter["data"]["range"] = d["range"] - 1
    return i, "IM.CORE.RANGE"


def jammed_before(lines: list[Line], i: int, squad: str) -> bool:
    return any(l["type"] == "DieRolled" and l["data"]["purpose"] == "IM.INF.SQUAD.JAM" and l["data"]["subject"] == squad
               and l["data"]["result"] == 1 for l in lines[:i])


def jam_roll_index(lines: list[Line], i: int) -> Optional[int]:
    """lines[i] is a squad's jam roll right after its attack, the squad not jammed before: the index of
    the attack's SmallArmsResolved."""
    roll = lines[i]
    if roll["type"] != "DieRolled" or roll["data"]["purpose"] != "IM.INF.SQUAD.JAM" or roll["data"]["result"] == 1:
        return None
    fired = lines[i - 1]
    if fired["type"] != "SmallArmsFired" or jammed_before(lines, i, roll["data"]["subject"]):
        return None
    return resolved_after(lines, i, fired["data"]["attack"])


def jam_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A squad's machine gun jams (its d6 shows 1) on an attack at 7-9 hexes, and the attack is made
    all the same (IM.INF.SQUAD.JAM): the jam roll is recorded as 1. Not where a later attack of the
    squad has lost its jam roll (another injection), which the jam would excuse."""
    k = jam_roll_index(lines, i)
    if k is None or not 7 <= (lines[i - 1]["data"].get("range") or 0) <= 9:
        return None
    squad = lines[i]["data"]["subject"]
    later = [n for n in range(i + 1, len(lines)) if lines[n]["type"] == "SmallArmsFired" and lines[n]["data"]["firers"] == [squad]]
    if any(not (lines[n + 1]["type"] == "DieRolled" and lines[n + 1]["data"]["purpose"] == "IM.INF.SQUAD.JAM") for n in later):
        return None
    lines[i]["data"]["result"] = 1
    return k, "IM.INF.SQUAD.JAM"


def jam_roll_missing(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A squad's attack without its jam d6 before the SACRT roll (IM.INF.SQUAD.JAM)."""
    k = jam_roll_index(lines, i)
    if k is None:
        return None
    del lines[i]
    return k - 1, "IM.INF.SQUAD.JAM"


def squad_firepower(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A squad fires at 2: "This firepower of 1 is standard" (IM.INF.SQUAD.STATS)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "SmallArmsFired" or len(d["firers"]) != 1:
        return None
    counter = deployed(lines, d["firers"][0])
    if counter is None or counter["data"]["class"] != SQUAD:
        return None
    d["firepower"] = 2
    return i, "IM.INF.SQUAD.STATS"


def sturm_firepower_wrong(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A Sturmtruppen platoon fires one more than its firepower at that distance (IM.INF.ST.FP)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "SmallArmsFired" or len(d["firers"]) != 1:
        return None
    counter = deployed(lines, d["firers"][0])
    if counter is None or not counter["data"]["attrs"].get("sturmtruppen"):
        return None
    d["firepower"] = d["firepower"] + 1
    return i, "IM.INF.ST.FP"


def sacrt_modifier_dropped(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A SACRT roll without the +1/+2 a trench or a tank gives the target (IM.OBS.TRENCH.*, IM.TANK.COVER):
    judged when the attack is resolved."""
    roll = lines[i]
    if roll["type"] != "DieRolled" or roll["data"]["purpose"] != "LS.SACRT" or not roll["data"].get("modifiers"):
        return None
    k = resolved_after(lines, i, roll["data"]["subject"])
    if k is None:
        return None
    dropped = roll["data"]["modifiers"].pop(0)
    if not roll["data"]["modifiers"]:
        del roll["data"]["modifiers"]
    return k, dropped["why"]


def fire_wrong_side(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """Defensive fire recorded as the active player's (IM.CORE.SIDE.FIRE)."""
    line = lines[i]
    if line["type"] != "SmallArmsFired" or line["phase"] != "defensive-small-arms-fire":
        return None
    phase = next((l for l in reversed(lines[:i]) if l["type"] == "PhaseStarted"), None)
    if phase is None or phase["data"].get("active") in (None, line["side"]):
        return None
    line["side"] = phase["data"]["active"]
    return i, "IM.CORE.SIDE.FIRE"


def morale_misread(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A squad's morale check at 5: "Squads have a morale value of 4" (IM.INF.SQUAD.STATS)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "MoraleChecked" or len(d["units"]) != 1 or d.get("morale") != 4:
        return None
    counter = deployed(lines, d["units"][0])
    if counter is None or counter["data"]["class"] != SQUAD:
        return None
    d["morale"] = 5
    return i, "IM.INF.SQUAD.STATS"


def after_hit(lines: list[Line], i: int) -> bool:
    """lines[i] is the morale check of a unit a small arms attack hit: hit, d6, check."""
    if lines[i]["type"] != "MoraleChecked" or i < 2 or lines[i - 2]["type"] != "SmallArmsResolved":
        return False
    unit = lines[i]["data"]["units"][0]
    return any(r["unit"] == unit and r["result"] == "hit" for r in lines[i - 2]["data"]["results"]) and \
        lines[i - 1]["type"] == "DieRolled" and lines[i - 1]["data"]["purpose"] == "LS.MORALE"


def morale_roll_missing(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """The morale check after a small arms hit without its d6 (LS.MORALE)."""
    if not after_hit(lines, i):
        return None
    del lines[i - 1]
    return i - 1, "LS.MORALE"


def morale_result_flipped(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """The morale check after a small arms hit recorded the other way from its d6 (IM.CORE.MORALE: "a die
    result less than or equal to their morale value" passes)."""
    if not after_hit(lines, i):
        return None
    lines[i]["data"]["passed"] = not lines[i]["data"]["passed"]
    return i, "IM.CORE.MORALE"


KINDS = {
    "unspotted-fire": unspotted_fire,
    "missing-spot-roll": missing_spot_roll,
    "range-beyond": range_beyond,
    "jam-ignored": jam_ignored,
    "jam-roll-missing": jam_roll_missing,
    "squad-firepower": squad_firepower,
    "sturm-firepower": sturm_firepower_wrong,
    "sacrt-modifier-dropped": sacrt_modifier_dropped,
    "fire-wrong-side": fire_wrong_side,
    "morale-misread": morale_misread,
    "morale-roll-missing": morale_roll_missing,
    "morale-result-flipped": morale_result_flipped,
}
