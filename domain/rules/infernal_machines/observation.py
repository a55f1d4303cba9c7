"""Judging `HexObserved`: the geometry and the observer's state (not the barrage procedure).

An FO or LNO observes within 10 hexes (its own hex not counted) with a clear line of sight, not
through smoke and not more than 5 hexes beyond a creeping barrage's row; a pinned one observes
nothing; an aircraft observes at two hexes; a balloon anywhere. "Observe" is not "spot"
(IM.SPOT.OBSERVE_DISTINCT): nothing here reads the Spotting Table. Whether a barrage needed an
observation at all is the barrage procedure's business (IM.ART.FO.REQUIRED, IM.ART.FOT.PRIOR_OBS).
"""
from __future__ import annotations

from typing import Optional

from domain.board.hexes import distance, lines
from domain.board.los import observe
from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rulebook import beside
from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.artillery_effects import board_extras, board_view
from domain.rules.interpretations import Interpretation, declare

RULEBOOK = beside(__file__)
# rule id -> the words cited (rulebook.json; "sight": these where the entry's section is another module's)
SIGHT_SECTIONS = RULEBOOK.sections((
    "IM.ART.FO.RANGE", "IM.ART.FO.RANGE.LOS", "IM.ART.FO.SMOKE", "IM.ART.FO.CREEP", "IM.ART.AMMO.SMOKE.EFFECT",
    "IM.ART.RESTRICT.PINNED_OBS", "IM.ART.RESTRICT.NO_OBSERVERS", "IM.ART.AIR.FO", "IM.ART.AIR.NOSPOT",
    "IM.ART.BALLOON.FO", "IM.TER.RIDGE.LOS", "IM.TER.MS.LOS", "IM.NAV.LOS", "IM.CORE.SIDE",
), "sight")
OBSERVER_CLASS = {"forward-observer": "forward-observer", "liaison-officer": "liaison-officer",
                  "aircraft": "aircraft", "balloon": "balloon"}

SPINE = declare(Interpretation(
    "IM.LOS.ALONG_HEXSIDE", ("IM.ART.FO.RANGE", "IM.TER.RIDGE.LOS", "IM.TER.MS.LOS"),
    "A sight line that runs exactly along a hexside passes between two hexes: does one blocking hex "
    "block it? (Landships! 8.23 is not in the text.)",
    {"both-sides-block": "blocked only when the hexes on both sides block",
     "either-side-blocks": "blocked when either hex blocks"}, default="both-sides-block"))
AIR_DISTANCE = declare(Interpretation(
    "IM.ART.AIR.FO.DISTANCE", ("IM.ART.AIR.FO",),
    "An aircraft 'may automatically observe any hexagon at a distance of two hexagons': exactly two, "
    "or up to two?", {"exactly-2": "only hexes exactly two hexes away", "up-to-2": "any hex within two hexes"},
    default=None))


def sight_rule(rule_id: str) -> Rule:
    return Rule(rule_id, SIGHT_SECTIONS.get(rule_id, "line of sight"))


def find_unit(board, name: Optional[str]) -> Optional[UnitState]:
    """A unit named as `id`, `aircraft:<id>` or `balloon:<id>`."""
    if not name:
        return None
    if name in board.units:
        return board.units[name]
    return board.units.get(name.split(":", 1)[1]) if ":" in name else None


def spine_reading(ctx, view: Board, a: str, b: str) -> tuple[str, Optional[str]]:
    """The hexside reading in force, consulted only when the line runs along a hexside."""
    if len(lines(a, b, view.placement)) < 2:
        return "both-sides-block", None
    return ctx.interpretations.reading(SPINE.name) or "both-sides-block", ctx.interpretations.label(SPINE.name)


