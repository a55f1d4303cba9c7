"""Judging trenches, wire, roadblocks, strongpoints and minefields (IM.OBS, Obstacles (new)).

Fire out of and into trenches: units in a communication trench never fire small arms, units in a
prepared trench fire only toward the front and never into an adjacent hex of another prepared or
communication trench, units in a hasty trench fire in any direction; units in a communication
trench, and in a prepared trench fired on from the rear, are invulnerable to small arms that are
not trench mortars. A trench's front is the hex direction (0 = north, clockwise) its marker or hex
gives as `front` (a hex direction), else the direction of the enemy front for the side in it: from
the centre of its ground units as set up to the centre of the enemy's, to the nearest 30 degrees
(a hexside or a vertex); the fire's
direction is the angle between the front and the line to the other unit's hex. Crossing (poor trench-crossers, extra-wide
trenches) is costed in `movement_costs`; the trenches' barrage modifiers are judged with the BCRT
(`artillery_resolution.text_bcrt_modifiers`, IM.ART.FP.TERRAIN).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from domain.board.hexes import DIRECTIONS, distance, to_cube
from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.artillery_effects import board_extras, board_view
from domain.rules.infernal_machines.movement_costs import FOOT_CLASSES, RULEBOOK
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.OBS.TRENCH.TYPES", "IM.OBS.TRENCH.HASTY.FIRE", "IM.OBS.TRENCH.PREP.SAF", "IM.OBS.TRENCH.PREP.FIREOUT",
    "IM.OBS.TRENCH.PREP.ADJ", "IM.OBS.TRENCH.COMM.SAF", "IM.OBS.TRENCH.EXTRAWIDE",
))
CONNECTING = ("trench-prepared", "trench-communication")
EXTRA_WIDE = "trench-extra-wide"
DEFENDERS = FOOT_CLASSES | {"cavalry-platoon"}

FLANK = declare(Interpretation(
    "IM.OBS.TRENCH.PREP.FLANK", ("IM.OBS.TRENCH.PREP.SAF",),
    "Prepared trenches: units are 'invulnerable to small arms fire conducted from their rear' and get +2 'if "
    "the enemy fire comes from the front'; fire from the flank (along the trench line, 90 degrees off the "
    "trench's front) is not covered: how is it treated?",
    {"as-front": "as fire from the front (+2 on the SACRT)", "as-rear": "as fire from the rear (invulnerable)",
     "neither": "normal small arms fire: neither invulnerable nor +2"},
    default=None))


CONNECTED = declare(Interpretation(
    "IM.OBS.TRENCH.CONNECTED", ("IM.OBS.TRENCH.PREP.ADJ", "IM.OBS.TRENCH.COMM.SAF"),
    "'adjacent hexagons connected to other prepared or communication trenches': the map's trench lines show "
    "which trench hexes connect; a log records trench hexes and, where it says so, a `trench` hexside between "
    "two of them. Is every adjacent prepared or communication trench hex connected?",
    {"adjacent": "yes: two adjacent prepared or communication trench hexes are connected",
     "recorded": "only where the map records a trench hexside between them"},
    default=None))
TRENCH_SIDES = {"trench", "trench-connection"}


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def bearing(frm: str, to: str, board: Board) -> Optional[float]:
    """The direction from hex `frm` to hex `to` in degrees clockwise from north (None: the same hex)."""
    return cube_bearing(to_cube(frm, board.placement), to_cube(to, board.placement))


def cube_bearing(a: tuple[float, float, float], b: tuple[float, float, float]) -> Optional[float]:
    """The direction from one point in cube coordinates to another, clockwise from north."""
    dx, dz = b[0] - a[0], b[2] - a[2]
    if abs(dx) < 1e-9 and abs(dz) < 1e-9:
        return None
    px, py = 1.5 * dx, math.sqrt(3) * (dz + dx / 2)   # flat-topped hexes, y grows southward
    return math.degrees(math.atan2(px, -py)) % 360


def off_front(front: float, frm: str, to: str, board: Board) -> Optional[float]:
    """Degrees between the front (degrees clockwise from north) of the trench at `frm` and the line to `to`."""
    angle = bearing(frm, to, board)
    if angle is None:
        return None
    diff = abs(angle - front) % 360
    return min(diff, 360 - diff)


def sector(front: Optional[float], frm: str, to: str, board: Board) -> Optional[str]:
    """The side of the trench at `frm` that `to` lies on: the front (less than 90 degrees off the front:
    the enemy's side of a trench line that "run[s] parallel to the enemy front"), the rear (more than 90)
    or the flank (along the trench line itself); None when no front is known."""
    if front is None:
        return None
    diff = off_front(front, frm, to, board)
    if diff is None:
        return None
    if abs(diff - 90) < 1e-6:
        return "flank"
    return "front" if diff < 90 else "rear"


def trench_front(board: Board, loc: str, enemy_front: Optional[float] = None) -> Optional[float]:
    """The trench's front at `loc` in degrees clockwise from north: its marker's or hex's `front` (a
    hex direction 0-5), else `enemy_front`, the direction of the enemy's front for the side in it
    ("toward the front (the direction of the enemy front)"; a trench running north-south faces due
    east or west, which no hexside does)."""
    for m in board.live_markers():
        if m.get("location") == loc and str(m.get("marker", "")).startswith("trench") and m.get("front") is not None:
            return 60.0 * (int(m["front"]) % 6)
    front = board.spec(loc).get("front")
    if front is not None:
        return 60.0 * (int(front) % 6)
    return enemy_front


def trench_mortar(unit: Optional[UnitState]) -> bool:
    """A trench mortar: a mortar counter, or a support weapon whose kind or weapon names a mortar."""
    if unit is None:
        return False
    kind = f"{unit.attrs.get('kind', '')} {unit.attrs.get('weapon', '')}".lower()
    return unit.unit_class == "mortar" or "mortar" in kind


def _centre(cubes: list[tuple[int, int, int]]) -> tuple[float, float, float]:
    return tuple(sum(c[i] for c in cubes) / len(cubes) for i in range(3))  # type: ignore[return-value]


class EnemyFronts:
    """Each side's enemy front: the direction from the centre of its ground units as set up to the
    centre of the other sides', to the nearest 30 degrees, taken when the first turn starts (a fold
    the audit feeds line by line; shared by the fire checks and the SACRT terms)."""

    reads = frozenset({"TurnStarted"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self):
        self.fronts: dict[str, Optional[float]] = {}
        self.taken = False

    def of(self, side: Optional[str]) -> Optional[float]:
        return self.fronts.get(side or "")

    def update(self, line: dict[str, Any], board) -> None:
        if self.taken or line["type"] != "TurnStarted" or line["turn"] < 1:
            return
        self.taken = True
        placement = Board(board).placement
        cubes: dict[str, list[tuple[int, int, int]]] = {}
        for u in board.units.values():
            if u.location and u.side and u.unit_class not in ("aircraft", "balloon"):
                cubes.setdefault(u.side, []).append(to_cube(u.location, placement))
        for side, own in cubes.items():
            others = [c for s, cs in cubes.items() if s != side for c in cs]
            angle = cube_bearing(_centre(own), _centre(others)) if others else None
            # a trench line on hexes runs along hexsides or through vertices: its front is a multiple of 30
            self.fronts[side] = None if angle is None else (round(angle / 30) * 30) % 360


def enemy_fronts(ctx) -> EnemyFronts:
    return ctx.shared("im-enemy-fronts", EnemyFronts)


@dataclass
class Fired:
    seq: int
    firers: list[UnitState]
    target: str


class TrenchFire(RuleModule):
    """Trench types, fire out of trenches and the invulnerability of units in them."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.extras = board_extras(ctx)
        self.attacks: dict[str, Fired] = {}
        self.fronts = enemy_fronts(ctx)

    def front(self, view: Board, unit: UnitState) -> Optional[float]:
        return trench_front(view, unit.location, self.fronts.of(unit.side))

    # -- set-up -----------------------------------------------------------------------------
    def on_MapDefined(self, line):
        mapped = self.ctx.typed(line)
        return [app for loc, spec in mapped.hexes.items()
                for app in self._trench_kind(line, spec.features, loc)]

    def on_MarkerPlaced(self, line):
        placed = self.ctx.typed(line)
        if placed.unit is None and placed.location:
            return self._trench_kind(line, [placed.marker], placed.location)
        return []

    def _trench_kind(self, line, names: Iterable[str], loc: str) -> list[RuleApplication]:
        out = []
        names = set(names)
        if "trench" in names:
            out.append(rule("IM.OBS.TRENCH.TYPES").unverifiable(
                line["seq"], f"the trench in {loc} has no type: each scenario states whether a trench is hasty, "
                f"prepared or communication (trench-hasty, trench-prepared, trench-communication)", recorded="trench"))
        if EXTRA_WIDE in names or "extra-wide" in names:
            board = self.ctx.board
            agreed = "extra-wide-trenches" in board.permissions or any(
                "EXTRAWIDE" in str(o).upper() or "extra-wide" in str(o).lower() for o in board.options)
            out.append(rule("IM.OBS.TRENCH.EXTRAWIDE").judge(
                line["seq"], agreed, f"extra-wide trench in {loc}, designated for the scenario",
                f"extra-wide trenches are an optional rule the scenario designates; GameStarted names neither the "
                f"permission extra-wide-trenches nor the option ({loc})", recorded=sorted(names)))
        return out

    # -- fire -------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        fire, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        firers = [board.units[f] for f in fire.firers if f in board.units]
        self.attacks[fire.attack] = Fired(seq, firers, fire.target)
        view = board_view(self.ctx)
        out: list[RuleApplication] = []
        for firer in firers:
            if firer.location is not None and firer.unit_class in DEFENDERS:
                out.extend(self._fire_out(seq, view, firer, fire.target))
        return out

    def _fire_out(self, seq: int, view: Board, firer: UnitState, target: str) -> list[RuleApplication]:
        kind = view.trench(firer.location)
        if kind is None or target == firer.location:
            return []
        adjacent_trench = distance(firer.location, target, view.placement) == 1 and view.trench(target) in CONNECTING
        if adjacent_trench and kind in CONNECTING:
            return [self._adjacent_trench(seq, view, firer, target, kind)]
        if kind == "trench-communication":
            return [rule("IM.OBS.TRENCH.COMM.SAF").violation(
                seq, f"{firer.unit} is in a communication trench ({firer.location}) and may not fire small arms "
                f"outward at {target}", recorded=target)]
        if kind == "trench-hasty":
            return [rule("IM.OBS.TRENCH.HASTY.FIRE").ok(
                seq, f"{firer.unit} fires from a hasty trench, in any direction, at {target}")]
        if kind != "trench-prepared":
            return []
        front = self.front(view, firer)
        where = sector(front, firer.location, target, view)
        if where is None:
            return [rule("IM.OBS.TRENCH.PREP.FIREOUT").unverifiable(
                seq, f"the prepared trench at {firer.location} records no front (a `front` on its marker or hex) "
                f"and no enemy was set up")]
        return [rule("IM.OBS.TRENCH.PREP.FIREOUT").judge(
            seq, where == "front", f"{firer.unit} fires out of its prepared trench toward the front",
            f"{firer.unit} may fire out of its prepared trench only toward the front; {target} lies to its {where}",
            inputs={"front": front, "sector": where}, recorded=target)]

    def _adjacent_trench(self, seq: int, view: Board, firer: UnitState, target: str, kind: str) -> RuleApplication:
        """No small arms fire into an adjacent hex connected to another prepared or communication trench."""
        rule_id = "IM.OBS.TRENCH.COMM.SAF" if kind == "trench-communication" else "IM.OBS.TRENCH.PREP.ADJ"
        why = (f"{firer.unit} in a {kind.split('-')[1]} trench may not fire small arms into {target}, an adjacent hex "
               f"connected to another prepared or communication trench: it must be cleared by close combat")
        label = None
        if not TRENCH_SIDES & view.hexside_features(firer.location, target):
            reading = self.ctx.interpretations.reading(CONNECTED.name)
            label = self.ctx.interpretations.label(CONNECTED.name)
            if reading is None:
                return rule(rule_id).ambiguous(seq, f"{firer.unit} fires from {firer.location} into the adjacent trench "
                                               f"hex {target}. {CONNECTED.describe()}", interpretation=label)
            if reading == "recorded":
                return rule(rule_id).ok(seq, f"no trench hexside joins {firer.location} and {target}",
                                        interpretation=label)
        return rule(rule_id).violation(seq, why, recorded=target, interpretation=label)

    def on_SmallArmsResolved(self, line):
        resolved, seq = self.ctx.typed(line), line["seq"]
        fired = self.attacks.get(resolved.attack)
        if fired is None or not fired.firers or any(trench_mortar(f) for f in fired.firers):
            return []
        view, board, out = board_view(self.ctx), self.ctx.board, []
        for result in resolved.results:
            unit = board.units.get(result.unit)
            if unit is None or unit.location is None or unit.unit_class not in DEFENDERS:
                continue
            kind = view.trench(unit.location)
            if kind == "trench-communication":
                out.append(self._invulnerable(seq, "IM.OBS.TRENCH.COMM.SAF", result, fired,
                                              "is in a communication trench: invulnerable to small arms from any "
                                              "direction (only trench mortars reach it)"))
            elif kind == "trench-prepared":
                out.extend(self._from_rear(seq, view, unit, result, fired))
        return [a for a in out if a is not None]

    def _from_rear(self, seq: int, view: Board, unit: UnitState, result, fired: Fired) -> list:
        front = self.front(view, unit)
        sectors = {sector(front, unit.location, f.location, view) for f in fired.firers if f.location}
        if sectors == {"rear"}:
            return [self._invulnerable(seq, "IM.OBS.TRENCH.PREP.SAF", result, fired,
                                       "is in a prepared trench and fired on from its rear: invulnerable to small "
                                       "arms that are not trench mortars")]
        if sectors != {"flank"} or result.result == "no-effect":
            return []
        reading = self.ctx.interpretations.reading(FLANK.name)
        label = self.ctx.interpretations.label(FLANK.name)
        if reading is None:
            return [rule("IM.OBS.TRENCH.PREP.SAF").ambiguous(
                seq, f"{unit.unit} in a prepared trench is fired on from its flank ({result.result}). "
                f"{FLANK.describe()}", related=[fired.seq], interpretation=label)]
        if reading == "as-rear":
            return [self._invulnerable(seq, "IM.OBS.TRENCH.PREP.SAF", result, fired,
                                       "is in a prepared trench and fired on from its flank, read as its rear",
                                       label)]
        return [rule("IM.OBS.TRENCH.PREP.SAF").ok(seq, f"fire from the flank read {reading}", interpretation=label)]

    def _invulnerable(self, seq: int, rule_id: str, result, fired: Fired, why: str,
                      label: Optional[str] = None) -> Optional[RuleApplication]:
        return rule(rule_id).judge(
            seq, result.result == "no-effect", f"{result.unit} {why}: no effect",
            f"{result.unit} {why}; the log records {result.result}", expected="no-effect", recorded=result.result,
            related=[fired.seq], interpretation=label)


