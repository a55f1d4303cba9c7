"""Breaking Dux Bellorum AVBCW rules in a generated game, where the auditor must find them: a move
beyond the unit's MV (AVBCW.UNIT.STATS), a shot with a die more than its rating and modifiers give
(AVBCW.SHOOT.MODS, AVBCW.AMMO.LOW when halved), a low result left unrecorded (AVBCW.AMMO.LOW), a
suppression left unrecorded (AVBCW.SUPP.TRIGGER), a suppressed unit's BRV test without its -2
(AVBCW.SUPP.EFFECTS), the car turning more than 45° in a move of more than 6” (AVBCW.VEH.FACING),
a commander placing more LPs than it has (AVBCW.AB.INSPIRING)."""
from __future__ import annotations

import random
from typing import Optional

from domain.rules.dux_bellorum_avbcw.generator.army import CAR_ID
from domain.tabletop.inject import Line, inject_with, previous

MV = 6.0   # every unit the generator plays but the car: MV 6”


def over_allowance(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A move of 1 to 2" more than MV 6” (a unit's first move of the turn; the unit's next moves
    start where this one ends)."""
    line = lines[i]
    if line["type"] != "UnitMoved" or line["data"].get("mode") or line["data"]["unit"] == CAR_ID:
        return None
    path = line["data"]["path"]
    start, end = path[0], path[-1]
    step = 1.0 if end["y"] > start["y"] else -1.0
    extra = rng.choice((1.0, 1.5, 2.0))
    new_y = round(start["y"] + step * (MV + extra), 1)
    if not 2.0 < new_y < 46.0:
        return None
    shift = new_y - end["y"]
    unit = line["data"]["unit"]
    later_paths = [later["data"]["path"] for later in lines[i + 1:]
                   if later["type"] == "UnitMoved" and later["data"]["unit"] == unit]
    depth = next((l["data"]["depth"] for l in lines if l["type"] == "TableDefined"), 48.0)
    if any(not 0.0 <= round(p["y"] + shift, 1) <= depth for path in later_paths for p in path):
        return None   # the unit's later moves, shifted with it, would leave the table: not a log
    for path in later_paths:
        for p in path:
            p["y"] = round(p["y"] + shift, 1)
    end["y"] = new_y
    return i, "AVBCW.UNIT.STATS"


def extra_die(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A die more than the rating and the recorded modifiers give (a 3: neither a hit nor a 1)."""
    line = lines[i]
    if line["type"] != "ShotFired" or i + 1 >= len(lines) or lines[i + 1]["data"].get("purpose") != "DB.SHOOT":
        return None
    line["data"]["dice"] += 1
    roll = lines[i + 1]["data"]
    faces = roll.get("results", [roll["result"]]) + [3]
    roll.update(die=f"{len(faces)}d6", results=faces, result=sum(faces))
    low = any("AMMO.LOW" in str(m) for m in line["data"]["modifiers"])
    return i, "AVBCW.AMMO.LOW" if low else "AVBCW.SHOOT.MODS"


def low_unrecorded(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """More 1s than hits, and no 'low on ammo' recorded after it (by a unit that does not shoot
    again: its halved dice would be judged as too few)."""
    if lines[i]["type"] != "AmmoStateChanged" or lines[i]["data"]["state"] != "low":
        return None
    if any(later["data"].get("shooter") == lines[i]["data"]["unit"] for later in lines[i + 1:]):
        return None
    j = previous(lines, i, "ShotResolved")
    del lines[i]
    return j, "AVBCW.AMMO.LOW"


def suppression_unrecorded(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """Two COH lost to shooting this turn, and no suppressed status (of a unit that is neither
    shot at nor tested again: its suppression changes nothing later)."""
    line = lines[i]
    if line["type"] != "UnitStatusChanged" or line["data"]["status"] != "suppressed":
        return None
    unit = line["data"]["unit"]
    if any(later["data"].get("target") == unit or (later["type"] == "BraveryTested" and later["data"]["unit"] == unit)
           for later in lines[i + 1:]):
        return None
    if any(earlier["data"].get("status") == "suppressed" and earlier["data"]["unit"] == unit for earlier in lines[:i]):
        return None   # already prone: the auditor may not ask for it again
    j = previous(lines, i, "CohesionLost")
    del lines[i]
    return j, "AVBCW.SUPP.TRIGGER"


def suppression_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A suppressed unit tests Bravery at its full BRV ("Suffers -2 BRV")."""
    line = lines[i]
    if line["type"] != "BraveryTested" or not line["data"]["modifiers"]:
        return None
    line["data"]["brv"] += 2
    line["data"]["modifiers"] = []
    return i, "AVBCW.SUPP.EFFECTS"


def over_turned(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A vehicle's move of more than 6” ending turned 50° to 80° ("A vehicle that moves more than 6”
    can only change facing by up to 45° during their move")."""
    line = lines[i]
    if line["type"] != "UnitMoved" or line["data"]["unit"] != CAR_ID:
        return None
    path = line["data"]["path"]
    if abs(path[-1]["y"] - path[0]["y"]) <= 6.5:
        return None
    path[-1]["f"] = rng.choice((50, 60, 70, 80, 280, 290, 300, 310))
    return i, "AVBCW.VEH.FACING"


def lps_over(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A commander placing 6 LPs more than its 6 ("The Inspiring unit has 6 Leadership Points"); the
    side returns them too, unused."""
    line = lines[i]
    if line["type"] != "LeadershipPointsPlaced":
        return None
    returned = next((l for l in lines[i + 1:] if l["type"] == "LeadershipPointsReturned"
                     and l["side"] == line["side"]), None)
    if returned is None or returned["turn"] != line["turn"]:
        return None
    line["data"]["points"] += 6
    returned["data"]["points"] += 6
    return i, "AVBCW.AB.INSPIRING"


KINDS = {"lps-over": lps_over, "over-turned": over_turned, "over-allowance": over_allowance, "extra-die": extra_die, "low-unrecorded": low_unrecorded,
         "suppression-unrecorded": suppression_unrecorded, "suppression-ignored": suppression_ignored}


def inject(lines: list[Line], count: int, rng: random.Random):
    return inject_with(KINDS, lines, count, rng)
