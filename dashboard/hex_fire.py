"""The chosen event's line of fire on a hex board: a spot, small arms or anti-tank fire, a close combat.

What a dispute about a shot turns on, read from the log and the board as they stood when it was
made: who fired (or spotted) from which hex, at which hex and units, the hexes the line crosses,
the range counted in hexes, whether the board blocks the line, and what came of it.

Nothing here is a rule of its own: the hexes crossed are `domain.board.hexes.lines` (both nudged
lines where the line runs along hexsides), the range is `distance` (adjacent = 1, its own hex not
counted), and whether the line is blocked is `domain.board.los.sight` on `domain.board.terrain`'s
view of the board: the same fold the spotting and observation checks judge with (and `umpire
sight` answers with), under the game's reading of a line along a hexside. A close combat is drawn
from its attackers to the defenders' hex with its range; no sight is asked of it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from domain.board.hexes import distance, lines as sight_paths
from domain.board.los import sight
from domain.board.state import BoardState
from domain.board.terrain import Board, Extras
from domain.rules.interpretations import Interpretations, catalogue

# the event that makes a shot -> the event that resolves it, and the id that pairs them
RESOLVED_BY = {"SmallArmsFired": ("SmallArmsResolved", "attack"), "AntiTankFired": ("AntiTankResolved", "attack"),
               "CloseCombatFought": ("CloseCombatResolved", "combat")}
MADE_BY = {resolved: (made, key) for made, (resolved, key) in RESOLVED_BY.items()}
KINDS = {"Spotted": "spot", "SmallArmsFired": "small arms fire", "AntiTankFired": "anti-tank fire",
         "CloseCombatFought": "close combat"}
FIRERS = {"Spotted": "spotter", "SmallArmsFired": "firers", "AntiTankFired": "firers",
          "CloseCombatFought": "attackers"}
TARGET = {"Spotted": "target", "SmallArmsFired": "target", "AntiTankFired": "target", "CloseCombatFought": "location"}
AIRBORNE = {"aircraft", "balloon"}
MISSES = {"miss", "no-effect"}
# The game's reading of a sight line along a hexside (GameStarted.options): the one the spotting
# and observation checks apply (Infernal Machines names it IM.LOS.ALONG_HEXSIDE); by default
# both sides must block, as there.
SPINE = "IM.LOS.ALONG_HEXSIDE"
SPINE_DEFAULT = "both-sides-block"
Center = Callable[[str], tuple[float, float]]   # a hex -> where it is drawn


@dataclass(frozen=True)
class SightLine:
    """One firer's line to the target hex."""

    firer: str
    origin: str
    target: str
    hexes: tuple[str, ...]     # every hex the line crosses, ends included (both nudged lines)
    range: int                 # counted in hexes
    clear: Optional[bool]      # None: not asked (a close combat)
    blocker: Optional[str]     # a hex, or a hexside "a|b"
    rule: Optional[str]
    reason: str
    facing: Optional[float] = None    # where the firer faces (a vehicle), degrees clockwise from north
    bearing: Optional[float] = None   # the direction of the line from the firer, the same way

    @property
    def off_facing(self) -> Optional[float]:
        """Degrees between the firer's facing and the line (0 ahead, 180 behind); None unknown."""
        if self.facing is None or self.bearing is None:
            return None
        diff = abs(self.bearing - self.facing) % 360
        return min(diff, 360 - diff)


@dataclass(frozen=True)
class FireView:
    """A shot as drawn and told: its events, firers, target, lines and outcome."""

    kind: str                          # spot | small arms fire | anti-tank fire | close combat
    seqs: tuple[int, ...]              # the event that made it, and the one that resolved it
    firers: tuple[str, ...]
    target: str
    target_units: tuple[str, ...]
    lines: tuple[SightLine, ...]
    recorded_range: Optional[int]
    outcome: tuple[str, ...]           # "spotted", "not spotted", "g-1: pinned", ...
    hits: Optional[int]                # results other than a miss or no effect (None: a spot)
    reading: Optional[str]             # the along-hexside reading, when a line runs along a hexside
    resolved: bool                     # whether the log resolves it (a spot always is)


def shot_events(lines: list[dict[str, Any]], seq: int) -> Optional[tuple[dict[str, Any], Optional[dict[str, Any]]]]:
    """The event that made the chosen event's shot, and the one that resolved it (None: not yet)."""
    line = lines[seq - 1]
    kind, d = line["type"], line["data"]
    if kind == "Spotted":
        return line, None
    if kind in RESOLVED_BY:
        resolved, key = RESOLVED_BY[kind]
        after = next((l for l in lines[seq:] if l["type"] == resolved and l["data"].get(key) == d.get(key)), None)
        return line, after
    if kind in MADE_BY:
        made, key = MADE_BY[kind]
        before = next((l for l in reversed(lines[:seq - 1]) if l["type"] == made and l["data"].get(key) == d.get(key)),
                      None)
        return (before, line) if before is not None else None
    return None


