"""The forces and the table of a generated Landships of Mogdonazia game: two landships built by the
text (landships-of-mogdonazia.txt, Vehicles statistics) driving east, one on the road and one off
it through rough ground, against TSATF infantry holding the east end of a 72" x 48" table."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Optional

M, REBELS = "mogdonazia", "rebels"
WIDTH, DEPTH = 72.0, 48.0
ROAD_Y, LANE_Y = 36.0, 12.0
HULL = {"w": 4.0, "d": 6.0}          # facing 90 (east): 6" along x
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]   # "standard-52"
# C. Armour: "If the vehicle model looks like it is armoured, the 1, 5 & 6 become 2, 3 & 4"
ARMOURED = {1: 2, 5: 3, 6: 4}


@dataclass
class Landship:
    id: str
    x: float
    y: float
    speed_dice: int
    crew: int
    weapons: list[dict[str, Any]]
    status: set[str] = field(default_factory=set)   # broken-down, immobilized, half-speed, gears, gone
    damaged: set[str] = field(default_factory=set)  # weapons a critical 1 damaged
    restarted_turn: int = -1

    def unit(self) -> SimpleNamespace:
        """What the geometry measures: its position, facing and hull."""
        return SimpleNamespace(position={"x": self.x, "y": self.y}, facing=90, footprint=HULL, figures=None)

    @property
    def gone(self) -> bool:
        return "gone" in self.status


@dataclass
class Infantry:
    id: str
    x: float
    y: float
    figures: int = 20

    @property
    def gone(self) -> bool:
        return self.figures <= 0


@dataclass
class Forces:
    landships: list[Landship]
    infantry: list[Infantry]
    deck: list[str] = field(default_factory=list)   # cards still in the deck, top first


def table(rng: random.Random) -> tuple[dict[str, Any], float]:
    """The road along y 36, rough ground across the off-road lane at a seeded x, a wood between the
    lanes; returns the table and the x where the rough ground starts."""
    rough_x = round(rng.uniform(22.0, 34.0), 1)
    wood_x = round(rng.uniform(8.0, 40.0), 1)
    return {"width": WIDTH, "depth": DEPTH, "features": [
        {"id": "rd-1", "kind": "road", "width": 3.0, "points": [[0.0, ROAD_Y], [WIDTH, ROAD_Y]]},
        {"id": "ro-1", "kind": "rough", "points": [[rough_x, 6.0], [rough_x + 8.0, 6.0], [rough_x + 8.0, 18.0],
                                                   [rough_x, 18.0]]},
        {"id": "w-1", "kind": "woodland", "points": [[wood_x, 21.0], [wood_x + 10.0, 21.0], [wood_x + 10.0, 28.0],
                                                     [wood_x, 28.0]]},
    ]}, rough_x


def weapons_of(unit: str, rng: random.Random) -> list[dict[str, Any]]:
    """E. Weapons: a turret "may fire 360 degrees"; each weapon with its crew."""
    out = [{"weapon": f"{unit}/mg", "type": "machine-gun", "mount": "turret", "crew": 2}]
    if rng.random() < 0.6:
        out.insert(0, {"weapon": f"{unit}/gun", "type": "field-gun", "mount": "turret", "crew": 4})
    return out


def target_class(face: int) -> int:
    return ARMOURED.get(face, face)


def crew_for(weapons: list[dict[str, Any]], rng: random.Random) -> int:
    """B. 1: the weapon crews, "and then add whatever number of crewmen that looks sufficient"."""
    return sum(w["crew"] for w in weapons) + rng.randint(1, 3)


def movement_dice(maximum: int, terrain: str) -> tuple[int, bool]:
    """A. 1: road "the maximum number of dice", off road "half the maximum number of dice rounded up",
    rough the off-road dice with "the highest die" negated; "a minimum number of one die"."""
    count = maximum if terrain == "road" else math.ceil(maximum / 2)
    return max(1, count), terrain == "rough"


def inches_of(faces: list[int], drop_highest: bool) -> int:
    kept = sorted(faces)
    return sum(kept[:-1] if drop_highest and len(kept) > 1 else kept)


def nearest_infantry(forces: Forces, ship: Landship) -> Optional[Infantry]:
    alive = [i for i in forces.infantry if not i.gone]
    return min(alive, key=lambda i: (abs(i.x - ship.x) + abs(i.y - ship.y), i.id), default=None)
