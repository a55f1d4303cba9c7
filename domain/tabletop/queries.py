"""Questions put to a tabletop game's board (game-log-tabletop.md): what a unit sees and where it
could go, for `umpire sight` and `umpire reach`.

Built on `domain.tabletop.geometry`: a unit's `extent`, `measure`, `sight` and `reach_region`.
The board is a `BoardState` of a tabletop game (its `table` is the TableDefined data); the lines
are the game's log up to the same seq, read for what the board does not keep (an army list's
statistics and weapons, this turn's moves and rolls). Rule systems are told apart by their
`GameStarted.ruleset` id, never by importing their packages.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from shapely.geometry import Point, box, mapping
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from domain.board.state import BoardState, UnitState
from domain.rulesets import find
from domain.tabletop import geometry as geo
from domain.tabletop import interpretations

AVBCW = "dux-bellorum-avbcw"
MOG = "landships-of-mogdonazia"
Place = Union[str, geo.XY]          # a unit id, or a point in inches
Lines = Sequence[Mapping[str, Any]]


class QueryError(ValueError):
    """A question the board cannot answer as put: an unknown unit, a point off the table."""


POINT_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


def parse_place(text: str) -> Place:
    """`x,y` in inches, else a unit id."""
    found = POINT_RE.match(text)
    return (float(found[1]), float(found[2])) if found else text


# ---------------------------------------------------------------- interpretations

# game-log-tabletop.md, Interpretations (declared in domain/tabletop/interpretations.py): the
# readings these answers take, the default first.
READINGS = {item.name: (item.default, *(r for r in item.readings if r != item.default))
            for item in interpretations.AVBCW if item.name in ("measure", "avbcw-range", "avbcw-arc")}
# "45° to its front" read as 45° either side (`quadrant`) or 22.5° (`narrow`).
ARC_HALF_WIDTH = {"quadrant": 45.0, "narrow": 22.5}


@dataclass(frozen=True)
class Readings:
    chosen: Mapping[str, tuple[str, str]]   # name -> (reading, where it was chosen)

    def __getitem__(self, name: str) -> str:
        return self.chosen[name][0]

    def label(self, name: str) -> str:
        reading, source = self.chosen[name]
        return f"{name}={reading} ({source})"


def readings(options: Iterable[Any], pairs: Iterable[str] = ()) -> Readings:
    """The readings in force: `--interpretation NAME=READING` pairs win over GameStarted.options
    ("chosen as NAME=READING in GameStarted.options"), which win over the default ("an unchosen
    one takes its default"). A game option naming another interpretation is not ours to judge;
    a pair given here must name one of READINGS."""
    chosen = {name: (values[0], "default") for name, values in READINGS.items()}
    for option in options:
        name, _, reading = str(option).partition("=")
        if reading in READINGS.get(name, ()):
            chosen[name] = (reading, "GameStarted.options")
    for pair in pairs:
        name, sep, reading = pair.partition("=")
        if not sep or name not in READINGS:
            raise QueryError(f"--interpretation {pair!r}: these answers read {', '.join(READINGS)} (NAME=READING)")
        if reading not in READINGS[name]:
            raise QueryError(f"--interpretation {pair!r}: {name} reads {' or '.join(READINGS[name])}")
        chosen[name] = (reading, "chosen")
    return Readings(chosen)


# ---------------------------------------------------------------- units and points

GONE = ("destroyed", "not-arrived", "abandoned")


def unit_of(board: BoardState, unit_id: str) -> UnitState:
    """A unit standing on the table, else QueryError (unknown, not yet deployed, gone, aboard)."""
    unit = board.units.get(unit_id)
    listed = any(unit_id in ids for ids in board.extra.get("armies", {}).values())
    if unit is None or unit.position is None:
        if listed or unit is not None:
            raise QueryError(f"{unit_id} is not yet deployed at seq {board.seq}")
        raise QueryError(f"no unit {unit_id!r} at seq {board.seq}")
    gone = [status for status in unit.status if status in GONE]
    if gone:
        raise QueryError(f"{unit_id} is {gone[0]} at seq {board.seq}")
    if unit.attrs.get("aboard"):
        raise QueryError(f"{unit_id} is aboard {unit.attrs['aboard']} at seq {board.seq}")
    return unit


def extent(board: BoardState, unit_id: str) -> geo.Extent:
    """The unit's extent on the table: its figures' bases, else its footprint."""
    return geo.unit_extent(unit_of(board, unit_id))


def _point(board: BoardState, point: geo.XY) -> geo.XY:
    width, depth = board.table["width"], board.table["depth"]
    if not geo.on_table(point, width, depth):
        # game-log-tabletop.md, Geometry: "a point off the table is a format error"
        raise QueryError(f"{point[0]:g},{point[1]:g} is off the table ({width:g}\" x {depth:g}\")")
    return point


def shape_of(board: BoardState, place: Place) -> Union[geo.Extent, geo.XY]:
    return extent(board, place) if isinstance(place, str) else _point(board, place)


def measure(board: BoardState, a: Place, b: Place, how: str = "closest") -> float:
    """Inches between two units or points, rounded half-up to 0.1" (`how`: the `measure` reading)."""
    return geo.measure(shape_of(board, a), shape_of(board, b), how)


def _listed(lines: Lines, unit_id: str) -> tuple[dict[str, Any], Optional[int]]:
    """The unit's entry of its ArmyListed (AVBCW), with that line's seq."""
    for line in lines:
        if line["type"] == "ArmyListed":
            for entry in line["data"].get("units", []):
                if entry.get("unit") == unit_id:
                    return entry, line["seq"]
    return {}, None


def is_vehicle(unit: UnitState) -> bool:
    """AVBCW: a `vehicle:<row>` type; Mogdonazia: `class` vehicle."""
    return unit.unit_class == "vehicle" or (unit.type or "").startswith("vehicle:")


def _friends(board: BoardState, side: Optional[str], but: Iterable[str]) -> dict[str, geo.Extent]:
    """The side's other units on the table (the shooter and target excepted)."""
    out = {}
    for unit_id, unit in board.units.items():
        if unit.side == side and side is not None and unit_id not in but:
            try:
                out[unit_id] = extent(board, unit_id)
            except QueryError:
                continue        # not on the table: it blocks nothing
    return out


# ---------------------------------------------------------------- sight

@dataclass(frozen=True)
class Origin:
    label: str          # leader | F | R | B | L | turret | point
    point: geo.XY
    in_arc: bool


EDGE_OFFSETS = {"F": 0.0, "R": 90.0, "B": 180.0, "L": 270.0}


def _turret_weapons(ruleset_id: Optional[str], entry: Mapping[str, Any]) -> set[str]:
    """The listed weapons the rule system says are turret-mounted (RuleSet.turret_weapons)."""
    rules = find(ruleset_id)
    if not entry or rules is None or rules.turret_weapons is None:
        return set()
    try:
        return rules.turret_weapons()(entry)
    except ValueError:   # an entry the army list's schema refuses: no turret known
        return set()


def _vehicle_origins(unit: UnitState, lines: Lines, target: Any, half_width: float,
                     board_ruleset: Optional[str] = None) -> list[Origin]:
    """dux-bellorum-avbcw.txt, Vehicles: "A Vehicle's line of sight is measured from the centre
    edge of the facing being fired from, or the centre of the turret if the weapon is turret
    mounted". A weapon's arcs are measured from its `at` point (default: "the centre of the
    hull's front edge", game-log-tabletop.md, Names and weapons); a vehicle without listed
    weapons is asked from each of its four edges."""
    position, facing = unit.position, float(unit.facing or 0)
    w, d = float(unit.footprint["w"]), float(unit.footprint["d"])
    entry = _listed(lines, unit.unit)[0]
    weapons = entry.get("weapons") or [{"arcs": list(EDGE_OFFSETS)}]
    turrets = _turret_weapons(board_ruleset, entry)
    found: dict[str, Origin] = {}
    for weapon in weapons:
        if weapon.get("weapon") in turrets:
            # "Turrets have a 360° fire arc ... measured from the turret center" (its `at`, else the
            # UnitDeployed `turret`, else the hull's centre)
            found["turret"] = Origin("turret", geo.to_table(position, facing, weapon.get("at") or unit.turret
                                                            or (0.0, 0.0)), True)
            continue
        at = geo.to_table(position, facing, weapon.get("at") or (0.0, d / 2))
        for arc in weapon.get("arcs", []):
            if arc in EDGE_OFFSETS:
                inside = geo.in_arc(at, facing, target, EDGE_OFFSETS[arc], half_width)
                earlier = found.get(arc)
                found[arc] = Origin(arc, geo.edge_centre(position, facing, w, d, arc),
                                    inside or bool(earlier and earlier.in_arc))
    return list(found.values())


@dataclass(frozen=True)
class SightAnswer:
    status: str                      # clear | blocked | unchecked | ambiguous
    rule: Optional[str]
    reason: str
    origin: Origin
    distance: float                  # inches, rounded half-up to 0.1"
    distance_reading: str            # how the distance was measured
    result: Optional[geo.SightResult]
    others: tuple[tuple[Origin, str], ...] = ()   # the other origins asked, with their status
    line: tuple[geo.XY, geo.XY] = ((0.0, 0.0), (0.0, 0.0))

    @property
    def line_length(self) -> float:
        return geo.round_inches(math.dist(*self.line))

    def to_json(self) -> dict[str, Any]:
        out = {"status": self.status, "rule": self.rule, "reason": self.reason,
               "origin": {"from": self.origin.label, "point": list(self.origin.point), "in_arc": self.origin.in_arc},
               "distance": self.distance, "measured": self.distance_reading,
               "line": [list(self.line[0]), list(self.line[1])], "line_length": self.line_length,
               "blocker": self.result.blocker if self.result else None,
               "why": self.result.why if self.result else "",
               "area_terrain": self.result.area if self.result else None}
        if self.others:
            out["other_origins"] = [{"from": o.label, "in_arc": o.in_arc, "status": s} for o, s in self.others]
        return out


def sight(board: BoardState, lines: Lines, frm: Place, to: Place, chosen: Readings,
          side: Optional[str] = None) -> SightAnswer:
    """Whether FROM sees TO (units or points). Dux Bellorum: AVBCW.LOS, from the shooter's leader
    figure (its `position`) or a vehicle's edge or turret, to any part of the target; a point
    FROM has the friends of `side`, if given. Landships of Mogdonazia: the seed has no LOS rule
    (only that a turret fires 360° "save where the vehicle blocks the line of sight"), so the
    line is `unchecked` and its length measured by the `measure` reading."""
    target = shape_of(board, to)
    shooter = unit_of(board, frm) if isinstance(frm, str) else None
    if board.ruleset != AVBCW:
        return _unruled_sight(board, frm, target, chosen)
    if shooter is None:
        origins = [Origin("point", _point(board, frm), True)]
    elif is_vehicle(shooter):
        origins = _vehicle_origins(shooter, lines, target, ARC_HALF_WIDTH[chosen["avbcw-arc"]], board.ruleset)
    else:   # "A unit's line of sight is measured from its leader figure"
        origins = [Origin("leader", geo.xy(shooter.position), True)]
    friends = _friends(board, shooter.side if shooter else side, {frm, to} if shooter else {to})
    shooter_shape = extent(board, frm) if shooter else None
    asked = [(o, geo.sight(o.point, target, board.table["features"], friends, shooter=shooter_shape))
             for o in origins]
    # The shooter picks the facing it fires from: the best line of those in arc, else of all.
    best_origin, best = min(asked, key=lambda a: (not a[0].in_arc, geo.RANK[a[1].status]))
    if chosen["avbcw-range"] == "closest" and shooter_shape is not None:
        distance, how = geo.measure(shooter_shape, target), chosen.label("avbcw-range")
    else:
        distance, how = geo.measure(best_origin.point, target), f"from the LOS origin, {chosen.label('avbcw-range')}"
    others = tuple((o, r.status) for o, r in asked if o is not best_origin)
    return SightAnswer(best.status, "AVBCW.LOS", best.reason, best_origin, distance, how, best, others, best.line)


def _unruled_sight(board: BoardState, frm: Place, target: Any, chosen: Readings) -> SightAnswer:
    source = extent(board, frm) if isinstance(frm, str) else _point(board, frm)
    how = chosen["measure"]
    if how == "centre":
        line = (_centre(source), _centre(target))
    else:
        near_a, near_b = nearest_points(_drawn(source), _drawn(target))
        line = ((near_a.x, near_a.y), (near_b.x, near_b.y))
    book = "the Landships of Mogdonazia seed" if board.ruleset == MOG else f"the rule system {board.ruleset}"
    reason = (f"{book} gives no line-of-sight rule (the Sword and the Flame core is not in it): "
              "unchecked" if board.ruleset == MOG else f"{book} has no line-of-sight rule here: unchecked")
    origin = Origin("position" if isinstance(frm, str) else "point", _centre(source), True)
    return SightAnswer("unchecked", None, reason, origin, geo.measure(source, target, how),
                       chosen.label("measure"), None, (), line)


def _centre(thing: Union[geo.Extent, geo.XY]) -> geo.XY:
    return thing.centre if isinstance(thing, geo.Extent) else geo.xy(thing)


def _drawn(thing: Union[geo.Extent, geo.XY]) -> BaseGeometry:
    return thing.shape if isinstance(thing, geo.Extent) else Point(geo.xy(thing))


# ---------------------------------------------------------------- a shot, as the replay draws it

@dataclass(frozen=True)
class ShotView:
    """What a replay draws for a ShotFired: the range as the game's reading measures it (its
    line, length and reading) and the arc the shot is fired in (None where the text gives no
    arc to draw: a turret's 360°, a forward mount's TSATF width, a Mogdonazia infantry unit)."""
    range_line: tuple[geo.XY, geo.XY]
    range: float
    reading: str                     # "avbcw-range=from-leader", "measure=closest", ...
    arc: Optional[dict[str, Any]]    # {"origin", "facing", "half_width", "label"}


def shot_view(board: BoardState, lines: Lines, shot: Mapping[str, Any], chosen: Readings) -> ShotView:
    """The range and arc of a ShotFired (its data: `shot`) on the board it was fired on.
    AVBCW: the range by `avbcw-range` from the LOS origin `sight` picks (the leader figure, or
    a vehicle's edge centre or turret), the arc "45° to its front" by `avbcw-arc` about the
    unit's facing or the fired-from edge; Mogdonazia: the range by `measure`, a sponson's
    "180 degrees" about its `bearing`."""
    shooter, target = shot["shooter"], shot["target"]
    answer = sight(board, lines, shooter, target, chosen)
    target_shape = _drawn(shape_of(board, target))
    if board.ruleset == AVBCW and chosen["avbcw-range"] == "from-leader":
        near = nearest_points(Point(answer.origin.point), target_shape)[1]
        line = (answer.origin.point, (near.x, near.y))
        reading = f"avbcw-range={chosen['avbcw-range']}"
    elif board.ruleset == AVBCW:
        near_a, near_b = nearest_points(_drawn(shape_of(board, shooter)), target_shape)
        line, reading = ((near_a.x, near_a.y), (near_b.x, near_b.y)), f"avbcw-range={chosen['avbcw-range']}"
    else:
        line, reading = answer.line, f"measure={chosen['measure']}"
    return ShotView(line, answer.distance, reading, _shot_arc(board, lines, shot, answer.origin, chosen))


def _shot_arc(board: BoardState, lines: Lines, shot: Mapping[str, Any], origin: Origin,
              chosen: Readings) -> Optional[dict[str, Any]]:
    shooter = shot["shooter"]
    unit = unit_of(board, shooter)
    facing = float(unit.facing or 0)
    if board.ruleset == AVBCW:
        half = ARC_HALF_WIDTH[chosen["avbcw-arc"]]
        if not is_vehicle(unit):     # "45° to its front", from the leader figure
            return {"origin": origin.point, "facing": facing, "half_width": half, "label": "front"}
        if origin.label in EDGE_OFFSETS:
            return {"origin": origin.point, "facing": facing + EDGE_OFFSETS[origin.label], "half_width": half,
                    "label": origin.label}
        return None                  # a turret: 360°
    if board.ruleset == MOG:
        mount = next((w for l in lines if l["type"] == "VehicleBuilt" and l["data"].get("unit") == shooter
                      for w in l["data"].get("weapons", []) if w.get("weapon") == shot.get("weapon")), None)
        if mount and mount.get("mount") == "sponson":   # "180 degrees" about its bearing
            return {"origin": geo.xy(unit.position), "facing": facing + float(mount.get("bearing") or 0),
                    "half_width": 90.0, "label": f"sponson {mount['weapon']}"}
    return None


# ---------------------------------------------------------------- reach

APPROXIMATION = "approximation: straight-line distance, terrain costs not applied"
LINEAR_TERRAIN = frozenset({"hedge", "fence", "wall", "river", "stream"})
# game-log-tabletop.md, Landships of Mogdonazia, UnitMoved: the movement rolls.
MOVEMENT_ROLLS = ("MOG.VEH.SPEED.DICE", "MOG.AIRSHIP.MOVE", "MOG.AIRPLANE.MOVE", "MOG.JUMP", "MOG.PA", "TSATF.MOVE")
INCHES_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Allowance:
    inches: Optional[float]          # None: unknown
    source: str                      # where it comes from, or why it is unknown


@dataclass(frozen=True)
class ReachAnswer:
    unit: str
    start: geo.XY
    allowance: Allowance
    region: Optional[BaseGeometry]   # None while the allowance is unknown
    limits: tuple[str, ...]          # what cut the region: the table edge, features, drive
    moved_this_turn: float
    approximation: str = APPROXIMATION

    @property
    def area(self) -> Optional[float]:
        return None if self.region is None else geo.round_inches(self.region.area)

    @property
    def bounds(self) -> Optional[list[float]]:
        if self.region is None or self.region.is_empty:
            return None
        return [round(v, 2) for v in self.region.bounds]

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": list(self.start), "allowance": self.allowance.inches,
                "allowance_from": self.allowance.source, "region": _geojson(self.region),
                "area": self.area, "bounds": self.bounds, "limits": list(self.limits),
                "moved_this_turn": self.moved_this_turn, "approximation": self.approximation}