def along_hexside_reading(options: list[Any], ruleset: Optional[str]) -> str:
    """The game's reading of a sight line along a hexside, as its audit reads its options."""
    chosen = Interpretations()
    chosen.for_ruleset(ruleset)
    chosen.read_options(options)
    declared = catalogue(ruleset).get(SPINE)
    return chosen.chosen.get(SPINE) or (declared.default if declared is not None else None) or SPINE_DEFAULT


def fire_view(made: dict[str, Any], resolved: Optional[dict[str, Any]], board: Board,
              facings: Optional[dict[str, float]] = None, center: Optional[Center] = None) -> Optional[FireView]:
    """The shot `made` (resolved by `resolved`) on `board`, the board as it stood when it was made;
    with the vehicles' `facings` then and `center` (where a hex is drawn, north up), each line
    from a vehicle says how far off its facing it leaves."""
    kind, d = made["type"], made["data"]
    names = d.get(FIRERS[kind])
    firers = tuple(names if isinstance(names, list) else [names])
    target = d.get(TARGET[kind])
    if not isinstance(target, str):
        return None
    spine = along_hexside_reading(board.state.options, board.state.ruleset)
    drawn = [_line(board, name, target, kind != "CloseCombatFought", spine) for name in firers]
    drawn = [_turned(line, (facings or {}).get(line.firer), center) for line in drawn if line is not None]
    outcome, hits = _outcome(kind, d, resolved)
    along = any(len(sight_paths(l.origin, l.target, board.placement)) > 1 for l in drawn if l.clear is not None)
    return FireView(KINDS[kind], tuple(l["seq"] for l in (made, resolved) if l is not None), firers, target,
                    _target_units(kind, d, board.state, firers), tuple(drawn), d.get("range"), outcome, hits,
                    spine if along else None, kind == "Spotted" or resolved is not None)


def _line(board: Board, name: str, target: str, asks_sight: bool, spine: str) -> Optional[SightLine]:
    unit = board.state.units.get(name) or board.state.units.get(name.split(":", 1)[-1])
    if unit is None or not unit.location:
        return None
    paths = sight_paths(unit.location, target, board.placement)
    crossed = tuple(dict.fromkeys(loc for path in paths for loc in path if not loc.startswith("*:")))
    count = distance(unit.location, target, board.placement)
    if not asks_sight:
        return SightLine(name, unit.location, target, crossed, count, None, None, None, "no sight asked")
    seen = sight(board, unit.location, target, unit.unit_class if unit.unit_class in AIRBORNE else "ground",
                 observer_level=board.unit_level(unit), spine=spine)
    return SightLine(name, unit.location, target, crossed, count, seen.clear, seen.blocker, seen.rule, seen.reason)


def _turned(line: SightLine, facing: Optional[float], center: Optional[Center]) -> SightLine:
    if facing is None or center is None or line.origin == line.target:
        return line
    (x0, y0), (x1, y1) = center(line.origin), center(line.target)
    return replace(line, facing=facing, bearing=round(math.degrees(math.atan2(x1 - x0, y1 - y0)) % 360, 1))


def _target_units(kind: str, d: dict[str, Any], state: BoardState, firers: tuple[str, ...]) -> tuple[str, ...]:
    if kind == "CloseCombatFought":
        return tuple(d.get("defenders") or ())
    sides = {state.units[f].side for f in firers if f in state.units}
    named = [d["target_unit"]] if d.get("target_unit") else []
    there = [u.unit for u in state.units_at(d["target"]) if u.side not in sides]
    return tuple(dict.fromkeys(named + there))


def _outcome(kind: str, d: dict[str, Any], resolved: Optional[dict[str, Any]]) -> tuple[tuple[str, ...], Optional[int]]:
    if kind == "Spotted":
        return ("spotted" if d.get("spotted") else "not spotted",), None
    if resolved is None:
        return ("not resolved in the log",), None
    results = [r for r in resolved["data"].get("results", []) if isinstance(r, dict)]
    said = tuple(f"{r.get('unit')}: {r.get('result')}" + (f" (car {r['car']})" if r.get("car") is not None else "")
                 for r in results)
    return said or ("no results recorded",), sum(1 for r in results if r.get("result") not in MISSES)


