"""Positions from a Tabletop Simulator save as a tabletop game's events (docs/tts.md): a unit
with no deployment yet is deployed (`UnitDeployed`), a deployed one whose place or facing
changed since the board the log holds is moved (`UnitMoved`), and nothing is recorded of the
others. Pure: the save, the unit map and the game's stored lines in, the events out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.board.state import BoardState, UnitState, fold
from domain.events import validate_data
from domain.rulesets import RuleSet, find, named_at
from domain.tabletop.geometry import on_table, rotation
from domain.tabletop.tts import Frame, TableObject, TTSError, pose

# Statuses after which a unit is out of play: its model may lie anywhere (off the table too).
OUT_OF_PLAY = frozenset({"eliminated", "destroyed"})
# What a unit map's `deploy` may not give: the save gives where the unit stands and faces.
FROM_THE_SAVE = ("unit", "position", "facing")
SHOWN_IDS = 8


class UnitEntry(BaseModel):
    """One unit of the map: the game's unit id and the TTS object that is it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    unit: str = Field(min_length=1)
    guid: Optional[str] = Field(default=None, min_length=1)
    nickname: Optional[str] = Field(default=None, min_length=1)
    side: Optional[str] = None
    front: Optional[float] = None  # degrees clockwise from the model's forward axis to its front
    deploy: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_key(self):
        if (self.guid is None) == (self.nickname is None):
            raise ValueError("give the object's `guid` or its `nickname` (one of them)")
        return self


class UnitMap(BaseModel):
    """MAP.json: {"front"?: degrees for every unit, "units": [UnitEntry, ...]}."""

    model_config = ConfigDict(extra="forbid", strict=True)
    front: float = 0.0
    units: list[UnitEntry] = Field(min_length=1)


def read_map(data: Any) -> UnitMap:
    try:
        return UnitMap.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _path(err.get("loc", ())) or "(map)"
        raise TTSError("map", where, err.get("msg", str(exc)).removeprefix("Value error, ")) from None


