"""The armies and the table of a generated Dux Bellorum AVBCW game: units as the unit table prints
them, costed as the text costs them, in columns across a 48" x 48" table with terrain on the flanks.

Unit type table (dux-bellorum-avbcw.txt): Commander on foot 5 pts (Inspiring, its Notes), Infantry
Regulars 5, Irregulars 4, Militia 3, LMG team 3, and for the royalists a Car with a mounted LMG
(soft vehicle table: 2 pts, MV 24”) up the road; every unit "between 2 and 7 points" (SR.CAP)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

R, S = "royalist", "socialist"
SIDES = (R, S)
NATIONS = {R: "anglican-league", S: "chopwell-soviet"}
WIDTH = DEPTH = 48.0
COLUMNS = (13.0, 20.0, 28.0, 35.0)    # units move straight up and down these, clear of the flank terrain
ROAD_X = 24.0                          # the car's column: the road's line

STATS = {
    "commander-foot": {"MV": "6”", "BRV": "9", "MELEE": "4(1)", "SHOOT": "3", "PRO": "6", "COH": "6"},
    "inf-regulars": {"MV": "6”", "BRV": "8", "MELEE": "4(1)", "SHOOT": "6", "PRO": "5", "COH": "5"},
    "inf-irregulars": {"MV": "6”", "BRV": "7", "MELEE": "3(1)", "SHOOT": "5", "PRO": "5", "COH": "5"},
    "inf-militia": {"MV": "6”", "BRV": "6", "MELEE": "2", "SHOOT": "4", "PRO": "5", "COH": "4"},
    "lmg": {"MV": "6”", "BRV": "7", "MELEE": "2", "SHOOT": "4", "PRO": "5", "COH": "3"},
    "vehicle:car": {"MV": "24", "BRV": "8", "SHOOT": "4", "PRO": "2"},
}
POINTS = {"commander-foot": 5, "inf-regulars": 5, "inf-irregulars": 4, "inf-militia": 3, "lmg": 3, "vehicle:car": 2}
FIGURES = {"commander-foot": 3, "inf-regulars": 10, "inf-irregulars": 8, "inf-militia": 10, "lmg": 3}
FOOTPRINT = {"commander-foot": (2.0, 1.0), "lmg": (2.0, 1.0), "vehicle:car": (2.0, 4.0)}   # infantry: 5" x 2"
CAR = "vehicle:car"
CAR_ID = "r-5"
INFANTRY = ("inf-regulars", "inf-irregulars", "inf-militia")


@dataclass
class Unit:
    id: str
    side: str
    type: str
    x: float
    y: float
    facing: int
    coh_lost: int = 0
    ammo: int = 0              # 0 normal, 1 low, 2 exhausted
    suppressed: bool = False
    destroyed: bool = False
    turn_shooting_coh: int = 0
    damage: set = field(default_factory=set)   # a vehicle's Vehicle Damage results so far

    @property
    def stat(self) -> dict[str, str]:
        return STATS[self.type]

    def number(self, name: str) -> int:
        return int(self.stat[name].rstrip("”").split("(")[0])

    @property
    def size(self) -> tuple[float, float]:
        return FOOTPRINT.get(self.type, (5.0, 2.0))

    @property
    def front(self) -> float:
        """The y of its front edge (facing 0: toward +y)."""
        return self.y + (self.size[1] / 2 if self.facing == 0 else -self.size[1] / 2)


@dataclass
class Armies:
    units: list[Unit] = field(default_factory=list)

    def of(self, side: str) -> list[Unit]:
        return [u for u in self.units if u.side == side and not u.destroyed]

    def enemies(self, side: str) -> list[Unit]:
        return self.of(S if side == R else R)


def choose_armies(rng: random.Random) -> Armies:
    """Each side: a Commander on foot, two infantry units and an LMG team, one to a column."""
    armies = Armies()
    for side, y, facing in ((R, 5.0, 0), (S, 43.0, 180)):
        kinds = ["commander-foot", *rng.sample(INFANTRY, 2), "lmg"]
        rng.shuffle(kinds)
        for n, (kind, x) in enumerate(zip(kinds, COLUMNS), 1):
            armies.units.append(Unit(f"{side[0]}-{n}", side, kind, x, y + rng.choice((-1.0, 0.0, 1.0)), facing))
    armies.units.append(Unit(CAR_ID, R, CAR, ROAD_X, 3.0, 0))
    return armies


def army_list(armies: Armies, side: str) -> dict[str, Any]:
    units = armies.of(side)
    commander = next(u.id for u in units if u.type == "commander-foot")
    listed = []
    for u in units:
        if u.type == CAR:   # the soft vehicle table's Car, "Mounted LMG" its option
            listed.append({"unit": u.id, "type": CAR, "crew": 2, "stats": dict(u.stat), "options": ["mounted-lmg"],
                           "weapons": [{"weapon": f"{u.id}/lmg", "shoot": "4", "arcs": ["F", "L", "R", "B"],
                                        "crewed": True}], "drive": "wheeled", "pts": POINTS[CAR]})
            continue
        entry: dict[str, Any] = {"unit": u.id, "type": u.type, "figures": FIGURES[u.type], "stats": dict(u.stat),
                                 "special": ["AVBCW.AB.INSPIRING"] if u.type == "commander-foot" else [],
                                 "pts": POINTS[u.type]}
        if u.id != commander:
            entry["commander"] = commander
        listed.append(entry)
    return {"side": side, "units": listed, "army_rules": [], "total": sum(POINTS[u.type] for u in units)}


def table(rng: random.Random) -> dict[str, Any]:
    """Woodland on the west flank, a hedge and a wall on the east, a road up the middle: placed by
    the seed, never in the columns the units use."""
    wy = round(rng.uniform(12.0, 26.0), 1)
    hy = round(rng.uniform(14.0, 34.0), 1)
    wall = round(rng.uniform(6.0, 40.0), 1)
    return {"width": WIDTH, "depth": DEPTH, "features": [
        {"id": "w-1", "kind": "woodland", "points": [[1.0, wy], [8.0, wy], [8.0, wy + 10.0], [1.0, wy + 10.0]]},
        {"id": "h-1", "kind": "hedge", "points": [[41.0, hy], [47.0, hy]]},
        {"id": "wl-1", "kind": "wall", "points": [[41.0, wall], [46.0, wall + 2.0]]},
        {"id": "rd-1", "kind": "road", "width": 3.0, "points": [[24.0, 0.0], [24.0, DEPTH]]},
    ]}
