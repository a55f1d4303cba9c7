"""Judging `Spotted` and the spotting that direct fire needs (IM.SPOT.*).

What needs no chart is always checked: a spot needs its d10 roll (IM.SPOT.ROLL), a line of
sight (ridgelines, multi-storey buildings, smoke, boats: stone walls and tanks never block),
prone spotters see only adjacent hexes (IM.OPTMOVE.PRONE.EFFECTS), balloons never spot
(IM.ART.AIR.NOSPOT), and direct fire needs a target its firer spotted (IM.SPOT.NEEDED). The
Spotting Table itself (d10 against a number by distance and column) is table-pack data
(`SPOTTING`: column -> distance -> number); without it the outcome is `unverifiable`.
"""
from __future__ import annotations

from typing import Optional

from domain.board.hexes import distance
from domain.board.los import sight
from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_extras, board_view
from domain.rules.infernal_machines.observation import RULEBOOK, SIGHT_SECTIONS, find_unit, spine_reading

SPOT_SECTIONS = {**SIGHT_SECTIONS, **RULEBOOK.sections((  # rule id -> the words cited (rulebook.json)
    "IM.SPOT.NEEDED", "IM.SPOT.ROLL", "IM.SPOT.BUTTONED.DEFAULT", "IM.OPTMOVE.PRONE.EFFECTS", "IM.ART.AIR.NOSPOT",
))}
BUTTONED = {"tank", "armoured-car"}
AIRBORNE = {"aircraft", "balloon"}


def spot_rule(rule_id: str) -> Rule:
    return Rule(rule_id, SPOT_SECTIONS.get(rule_id, "Spotting (changed)"))


def spotting_column(board: Board, unit: UnitState) -> str:
    """The Spotting Table column for a spotter: buttoned-up vehicles, else the weather."""
    weather = "bad" if board.state.weather == "bad" else "fair"
    hatch_open = unit.attrs.get("hatch") == "open" or any(
        m.get("unit") == unit.unit and m.get("marker") == "hatch-open" for m in board.state.markers)
    if unit.unit_class in BUTTONED and not hatch_open:
        return "buttoned-up"
    return weather


