"""Line of sight, and observation for indirect fire (which is not spotting).

`sight()` traces the straight line between two hex centres (both nudged lines where it runs
along hexsides: see docs/maps.md) and reports the first thing that blocks it:
- smoke: units in smoke neither see out nor are seen (IM.ART.AMMO.SMOKE.EFFECT); a smoke hex
  between them blocks (IM.ART.FO.SMOKE);
- a multi-storey building between them (IM.TER.MS.LOS); gunboats and steamboats (IM.NAV.LOS);
- a ridgeline hexside not adjacent to the observer, unless the observer is on a hill, in a
  multi-storey building or above ground level (IM.TER.RIDGE.LOS);
- woods and towns (a town without storeys is as high as a wood, IM.TER.MS.LOS) and higher
  ground, by height against the sight line between the two eye heights (Landships! 8.23 is not
  in the text; the convention is Umpire's, documented in docs/maps.md).
Stone walls (IM.TER.WALL.SPOT) and tanks (IM.TANK.COVER) never block. Aircraft and balloons
have no line-of-sight problem ("eyes in the sky").

`observe()` applies the observation rules of the artillery module to one observer and one
target hex: an FO or LNO within 10 hexes with clear sight, no smoke, not past a creeping
barrage; an aircraft at two hexes; a balloon anywhere.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Union

from domain.board.hexes import distance, lines
from domain.board.state import BoardState
from domain.board.terrain import Board, Extras

OBSTACLE_TERRAIN = {"wood", "town"}
FO_RANGE = 10
AIRCRAFT_RANGE = 2
CREEP_BEYOND = 5


@dataclass(frozen=True)
class SightResult:
    clear: bool
    blocker: Optional[str]   # a location, a hexside "a|b", or None
    rule: str
    reason: str

    def to_json(self) -> dict:
        return {"clear": self.clear, "blocker": self.blocker, "rule": self.rule, "reason": self.reason}


def _board(board: Union[Board, BoardState], extras: Optional[Extras] = None) -> Board:
    return board if isinstance(board, Board) else Board(board, extras)


def _eye(board: Board, loc: str, level: int) -> float:
    return board.elevation(loc) + max(level, 1) - 1


def _elevated(board: Board, loc: str, level: int) -> bool:
    """Hills, multi-storey buildings and upper floors see over non-adjacent ridgelines."""
    return board.terrain(loc) == "hill" or board.elevation(loc) > 0 or board.multi_storey(loc) or level > 1


def _blocker(board: Board, path: list[str], level_a: int, level_b: int) -> Optional[SightResult]:
    a, b = path[0], path[-1]
    n = len(path) - 1
    eye_a, eye_b = _eye(board, a, level_a), _eye(board, b, level_b)
    elevated = _elevated(board, a, level_a)
    for i in range(n):
        here, nxt = path[i], path[i + 1]
        if "ridgeline" in board.hexside_features(here, nxt) and a not in (here, nxt) and not elevated:
            return SightResult(False, f"{here}|{nxt}", "IM.TER.RIDGE.LOS",
                               f"a ridgeline between {here} and {nxt}, not adjacent to the observer at ground level")
        if i == 0:
            continue
        if board.smoke(here):
            return SightResult(False, here, "IM.ART.FO.SMOKE", f"smoke in {here}")
        if board.multi_storey(here):
            return SightResult(False, here, "IM.TER.MS.LOS", f"a multi-storey building in {here}")
        boats = board.blocking_boats(here)
        if boats:
            return SightResult(False, here, "IM.NAV.LOS", f"{boats[0].unit} ({boats[0].attrs.get('kind', 'boat')}) "
                               f"in {here}")
        sight_height = eye_a + (eye_b - eye_a) * i / n
        ground = board.elevation(here)
        terrain = board.terrain(here)
        if terrain in OBSTACLE_TERRAIN and ground + 1 >= sight_height:
            rule = "IM.TER.MS.LOS" if terrain == "town" else "IM.ART.FO.RANGE.LOS"
            return SightResult(False, here, rule, f"{terrain} in {here} (height {ground + 1}) reaches the sight "
                               f"line ({sight_height:g})")
        if ground > sight_height:
            return SightResult(False, here, "IM.ART.FO.RANGE.LOS", f"higher ground in {here} (elevation {ground})")
    return None


def sight(board: Union[Board, BoardState], from_loc: str, to_loc: str, observer_kind: str = "ground", *,
          observer_level: int = 1, target_level: int = 1, spine: str = "both-sides-block",
          extras: Optional[Extras] = None) -> SightResult:
    """Whether `from_loc` sees `to_loc`; `spine` decides a line that runs along hexsides
    ("both-sides-block": blocked only if both nudged lines are; "either-side-blocks")."""
    view = _board(board, extras)
    if observer_kind in ("aircraft", "balloon"):
        return SightResult(True, None, "IM.ART.AIR.FO" if observer_kind == "aircraft" else "IM.ART.BALLOON.FO",
                           "aircraft and balloons have no line-of-sight problem")
    if view.smoke(from_loc) and from_loc != to_loc:
        return SightResult(False, from_loc, "IM.ART.AMMO.SMOKE.EFFECT", f"the observer is in smoke ({from_loc})")
    if view.smoke(to_loc):
        return SightResult(False, to_loc, "IM.ART.AMMO.SMOKE.EFFECT", f"the target hex {to_loc} is in smoke")
    if from_loc == to_loc:
        return SightResult(True, None, "IM.ART.FO.RANGE.LOS", "same hex")
    paths = lines(from_loc, to_loc, view.placement)
    # "may not observe through a hexagon affected by smoke": a line running along the edge of a
    # smoke hex passes through the cloud, so smoke blocks whichever of the two nudged lines meets it
    # (the hexside reading below is for solid terrain).
    for path in paths:
        for here in path[1:-1]:
            if view.smoke(here):
                return SightResult(False, here, "IM.ART.FO.SMOKE", f"smoke in {here}")
    results = [_blocker(view, path, observer_level, target_level) for path in paths]
    blocked = [r for r in results if r is not None]
    if not blocked or (spine == "both-sides-block" and len(blocked) < len(results)):
        note = " (along a hexside: one side is open)" if blocked else ""
        return SightResult(True, None, "IM.ART.FO.RANGE.LOS", "clear line of sight" + note)
    return blocked[0]


@dataclass(frozen=True)
class ObservationCheck:
    rule: str
    ok: bool
    reason: str
    blocker: Optional[str] = None


def creep_excess(board: Board, observer: str, target: str, rows: Iterable[str]) -> Optional[int]:
    """Hexes of the target beyond the last creeping-barrage primary hex on the line (None: not crossed)."""
    rows = set(rows)
    path = lines(observer, target, board.placement)[0]
    crossed = [i for i, loc in enumerate(path) if loc in rows]
    if not crossed:
        return None
    return len(path) - 1 - crossed[-1]


def observe(board: Union[Board, BoardState], observer_loc: Optional[str], target: str, via: str, *,
            observer_level: int = 1, spine: str = "both-sides-block",
            extras: Optional[Extras] = None) -> list[ObservationCheck]:
    """The geometric observation rules for one observer and one target hex (not the observer's state)."""
    view = _board(board, extras)
    if via == "balloon":
        return [ObservationCheck("IM.ART.BALLOON.FO", True, "a balloon observes every hex of the map")]
    if observer_loc is None:
        return []
    dist = distance(observer_loc, target, view.placement)
    if via == "aircraft":
        return [ObservationCheck("IM.ART.AIR.FO", dist <= AIRCRAFT_RANGE,
                                 f"the aircraft is {dist} hexes from the target")]
    out = [ObservationCheck("IM.ART.FO.RANGE", dist <= FO_RANGE,
                            f"{dist} hexes from the observer (at most {FO_RANGE}, its own hex not counted)")]
    result = sight(view, observer_loc, target, observer_level=observer_level, spine=spine)
    out.append(ObservationCheck(result.rule, result.clear, result.reason, result.blocker))
    excess = creep_excess(view, observer_loc, target, view.creeping_primary())
    if excess is not None:
        out.append(ObservationCheck("IM.ART.FO.CREEP", excess <= CREEP_BEYOND,
                                    f"{excess} hexes beyond the creeping barrage's primary row (at most "
                                    f"{CREEP_BEYOND})"))
    return out
