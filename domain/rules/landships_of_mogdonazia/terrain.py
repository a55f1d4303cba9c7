"""The terrain class of a vehicle's move or position (game-log-tabletop.md, UnitMoved: "its class
(Mogdonazia: road if all on road, i.e. within width/2 of a road's line; rough if any part touches
rough; else off road: `mog-terrain-class`)"), on the tabletop geometry."""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from domain.tabletop.geometry import extent, extent_key, on_road, touches_any, touching, xy

# game-log-tabletop.md, TableDefined, the Mogdonazia column: woodland, dense woodland and rough
# are `rough`; the other kinds are not ("not rough (seed silent)"), unless the flag says so.
ROUGH_KINDS = frozenset({"woodland", "dense-woodland", "rough"})
CLASSES = ("road", "off-road", "rough")   # best to worst


def is_rough(feature: Mapping[str, Any]) -> bool:
    flag = feature.get("rough")
    return feature["kind"] in ROUGH_KINDS if flag is None else bool(flag)


def _features(table: Optional[Mapping[str, Any]]) -> tuple[list, list]:
    features = (table or {}).get("features", [])
    return [f for f in features if f["kind"] == "road"], [f for f in features if is_rough(f)]


def position_class(unit: Any, table: Optional[Mapping[str, Any]]) -> str:
    """Where a unit stands: rough if its extent touches rough terrain, road if its centre lies
    within width/2 of a road's line, else off road (BreakdownTested: "of its position when it
    did not move"). Kept by the table's features (the list) and what the unit's extent is made
    of: a vehicle standing still is measured once, not at every turn's breakdown roll."""
    features = (table or {}).get("features", [])
    # a board unit that has not moved keeps its position and footprint objects (the board gives
    # it new ones when it moves): found by them before its key is rebuilt
    position, size, figures = unit.position, unit.footprint, unit.figures
    quick = (id(features), id(position), id(size), id(figures), unit.facing, getattr(unit, "figure_base", None))
    at = xy(position)
    seen = _STANDING.get(quick)
    if (seen is not None and seen[0] is features and seen[1] is position and seen[2] is size and seen[3] is figures
            and seen[4] == at):
        return seen[5]
    found = _keyed_position_class(unit, table, features)
    if len(_STANDING) >= 1024:
        _STANDING.clear()
    _STANDING[quick] = (features, position, size, figures, at, found)   # the objects kept: their ids are not reused
    return found


_STANDING: dict[tuple, tuple] = {}


def _keyed_position_class(unit: Any, table: Optional[Mapping[str, Any]], features: list) -> str:
    key = (id(features), extent_key(unit))
    kept = _POSITIONS.get(key)
    if kept is None or kept[0] is not features:
        if len(_POSITIONS) >= 1024:
            _POSITIONS.clear()
        kept = _POSITIONS[key] = (features, _position_class(unit, table))   # the list kept: its id not reused
    return kept[1]


_POSITIONS: dict[tuple, tuple[list, str]] = {}


def _position_class(unit: Any, table: Optional[Mapping[str, Any]]) -> str:
    roads, rough = _features(table)
    if touching(extent(unit), rough):
        return "rough"
    return "road" if on_road([unit.position], roads) else "off-road"


def move_class(unit: Any, path: Sequence[Mapping[str, Any]], table: Optional[Mapping[str, Any]],
               reading: str) -> str:
    """`mog-terrain-class`: `worst`, the worst class the move touches (rough if the swept extent
    touches rough, else road if all of the path is on a road, else off road); `start`, the class
    where it starts."""
    if reading == "start":
        return position_class(unit, table)
    roads, rough = _features(table)
    if touches_any(unit, path, rough):
        return "rough"
    return "road" if on_road(path, roads) else "off-road"


def move_class_of(ctx: Any, line: Mapping[str, Any], unit: Any, path: Sequence[Mapping[str, Any]]) -> str:
    """`move_class` of the move on `line` by the game's `mog-terrain-class` reading, measured once
    per board moment however many modules ask (the breakdown roll and the movement dice both do)."""
    reading = ctx.interpretations.reading("mog-terrain-class")
    found = ctx.at_moment("mog-move-class", dict)
    key = (line["seq"], unit.unit, reading)
    if key not in found:
        found[key] = move_class(unit, path, ctx.board.table, reading)
    return found[key]


def worst(classes: Sequence[str]) -> str:
    """The worst of several moves' classes (one turn's moves, for its breakdown roll)."""
    return max(classes, key=CLASSES.index)
