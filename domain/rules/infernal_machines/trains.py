"""Armoured trains (IM.TRAIN): its locomotive and cars, how it moves, fires and is fired at.

A train is a unit of class `armoured-train` whose `attrs.protection` is the scenario's +1 to +3 and
`attrs.cars` its cars behind the locomotive; what is aboard is `Embarked` (or deployed `aboard` it) with its
`car`: 0 the locomotive, 1, 2, ... the cars. An anti-tank hit names the car it struck (`car` beside the
result), after the car's d6 (`IM.TRAIN.AT_AGAINST`, about the attack); a cut rail is a `rail-cut` marker.

- Movement: "Any armoured train that reverses from one turn to the next may only move half of its printed
  movement allowance that turn. An armoured train that loses its locomotive may not move at all ... never
  suffer breakdowns ... may not move if the locomotive's crew ... is pinned"; "Armoured trains may not enter a
  hexagon with cut rails".
- Layout: "only a crew counter may be placed on [the locomotive] ... Each other car ... has three boxes ... up to
  one artillery, anti-aircraft or anti-tank gun plus one crew counter, or up to three machine gun platoons, or one
  infantry platoon, or any combination of these" (⚠ "any combination": the named reading IM.TRAIN.LAYOUT.MIX).
- Protection: "+1 to +3 ... The defender may add this protection value as a modifier to the die roll on the
  SACRT, BCRT and ATCRT, but receives no additional benefit from the terrain".
- Combat: aboard, a direct fire range of at least 10 (12 for a printed 10 with the optional rule); "Crews and
  platoons may not fire if pinned"; small arms fire at it: "each crew and machine gun/infantry platoon is subject
  to a separate die roll on the SACRT ... Units forced to retreat outside the armoured train are eliminated
  instead"; anti-tank fire: a d6 for the car (⚠ AP-19: which face is which car), -1 for size and the protection,
  a hit on a car eliminates its support weapons and crews, on the locomotive its crew (the train stops for good).
- "Armoured trains may not initiate close combat"; "may unload their passenger platoons (but not the support
  weapons carried aboard), but may never pick them up (or other units) ... unless the scenario rules
  exceptionally allow it" (the permission `train-pickup`).
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import Shot, Term, fire_facts, printed_range
from domain.rules.infernal_machines.movement_costs import Conditions, evaluate_path, mover_for
from domain.rules.infernal_machines.tanks import MISSES, RULEBOOK
from domain.rules.infernal_machines.vehicles import PhaseEnd, bearing
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.TRAIN.MOVE.REVERSE", "IM.TRAIN.MOVE.LOCO", "IM.TRAIN.LAYOUT", "IM.TRAIN.ARCS", "IM.TRAIN.PROTECTION",
    "IM.TRAIN.RANGE", "IM.TRAIN.NOINDIRECT", "IM.TRAIN.SAF_AGAINST", "IM.TRAIN.AT_AGAINST", "IM.TRAIN.CUT_RAIL",
    "IM.TRAIN.CC", "IM.TRAIN.UNLOAD",
))
PLATOONS = ("infantry-platoon", "mg-platoon")
GUNS = ("artillery-gun", "support-weapon", "mortar")
MIX = declare(Interpretation(
    "IM.TRAIN.LAYOUT.MIX", ("IM.TRAIN.LAYOUT",),
    "Armoured trains: a car's three boxes take \"up to one artillery, anti-aircraft or anti-tank gun plus one crew "
    "counter, or up to three machine gun platoons, or one infantry platoon, or any combination of these\": what may "
    "a mixed car hold?", {"boxes": "three counters at most (a gun and its crew take two boxes, an infantry platoon "
                                   "one), never more than each kind's own limit",
                          "any": "any mix, each kind within its own limit"}, default=None))
AT_CAR = declare(Interpretation(
    "IM.TRAIN.AT_AGAINST.CAR", ("IM.TRAIN.AT_AGAINST",),
    "Armoured trains: \"roll a six-sided die to determine which car is hit\", for a locomotive and one to three (or "
    "more) cars: which face is which car (AP-19)?", {"recorded": "the car the log names is taken as rolled"},
    default=None))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def train_of(board, unit) -> Optional[object]:
    """The train a unit is aboard, or None."""
    carrier = board.units.get(str(unit.attrs.get("aboard", ""))) if unit is not None else None
    return carrier if carrier is not None and carrier.unit_class == "armoured-train" else None


def aboard(board, train: str) -> list:
    return [u for u in board.units.values() if u.attrs.get("aboard") == train and not u.eliminated]


def protection(train) -> Optional[int]:
    value = train.attrs.get("protection")
    return value if isinstance(value, int) else None


def train_terms(shot: Shot, ctx) -> list[Term]:
    """Protection on the SACRT at units aboard (no terrain benefit: it drops the terrain terms), and the range of
    10 (12 with the optional rule for a printed 10) of the weapons and platoons aboard."""
    board, out = ctx.board, []
    if shot.kind == "small-arms":
        train = next((u for u in board.units_at(shot.target) if u.unit_class == "armoured-train"
                      and u.side != shot.side), None)
        if train is not None and aboard(board, train.unit):
            value = protection(train)
            out.append(Term("IM.TRAIN.PROTECTION", value, f"the armoured train {train.unit}'s protection",
                            tag="terrain", exclusive=True))
    optional = "IM.TRAIN.RANGE" in {str(o) for o in board.options}
    for firer in shot.firers:
        unit = board.units.get(firer)
        if train_of(board, unit) is None:
            continue
        printed = printed_range(unit, shot.kind)
        reach = 12 if optional and printed == 10 else max(printed or 0, 10)
        out.append(Term("IM.TRAIN.RANGE", reach, "aboard an armoured train's raised platform", "range", firer))
    return out


DIRECT_FIRE_TERMS = (train_terms,)


class TrainChecks(PhaseEnd, RuleModule):
    """The train's moves, layout, fire, the fire at it and close combat."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.heading: dict[str, tuple[int, float]] = {}       # train -> (turn, bearing of its last step)
        self.spent: dict[tuple[str, int], Optional[float]] = {}
        self.stopped: dict[str, int] = {}                     # train -> seq its locomotive was lost
        self.hits: list[tuple[int, str, int, list[str]]] = []  # (seq, train, car, units to be eliminated)

    # -- set-up and boarding -------------------------------------------------------------------------
    def on_UnitDeployed(self, line):
        d = self.ctx.typed(line)
        if d.class_ == "armoured-train":
            value = d.attrs.get("protection")
            return [rule("IM.TRAIN.PROTECTION").judge(
                line["seq"], isinstance(value, int) and 1 <= value <= 3, f"protection {value:+d}" if isinstance(value, int)
                else "", f"the scenario gives each armoured train a protection value of +1 to +3, not {value!r}",
                recorded=value)] if "protection" in d.attrs else []
        train = self.ctx.board.units.get(str(d.attrs.get("aboard", "")))
        if train is None or train.unit_class != "armoured-train":
            return []
        return self._layout(line, train, [(d.unit, d.class_, d.attrs.get("car"))])

    def on_Embarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        train = board.units.get(d.carrier)
        if train is None or train.unit_class != "armoured-train":
            return []
        out = []
        if line["turn"] > 0 and "train-pickup" not in board.permissions:
            out.append(rule("IM.TRAIN.UNLOAD").violation(
                line["seq"], f"armoured trains \"may never pick them up (or other units) during the scenario unless the "
                "scenario rules exceptionally allow it\" (permission train-pickup)", recorded=d.units))
        units = [(n, board.units[n].unit_class, d.car) for n in d.units if n in board.units]
        return out + self._layout(line, train, units)

    def _layout(self, line, train, boarding) -> list[RuleApplication]:
        board, r = self.ctx.board, rule("IM.TRAIN.LAYOUT")
        cars: dict[int, list[str]] = {}
        for u in aboard(board, train.unit):
            if u.attrs.get("car") is not None:
                cars.setdefault(int(u.attrs["car"]), []).append(u.unit_class)
        out = []
        for name, cls, car in boarding:
            if car is None:
                out.append(r.unverifiable(line["seq"], f"{name} boards {train.unit} without its car (`car`)"))
                continue
            cars.setdefault(int(car), []).append(cls)
        for car, classes in sorted(cars.items()):
            out += self._car(line, train, car, classes)
        return out

    def _car(self, line, train, car: int, classes: list[str]) -> list[RuleApplication]:
        r, kinds = rule("IM.TRAIN.LAYOUT"), Counter(classes)
        if car == 0:
            return [r.judge(line["seq"], set(kinds) <= {"crew"} and kinds["crew"] <= 1,
                            "the locomotive carries its crew counter only",
                            f"\"only a crew counter may be placed on [the locomotive]\": it holds {dict(kinds)}",
                            recorded=dict(kinds))]
        cars = train.attrs.get("cars")
        if isinstance(cars, int) and car > cars:
            return [r.violation(line["seq"], f"{train.unit} has {cars} car(s) behind its locomotive, not a car {car}")]
        guns, mgs, infantry = sum(kinds[c] for c in GUNS), kinds["mg-platoon"], kinds["infantry-platoon"]
        crews = kinds["crew"]
        if guns > 1 or crews > max(1, guns) or mgs > 3 or infantry > 1:
            return [r.violation(line["seq"], f"car {car} of {train.unit} holds {dict(kinds)}: up to one gun and one crew, "
                                "three machine gun platoons, one infantry platoon", recorded=dict(kinds))]
        mixed = sum(1 for n in (guns, mgs, infantry) if n) > 1
        if not mixed:
            return [r.ok(line["seq"], f"car {car} of {train.unit}: {dict(kinds)}")]
        reading = self.ctx.interpretations.reading(MIX.name)
        label = self.ctx.interpretations.label(MIX.name)
        if reading is None:
            return [r.ambiguous(line["seq"], f"car {car} of {train.unit} mixes {dict(kinds)}. {MIX.describe()}",
                                interpretation=label)]
        boxes = guns + crews + mgs + infantry
        return [r.judge(line["seq"], reading == "any" or boxes <= 3, f"car {car}: {boxes} counters ({reading})",
                        f"car {car} of {train.unit}: {boxes} counters in three boxes ({reading})", interpretation=label)]

    def on_Disembarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        train = board.units.get(d.carrier)
        if train is None or train.unit_class != "armoured-train":
            return []
        weapons = [n for n in d.units if n in board.units and board.units[n].unit_class in GUNS + ("crew",)]
        return [rule("IM.TRAIN.UNLOAD").judge(
            line["seq"], not weapons, "passenger platoons unload",
            f"armoured trains \"may unload their passenger platoons (but not the support weapons carried aboard)\": "
            f"{', '.join(weapons)}", recorded=weapons)]

    # -- movement -----------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        train = board.units.get(d.unit)
        if train is None or train.unit_class != "armoured-train" or len(d.path) < 2:
            return []
        view, out = board_view(self.ctx), []
        cut = [loc for loc in d.path[1:] if view.markers(loc)["rail-cut"]]
        if cut:
            out.append(rule("IM.TRAIN.CUT_RAIL").violation(
                line["seq"], f"armoured trains may not enter a hexagon with cut rails: {', '.join(cut)}", recorded=cut))
        out += self._locomotive(line, train)
        out += self._reverse(line, train, d.path, view)
        return out

    def _locomotive(self, line, train) -> list[RuleApplication]:
        board, r = self.ctx.board, rule("IM.TRAIN.MOVE.LOCO")
        if train.unit in self.stopped:
            return [r.violation(line["seq"], f"{train.unit} lost its locomotive (seq {self.stopped[train.unit]}) and \"may "
                                "no longer move\"", related=[self.stopped[train.unit]])]
        crew = [u for u in aboard(board, train.unit) if u.attrs.get("car") == 0 and u.unit_class == "crew"]
        pinned = [c.unit for c in crew if board_view(self.ctx).pinned(c)]
        return [r.judge(line["seq"], not pinned, f"{train.unit}'s locomotive crew is not pinned",
                        f"\"An armoured train may not move if the locomotive's crew ... is pinned\": {', '.join(pinned)}",
                        recorded=pinned)] if crew else []

    def _reverse(self, line, train, path, view) -> list[RuleApplication]:
        first, last = bearing(self.ctx, path[0], path[1]), bearing(self.ctx, path[-2], path[-1])
        before = self.heading.get(train.unit)
        self.heading[train.unit] = (line["turn"], last)
        key = (train.unit, line["turn"])
        board = self.ctx.board
        mover = mover_for(view, train, self.ctx.tables)
        pe = evaluate_path(view, mover, list(path), Conditions(board.weather, board.terrain_state), self.ctx.tables,
                           self.ctx.interpretations)
        spent = self.spent.get(key, 0.0)
        self.spent[key] = None if pe.total is None or spent is None else spent + pe.total
        if before is None or before[0] != line["turn"] - 1 or first is None or before[1] is None:
            return []
        turned = abs((first - before[1] + 180) % 360 - 180)
        if turned < 150:
            return []
        r = rule("IM.TRAIN.MOVE.REVERSE")
        if self.spent[key] is None or mover.allowance is None:
            return [r.unverifiable(line["seq"], f"{train.unit} reverses: half its allowance, whose costs are the table "
                                   "pack's (MOVEMENT)")]
        half = mover.allowance / 2
        return [r.judge(line["seq"], self.spent[key] <= half, f"{train.unit} reverses: {self.spent[key]:g} MP of {half:g}",
                        f"{train.unit} reverses from one turn to the next: it \"may only move half of its printed "
                        f"movement allowance\" ({half:g}); it spends {self.spent[key]:g}", expected=half,
                        recorded=self.spent[key])]

    def on_UnitStatusChanged(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        unit = board.units.get(d.unit)
        if unit is not None and unit.unit_class == "armoured-train" and d.status == "broken-down":
            return [rule("IM.TRAIN.MOVE.LOCO").violation(line["seq"], "armoured trains never suffer breakdowns")]
        if unit is not None and d.status == "retreated" and train_of(board, unit) is not None:
            return [rule("IM.TRAIN.SAF_AGAINST").violation(
                line["seq"], f"{d.unit} is forced to retreat out of the armoured train: it is eliminated instead",
                expected="eliminated", recorded="retreated")]
        for seq, train, car, left in self.hits:
            if d.unit in left and d.status == "eliminated":
                left.remove(d.unit)
        return []

    # -- fire by and at the train -------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        d, board, out = self.ctx.typed(line), self.ctx.board, []
        for firer in d.firers:
            unit = board.units.get(firer)
            train = train_of(board, unit)
            if train is None:
                continue
            if board_view(self.ctx).pinned(unit):
                out.append(rule("IM.TRAIN.NOINDIRECT").violation(
                    line["seq"], f"{firer} aboard {train.unit} is pinned: \"Crews and platoons may not fire if pinned\""))
            if "arcs" not in train.attrs:
                out.append(rule("IM.TRAIN.ARCS").unverifiable(
                    line["seq"], f"{firer} fires from car {unit.attrs.get('car')} of {train.unit}: the car's arc is on the "
                    "train's template (attrs.arcs), not in the log"))
        return out

    def on_SmallArmsResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        train = next((u for u in board.units_at(shot.target) if u.unit_class == "armoured-train"), None) if shot else None
        if train is None:
            return []
        targets = [u for u in aboard(board, train.unit) if u.unit_class in PLATOONS + ("crew",)]
        rolls = shot.sacrt_rolls()
        return [rule("IM.TRAIN.SAF_AGAINST").judge(
            line["seq"], len(rolls) >= len(targets), f"{len(rolls)} SACRT rolls for {len(targets)} crews and platoons",
            f"\"each crew and machine gun/infantry platoon is subject to a separate die roll on the SACRT\": "
            f"{len(targets)} aboard {train.unit}, {len(rolls)} roll(s)", Verdict.MISSING_ROLL,
            expected=len(targets), recorded=len(rolls), related=[shot.seq])]

    def on_AntiTankResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        if shot is None:
            return []
        out = []
        for result in resolved.results:
            train = board.units.get(result.unit)
            if train is None or train.unit_class != "armoured-train":
                continue
            out += self._to_hit(line, shot, train)
            if result.result not in MISSES:
                out += self._car_hit(line, shot, train, (result.model_extra or {}).get("car"))
        return out

    def _to_hit(self, line, shot: Shot, train) -> list[RuleApplication]:
        rolls = [x for x in shot.rolls if x["data"].get("purpose") == "LS.ATCRT"]
        out = []
        cars = [x for x in shot.rolls if x["data"].get("purpose") == "IM.TRAIN.AT_AGAINST"]
        if not cars:
            out.append(rule("IM.TRAIN.AT_AGAINST").missing_roll(
                line["seq"], "\"roll a six-sided die to determine which car is hit\" (IM.TRAIN.AT_AGAINST)",
                related=[shot.seq]))
        if rolls:
            mods = [m.value for m in self.ctx.typed(rolls[0]).modifiers]
            value = protection(train)
            for want, why in ((-1, "-1 for the size of the cars"), (value, f"the protection {value}")):
                if want is None:
                    continue
                out.append(rule("IM.TRAIN.AT_AGAINST" if want == -1 else "IM.TRAIN.PROTECTION").judge(
                    rolls[0]["seq"], want in mods, f"the to-hit roll carries {why}",
                    f"anti-tank fire at an armoured train: {why} on the roll; its modifiers are {mods}", Verdict.MISMATCH,
                    expected=want, recorded=mods))
        return out

    def _car_hit(self, line, shot: Shot, train, car) -> list[RuleApplication]:
        r = rule("IM.TRAIN.AT_AGAINST")
        if not isinstance(car, int):
            return [r.unverifiable(line["seq"], f"the hit on {train.unit} names no car (`car` beside the result)")]
        reading = self.ctx.interpretations.reading(AT_CAR.name)
        out = [] if reading else [r.ambiguous(line["seq"], f"car {car} is hit. {AT_CAR.describe()}",
                                              interpretation=self.ctx.interpretations.label(AT_CAR.name))]
        units = [u for u in aboard(self.ctx.board, train.unit) if u.attrs.get("car") == car]
        doomed = [u.unit for u in units if u.unit_class in GUNS + ("crew",)]
        if car == 0:
            self.stopped[train.unit] = line["seq"]
        self.hits.append((line["seq"], train.unit, car, doomed))
        return out

    def close(self, seq: int) -> list[RuleApplication]:
        if not self.hits:
            return []
        out = [rule("IM.TRAIN.AT_AGAINST").judge(
            at, not left, f"car {car} of {train}: its support weapons and crews are eliminated",
            f"\"If a 'hit' result is recorded, all support weapons and crews in that car are eliminated\": "
            f"{', '.join(left)} remain", recorded=left) for at, train, car, left in self.hits]
        self.hits = []
        return out

    def on_BarrageResolved(self, line):
        """"The defender may add this protection value as a modifier to the die roll on the ... BCRT"."""
        d, board, out = self.ctx.typed(line), self.ctx.board, []
        rolls = self.ctx.rolls_for(d.barrage, "IM.ART.BCRT", before=line["seq"])
        if not rolls:
            return out
        mods = [m.value for m in self.ctx.typed(rolls[-1]).modifiers]
        for row in d.results:
            for train in [u for u in board.units_at(row.location) if u.unit_class == "armoured-train"]:
                value = protection(train)
                if value is None:
                    continue
                out.append(rule("IM.TRAIN.PROTECTION").judge(
                    rolls[-1]["seq"], value in mods, f"the BCRT roll carries {train.unit}'s protection {value:+d}",
                    f"the barrage on {row.location} falls on the armoured train {train.unit}: its protection {value:+d} "
                    f"on the BCRT roll; the roll's modifiers are {mods}", Verdict.MISMATCH, expected=value,
                    recorded=mods))
        return out

    # -- close combat -------------------------------------------------------------------------------
    def on_CloseCombatFought(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        trains = [a for a in d.attackers if (u := board.units.get(a)) is not None and
                  (u.unit_class == "armoured-train" or train_of(board, u) is not None)]
        return [rule("IM.TRAIN.CC").judge(line["seq"], not trains, "no armoured train attacks",
                                          f"\"Armoured trains may not initiate close combat\": {', '.join(trains)}",
                                          recorded=trains)]


T = "tests/unit/test_im_trains.py::"
COVERAGE = {
    "IM.TRAIN.MOVE.REVERSE": ("needs a chart", f"{T}test_ec_56_a_reversing_train_moves_half",
                              "half the allowance after reversing from one turn to the next; the rail costs are the "
                              "table pack's (MOVEMENT train/railway)"),
    "IM.TRAIN.MOVE.LOCO": ("implemented", f"{T}test_ec_56_no_move_with_a_pinned_or_lost_locomotive"),
    "IM.TRAIN.LAYOUT": ("ambiguous", f"{T}test_the_locomotive_takes_a_crew_and_each_car_three_boxes",
                        "the locomotive: one crew; a car: one gun and its crew, three MG platoons, one infantry "
                        "platoon; mixed cars are IM.TRAIN.LAYOUT.MIX"),
    "IM.TRAIN.ARCS": ("needs a chart", f"{T}test_fire_from_the_train",
                      "each car's arc is the train's template (not in the text): unverifiable"),
    "IM.TRAIN.PROTECTION": ("implemented", f"{T}test_protection_on_every_roll_and_no_terrain; "
                            f"{T}test_ec_56_anti_tank_fire_picks_a_car",
                            "+1 to +3 on the SACRT (instead of any terrain term), the BCRT and the ATCRT"),
    "IM.TRAIN.RANGE": ("implemented", f"{T}test_fire_from_the_train"),
    "IM.TRAIN.NOINDIRECT": ("partial", f"{T}test_fire_from_the_train",
                            "pinned crews and platoons aboard never fire; on-map guns never declare barrages "
                            "(IM.ART.GEN); AA fire is not in the log"),
    "IM.TRAIN.SAF_AGAINST": ("implemented", f"{T}test_protection_on_every_roll_and_no_terrain"),
    "IM.TRAIN.AT_AGAINST": ("ambiguous", f"{T}test_ec_56_anti_tank_fire_picks_a_car",
                            "the car's d6, -1 for size, the hit car's guns and crews eliminated, a hit locomotive stops "
                            "the train; which face is which car is IM.TRAIN.AT_AGAINST.CAR (AP-19)"),
    "IM.TRAIN.CUT_RAIL": ("ambiguous", f"{T}test_ec_56_no_entry_over_cut_rails",
                          "no entry into a rail-cut hex; the chance of cutting is barbed wire's, itself inconsistent "
                          "(IM.Z 17)"),
    "IM.TRAIN.CC": ("partial", f"{T}test_ec_56_a_train_never_starts_close_combat",
                    "the train and those aboard never attack; who counts in the defence is the CACRT's (Landships!)"),
    "IM.TRAIN.UNLOAD": ("implemented", f"{T}test_passengers_get_off_but_never_on"),
}