def _path(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass
class Step:
    """What the import does with one unit of the map."""

    unit: str
    entry: int
    status: str  # deployed | moved | unchanged | not-on-table | out-of-play | aboard
    obj: Optional[TableObject] = None
    position: Optional[dict[str, float]] = None
    facing: Optional[int] = None
    before: Optional[dict[str, Any]] = None
    event: Optional[dict[str, Any]] = None  # {type, side, data}
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Tolerance:
    """Below these a change is the table's jitter, not a move: inches each way, degrees turned."""

    inches: float = 0.1
    degrees: float = 1.0


@dataclass
class Game:
    """What the import needs of a stored tabletop game."""

    id: str
    rules: RuleSet
    board: BoardState
    declared_sides: dict[str, Optional[str]]

    @classmethod
    def of(cls, game: str, lines: list[dict[str, Any]]) -> "Game":
        first = lines[0]["data"] if lines else {}
        rules = find(first.get("ruleset"))
        if rules is None:
            raise TTSError("game", game, f"rule system {first.get('ruleset')!r} is not installed")
        if rules.geometry != "tabletop":
            raise TTSError("game", game, f"a {rules.geometry} game ({rules.id}): positions from Tabletop "
                           "Simulator are recorded for games measured in inches on a tabletop")
        declared: dict[str, Optional[str]] = {}
        for line in lines:  # who brought each unit into the game: an army list names its side
            for path in rules.declares.get(line["type"], ()):
                for _, unit in named_at(line["data"], path):
                    declared.setdefault(unit, line.get("side") or line["data"].get("side"))
        return cls(game, rules, fold(lines), declared)

    @property
    def listed_first(self) -> bool:
        """Whether its units are declared before they deploy (an army list)."""
        return any(kind != "UnitDeployed" for kind in self.rules.declares)


def plan(game: Game, objects: list[TableObject], unit_map: UnitMap, frame: Frame,
         tolerance: Tolerance = Tolerance()) -> list[Step]:
    """One step per unit of the map, in its order; the events to record are the steps' `event`s."""
    frame.origin_for(game.board.table)  # a frame that cannot place the table is refused first
    matched = _match(objects, unit_map)
    steps = []
    for i, entry in enumerate(unit_map.units):
        _check_known(game, i, entry)
        front = entry.front if entry.front is not None else unit_map.front
        steps.append(_step(game, i, entry, matched.get(i), frame, front, tolerance))
    return steps


def _match(objects: list[TableObject], unit_map: UnitMap) -> dict[int, TableObject]:
    """Each entry's object on the table; an ambiguous key, a unit or an object mapped twice is refused."""
    found: dict[int, TableObject] = {}
    units: dict[str, int] = {}
    owners: dict[int, int] = {}
    for i, entry in enumerate(unit_map.units):
        if entry.unit in units:
            raise TTSError("map", f"units[{i}].unit", f"unit {entry.unit!r} is mapped already by units[{units[entry.unit]}]")
        units[entry.unit] = i
        key, value = ("guid", entry.guid) if entry.guid is not None else ("nickname", entry.nickname)
        hits = [o for o in objects if (o.guid if key == "guid" else o.nickname) == value]
        if len(hits) > 1:
            guids = ", ".join(o.guid or "none" for o in hits)
            hint = "map it by guid" if key == "nickname" else "each object on the table needs its own GUID"
            raise TTSError("map", f"units[{i}].{key}", f"{value!r} names {len(hits)} objects on the table "
                           f"(GUIDs {guids}): {hint}")
        if not hits:
            continue
        obj = hits[0]
        if obj.index in owners:
            other = owners[obj.index]
            raise TTSError("map", f"units[{i}].{key}", f"object {obj.label()} is mapped already to "
                           f"{unit_map.units[other].unit!r} by units[{other}]")
        owners[obj.index] = i
        found[i] = obj
    return found


def _check_known(game: Game, i: int, entry: UnitEntry) -> None:
    """A unit the game does not know is refused, unless the map can bring it in (`deploy`) where
    units come into the game by deploying."""
    unit = entry.unit
    if unit in game.board.units or unit in game.declared_sides:
        return
    known = sorted(set(game.board.units) | set(game.declared_sides))
    shown = ", ".join(known[:SHOWN_IDS]) + (", ..." if len(known) > SHOWN_IDS else "") or "none yet"
    if game.listed_first:
        declaring = ", ".join(k for k in game.rules.declares if k != "UnitDeployed")
        raise TTSError("map", f"units[{i}].unit", f"no unit {unit!r} in game {game.id}: its units come from "
                       f"{declaring} (known: {shown})")
    if not entry.deploy:
        raise TTSError("map", f"units[{i}].unit", f"no unit {unit!r} in game {game.id} (known: {shown}); "
                       "a new unit needs `deploy` with its footprint")


def _step(game: Game, i: int, entry: UnitEntry, obj: Optional[TableObject], frame: Frame, front: float,
          tolerance: Tolerance) -> Step:
    unit = game.board.units.get(entry.unit)
    if unit is not None and OUT_OF_PLAY & set(unit.status):
        return Step(entry.unit, i, "out-of-play", obj)
    if unit is not None and unit.attrs.get("aboard"):
        return Step(entry.unit, i, "aboard", obj, notes=[f"aboard {unit.attrs['aboard']}"])
    if obj is None:
        return Step(entry.unit, i, "not-on-table")
    at = pose(obj)
    x, y = frame.point(at, game.board.table)
    table = game.board.table
    if table is not None and not on_table((x, y), table["width"], table["depth"]):
        raise TTSError("save", f"{obj.where}.Transform", f"object {obj.label()} ({entry.unit}) stands at "
                       f"({x:g}, {y:g}) in inches, off the table (x 0 to {table['width']:g}, y 0 to "
                       f"{table['depth']:g}): check --origin, --edge and --scale, or take it off the map")
    facing = frame.facing(at, front)
    if unit is None:
        return _deployment(game, i, entry, obj, {"x": x, "y": y}, facing)
    return _move(unit, i, obj, {"x": x, "y": y}, facing, tolerance)


def _deployment(game: Game, i: int, entry: UnitEntry, obj: TableObject, position: dict[str, float],
                facing: int) -> Step:
    for name in FROM_THE_SAVE:
        if name in entry.deploy:
            raise TTSError("map", f"units[{i}].deploy.{name}", "comes from the save, not the map")
    data = {"unit": entry.unit, "position": position, "facing": facing, **entry.deploy}
    data.setdefault("note", f"Tabletop Simulator object {obj.label()}")
    try:
        validate_data("UnitDeployed", data, game.rules)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _path(err.get("loc", ()))
        named = f"units[{i}].deploy" + (f".{where}" if where and not where.startswith("[") else where)
        raise TTSError("map", named, f"{err.get('msg', str(exc)).removeprefix('Value error, ')} "
                       f"(deploying {entry.unit!r})") from None
    side = _side(game, i, entry)
    return Step(entry.unit, i, "deployed", obj, position, facing,
                event={"type": "UnitDeployed", "side": side, "data": data})


def _side(game: Game, i: int, entry: UnitEntry) -> str:
    """The deploying unit's side: its army list's, else the map's."""
    listed = game.declared_sides.get(entry.unit)
    sides = list(game.board.sides)
    if entry.side is not None and entry.side not in sides:
        raise TTSError("map", f"units[{i}].side", f"{entry.side!r} is not a side of game {game.id} ({', '.join(sides)})")
    if listed is not None and entry.side is not None and entry.side != listed:
        raise TTSError("map", f"units[{i}].side", f"{entry.side!r}, but game {game.id} lists {entry.unit!r} "
                       f"on side {listed!r}")
    side = entry.side or listed
    if side is None:
        raise TTSError("map", f"units[{i}].side", f"needed to deploy {entry.unit!r} (sides: {', '.join(sides)})")
    return side


def _move(unit: UnitState, i: int, obj: TableObject, position: dict[str, float], facing: int,
          tolerance: Tolerance) -> Step:
    """A UnitMoved from where the log has the unit to where the save has it, in a straight line
    (a save holds no route); a turn beyond the tolerance puts the new facing on the last point."""
    old = unit.position or {}
    before = {"position": dict(old), "facing": unit.facing}
    moved = any(abs(position[k] - old.get(k, position[k])) > tolerance.inches + 1e-9 for k in ("x", "y"))
    turned = unit.facing is None or rotation(unit.facing, facing) > tolerance.degrees + 1e-9
    if not moved and not turned:
        return Step(unit.unit, i, "unchanged", obj, dict(old), unit.facing, before)
    start = {"x": old["x"], "y": old["y"]}
    end = dict(position) if moved else dict(start)
    if turned:
        end["f"] = facing
    path = [start, end] if moved else [end]  # a turn on the spot: the present position, with `f`
    notes = ["its figures' places are not in the save: record them by hand"] if unit.figures else []
    return Step(unit.unit, i, "moved", obj, {"x": end["x"], "y": end["y"]},
                facing if turned else unit.facing, before,
                event={"type": "UnitMoved", "side": unit.side,
                       "data": {"unit": unit.unit, "path": path,
                                "note": f"Tabletop Simulator object {obj.label()}"}},
                notes=notes)
