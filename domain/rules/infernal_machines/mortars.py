"""Trench Mortars (IM.SW.MORTAR.*): "treat mortars as direct-fire weapons".

A mortar shot is a `SmallArmsFired` whose firer is a mortar (class `mortar`, or a support weapon
whose `attrs.weapon` names one), one line per shot; its scatter d6 (`IM.SW.MORTAR.SCATTER`, about
the attack) comes before its SACRT roll, and the `SmallArmsResolved` names the units of the final
hex (optionally that hex as `location`: docs/game-log-extensions.md). Judged here: the phase (never
the barrage phase: ⚠ the Sturmtruppen note lets medium and heavy mortars fire in it, a named
interpretation), one hex per fire phase, never combined with other fire and resolved before it,
the rate of fire per turn (the counter's `attrs.rate_of_fire`, or 2 x d6 under the optional rule),
an observation that is not a spot, the scatter roll and where the shot fell, the -1 against clear
terrain, woods, trenches, stone walls and ditches, who may move and who may fire smoke.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.board.hexes import distance
from domain.board.state import UnitState
from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import SMALL_ARMS_PHASES, Shot, Term, fire_facts, is_mortar, rule
from domain.rules.infernal_machines.vehicles_tadpole import mortar_shot
from domain.rules.interpretations import Interpretation, declare

TEXT_RANGE = {"light": 13, "medium": 10}   # "It had a range of 13 hexagons", "had a range of 10 hexagons"
ROF_OPTION = "IM.SW.MORTAR.ROF_OPT"
MORTAR_PHASE = declare(Interpretation(
    "IM.SW.MORTAR.BARRAGE_PHASE", ("IM.SW.MORTAR.DIRECT",),
    "\"Mortars may not fire in the barrage phase\" (Mortar fire procedure), but the Sturmtruppen note says "
    "\"medium and heavy mortars fire during the friendly barrage phase\": may a medium or heavy mortar fire then?",
    {"never": "no mortar fires in the barrage phase (the mortar procedure)",
     "medium-heavy": "medium and heavy mortars may fire in the friendly barrage phase (the Sturmtruppen note)"},
    default=None))


def mortar_type(unit: Optional[UnitState]) -> Optional[str]:
    """light, medium or heavy: the counter's `attrs.type` (or `mortar`, `size`), else its name."""
    if unit is None:
        return None
    for key in ("type", "mortar", "size", "weapon"):
        value = str(unit.attrs.get(key, "")).lower()
        for kind in ("light", "medium", "heavy"):
            if kind in value:
                return kind
    name = f"{unit.name or ''} {unit.unit}".lower()
    return next((kind for kind in ("light", "medium", "heavy") if kind in name), None)


def rate_of_fire(unit: UnitState) -> Optional[int]:
    for key in ("rate_of_fire", "rof", "rate"):
        value = unit.attrs.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def option_on(options: list[Any], rule_id: str) -> bool:
    return any(isinstance(o, str) and (o == rule_id or rule_id.startswith(o + ".")) for o in options)


def mortar_terms(shot: Shot, ctx) -> list[Term]:
    """The text's ranges where the counter gives none: light 13, medium 10."""
    out = []
    for firer in shot.firers:
        unit = ctx.board.units.get(firer)
        if is_mortar(unit) and unit.range is None and mortar_type(unit) in TEXT_RANGE:
            out.append(Term("IM.SW.MORTAR.TYPES", TEXT_RANGE[mortar_type(unit)],
                            f"a {mortar_type(unit)} mortar's range", "range", firer))
    return out


DIRECT_FIRE_TERMS = (mortar_terms,)