def _geojson(region: Optional[BaseGeometry]) -> Optional[dict[str, Any]]:
    """GeoJSON-like {type, coordinates} in inches, to 0.001"."""
    if region is None:
        return None
    shape = mapping(region)
    return {"type": shape["type"], "coordinates": _rounded(shape["coordinates"])}


def _rounded(value: Any) -> Any:
    if isinstance(value, (int, float)):
        return round(float(value), 3)
    return [_rounded(v) for v in value]


def _this_turn(board: BoardState, lines: Lines) -> list[Mapping[str, Any]]:
    return [line for line in lines if line["turn"] == board.turn and board.turn > 0]


def _avbcw_allowance(unit: UnitState, lines: Lines) -> Allowance:
    """MV as the army list prints it (AVBCW.UNIT.STATS, AVBCW.VEH.STATS), with the changes the
    seed states: EQ.ARMOUR "suffers -1” move"; Vehicle damage "Traction damage: Vehicle can only
    move at half its listed rate", "Traction wrecked: Vehicle cannot move again"."""
    entry, seq = _listed(lines, unit.unit)
    printed = entry.get("stats", {}).get("MV")
    found = INCHES_RE.match(str(printed)) if printed is not None else None
    if found is None:
        return Allowance(None, f"no MV in {unit.unit}'s ArmyListed: give --allowance INCHES")
    inches, source = float(found[1]), [f"MV {printed} (ArmyListed stats.MV, seq {seq})"]
    damage = {line["data"].get("result") for line in lines
              if line["type"] == "VehicleDamaged" and line["data"].get("vehicle") == unit.unit}
    armour = "AVBCW.EQ.ARMOUR" in entry.get("special", [])
    if "traction-wrecked" in damage:
        return Allowance(0.0, f"{source[0]}; traction wrecked: \"cannot move again\"")
    if "traction-damage" in damage and armour:
        return Allowance(None, "EQ.ARMOUR (-1\") and traction damage (half) both apply and the seed "
                               "gives no order: give --allowance INCHES")
    if armour:
        inches, source = inches - 1, source + ["-1\" EQ.ARMOUR"]
    if "traction-damage" in damage:
        inches, source = inches / 2, source + ["half: traction damage"]
    return Allowance(max(0.0, inches), "; ".join(source))