def trench_terms(shot, ctx) -> list:
    """Hasty trenches: "+1 modifier against small arms fire conducted from any direction"; prepared
    trenches: "+2 die modifier against small arms fire if the enemy fire comes from the front" (the
    flank is IM.OBS.TRENCH.PREP.FLANK). One term for the target hex, whose defenders are in the trench."""
    from domain.rules.infernal_machines.direct_fire import Term
    if shot.kind != "small-arms":
        return []
    view, board = board_view(ctx), ctx.board
    defenders = [u for u in board.units_at(shot.target) if u.unit_class in DEFENDERS and u.side != shot.side]
    kind = view.trench(shot.target) if defenders else None
    if kind == "trench-hasty":
        return [Term("IM.OBS.TRENCH.HASTY.DEF", 1, f"hasty trench at {shot.target}", tag="terrain")]
    if kind != "trench-prepared":
        return []
    front = trench_front(view, shot.target, enemy_fronts(ctx).of(defenders[0].side))
    sectors = {sector(front, shot.target, loc, view) for loc in shot.origins.values() if loc}
    if sectors == {"front"}:
        return [Term("IM.OBS.TRENCH.PREP.SAF", 2, f"prepared trench at {shot.target}, fire from the front",
                     tag="terrain")]
    if sectors == {"flank"} and ctx.interpretations.reading(FLANK.name) == "as-front":
        return [Term("IM.OBS.TRENCH.PREP.SAF", 2, f"prepared trench at {shot.target}, fire from the flank read as "
                     f"the front", tag="terrain")]
    return []