class MortarChecks(RuleModule):
    """Every shot a mortar fires, mortar moves, and smoke from mortars."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.targets: dict[tuple[int, str, str], tuple[str, int]] = {}   # (turn, phase, mortar) -> (hex, seq)
        self.shots: dict[tuple[int, str], list[int]] = {}                # (turn, mortar) -> seqs of its shots
        self.fired_at: dict[tuple[int, str, str], int] = {}             # (turn, phase, hex) -> first non-mortar shot
        self.observed: dict[tuple[int, str], int] = {}                   # (turn, hex) -> seq of an observation
        self.turn_seq = 0

    def after_TurnStarted(self, line):
        self.turn_seq = line["seq"]
        return []

    def on_HexObserved(self, line):
        d = self.ctx.typed(line)
        self.observed.setdefault((line["turn"], d.target), line["seq"])
        return []

    def on_SmallArmsFired(self, line):
        shot, board = self.facts.open(line), self.ctx.board
        mortars = [f for f in shot.firers if is_mortar(board.units.get(f))]
        if not mortars:
            self.fired_at.setdefault((shot.turn, shot.phase, shot.target), shot.seq)
            return []
        out = [self._phase(shot, board.units[m]) for m in mortars]
        out.append(rule("IM.SW.MORTAR.ORDER").judge(
            shot.seq, len(shot.firers) == 1, "a mortar fires alone",
            "a mortar's small arms fire is never combined with other fire, nor with another mortar's: "
            f"{', '.join(shot.firers)} fire together", recorded=list(shot.firers)))
        before = self.fired_at.get((shot.turn, shot.phase, shot.target))
        if before is not None:
            out.append(rule("IM.SW.MORTAR.ORDER").violation(
                shot.seq, f"mortar fire at {shot.target} is resolved before any other small arms fire against the "
                f"hexagon; seq {before} fired at it first this phase", related=[before]))
        for m in mortars:
            out += self._one_hex(shot, m)
            out += self._rate(shot, board.units[m])
        out += self._observed_not_spotted(shot)
        if shot.given("ammunition") == "smoke":
            out += [self._smoke(shot.seq, board.units[m]) for m in mortars]
        return out

    def _phase(self, shot: Shot, unit: UnitState) -> RuleApplication:
        r, kind = rule("IM.SW.MORTAR.DIRECT"), mortar_type(unit)
        if shot.phase in SMALL_ARMS_PHASES:
            return r.ok(shot.seq, f"a mortar fires in the {shot.phase} phase")
        if shot.phase == "barrage" and kind in ("medium", "heavy"):
            reading, label = self.ctx.interpretations.reading(MORTAR_PHASE.name), \
                self.ctx.interpretations.label(MORTAR_PHASE.name)
            if reading is None:
                return r.ambiguous(shot.seq, f"a {kind} mortar fires in the barrage phase. {MORTAR_PHASE.describe()}",
                                   interpretation=label)
            return r.judge(shot.seq, reading == "medium-heavy", f"a {kind} mortar in the barrage phase ({reading})",
                           f"no mortar fires in the barrage phase ({reading})", interpretation=label)
        return r.violation(shot.seq, f"mortars fire in the defensive or offensive small arms fire phases, not in the "
                           f"{shot.phase} phase", recorded=shot.phase)

    def _one_hex(self, shot: Shot, mortar: str) -> list[RuleApplication]:
        key = (shot.turn, shot.phase, mortar)
        first = self.targets.setdefault(key, (shot.target, shot.seq))
        if first[0] == shot.target:
            return [rule("IM.SW.MORTAR.ONEHEX").ok(shot.seq, f"{mortar} attacks {shot.target} this phase")]
        return [rule("IM.SW.MORTAR.ONEHEX").violation(
            shot.seq, f"{mortar} attacks {shot.target} after {first[0]} (seq {first[1]}) in the same fire phase: "
            "one hexagon per fire phase", related=[first[1]], expected=first[0], recorded=shot.target)]

    def _rate(self, shot: Shot, unit: UnitState) -> list[RuleApplication]:
        fired = self.shots.setdefault((shot.turn, unit.unit), [])
        fired.append(shot.seq)
        limit, why, related = rate_of_fire(unit), "its counter's rate of fire", []
        if option_on(self.ctx.board.options, ROF_OPTION) and mortar_type(unit) == "light":
            rolls = [r for r in self.ctx.rolls(ROF_OPTION, before=shot.seq)
                     if r["turn"] == shot.turn and r["data"].get("subject") == unit.unit]
            if not rolls:
                return [rule(ROF_OPTION).missing_roll(shot.seq, f"light mortar {unit.unit} fires in turn {shot.turn} "
                                                      "without its rate-of-fire d6 (optional rule)")]
            limit, why, related = 2 * self.ctx.typed(rolls[0]).result, f"2 x the d6 of seq {rolls[0]['seq']}", [rolls[0]["seq"]]
        if limit is None:
            return []
        cited = ROF_OPTION if related else "IM.SW.MORTAR.TYPES"
        return [rule(cited).judge(shot.seq, len(fired) <= limit, f"shot {len(fired)} of {limit} this turn ({why})",
                                  f"{unit.unit} fires its shot {len(fired)} this turn; its rate of fire is {limit} ({why})",
                                  expected=limit, recorded=len(fired), related=related)]

    def _observed_not_spotted(self, shot: Shot) -> list[RuleApplication]:
        """"Forward observers may not observe for mortars": a target only observed is not spotted."""
        seen = self.observed.get((shot.turn, shot.target))
        if seen is None:
            return []
        spots = [l for l in self.ctx.of_type("Spotted", after=self.turn_seq, before=shot.seq)
                 if self.ctx.typed(l).target == shot.target and self.ctx.typed(l).spotted]
        if spots:
            return []
        return [rule("IM.SW.MORTAR.DIRECT").violation(
            shot.seq, f"{shot.target} was observed (seq {seen}), not spotted: forward observers may not observe for "
            "mortars", related=[seen])]

    def _smoke(self, seq: int, unit: UnitState) -> RuleApplication:
        """"Medium and heavy mortars may also fire smoke shells if these are available in the scenario." """
        why = []
        if mortar_type(unit) not in ("medium", "heavy"):
            why.append(f"{unit.unit} is a {mortar_type(unit) or 'mortar of unknown type'}: only medium and heavy mortars")
        if "smoke" not in self.ctx.board.permissions:
            why.append("the scenario does not provide smoke")
        return rule("IM.SW.MORTAR.SMOKE").judge(seq, not why, f"{unit.unit} fires smoke", "; ".join(why))

    def on_MarkerPlaced(self, line):
        d = line["data"]
        source = self.ctx.board.units.get(str(d.get("source", "")))
        if d.get("marker") != "smoke" or not is_mortar(source):
            return []
        return [self._smoke(line["seq"], source)]

    # -- the resolution of a shot ---------------------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        resolved = self.ctx.typed(line)
        shot = self.facts.shot(resolved.attack)
        if shot is None or not any(is_mortar(self.ctx.board.units.get(f)) for f in shot.firers):
            return []
        if mortar_shot(shot, self.ctx.board) is not None:
            return []   # a Tadpole's mortar "automatically scatters one hexagon": no scatter d6 (IM.VEH.TADPOLE.SCATTER)
        scatter = [r for r in shot.rolls if r["data"].get("purpose", "").startswith("IM.SW.MORTAR.SCATTER")]
        if not scatter:
            return [rule("IM.SW.MORTAR.SCATTER").missing_roll(
                line["seq"], f"mortar shot {shot.attack} is resolved without its scatter d6 (IM.SW.MORTAR.SCATTER)",
                related=[shot.seq])]
        first = self.ctx.typed(scatter[0])
        scattered = first.result >= 5
        final = self._final_hex(resolved, shot)
        out = [self._landed(line["seq"], shot, first.result, scattered, final, scatter[0]["seq"])]
        if final is not None:
            out += self._minus_one(line["seq"], shot, final)
        return out

    def _final_hex(self, resolved, shot: Shot) -> Optional[str]:
        given = (resolved.model_extra or {}).get("location")
        if isinstance(given, str):
            return given
        places = {self.ctx.board.units[r.unit].location for r in resolved.results if r.unit in self.ctx.board.units}
        return places.pop() if len(places) == 1 else None

    def _landed(self, seq: int, shot: Shot, roll: int, scattered: bool, final: Optional[str], roll_seq: int):
        r = rule("IM.SW.MORTAR.SCATTER")
        if final is None:
            return r.ok(seq, f"scatter d6 {roll}: {'scatters' if scattered else 'on target'}", related=[roll_seq])
        hexes = distance(shot.target, final, board_view(self.ctx).placement)
        good = hexes == 1 if scattered else hexes == 0
        where = "an adjacent hexagon" if scattered else shot.target
        return r.judge(seq, good, f"scatter d6 {roll}: resolved against {final}",
                       f"scatter d6 {roll} {'scatters (5-6)' if scattered else 'does not scatter (1-4)'}: the shot "
                       f"falls on {where}, yet it is resolved against {final}", Verdict.MISMATCH,
                       expected=where, recorded=final, related=[shot.seq, roll_seq])

    def _minus_one(self, seq: int, shot: Shot, final: str) -> list[RuleApplication]:
        """"The mortar fire receives a favourable die modifier of -1 against clear terrain, woods,
        trenches, stone walls and ditches." """
        view = board_view(self.ctx)
        walls = any("stone-wall" in view.hexside_features(final, n) for n in _around(final, view))
        if not (view.terrain(final) in ("clear", "wood") or view.trench(final) or walls
                or "ditch" in view.features(final)):
            return []
        out = []
        for roll in shot.sacrt_rolls():
            mods = [m.value for m in self.ctx.typed(roll).modifiers]
            out.append(rule("IM.SW.MORTAR.RESOLVE").judge(
                seq, -1 in mods, "the mortar's -1 is on the SACRT roll",
                f"mortar fire against {final} ({view.terrain(final)}) gets -1 on the SACRT; the roll's modifiers "
                f"are {mods}", Verdict.MISMATCH, expected=-1, recorded=mods, related=[roll["seq"]]))
        return out

    # -- moving ------------------------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        unit = self.ctx.board.units.get(d.unit)
        if not is_mortar(unit) or line["turn"] == 0 or len(d.path) < 2:
            return []
        kind = mortar_type(unit)
        return [rule("IM.SW.MORTAR.TYPES").judge(
            line["seq"], kind not in ("medium", "heavy"), f"a {kind or 'light'} mortar moves",
            f"a {kind} mortar, once placed, may no longer move", recorded=d.path)]