def _rolled(board: BoardState, unit: UnitState, lines: Lines) -> Allowance:
    """Mogdonazia's allowance is rolled ("roll a D6. This is the number of dice it can use for
    movement"; which dice are kept depends on road, off road or rough): never guessed here."""
    rolls = [line for line in _this_turn(board, lines) if line["type"] == "DieRolled"
             and line["data"].get("subject") == unit.unit and line["data"].get("purpose") in MOVEMENT_ROLLS]
    if not rolls:
        return Allowance(None, "rolled, and not yet rolled this turn: give --allowance INCHES")
    roll = rolls[-1]["data"]
    return Allowance(None, f"rolled: {roll['purpose']} {roll['die']} = {roll.get('result')} at seq "
                           f"{rolls[-1]['seq']} (the last this turn), the dice kept depend on the ground: give --allowance INCHES")


def allowance(board: BoardState, lines: Lines, unit_id: str, given: Optional[float] = None) -> Allowance:
    unit = unit_of(board, unit_id)
    if given is not None:
        if given < 0 or not math.isfinite(given):
            raise QueryError(f"--allowance {given:g}: inches, 0 or more")
        return Allowance(float(given), "given (--allowance)")
    if board.ruleset == AVBCW:
        return _avbcw_allowance(unit, lines)
    if board.ruleset == MOG:
        return _rolled(board, unit, lines)
    return Allowance(None, f"the rule system {board.ruleset} states no allowance here: give --allowance INCHES")


