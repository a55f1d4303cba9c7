"""A generated game's set-up: date, sides, the map, missions, trenches, units and elements.

The British hold the high rows of the map and face north; the Germans the low rows. Each side
gets two infantry platoons, two squads, a machine-gun platoon, a forward observer, a liaison
officer, a tank and three off-map artillery elements of 25 artillery points each (the
ammunition-consumption option, IM.ART.AMMOCON.ENABLE, is on in every generated game).
"""
from __future__ import annotations

from typing import Any

from domain.board.hexes import parse_loc
from domain.rules.infernal_machines.generator.machines import (
    ATR_READING, WIDE_PERMISSION, extra_wide_row, vehicle_units, year_of)
from domain.rules.infernal_machines.generator.tracked import TrackedRecorder

AMMO_OPTION = "IM.ART.AMMOCON.ENABLE"
# Readings of the ⚠ passages the generated games rely on (GameStarted.options).
READINGS = ("interpretation:communication-die=d6", "interpretation:lno-chain=both",
            "interpretation:sustained-scatter=retest", "interpretation:sustained-pause=pause",
            "interpretation:im-hurricane-attacks-per-element=one",
            "interpretation:im-hurricane-retreat-in-zone=attacked-again",
            "interpretation:IM.INF.SQUAD.JAM.NEAR=every-attack", ATR_READING)
DATES = ("1917-04", "1917-06", "1917-09", "1917-11", "1918-03", "1918-05", "1918-08", "1918-10")
SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}
POINTS = 25

UNITS = (  # id suffix, class, morale, firepower, range, movement, row offset from the trench, attrs
    ("inf1", "infantry-platoon", 4, 4, 6, 2, 0, {}),
    ("inf2", "infantry-platoon", 4, 4, 6, 2, 0, {}),
    # squads: "This firepower of 1 is standard", range 9 with the inherent light machine gun (IM.INF.SQUAD.STATS)
    ("sq1", "infantry-squad", 4, 1, 9, 2, 0, {}),
    ("sq2", "infantry-squad", 4, 1, 9, 2, 0, {}),
    ("mg1", "mg-platoon", 4, 6, 10, 1, 1, {}),
    ("fo", "forward-observer", 4, 0, 0, 2, 2, {}),
    ("lno", "liaison-officer", 4, 0, 0, 2, 0, {}),
)
# Sturmtruppen: "Their morale value is always 5" (IM.INF.ST.MORALE); the generated games field them in 1918.
STURM_MORALE = 5


def extent(map_data: dict[str, Any]) -> tuple[str, int, int, int, int]:
    cols, rows, board = [], [], None
    for loc in map_data["hexes"]:
        board, col, row = parse_loc(loc)
        cols.append(col)
        rows.append(row)
    return board, min(cols), max(cols), min(rows), max(rows)


def set_up(rec: TrackedRecorder, map_data: dict[str, Any], scenario: str) -> dict[str, Any]:
    rng = rec.rng
    board, c0, c1, r0, r1 = extent(map_data)
    rec.extent = (c0, c1, r0, r1)
    date = rng.choice(DATES)
    rec.game_started(scenario=scenario, date=date, sides=SIDES,
                     options=[AMMO_OPTION, *READINGS], permissions=["smoke", WIDE_PERMISSION], tables=rec.pack.name)
    rec.emit("MapDefined", map_data)
    rec.emit("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    plan = {"british": {"trench": r1 - 2, "back": +1}, "german": {"trench": r0 + 2, "back": -1}}
    for side in sorted(SIDES):
        rec.emit("ArtilleryMissionSet", {"side": side, "mission": rng.choice(["neutralisation", "suppression"])})
        types = ["drumfire", "hurricane"] if rng.random() < 0.7 else ["drumfire"]
        rec.emit("BarrageTypesSet", {"side": side, "allowed": types})
    for side in sorted(SIDES):
        row = plan[side]["trench"]
        for col in range(c0, c1 + 1):
            loc = f"{board}:{col:02d}{row:02d}"
            if rec.board.hexes.get(loc, {}).get("terrain") == "clear":
                rec.marker(side, "trench-prepared", loc)
    extra_wide_row(rec, board, r1 - 3, (c0, c1))
    for side in sorted(SIDES):
        _deploy_side(rec, side, board, (c0, c1), plan[side], date)
        for n in (1, 2, 3):
            rec.element(side, f"{side[0]}-art{n}", rng.choice([10, 15, 20, 25]), POINTS)
    return {"date": date, "board": board}


def side_units(side: str, date: str, rng) -> list[tuple]:
    """The side's set-up rows: the infantry (Sturmtruppen platoons for the Germans in 1918) and its machines."""
    sturm = side == "german" and year_of(date) >= 1918
    rows = [(s, c, STURM_MORALE, f, r, m, b, {"sturmtruppen": True}) if sturm and c == "infantry-platoon"
            else (s, c, mo, f, r, m, b, a) for s, c, mo, f, r, m, b, a in UNITS]
    return rows + vehicle_units(side, SIDES[side]["nation"], date, rng)


def _deploy_side(rec: TrackedRecorder, side: str, board: str, cols: tuple[int, int], plan: dict[str, int],
                 date: str) -> None:
    rng = rec.rng
    used: set[str] = set()
    for suffix, cls, morale, fp, rng_, mv, back, attrs in side_units(side, date, rng):
        row = plan["trench"] + back * plan["back"]
        for _ in range(50):
            col = rng.randint(cols[0] + 1, cols[1] - 1)
            loc = f"{board}:{col:02d}{row:02d}"
            spec = rec.board.hexes.get(loc, {})
            if loc not in used and spec.get("terrain") == "clear" and not spec.get("features"):
                break
        used.add(loc)
        unit = f"{side[0]}-{suffix}"
        rec.deploy(side, unit, cls, loc, name=f"{side} {suffix}", morale=morale, firepower=fp,
                   range_=rng_, movement=mv, facing=1 if side == "german" else 4, **attrs)