def _around(loc: str, view) -> list[str]:
    from domain.board.hexes import neighbours
    return neighbours(loc, view.placement)


COVERAGE = {
    "IM.SW.MORTAR.TYPES": ("implemented", "tests/unit/test_im_mortars.py::test_medium_and_heavy_mortars_stay_put_and_only_they_fire_smoke; "
                           "tests/unit/test_im_mortars.py::test_one_hex_per_fire_phase_and_the_rate_of_fire; "
                           "tests/unit/test_im_mortars.py::test_the_texts_ranges_where_the_counter_gives_none",
                           "type, rate of fire and range from the counter (`attrs.type`, `attrs.rate_of_fire`, `range`), "
                           "the text's ranges where none is given"),
    "IM.SW.MORTAR.ROF_OPT": ("implemented", "tests/unit/test_im_mortars.py::test_the_optional_rate_of_fire_is_twice_a_d6"),
    "IM.SW.MORTAR.DIRECT": ("ambiguous", "tests/unit/test_im_mortars.py::test_no_mortar_fire_in_the_barrage_phase_medium_ambiguous; "
                            "tests/unit/test_im_mortars.py::test_forward_observers_may_not_observe_for_mortars",
                            "the spot (IM.SPOT.NEEDED), no FO observation, the small arms phases; medium and heavy mortars "
                            "in the barrage phase follow IM.SW.MORTAR.BARRAGE_PHASE (AP-10)"),
    "IM.SW.MORTAR.ONEHEX": ("implemented", "tests/unit/test_im_mortars.py::test_one_hex_per_fire_phase_and_the_rate_of_fire"),
    "IM.SW.MORTAR.ORDER": ("implemented", "tests/unit/test_im_mortars.py::test_a_mortar_is_never_combined_and_fires_first"),
    "IM.SW.MORTAR.SCATTER": ("needs a chart", "tests/unit/test_im_mortars.py::test_ec32_three_shots_each_with_its_scatter_and_minus_one; "
                             "tests/unit/test_im_mortars.py::test_a_shot_that_does_not_scatter_falls_on_its_target",
                             "the d6 per shot and whether the shot fell on its hex or an adjacent one; the direction is "
                             "the scatter diagram's"),
    "IM.SW.MORTAR.RESOLVE": ("needs a chart", "tests/unit/test_im_mortars.py::test_minus_one_against_clear_and_woods_not_towns",
                             "one SACRT roll per shot with its -1 against clear, woods, trenches, stone walls and ditches; "
                             "the cell is the SACRT's"),
    "IM.SW.MORTAR.TRENCH": ("implemented", "tests/unit/test_im_obstacles.py::test_communication_trench_units_are_invulnerable_except_to_trench_mortars; "
                            "tests/unit/test_im_obstacles.py::test_prepared_trench_fire_from_the_rear_has_no_effect_but_a_mortar_does",
                            "judged with the trenches (obstacles.py): their invulnerability spares trench mortars, as "
                            "is_mortar names them here"),
    "IM.SW.MORTAR.SMOKE": ("implemented", "tests/unit/test_im_mortars.py::test_medium_and_heavy_mortars_stay_put_and_only_they_fire_smoke"),
}