def _part_with(region: BaseGeometry, start: geo.XY) -> BaseGeometry:
    """The connected part of the region the unit stands in (or the nearest one)."""
    parts = list(getattr(region, "geoms", [region]))
    parts = [p for p in parts if not p.is_empty and p.area > 0]
    if not parts:
        return region
    return min(parts, key=lambda p: p.distance(Point(start)))


def _drive(board: BoardState, lines: Lines, unit: UnitState) -> Optional[str]:
    return _listed(lines, unit.unit)[0].get("drive") if board.ruleset == AVBCW and is_vehicle(unit) else None


def _impassable(board: BoardState, drive: Optional[str]) -> list[tuple[str, BaseGeometry]]:
    """Features no unit enters (`impassable`, or `passable`: false), and for an AVBCW tracked
    vehicle dense woodland ("Tracked vehicles can cross linear obstacles and any passable
    terrain (except dense woodland)")."""
    out = []
    for feature in board.table["features"]:
        closed = feature.get("passable", feature["kind"] != "impassable") is False
        if closed or (drive == "tracked" and feature["kind"] == "dense-woodland"):
            out.append((feature["id"], geo.feature_shape(feature)))
    return out


def _wheeled(region: BaseGeometry, start: geo.XY, features: Sequence[Mapping]) -> tuple[BaseGeometry, list[str]]:
    """dux-bellorum-avbcw.txt, Wheeled vehicles: "Wheeled vehicles cannot cross linear terrain.
    They can only travel off-road on ground designated as good enough for wheeled vehicles":
    the region is kept to roads and `wheels` ground, cut along linear terrain, and only the part
    the vehicle stands in is reachable."""
    ground = [geo.feature_shape(f) for f in features
              if f["kind"] == "road" or f.get("wheels", f["kind"] == "good-going")]
    lines = [geo.feature_shape(f) for f in features if f["kind"] in LINEAR_TERRAIN and f["kind"] != "road"]
    region = region.intersection(unary_union(ground)) if ground else Point(start).buffer(0)
    limits = ["wheeled: roads and ground designated for wheels only (AVBCW.VEH.WHEELED)"]
    crossing = [line for line in lines if line.intersects(region)]
    if crossing:
        region = region.difference(unary_union(crossing).buffer(1e-6))
        limits.append("wheeled: no crossing linear terrain (AVBCW.VEH.WHEELED)")
    return _part_with(region, start), limits