class SpottingChecks(RuleModule):
    """Every `Spotted`, and the spotting each `SmallArmsFired` needs."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.extras = board_extras(ctx)
        self.last_spot: dict[str, int] = {}

    def after_Spotted(self, line):
        self.last_spot[self.ctx.typed(line).spotter] = line["seq"]

    def on_Spotted(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        unit = find_unit(self.ctx.board, d.spotter)
        if unit is None:
            return []   # the generic reference check reports unknown units
        if unit.unit_class == "balloon":
            return [spot_rule("IM.ART.AIR.NOSPOT").violation(seq, f"balloon {unit.unit} may not spot")]
        view = board_view(self.ctx)
        out = [self._roll(line, unit, view)]
        if unit.location is None or unit.unit_class in AIRBORNE:
            return out
        out.extend(self._sight(line, unit, view))
        out.extend(self._prone(line, unit, view))
        return out

    def _roll(self, line, unit: UnitState, view: Board) -> RuleApplication:
        seq, d, tables = line["seq"], self.ctx.typed(line), self.ctx.tables
        # the roll comes after the previous spot (any spotter's); its subject may name the spotter,
        # the target hex or a unit in it: the format lets `subject` be "the id the roll is about"
        def spot_rolls(since: int) -> list[dict]:
            return self.ctx.rolls("IM.SPOT.ROLL", after=since, before=seq)
        about = {unit.unit, d.spotter, None, d.target,
                 *(u.unit for u in self.ctx.board.units_at(d.target))}
        rolls = [l for l in spot_rolls(self.last_spot.get(unit.unit, 0)) if self.ctx.typed(l).subject in about] or \
            [l for l in spot_rolls(max(self.last_spot.values(), default=0)) if l.get("side") == line.get("side")]
        if not rolls:
            return spot_rule("IM.SPOT.ROLL").missing_roll(
                seq, f"{unit.unit}'s spot of {d.target} has no IM.SPOT.ROLL d10 before it")
        roll, rolled = rolls[-1], self.ctx.typed(rolls[-1])
        column = spotting_column(view, unit)
        dist = distance(unit.location, d.target, view.placement) if unit.location else None
        modified = rolled.result + sum(m.value for m in rolled.modifiers)
        inputs = {"column": column, "distance": dist, "roll": rolled.result, "modified": modified}
        if not tables.has("SPOTTING") or dist is None:
            return spot_rule("IM.SPOT.ROLL").unverifiable(
                seq, tables.lacks("Spotting Table (SPOTTING)"), related=[roll["seq"]], inputs=inputs)
        limit = tables.get("SPOTTING", column, dist)
        if tables.get("SPOTTING", column) is None:
            return spot_rule("IM.SPOT.ROLL").unverifiable(
                seq, f"the {tables.name} pack's Spotting Table has no {column!r} column", inputs=inputs)
        expected = limit is not None and modified <= limit
        inputs["number"] = limit
        return spot_rule("IM.SPOT.ROLL").judge(
            seq, expected == d.spotted, f"d10 {modified} against {limit}: spotted={expected}",
            f"d10 {modified} against {limit} ({column}, {dist} hexes) gives spotted={expected}",
            Verdict.MISMATCH, expected=expected, recorded=d.spotted, related=[roll["seq"]], inputs=inputs)

    def _sight(self, line, unit: UnitState, view: Board) -> list[RuleApplication]:
        seq, spot = line["seq"], self.ctx.typed(line)
        target = spot.target
        spine, label = spine_reading(self.ctx, view, unit.location, target)
        result = sight(view, unit.location, target, observer_level=view.unit_level(unit), spine=spine)
        if result.clear or not spot.spotted:
            return [spot_rule(result.rule).ok(seq, result.reason, interpretation=label)]
        return [spot_rule(result.rule).violation(
            seq, f"{unit.unit} cannot spot {target}: {result.reason}", inputs={"blocker": result.blocker},
            interpretation=label)]

    def _prone(self, line, unit: UnitState, view: Board) -> list[RuleApplication]:
        seq, spot = line["seq"], self.ctx.typed(line)
        target = spot.target
        if "prone" not in unit.status or not spot.spotted:
            return []
        dist = distance(unit.location, target, view.placement)
        fires = map(self.ctx.typed, self.ctx.of_type("SmallArmsFired", before=seq))
        fired_on = any(fire.target == unit.location
                       and any((self.ctx.board.units.get(f) or UnitState(f, None, "")).location == target
                               for f in fire.firers) for fire in fires)
        limit = 10 if fired_on else 1
        return [spot_rule("IM.OPTMOVE.PRONE.EFFECTS").judge(
            seq, dist <= limit, f"prone spotter, {dist} hex(es)",
            f"a prone unit spots only adjacent hexes{' (10 against units that fired on it)' if fired_on else ''}; "
            f"the target is {dist} hexes away", expected=limit, recorded=dist)]

    def on_SmallArmsFired(self, line):
        d, seq, board, typed = self.ctx.typed(line), line["seq"], self.ctx.board, self.ctx.typed
        out = []
        spots = [l for l in self.ctx.of_type("Spotted", before=seq) if l["turn"] == line["turn"]
                 and typed(l).target == d.target and typed(l).spotted]
        for firer in d.firers:
            unit = board.units.get(firer)
            if unit is None or unit.unit_class in AIRBORNE:
                continue
            own = [l for l in spots if _same_spotter(board, typed(l).spotter, unit)]
            airborne = [l for l in spots if (find_unit(board, typed(l).spotter) or unit).unit_class in AIRBORNE
                        and l.get("side") == line.get("side")]
            if own:
                out.append(spot_rule("IM.SPOT.NEEDED").ok(seq, f"{firer} spotted {d.target}",
                                                          related=[own[-1]["seq"]]))
            elif airborne:
                out.append(spot_rule("IM.ART.AIR.NOSPOT").violation(
                    seq, f"{d.target} was spotted only by an aircraft or balloon, which may not spot for "
                    f"{firer}'s ground fire", related=[airborne[-1]["seq"]]))
            else:
                out.append(spot_rule("IM.SPOT.NEEDED").violation(
                    seq, f"{firer} fires at {d.target} without having spotted it this turn", recorded=firer))
        return out


def _same_spotter(board, spotter: str, firer: UnitState) -> bool:
    """The firer itself, or a unit stacked with it (a gun's crew, a mortar's inherent observer)."""
    if spotter == firer.unit:
        return True
    other: Optional[UnitState] = find_unit(board, spotter)
    return bool(other and other.unit_class not in AIRBORNE and other.location == firer.location
                and other.side == firer.side)


# rule id -> (implemented | needs a chart | ambiguous, the tests that cover it)
COVERAGE = {
    "IM.SPOT.NEEDED": ("implemented", "tests/unit/test_spotting.py::test_direct_fire_needs_a_spotted_target"),
    "IM.SPOT.ROLL": ("needs a chart", "tests/unit/test_spotting.py::test_a_spot_needs_its_d10_roll; tests/unit/test_spotting.py::test_without_the_spotting_table_the_outcome_is_unverifiable; tests/unit/test_spotting.py::test_the_roll_against_the_pack_number"),
    "IM.SPOT.BUTTONED.DEFAULT": ("implemented", "tests/unit/test_spotting.py::test_tanks_are_buttoned_up_by_default"),
    "IM.ART.AIR.NOSPOT": ("implemented", "tests/unit/test_spotting.py::test_balloons_and_aircraft_do_not_spot_for_ground_fire"),
    "IM.OPTMOVE.PRONE.EFFECTS": ("needs a chart", "tests/unit/test_spotting.py::test_a_prone_unit_spots_only_adjacent_hexes"),
}