DIRECT_FIRE_TERMS = (trench_terms,)

# rule id -> (status, tests, note)
COVERAGE: dict[str, Any] = {
    "IM.OBS.TRENCH.TYPES": ("implemented", "tests/unit/test_im_obstacles.py::test_a_trench_without_a_type_cannot_be_judged",
                            "a trench marker or feature without its type (hasty, prepared, communication) is unverifiable"),
    "IM.OBS.TRENCH.HASTY.DEF": ("implemented", "tests/unit/test_im_obstacles.py::test_trenches_modify_indirect_barrages; "
                                "tests/unit/test_im_obstacles.py::test_trenches_modify_small_arms_fire_at_the_units_in_them",
                                "+1 on the BCRT roll (IM.ART.FP.TERRAIN) and on the SACRT roll (a direct-fire term)"),
    "IM.OBS.TRENCH.HASTY.FIRE": ("implemented", "tests/unit/test_im_obstacles.py::test_hasty_trench_units_fire_in_any_direction_even_at_an_adjacent_hasty_trench"),
    "IM.OBS.TRENCH.HASTY.CROSS": ("implemented", "tests/unit/test_im_obstacles.py::test_poor_trench_crossers_take_no_penalty_in_hasty_and_communication_trenches",
                                  "a poor trench-crosser (attrs trench_crossing '=' or 'poor') pays no crossing penalty"),
    "IM.OBS.TRENCH.PREP.BARRAGE": ("implemented", "tests/unit/test_im_obstacles.py::test_trenches_modify_indirect_barrages",
                                   "+2 (+3 with Landships! 16.24 among the options), judged with the BCRT roll"),
    "IM.OBS.TRENCH.PREP.SAF": ("ambiguous", "tests/unit/test_im_obstacles.py::test_prepared_trench_fire_from_the_rear_has_no_effect_but_a_mortar_does; "
                               "tests/unit/test_im_obstacles.py::test_prepared_trench_fire_from_the_flank_is_a_named_reading; "
                               "tests/unit/test_im_obstacles.py::test_trenches_modify_small_arms_fire_at_the_units_in_them",
                               "fire from the rear by no trench mortar must have no effect; the flank is "
                               "IM.OBS.TRENCH.PREP.FLANK; the +2 from the front is a SACRT term"),
    "IM.OBS.TRENCH.PREP.FIREOUT": ("implemented", "tests/unit/test_im_obstacles.py::test_prepared_trench_units_fire_out_only_toward_the_front; "
                                   "tests/unit/test_im_obstacles.py::test_without_a_recorded_front_the_front_faces_the_enemys_set_up",
                                   "the front: the trench marker's or hex's `front`, else the direction of the enemy's "
                                   "set-up"),
    "IM.OBS.TRENCH.PREP.ADJ": ("ambiguous", "tests/unit/test_im_obstacles.py::test_no_fire_into_an_adjacent_connected_trench_hex; "
                               "tests/unit/test_im_obstacles.py::test_whether_an_adjacent_trench_hex_is_connected_is_a_named_reading",
                               "a recorded trench hexside connects; plain adjacency is IM.OBS.TRENCH.CONNECTED"),
    "IM.OBS.TRENCH.EXTRAWIDE": ("implemented", "tests/unit/test_im_obstacles.py::test_extra_wide_trenches_stop_poor_crossers_but_not_the_mk_v; "
                                "tests/unit/test_im_obstacles.py::test_extra_wide_trenches_are_an_optional_rule_of_the_scenario",
                                "poor crossers may not enter an extra-wide trench hex (Mk V and Mk VIII exempt, or over "
                                "a fascine marker); the other tanks' crossing as poor crossers is Landships! 6.22"),
    "IM.OBS.TRENCH.COMM.BARRAGE": ("implemented", "tests/unit/test_im_obstacles.py::test_trenches_modify_indirect_barrages"),
    "IM.OBS.TRENCH.COMM.SAF": ("implemented", "tests/unit/test_im_obstacles.py::test_communication_trench_units_never_fire_small_arms; "
                               "tests/unit/test_im_obstacles.py::test_communication_trench_units_are_invulnerable_except_to_trench_mortars"),
    "IM.OBS.TRENCH.COMM.CROSS": ("implemented", "tests/unit/test_im_obstacles.py::test_poor_trench_crossers_take_no_penalty_in_hasty_and_communication_trenches"),
    "IM.OBS.ROADBLOCK.ART": ("ambiguous", "tests/unit/test_im_obstacles.py::test_a_roadblock_removed_by_an_asterisk_result_is_a_named_reading",
                             "judged with the barrage's obstacle effects (im-obstacle-removal, AP-11)"),
    "IM.OBS.STRONGPOINT": ("needs a chart", "tests/unit/test_im_obstacles.py::test_strongpoints_and_minefields_keep_the_landships_rules",
                           "the Landships! strongpoint rules (their barrage and small arms modifiers) are not in the "
                           "text; no unit goes prone in one"),
    "IM.OBS.MINEFIELD": ("needs a chart", "tests/unit/test_im_obstacles.py::test_strongpoints_and_minefields_keep_the_landships_rules",
                         "the Landships! minefield attack is not in the text; a run may not cross one"),
}