class ObservationChecks(RuleModule):
    """Every `HexObserved` by a forward observer, liaison officer, aircraft or balloon."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.extras = board_extras(ctx)

    def on_HexObserved(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        via = d.via
        if via == "automatic":
            return []
        unit = find_unit(board, d.observer)
        if unit is None:
            if via in ("aircraft", "balloon"):
                return [sight_rule("IM.ART.AIR.FO" if via == "aircraft" else "IM.ART.BALLOON.FO").unverifiable(
                    seq, f"no {via} {d.observer!r} is on the board: its position is unknown")]
            return [sight_rule("IM.ART.RESTRICT.NO_OBSERVERS").violation(
                seq, f"observer {d.observer!r} is not on the board", recorded=d.observer)]
        out = self._state(line, unit, via)
        if unit.eliminated:
            return out
        out.extend(self._geometry(line, unit, via))
        return out

    def _state(self, line, unit: UnitState, via: str) -> list[RuleApplication]:
        seq, out = line["seq"], []
        if unit.eliminated:
            out.append(sight_rule("IM.ART.RESTRICT.NO_OBSERVERS").violation(
                seq, f"{unit.unit} was eliminated (seq {unit.last_seq}) and observes nothing", related=[unit.last_seq]))
        if line.get("side") and unit.side and unit.side != line["side"]:
            out.append(sight_rule("IM.CORE.SIDE").violation(
                seq, f"{line['side']} cannot observe with {unit.side}'s {unit.unit}", expected=unit.side,
                recorded=line["side"]))
        if via in ("forward-observer", "liaison-officer"):
            pinned = board_view(self.ctx).pinned(unit)
            out.append(sight_rule("IM.ART.RESTRICT.PINNED_OBS").judge(
                seq, not pinned, f"{unit.unit} is not pinned", f"{unit.unit} is pinned and may not observe any hex",
                related=[unit.last_seq] if pinned else []))
        return out

    def _geometry(self, line, unit: UnitState, via: str) -> list[RuleApplication]:
        seq, target, ctx = line["seq"], self.ctx.typed(line).target, self.ctx
        view = board_view(ctx)
        if unit.location is None and via != "balloon":
            return [sight_rule("IM.ART.FO.RANGE").unverifiable(seq, f"{unit.unit} has no location on the board")]
        spine, label = ("both-sides-block", None) if via in ("aircraft", "balloon") or unit.location is None \
            else spine_reading(ctx, view, unit.location, target)
        checks = observe(view, unit.location, target, via, observer_level=view.unit_level(unit), spine=spine)
        out = []
        for check in checks:
            if check.rule == "IM.ART.AIR.FO":
                out.append(self._aircraft(seq, view, unit, target))
                continue
            r = sight_rule(check.rule)
            inputs = {"observer": unit.location, "target": target}
            if check.blocker:
                inputs["blocker"] = check.blocker
            out.append(r.judge(seq, check.ok, check.reason, f"{unit.unit} cannot observe {target}: {check.reason}",
                               inputs=inputs, interpretation=label if check.rule not in
                               ("IM.ART.FO.RANGE", "IM.ART.FO.CREEP") else None))
        return out

    def _aircraft(self, seq: int, view: Board, unit: UnitState, target: str) -> RuleApplication:
        dist = distance(unit.location, target, view.placement)
        r = sight_rule("IM.ART.AIR.FO")
        if dist == 2:
            return r.ok(seq, "the target is two hexes from the aircraft", recorded=dist)
        if dist > 2:
            return r.violation(seq, f"an aircraft observes at two hexes; the target is {dist} away",
                               expected=2, recorded=dist)
        interp = self.ctx.interpretations
        reading, label = interp.reading(AIR_DISTANCE.name), interp.label(AIR_DISTANCE.name)
        if reading is None:
            readings = "; ".join(f"{k}: {v}" for k, v in AIR_DISTANCE.readings.items())
            return r.ambiguous(seq, f"the target is {dist} hex(es) from the aircraft. Readings: {readings}",
                               recorded=dist, interpretation=label)
        return r.judge(seq, reading == "up-to-2", f"{dist} hex(es): within two ({reading})",
                       f"{dist} hex(es): not exactly two ({reading})", recorded=dist, interpretation=label)


# rule id -> (implemented | needs a chart | ambiguous, the tests that cover it)
COVERAGE = {
    "IM.ART.FO.RANGE": ("implemented", "tests/unit/test_observation.py::test_an_fo_observes_up_to_10_hexes_not_11"),
    "IM.ART.FO.SMOKE": ("implemented", "tests/unit/test_observation.py::test_an_fo_may_not_observe_through_smoke; tests/unit/test_los.py::test_smoke_blocks_through_into_and_out_of_its_hex"),
    "IM.ART.FO.CREEP": ("implemented", "tests/unit/test_observation.py::test_an_fo_sees_at_most_5_hexes_beyond_a_creeping_barrage"),
    "IM.ART.RESTRICT.PINNED_OBS": ("implemented", "tests/unit/test_observation.py::test_a_pinned_or_eliminated_fo_observes_nothing"),
    "IM.ART.AIR.FO": ("ambiguous", "tests/unit/test_observation.py::test_aircraft_observe_at_two_hexes"),
    "IM.ART.BALLOON.FO": ("implemented", "tests/unit/test_observation.py::test_balloons_observe_every_hex_and_aircraft_ignore_sight"),
    "IM.SPOT.OBSERVE_DISTINCT": ("implemented", "tests/unit/test_observation.py::test_observing_is_not_spotting"),
    "IM.TER.RIDGE.LOS": ("implemented", "tests/unit/test_los.py::test_a_non_adjacent_ridgeline_blocks_ground_units; tests/unit/test_los.py::test_hills_multi_storey_buildings_and_aircraft_see_over_ridgelines; tests/unit/test_observation.py::test_ridgelines_block_observation_unless_the_fo_stands_on_a_hill"),
    "IM.TER.MS.LOS": ("implemented", "tests/unit/test_los.py::test_a_multi_storey_building_blocks_whatever_the_heights; tests/unit/test_los.py::test_a_town_without_storeys_is_as_high_as_a_wood"),
    "IM.TER.WALL.SPOT": ("implemented", "tests/unit/test_los.py::test_stone_walls_and_tanks_do_not_block"),
    "IM.NAV.LOS": ("implemented", "tests/unit/test_los.py::test_gunboats_and_steamboats_block_barges_do_not"),
}
