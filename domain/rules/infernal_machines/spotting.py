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
from domain.rules.infernal_machines.infantry_facts import infantry_facts, smocks
from domain.rules.infernal_machines.observation import RULEBOOK, SIGHT_SECTIONS, find_unit, spine_reading

SPOT_SECTIONS = {**SIGHT_SECTIONS, **RULEBOOK.sections((  # rule id -> the words cited (rulebook.json)
    "IM.SPOT.NEEDED", "IM.SPOT.ROLL", "IM.SPOT.BUTTONED.DEFAULT", "IM.OPTMOVE.PRONE.EFFECTS", "IM.ART.AIR.NOSPOT",
    "IM.SPOT.BUTTONED.OPEN", "IM.ENV.WEATHER.BAD.SPOT",
))}
BUTTONED = {"tank", "armoured-car"}
AIRBORNE = {"aircraft", "balloon"}
INDIVIDUALS = {"forward-observer", "liaison-officer", "infantry-leader"}
# attrs naming the vehicle an individual counter is placed on ("place an individual counter of any kind
# ... on the vehicle"), and markers placed on a vehicle that say its hatch is open
ON_VEHICLE = ("vehicle", "on", "aboard", "commands", "commander_of")
HATCH_MARKERS = {"hatch-open", "commander"}
# the rule that chose a Spotting Table column (the roll itself is IM.SPOT.ROLL's)
COLUMN_RULES = {"bad": "IM.ENV.WEATHER.BAD.SPOT", "buttoned-up": "IM.SPOT.BUTTONED.DEFAULT",
                "hatch-open": "IM.SPOT.BUTTONED.OPEN"}


def commander_of(ctx_or_board, vehicle: UnitState) -> Optional[str]:
    """The exposed commander of a hatch-open vehicle (Buttoned-Up Hatches): an individual counter
    placed on it (its attrs name the vehicle), a hatch-open or commander marker on it, or the
    vehicle's own `attrs.hatch` = "open"; None when it is buttoned up."""
    board = getattr(ctx_or_board, "board", ctx_or_board)
    board = getattr(board, "state", board)
    for unit in board.units.values():
        if unit.unit_class in INDIVIDUALS and not unit.eliminated and any(
                unit.attrs.get(key) == vehicle.unit for key in ON_VEHICLE):
            return unit.unit
    for m in board.markers:
        if m.get("unit") == vehicle.unit and m.get("marker") in HATCH_MARKERS:
            return m.get("commander") or f"{vehicle.unit}:commander"
    return f"{vehicle.unit}:commander" if vehicle.attrs.get("hatch") == "open" else None


def spot_rule(rule_id: str) -> Rule:
    return Rule(rule_id, SPOT_SECTIONS.get(rule_id, "Spotting (changed)"))


def spotting_column(board: Board, unit: UnitState, tables=None) -> str:
    """The Spotting Table column for a spotter: "the column representing the unit's status (fair or
    bad weather, hatch open, etc.)": a buttoned-up vehicle's, a hatch-open vehicle's where the pack
    has that column (else the weather's), else the weather's (IM.ENV.WEATHER.BAD.SPOT)."""
    weather = "bad" if board.state.weather == "bad" else "fair"
    if unit.unit_class in BUTTONED:
        if commander_of(board, unit) is None:
            return "buttoned-up"
        if tables is not None and tables.get("SPOTTING", "hatch-open") is not None:
            return "hatch-open"
    return weather


