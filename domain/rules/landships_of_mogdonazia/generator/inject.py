"""Breaking Landships of Mogdonazia rules in a generated game, where the auditor must find them:
movement dice more than the terrain gives, or a move longer than they give (MOG.VEH.SPEED); a
breakdown or restart read against its d6 (MOG.VEH.BREAKDOWN, MOG.VEH.BREAKDOWN.RESTART); a card
drawn twice before a reshuffle (MOG.FIRE.CARD.DECK); a hit card read against the chart
(MOG.FIRE.CARD); a critical recorded against its d6 (MOG.FIRE.CRIT)."""
from __future__ import annotations

import random
from typing import Optional

from domain.rules.landships_of_mogdonazia.generator.forces import ROAD_Y, WIDTH
from domain.tabletop.inject import Line, inject_with

BREAKS_ON = {"road": 6, "off-road": 5, "rough": 4}


def extra_speed_die(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """An off-road or rough move rolling one die more than "half the maximum number of dice rounded
    up" (a 1, so the move stays within what the dice give)."""
    line = lines[i]
    if line["type"] != "DieRolled" or line["data"]["purpose"] != "MOG.VEH.SPEED.DICE":
        return None
    if lines[i + 1]["data"]["path"][0]["y"] == ROAD_Y:
        return None
    d = line["data"]
    faces = d.get("results", [d["result"]]) + [1]
    d.update(die=f"{len(faces)}d6", results=faces, result=sum(faces))
    return i, "MOG.VEH.SPEED"


def too_far(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A road move 1 to 3" longer than its dice give (the landship's later moves start there)."""
    line = lines[i]
    if line["type"] != "UnitMoved" or line["data"]["path"][0]["y"] != ROAD_Y:
        return None
    roll = lines[i - 1]["data"]
    path = line["data"]["path"]
    shift = round(path[0]["x"] + roll["result"] + rng.choice((1.0, 2.0, 3.0)) - path[-1]["x"], 1)
    unit = line["data"]["unit"]
    moves = [l for l in lines[i:] if l["type"] == "UnitMoved" and l["data"]["unit"] == unit]
    if max(p["x"] for l in moves for p in l["data"]["path"]) + shift > WIDTH - 4.0:
        return None   # still on the table
    for later in moves:
        for n, p in enumerate(later["data"]["path"]):
            if later is not line or n > 0:
                p["x"] = round(p["x"] + shift, 1)
    return i, "MOG.VEH.SPEED"


def breakdown_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A breakdown d6 that breaks the vehicle down, recorded as holding."""
    line = lines[i]
    if line["type"] != "BreakdownTested" or line["data"]["kind"] != "breakdown" or line["data"]["broke_down"]:
        return None
    roll = lines[i - 1]["data"]
    roll["result"] = rng.randint(BREAKS_ON[line["data"]["terrain"]], 6)
    return i, "MOG.VEH.BREAKDOWN"


def restart_misread(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A restart on a 1 to 3 ("On a 4 to 6, the vehicle will move normally next turn")."""
    line = lines[i]
    if line["type"] != "BreakdownTested" or line["data"]["kind"] != "restart" or not line["data"]["restarted"]:
        return None
    lines[i - 1]["data"]["result"] = rng.randint(1, 3)
    return i, "MOG.VEH.BREAKDOWN.RESTART"


def card_twice(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A card drawn again before a reshuffle returned it (one reading the same on the chart)."""
    line = lines[i]
    if line["type"] != "CardDrawn":
        return None
    ace = line["data"]["card"].startswith("A")
    drawn = [l["data"]["card"] for l in lines[:i] if l["type"] == "CardDrawn"
             and l["data"]["card"].startswith("A") == ace]
    if not drawn or any(l["type"] == "DeckShuffled" for l in lines[:i]):
        return None
    card = rng.choice(drawn)
    line["data"]["card"] = lines[i + 1]["data"]["card"] = card
    return i, "MOG.FIRE.CARD.DECK"


def card_misread(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """Small arms' hit card that is not an ace read as a critical ("Ace card- Criticals")."""
    line = lines[i]
    if line["type"] != "HitCardResolved" or line["data"]["outcome"] != "none":
        return None
    line["data"]["outcome"] = "critical"
    return i, "MOG.FIRE.CARD"


def critical_misread(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A critical recorded as another result than its d6 (1 and 3: what they change is not traced)."""
    line = lines[i]
    if line["type"] != "CriticalHit" or line["data"]["result"] not in (1, 3):
        return None
    line["data"]["result"] = 4 - line["data"]["result"]
    return i, "MOG.FIRE.CRIT"


KINDS = {"extra-speed-die": extra_speed_die, "too-far": too_far, "breakdown-ignored": breakdown_ignored,
         "restart-misread": restart_misread, "card-twice": card_twice, "card-misread": card_misread,
         "critical-misread": critical_misread}


def inject(lines: list[Line], count: int, rng: random.Random):
    return inject_with(KINDS, lines, count, rng)