def reach_region(board: BoardState, lines: Lines, unit_id: str, given: Optional[float] = None) -> ReachAnswer:
    """The region the unit's base centre could reach this turn: a circle of its allowance about
    its position (a straight-line approximation: ground behind an obstacle counts as reached,
    and MOVE.TERRAIN's stops and the costs of terrain are not applied), clipped to the table,
    less impassable features, and for an AVBCW wheeled vehicle kept to roads and good going."""
    unit = unit_of(board, unit_id)
    start = geo.xy(unit.position)
    moved = sum(geo.path_length(line["data"]["path"]) for line in _this_turn(board, lines)
                if line["type"] == "UnitMoved" and line["data"].get("unit") == unit_id)
    held = allowance(board, lines, unit_id, given)
    if held.inches is None:
        return ReachAnswer(unit_id, start, held, None, (), geo.round_inches(moved))
    drive = _drive(board, lines, unit)
    closed = _impassable(board, drive)
    table = (board.table["width"], board.table["depth"])
    region = geo.reach_region({"position": start}, held.inches, [shape for _, shape in closed], table)
    circle = geo.reach_region({"position": start}, held.inches, [])
    limits = [f"the table edge ({table[0]:g}\" x {table[1]:g}\")"] if not circle.within(box(0, 0, *table)) else []
    limits += [f"impassable {fid}" for fid, shape in closed if shape.intersects(circle)]
    if drive == "wheeled":
        region, more = _wheeled(region, start, board.table["features"])
        limits += more
    return ReachAnswer(unit_id, start, held, region, tuple(limits), geo.round_inches(moved))