class SpottingChecks(RuleModule):
    """Every `Spotted`, and the spotting each `SmallArmsFired` needs."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.extras = board_extras(ctx)
        self.infantry = infantry_facts(ctx)   # a fold: made now, so that it sees every line
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
        # the spotter's side's roll: a unit of the target hex is also the subject of the enemy's own spots
        mine = (line.get("side"), None) if line.get("side") else None
        rolls = [l for l in spot_rolls(self.last_spot.get(unit.unit, 0)) if self.ctx.typed(l).subject in about
                 and (mine is None or l.get("side") in mine)] or \
            [l for l in spot_rolls(max(self.last_spot.values(), default=0)) if l.get("side") == line.get("side")]
        if not rolls and self._smock_troops_only(unit, d.target):
            # IM.INF.SMOCK.SPOT: "will spot smock-equipped units ... on a result of '1' on a six-sided die"
            # (EC-48: "an FO rolls d6 = 1 -> spotted"); that d6 is judged there
            return spot_rule("IM.SPOT.ROLL").ok(
                seq, f"{d.target} holds only unspotted smock troops: they are spotted on a d6 (IM.INF.SMOCK.SPOT), "
                "not on the Spotting Table")
        if not rolls:
            return spot_rule("IM.SPOT.ROLL").missing_roll(
                seq, f"{unit.unit}'s spot of {d.target} has no IM.SPOT.ROLL d10 before it")
        roll, rolled = rolls[-1], self.ctx.typed(rolls[-1])
        column = spotting_column(view, unit, tables)
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
        inputs["column_rule"] = COLUMN_RULES.get(column, "IM.SPOT.ROLL")
        return spot_rule("IM.SPOT.ROLL").judge(
            seq, expected == d.spotted, f"d10 {modified} against {limit}: spotted={expected}",
            f"d10 {modified} against {limit} ({column}, {dist} hexes) gives spotted={expected}",
            Verdict.MISMATCH, expected=expected, recorded=d.spotted, related=[roll["seq"]], inputs=inputs)

    def _smock_troops_only(self, spotter: UnitState, target: str) -> bool:
        """Every enemy unit in the target hex wears smocks and has not revealed itself by its fire."""
        enemies = [u for u in self.ctx.board.units_at(target) if u.side and u.side != spotter.side]
        revealed = self.infantry.revealed
        return bool(enemies) and all(smocks(u) and u.unit not in revealed for u in enemies)

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

    def on_UnitDeployed(self, line):
        """"All reinforcement vehicles entering play are considered to have their hatches buttoned up." """
        d = self.ctx.typed(line)
        if line["turn"] == 0 or d.class_ not in BUTTONED:
            return []
        hatch = d.attrs.get("hatch")
        return [spot_rule("IM.SPOT.BUTTONED.DEFAULT").judge(
            line["seq"], hatch != "open", f"reinforcement {d.unit} enters buttoned up",
            f"reinforcement {d.unit} enters with its hatch open: reinforcement vehicles enter buttoned up",
            recorded=hatch)]

    def on_AntiTankFired(self, line):
        return self.on_SmallArmsFired(line)

    def on_SmallArmsFired(self, line):
        d, seq, board, typed = self.ctx.typed(line), line["seq"], self.ctx.board, self.ctx.typed
        out = []
        spots = [l for l in self.ctx.of_type("Spotted", after=self.ctx.turn_began(seq), before=seq)
                 if l["turn"] == line["turn"]
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
    "IM.SPOT.BUTTONED.DEFAULT": ("implemented", "tests/unit/test_spotting.py::test_tanks_are_buttoned_up_by_default; "
                                 "tests/unit/test_im_spotting.py::test_reinforcement_vehicles_enter_buttoned_up"),
    "IM.SPOT.BUTTONED.OPEN": ("needs a chart", "tests/unit/test_im_spotting.py::test_a_vehicle_with_a_counter_on_it_spots_hatch_open",
                              "an individual counter on the vehicle (attrs naming it), a hatch-open marker or attrs.hatch; "
                              "the pack's hatch-open column, else the weather's"),
    "IM.ENV.WEATHER.BAD.SPOT": ("needs a chart", "tests/unit/test_im_spotting.py::test_bad_weather_reads_the_bad_column"),
    "IM.ART.AIR.NOSPOT": ("implemented", "tests/unit/test_spotting.py::test_balloons_and_aircraft_do_not_spot_for_ground_fire"),
    "IM.OPTMOVE.PRONE.EFFECTS": ("needs a chart", "tests/unit/test_spotting.py::test_a_prone_unit_spots_only_adjacent_hexes"),
}
