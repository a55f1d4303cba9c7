"""What the Dux Bellorum AVBCW rule modules read beside the board and their typed events
(`AuditContext.typed`): each unit's army-list entry, a shooting rating's numbers, a unit's extent
and its friends on the table, and where a path runs on ground good for wheels
(game-log-tabletop.md, Dux Bellorum)."""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

import shapely
from shapely.geometry import LineString, Point

from domain.board.state import BoardState, UnitState
from domain.rulebook import beside
from domain.rules.dux_bellorum_avbcw.events import ArmyListed, ListedUnit
from domain.rules.engine import RuleModule
from domain.tabletop import geometry as geo

RULEBOOK = beside(__file__)
RULESET_ID = "dux-bellorum-avbcw"
# Units no longer on the table: they neither act nor block a line of sight.
GONE = ("destroyed", "not-arrived", "eliminated")


class ArmyLists:
    """Each listed unit's ArmyListed entry ("statistics come from ArmyListed"), by unit id."""

    def __init__(self) -> None:
        self.entries: dict[str, ListedUnit] = {}
        self.version = 0     # lists taken so far: what is worked out from the entries is kept by it

    def take(self, listed: ArmyListed) -> None:
        self.entries.update({entry.unit: entry for entry in listed.units})
        self.version += 1

    def get(self, unit_id: str) -> Optional[ListedUnit]:
        return self.entries.get(unit_id)


class ListedModule(RuleModule):
    """A Dux Bellorum AVBCW rule module that reads each unit's army-list entry (`self.lists`)."""

    ruleset = RULESET_ID

    def __init__(self, ctx):
        super().__init__(ctx)
        self.lists = ArmyLists()

    def on_ArmyListed(self, line):
        self.lists.take(self.ctx.typed(line))


def is_vehicle(unit: UnitState, entry: Optional[ListedUnit] = None) -> bool:
    """Names and weapons: a vehicle's type is `vehicle:<row>`."""
    kind = (entry.type if entry is not None else None) or unit.type or ""
    return kind.startswith("vehicle:")


def has_rule(entry: Optional[ListedUnit], rule_id: str) -> bool:
    return entry is not None and rule_id in entry.special


@lru_cache(maxsize=1024)
def inches_of(printed: Optional[str]) -> Optional[float]:
    """The number a statistic opens with: MV "6", "24”", "12". Read once per printed form (every
    move reads its unit's MV)."""
    found = re.match(r"^\s*(\d+(?:\.\d+)?)", printed or "")
    return float(found[1]) if found else None


# ---------------------------------------------------------------- shooting ratings

@dataclass(frozen=True)
class Rating:
    """A SHOOT rating: "Shoot ratings give the unit's effect against soft targets ... a second
    rating in brackets ... against hard targets ... Where a distance is listed, this shoot rating
    has a limited range". `8(1): 12”` and `8(1)(12”)` limit the range to 12"; `4(1): ≥12”` is a
    minimum range (rules-catalogue.md, AVBCW.UNIT.STATS note)."""
    soft: int
    hard: Optional[int]
    max_range: Optional[float]
    min_range: Optional[float]


RATING_RE = re.compile(
    r"^(?:\d+x)?(?P<soft>\d+)(?:\((?P<hard>\d+)\))?"
    r"(?:(?::(?P<min>≥|>=)?(?P<limit>\d+(?:\.\d+)?)[\"”]?)|(?:\((?P<bracket>\d+(?:\.\d+)?)[\"”]\)))?$")


def rating_of(printed: Optional[str]) -> Optional[Rating]:
    """The numbers of a printed rating (spaces removed, as the page writes them), or None for a
    unit that cannot shoot ("-") or a form this reader does not know."""
    found = RATING_RE.match(re.sub(r"\s+", "", printed or ""))
    if found is None:
        return None
    limit = found["limit"] or found["bracket"]
    minimum = bool(found["min"])
    return Rating(int(found["soft"]), int(found["hard"]) if found["hard"] else None,
                  None if minimum or limit is None else float(limit), float(limit) if minimum else None)


# ---------------------------------------------------------------- units on the table

def on_table(unit: Optional[UnitState]) -> bool:
    # asked of every unit by most rules at most events: a plain loop, no generator
    if unit is None or unit.position is None or unit.attrs.get("aboard"):
        return False
    for status in unit.status:
        if status in GONE:
            return False
    return True


def unit_extent(unit: UnitState) -> geo.Extent:
    return geo.unit_extent(unit)


def friends_of(board: BoardState, side: Optional[str], but: Iterable[str]) -> dict[str, geo.Extent]:
    """The side's other units on the table: "Passes within 1” of a friendly unit"."""
    skip = set(but)
    return {uid: unit_extent(u) for uid, u in board.units.items()
            if side is not None and u.side == side and uid not in skip and on_table(u)}


# ---------------------------------------------------------------- ground for wheels and bicycles

def good_ground(features: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Roads and ground designated for wheels (`wheels`, by default `good-going`: game-log-tabletop.md,
    TableDefined, "good-going | `wheels`; bicycles 'off road in good going'")."""
    return [f for f in features if f["kind"] == "road" or f.get("wheels", f["kind"] == "good-going")]


@dataclass(frozen=True)
class GroundShare:
    all: bool                    # every sampled point of the base centre's path is on it
    any: bool                    # some point is
    first_off: Optional[geo.XY]  # the first point off it, if any


def path_on(path: Sequence[Any], features: Sequence[Mapping[str, Any]]) -> GroundShare:
    """Where the base centre's path runs on the given features, sampled every 0.1" (a tape
    measure's step), a point being on them when its distance rounds to 0.0 ("within width/2 of a
    road's line", as the page defines "on road")."""
    coords = [geo.xy(p) for p in path]
    if not features:
        return GroundShare(False, False, coords[0])
    ground = geo._union_of(list(features))   # the features' shapes, united once per table
    track = LineString(coords) if len(set(coords)) > 1 else Point(coords[0])
    if _sure_ground(ground).covers(track):
        return GroundShare(True, True, None)   # every sample within 0.04" of the ground: all on it
    samples = shapely.get_coordinates(shapely.segmentize(track, geo.SAMPLE_STEP))
    on = [geo.round_inches(d) == 0.0 for d in shapely.distance(shapely.points(samples), ground)]
    off = next((tuple(map(float, p)) for p, is_on in zip(samples, on) if not is_on), None)
    return GroundShare(all(on), any(on), off)


def _sure_ground(ground):
    """Where every point rounds to 0.0" from the ground: within 0.04" of it (below the 0.05" that
    rounds up; a buffer's polygon lies inside the round reach it draws). Once per ground."""
    kept = _SURE.get(id(ground))
    if kept is None or kept[0] is not ground:
        if len(_SURE) >= 256:
            _SURE.clear()
        kept = _SURE[id(ground)] = (ground, ground.buffer(0.04))   # the ground kept: its id is not reused
    return kept[1]


_SURE: dict[int, tuple] = {}


def centre_line(path: Sequence[Any]):
    coords = [geo.xy(p) for p in path]
    return LineString(coords) if len(set(coords)) > 1 else Point(coords[0])