def board_when_made(lines: list[dict[str, Any]], state: BoardState, final: BoardState, seq: int) -> Board:
    """The terrain view of the board after event `seq`: `state` (the fold there, without the map,
    as the replay keeps its snapshots) on the game's map, with the smoke lifetimes, impact zones
    and destroyed walls of the log so far (`Extras`, read over the game's map: the map does not
    change as the units do, so no second fold of the board is made for it)."""
    state.maps, state.hexes, state.hexsides = list(final.maps), final.hexes, final.hexsides
    extras = Extras()
    for line in lines[:seq]:
        extras.update(line, final)
    return Board(state, extras)


# -- drawn --------------------------------------------------------------------------------------
CLEAR, BLOCKED, UNASKED = "#1b7f3b", "#c62828", "#6d4c41"
FIRE_TRACES = ("fire-hexes", "fire-clear", "fire-blocked", "fire-unasked", "fire-marks", "fire-range")


def fire_traces(view: Optional[FireView], center, hexside_mid) -> list[dict[str, Any]]:
    """Always the same six traces (empty without a shot): the hexes crossed, the clear, blocked and
    unjudged lines, the firers, target and blockers marked, and each line's range in hexes.
    `center(loc)` and `hexside_mid(a, b)` place hexes and hexsides on the drawing."""
    lines = view.lines if view else ()
    crossed = list(dict.fromkeys(loc for line in lines for loc in line.hexes))
    traces = [_points(FIRE_TRACES[0], [center(loc) for loc in crossed],
                      [f"{loc}: crossed by the line" for loc in crossed], "circle-open", "#ff8c00", 11)]
    for name, colour, dash, which in ((FIRE_TRACES[1], CLEAR, "solid", True), (FIRE_TRACES[2], BLOCKED, "dot", False),
                                      (FIRE_TRACES[3], UNASKED, "dash", None)):
        chosen = [l for l in lines if l.clear is which]
        xs, ys = _segments([(center(l.origin), center(l.target)) for l in chosen])
        traces.append(dict(type="scatter", x=xs, y=ys, mode="lines", name=name, hoverinfo="skip", showlegend=False,
                           line=dict(color=colour, width=4, dash=dash)))
    traces.append(_marks(view, center, hexside_mid))
    mids = [_mid(center(l.origin), center(l.target)) for l in lines]
    traces.append(dict(type="scatter", x=[m[0] for m in mids], y=[m[1] + 0.35 for m in mids], mode="text",
                       name=FIRE_TRACES[5], text=[f"{l.range} hex{'es' if l.range != 1 else ''}" for l in lines],
                       hovertext=[f"{l.firer} to {l.target}: {l.range} hexes" for l in lines], hoverinfo="text",
                       textfont=dict(size=13, color="#000000"), showlegend=False))
    return traces


def _marks(view: Optional[FireView], center, hexside_mid) -> dict[str, Any]:
    """Firers ringed, the target hex crossed, blockers starred."""
    points, hovers, symbols, colours = [], [], [], []
    for line in view.lines if view else ():
        points.append(center(line.origin)), symbols.append("circle-open"), colours.append("#ff8c00")
        hovers.append(f"{line.firer} at {line.origin} ({'spotter' if view.kind == 'spot' else 'firer'})")
        if line.blocker:
            a, _, b = line.blocker.partition("|")
            points.append(hexside_mid(a, b) if b else center(a)), symbols.append("x"), colours.append(BLOCKED)
            hovers.append(f"blocks {line.firer}'s line: {line.reason} ({line.rule})")
    if view is not None:
        points.append(center(view.target)), symbols.append("circle-x-open"), colours.append(BLOCKED)
        hovers.append(f"target {view.target}" + (f": {', '.join(view.target_units)}" if view.target_units else ""))
    trace = _points(FIRE_TRACES[4], points, hovers, symbols, colours, 40)
    trace["marker"]["line"] = dict(width=3, color=colours)
    return trace


def _points(name: str, points: list[tuple[float, float]], hovers: list[str], symbol, colour, size: int) -> dict[str, Any]:
    return dict(type="scatter", x=[p[0] for p in points], y=[p[1] for p in points], mode="markers", name=name,
                hovertext=hovers, hoverinfo="text", showlegend=False,
                marker=dict(symbol=symbol, color=colour, size=size, line=dict(width=2, color=colour)))


def _segments(pairs: list[tuple[tuple[float, float], tuple[float, float]]]) -> tuple[list, list]:
    xs: list[Optional[float]] = []
    ys: list[Optional[float]] = []
    for (x0, y0), (x1, y1) in pairs:
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


def _mid(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
