"""Judging the recorded effects of each barrage against `artillery_effects.barrage_effect`.

A window opens after each `BarrageResolved` and closes at the next step of any barrage, the next
phase or the end of the log; the effects recorded inside it belong to that resolution. Smoke, gas
and counter-battery have no BCRT result: their markers, pins and eliminations are judged directly.

A unit already pinned, by its status or by a "pinned" marker on it (game-log.md offers both), that
suffers another pinned result retreats (the double pin). Smoke and gas markers whose lifetime has
passed (`domain.board.lifetimes`) without a recorded `MarkerRemoved` are reported once at the end:
`unverifiable`, since the log does not hold the removal the text makes; the board view already
treats them as gone.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from domain.board.lifetimes import TEXT
from domain.events import DieRolled
from domain.rules.engine import RuleApplication, RuleModule, Rule, Verdict
from domain.rules.infernal_machines.artillery_effects import (
    BOUNDARIES, CAV_DISMOUNT_PRIMARY, GAS_AREA, GAS_DURATION, GAS_IMMUNE, HURRICANE_RETREAT_IN_ZONE,
    INTERDICTION_BRIDGE, INTERDICTION_MISS_PIN, NEUT_PRIMARY, NEUT_SECONDARY_DURATION, OBSTACLE_REMOVAL, OBSTACLES,
    R_CB, R_GAS, R_GAS_AREA, R_GAS_EFFECTS, R_GAS_DOUBLE, R_GAS_DURATION, R_GAS_FRIENDLY, R_MC_SINGLE, R_SMOKE, R_SMOKE_EFFECT,
    R_STOP, Effect, allowed_statuses, barrage_effect, board_extras, board_view, morale_passed, target_class)
from domain.rules.infernal_machines.artillery_legality import DOUBLE_GAS_FROM, ammo_option_on, is_german, side_facts
from domain.rules.infernal_machines.artillery_resolution import R_SHIFT as R_SHRAP_SHIFT, hit_bonus, is_hit, shrapnel_shift
from domain.rules.infernal_machines import artillery_after_effects  # noqa: F401  (suppressed fire, interdicted units)
from domain.rules.infernal_machines.artillery_gassed import gassed
from domain.rules.infernal_machines.barrage_tracker import Declared, renew_barrage
from domain.rules.infernal_machines.events import ZoneResult


@dataclass
class Window:
    decl: Declared
    resolved: dict[str, Any]                                  # the BarrageResolved line
    expectations: list[tuple[str, Any, Effect, ZoneResult]]   # (location, unit, effect, row)
    events: list[dict[str, Any]] = field(default_factory=list)
    shift_checked: set[int] = field(default_factory=set)     # morale rolls whose shrapnel bonus was judged


@dataclass(frozen=True)
class Recorded:
    """A status the window records for a unit: its UnitStatusChanged, a "pinned" marker placed on it
    (game-log.md offers both), or its move (a retreat)."""

    seq: int
    status: str
    turns: Optional[int] = None


def _mods(roll: DieRolled) -> list[int]:
    return [m.value for m in roll.modifiers]


def _effect_rule(effect: Effect) -> Rule:
    return Rule(effect.rule, "Selection and Effects of Ammunition, effects by mission, ammunition and target")


class ArtilleryEffects(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.declared: dict[str, Declared] = {}
        self.window: Optional[Window] = None
        self.moved_in_barrage: dict[str, set[str]] = {}       # barrage -> units that retreated during it
        self.scatter: dict[str, list[dict[str, Any]]] = {}
        self.extras = board_extras(ctx)                        # marker lifetimes and marker pins

    # -- the window --------------------------------------------------------------------------
    def before(self, line):
        out = []
        if self.window is not None and (line["type"] in BOUNDARIES):
            out.extend(self._close())
        elif self.window is not None:
            self.window.events.append(line)
        out.extend(super().before(line) or ())
        return out

    def steps_for(self, kind: str):
        """A window's boundary, or an event it has a handler for, goes through `before`; any other
        event is only kept in the open window (most lines: no call of the generic dispatch for them)."""
        on, after = self.own_handlers(kind)
        return (self.before if on is not None or kind in BOUNDARIES else self._kept, after)

    def _kept(self, line):
        if self.window is not None:
            self.window.events.append(line)
        return ()

    def finish(self):
        return (self._close() if self.window is not None else []) + self._unremoved()

    def on_BarrageDeclared(self, line):
        declared = self.ctx.typed(line)
        if renew_barrage(declared.barrage, line["turn"], self.declared, self.scatter, self.moved_in_barrage):
            self.declared[declared.barrage] = Declared(declared, line["seq"], line["turn"])
        return []

    def on_ScatterTested(self, line):
        self.scatter.setdefault(self.ctx.typed(line).barrage, []).append(line)
        return []

    def on_BarrageResolved(self, line):
        d = self.ctx.typed(line)
        decl = self.declared.get(d.barrage)
        if decl is None or decl.event.ammunition in ("smoke", "gas"):
            return []
        board, out = self.ctx.board, []
        reading = self.ctx.interpretations.reading(NEUT_PRIMARY.name)
        miss_pin = self.ctx.interpretations.reading(INTERDICTION_MISS_PIN.name) or "light-vehicles"
        expectations = []
        moved = self.moved_in_barrage.setdefault(d.barrage, set())
        view = board_view(self.ctx)
        for row in d.results:
            on_bridge = "bridge" in board.hexes.get(row.location, {}).get("features", [])
            for unit in board.units_at(row.location):
                cls = target_class(unit)
                if cls is None:
                    continue
                if unit.unit in moved:
                    ambiguous = self._retreated_in_zone(line, unit)
                    if ambiguous is not None:
                        out.append(ambiguous)
                        continue
                effect = barrage_effect(decl.event.mission, decl.event.ammunition, cls, row.zone, row.result,
                                        view.pinned(unit), on_bridge, reading or "auto-pin", miss_pin)
                if effect is not None:
                    expectations.append((row.location, unit, effect, row))
        self.window = Window(decl, line, expectations)
        return out

    def _retreated_in_zone(self, line, unit) -> Optional[RuleApplication]:
        reading = self.ctx.interpretations.reading(HURRICANE_RETREAT_IN_ZONE.name)
        label = self.ctx.interpretations.label(HURRICANE_RETREAT_IN_ZONE.name)
        if reading == "attacked-again":
            return None
        if reading is None:
            return R_STOP.ambiguous(line["seq"], f"{unit.unit} retreated to {unit.location}, still inside the impact "
                                    f"zone. {HURRICANE_RETREAT_IN_ZONE.describe()}", interpretation=label)
        return R_STOP.ok(line["seq"], f"{unit.unit}'s later attacks are ignored (reading {reading})",
                         interpretation=label)

    def _close(self) -> list[RuleApplication]:
        w, self.window = self.window, None
        out: list[RuleApplication] = []
        statuses: dict[str, list[Recorded]] = {}
        for e in w.events:
            kind = e["type"]
            if kind not in ("UnitStatusChanged", "MarkerPlaced", "UnitMoved"):
                continue
            event = self.ctx.typed(e)
            if kind == "UnitStatusChanged":
                statuses.setdefault(event.unit, []).append(Recorded(e["seq"], event.status, event.turns))
            elif kind == "MarkerPlaced" and event.marker == "pinned" and event.unit:
                # game-log.md offers a "pinned" marker on the unit as well as a status change
                statuses.setdefault(event.unit, []).append(Recorded(e["seq"], "pinned", event.turns))
            elif kind == "UnitMoved":
                statuses.setdefault(event.unit, []).append(Recorded(e["seq"], "retreated"))
                self.moved_in_barrage.setdefault(w.decl.event.barrage, set()).add(event.unit)
        mc_rolls = self._morale_rolls(w, out)
        for loc, unit, effect, row in w.expectations:
            out.extend(self._judge_unit(w, loc, unit, effect, row, statuses.get(unit.unit, []), mc_rolls))
        out.extend(self._obstacles(w))
        return out

    def _morale_rolls(self, w: Window, out) -> dict[str, dict[str, Any]]:
        """The one morale roll of each hex (by hex, unit or barrage subject), flagging a second one."""
        by_hex: dict[str, list[dict[str, Any]]] = {}
        needing = [loc for loc, _, eff, _ in w.expectations if eff.morale_check]
        units_of = {}
        for loc, unit, _, _ in w.expectations:
            units_of.setdefault(loc, set()).add(unit.unit)
        for e in w.events:
            if e["type"] != "DieRolled" or "MORALE" not in self.ctx.typed(e).purpose.upper():
                continue
            subject = self.ctx.typed(e).subject
            loc = subject if subject in units_of else next((l for l, us in units_of.items() if subject in us), None)
            if loc is None and subject == w.decl.event.barrage:
                loc = next((l for l in needing if l not in by_hex), needing[0] if needing else None)
            if loc is not None:
                by_hex.setdefault(loc, []).append(e)
        out_rolls = {}
        for loc, rolls in by_hex.items():
            lights = {u.unit for l, u, eff, _ in w.expectations if l == loc and target_class(u) == "light"}
            hex_rolls = [r for r in rolls if self.ctx.typed(r).subject not in lights]
            if len(hex_rolls) > 1:
                out.append(R_MC_SINGLE.violation(hex_rolls[1]["seq"], f"{len(hex_rolls)} morale rolls for {loc}: "
                                                 "one morale check is made for the whole hexagon",
                                                 expected=1, recorded=len(hex_rolls),
                                                 related=[r["seq"] for r in hex_rolls]))
            for r in rolls:
                subject = self.ctx.typed(r).subject
                out_rolls.setdefault(subject if subject in lights else loc, r)
        return out_rolls

    def _hurricane_example_check(self, w, unit, effect: Effect, row, related) -> Optional[RuleApplication]:
        """The "Hurricane" barrage's second EXAMPLE has a unit in the primary zone pinned "after it has
        undergone a morale check", which no mission's primary-zone procedure makes (rule-cases.md AP-12):
        a log that records such a check is following the example, and the text does not say which of the
        two is right. The unit's outcome is then reported ambiguous, not judged by either."""
        if effect.morale_check or row.zone != "primary" or w.decl.event.barrage_type != "hurricane":
            return None
        checked = [e for e in w.events if e["type"] == "MoraleChecked" and unit.unit in self.ctx.typed(e).units]
        if not checked:
            return None
        rule = _effect_rule(effect)
        return rule.ambiguous(
            checked[0]["seq"], f"{unit.unit} takes a morale check after a {row.result} in the primary zone of a "
            f"hurricane barrage, as the \"Hurricane\" barrage's EXAMPLE has it (\"pins the unit after it has undergone "
            f"a morale check\"); the {w.decl.event.mission} procedure makes no morale check there, and the text does "
            f"not say which one governs", related=related)

    def _judge_unit(self, w, loc, unit, effect: Effect, row, recorded, mc_rolls) -> list[RuleApplication]:
        rule = _effect_rule(effect)
        seq0 = w.resolved["seq"]
        related = [w.decl.seq, seq0]
        out: list[RuleApplication] = []
        outcome = effect.outcome
        # Gas: "If a subsequent 'hit' of any kind occurs on a gassed unit, the defender's printed
        # morale value is reduced by 1 if it is forced to take a later morale check. Gassed units
        # forced to retreat are eliminated instead."
        example = self._hurricane_example_check(w, unit, effect, row, related)
        if example is not None:
            return [example]
        gas_on_map = any(m["marker"] == "gas" for m in self.ctx.board.markers)   # (spares the scan otherwise)
        gas_pin = gassed(self.ctx, unit.unit) if gas_on_map else None
        morale = (unit.morale or 0) - (1 if gas_pin is not None and is_hit(row.result) else 0)
        if effect.morale_check:
            roll = mc_rolls.get(unit.unit) or mc_rolls.get(loc)
            checked = [e for e in w.events if e["type"] == "MoraleChecked" and unit.unit in self.ctx.typed(e).units]
            xs = {hit_bonus(row.result)}
            if w.decl.event.ammunition == "shrapnel" and effect.rule.endswith((".INF", ".CAV")):
                xs.add(hit_bonus(shrapnel_shift(row.result)))
            if roll is None:
                at = checked[0]["seq"] if checked else (recorded[0].seq if recorded else seq0)
                return [rule.missing_roll(at, f"{row.result} in the {row.zone} zone: {unit.unit} must take a "
                                          "morale check; no morale roll is recorded", related=related)]
            mods, natural = _mods(self.ctx.typed(roll)), self.ctx.typed(roll).result
            out.extend(self._shrapnel_morale_bonus(w, row, roll, mods, len(xs) > 1))
            if len(xs) > 1 and mods and sum(mods) == min(xs):
                mods = [max(xs)]     # judged with the shifted X, the shift itself reported once above
            results = {morale_passed(natural, mods if mods else [x], morale) for x in xs}
            if len(results) == 1:
                passed = results.pop()
            else:
                passed = self.ctx.typed(checked[0]).passed if checked else True
            for c in checked:
                out.append(rule.judge(c["seq"], self.ctx.typed(c).passed == passed,
                                      f"{unit.unit} (morale {unit.morale}) {'passes' if passed else 'fails'}",
                                      f"roll {natural}{'+' + str(sum(mods or [min(xs)]))} against morale "
                                      f"{morale}{' (gassed: printed morale -1)' if morale != (unit.morale or 0) else ''}"
                                      f": {unit.unit} {'passes' if passed else 'fails'}",
                                      verdict=Verdict.MISMATCH, expected=passed, recorded=self.ctx.typed(c).passed,
                                      related=related + [roll["seq"]]))
            outcome = effect.on_pass if passed else effect.on_fail
            related = related + [roll["seq"]]
        if effect.subroll is not None:
            window_rolls = [(e, self.ctx.typed(e)) for e in w.events if e["type"] == "DieRolled"]
            rolls = [e for e, r in window_rolls if r.subject == unit.unit and r.purpose.startswith("IM.ART.EFF")]
            needing = [u for _, u, eff, _ in w.expectations if eff.subroll is not None and eff.rule == effect.rule]
            if not rolls and len(needing) == 1:
                # the one unit needing this second d6: a roll about the barrage (or about nothing) is its
                rolls = [e for e, r in window_rolls if r.purpose.startswith(effect.rule)
                         and r.subject in (w.decl.event.barrage, None)]
            if not rolls:
                at = recorded[0].seq if recorded else seq0
                return [rule.missing_roll(at, f"{row.result}: {unit.unit} needs a second d6 "
                                          f"({'-'.join(map(str, sorted(effect.subroll)))} destroys)", related=related)]
            outcome = "eliminated" if self.ctx.typed(rolls[0]).result in effect.subroll else "none"
            related = related + [rolls[0]["seq"]]
        if outcome == "retreat" and gas_pin is not None:
            outcome, rule = "eliminated", R_GAS_EFFECTS
            related = related + [gas_pin]
        out.extend(self._compare(rule, w, unit, row, outcome, recorded, related))
        if rule.id.endswith(".CAV") and rule.id.startswith("IM.ART.EFF.DEST") and outcome != "eliminated" \
                and (row.zone == "primary" or is_hit(row.result)):
            out.extend(self._dismount(rule, w, unit, row, recorded, related))
        return out

    def _shrapnel_morale_bonus(self, w, row, roll, mods, shifted: bool) -> list[RuleApplication]:
        """Shrapnel: "morale checks use the increased X" (IM, Shrapnel example: H+1 becomes H+2, so
        the check adds 2). A roll that adds the unshifted X forgot the shift; said once per roll."""
        if not shifted or not mods or roll["seq"] in w.shift_checked:
            return []
        w.shift_checked.add(roll["seq"])
        unshifted, wanted = hit_bonus(row.result), hit_bonus(shrapnel_shift(row.result))
        return [R_SHRAP_SHIFT.judge(roll["seq"], sum(mods) != unshifted,
                                    f"morale roll adds {sum(mods)} for shrapnel {row.result}",
                                    f"shrapnel turns {row.result} into {shrapnel_shift(row.result)}: the "
                                    f"morale check adds {wanted}, not {unshifted}", verdict=Verdict.MISMATCH,
                                    expected=wanted, recorded=sum(mods), related=[w.decl.seq, w.resolved["seq"]])]

    def _compare(self, rule, w, unit, row, outcome, recorded, related) -> list[RuleApplication]:
        must, may = allowed_statuses(outcome)
        relevant = [e for e in recorded if e.status in {"pinned", "eliminated", "retreated"}]
        seen = {e.status for e in relevant}
        out = []
        for e in relevant:
            if e.status not in may:
                out.append(rule.mismatch(e.seq, f"{row.result} in the {row.zone} zone gives {unit.unit} "
                                         f"'{outcome}', not '{e.status}'", expected=outcome,
                                         recorded=e.status, related=related))
        missing = must - seen
        if missing and not out:
            out.append(rule.mismatch(w.resolved["seq"], f"{row.result} in the {row.zone} zone gives {unit.unit} "
                                     f"'{outcome}'; no {', '.join(sorted(missing))} is recorded", expected=outcome,
                                     recorded=sorted(seen), related=related))
        out.extend(self._durations(rule, w, unit, outcome, relevant, related))
        if not out:
            out.append(rule.ok(w.resolved["seq"], f"{unit.unit}: {row.result} in the {row.zone} zone -> {outcome}",
                               related=related))
        return out

    def _durations(self, rule, w, unit, outcome, relevant, related):
        pins = [e for e in relevant if e.status == "pinned" and e.turns is not None]
        if outcome in ("pinned-2", "pinned-more"):
            return [rule.mismatch(e.seq, f"{unit.unit} is pinned for two turns, not {e.turns}",
                                  expected=2, recorded=e.turns, related=related)
                    for e in pins if e.turns != 2]
        if outcome == "pinned-neut" and pins:
            reading = self.ctx.interpretations.reading(NEUT_SECONDARY_DURATION.name)
            label = self.ctx.interpretations.label(NEUT_SECONDARY_DURATION.name)
            if reading is None:
                return [rule.ambiguous(pins[0].seq, f"{unit.unit} pinned for {pins[0].turns} turns. "
                                       f"{NEUT_SECONDARY_DURATION.describe()}", related=related, interpretation=label)]
            if reading == "two-turns":
                return [rule.judge(pins[0].seq, pins[0].turns == 2, "pinned for two turns",
                                   "pinned for two turns under this reading", verdict=Verdict.MISMATCH,
                                   expected=2, recorded=pins[0].turns, interpretation=label)]
        return []

    def _dismount(self, rule, w, unit, row, recorded, related):
        dismounted = [e for e in recorded if e.status == "dismounted"]
        rolls = [e for e in w.events if e["type"] == "DieRolled" and self.ctx.typed(e).subject == unit.unit
                 and "MORALE" not in self.ctx.typed(e).purpose.upper()
                 and self.ctx.typed(e).purpose.startswith("IM.ART.EFF")]
        if row.zone == "primary":
            reading = self.ctx.interpretations.reading(CAV_DISMOUNT_PRIMARY.name)
            label = self.ctx.interpretations.label(CAV_DISMOUNT_PRIMARY.name)
            if reading is None:
                return [rule.ambiguous(w.resolved["seq"], f"{unit.unit} survives in the primary zone. "
                                       f"{CAV_DISMOUNT_PRIMARY.describe()}", related=related, interpretation=label)]
            if reading == "secondary-only":
                return [rule.mismatch(e.seq, "no dismount roll in the primary zone", related=related,
                                      interpretation=label) for e in dismounted]
        if not rolls:
            return [rule.missing_roll(dismounted[0].seq if dismounted else w.resolved["seq"],
                                      f"{unit.unit} was not eliminated: roll a d6, on 1 it is dismounted",
                                      related=related)]
        face = self.ctx.typed(rolls[0]).result
        expected = face == 1
        return [rule.judge(rolls[0]["seq"], expected == bool(dismounted),
                           f"dismount roll {face}: {'dismounted' if expected else 'stays mounted'}",
                           f"dismount roll {face}: the unit "
                           f"{'is dismounted' if expected else 'stays mounted'}", verdict=Verdict.MISMATCH,
                           expected=expected, recorded=bool(dismounted), related=related + [rolls[0]["seq"]])]

    def _obstacles(self, w: Window) -> list[RuleApplication]:
        out = []
        decl, res = w.decl, w.resolved
        typed, resolved = self.ctx.typed, self.ctx.typed(res)
        rows = {r.location: r for r in resolved.results}
        bcrt = [l for l in self.ctx.rolls("IM.ART.BCRT", after=decl.seq, before=res["seq"])
                if typed(l).subject == decl.event.barrage]
        natural = typed(bcrt[-1]).result if bcrt else None
        for e in w.events:
            if e["type"] == "DieRolled" and typed(e).purpose.startswith("IM.ART.EFF.INT.HE.OBST"):
                out.extend(self._bridge_roll(e, rows, w))
            if e["type"] != "MarkerRemoved" or typed(e).marker not in OBSTACLES:
                continue
            row = rows.get(typed(e).location)
            if row is None or self._objective_autokill(decl, e):
                continue
            mission, ammunition = decl.event.mission, decl.event.ammunition
            rule = Rule(f"IM.ART.EFF.{'DEST' if mission == 'destruction' else 'NEUT'}."
                        f"{'SHR' if ammunition == 'shrapnel' else 'HE'}.OBST", "Selection and Effects of Ammunition")
            if mission != "destruction" or ammunition != "he" or row.zone != "primary":
                out.append(rule.mismatch(e["seq"], f"a {mission} {ammunition} barrage in the {row.zone} "
                                         f"zone has no effect against obstacles", related=[res["seq"]]))
                continue
            own = [x for x in w.events
                   if x["type"] == "DieRolled" and typed(x).purpose.startswith("IM.ART.EFF.DEST.HE.OBST")]
            one = natural == 1 or any(typed(x).result == 1 for x in own)
            if resolved.firepower >= 31:
                out.append(rule.judge(e["seq"], one, "31+ firepower and a natural 1: one marker removed",
                                      "an obstacle is removed only on a natural 1 (31+ firepower)",
                                      verdict=Verdict.MISMATCH, related=[res["seq"]]))
                continue
            reading = self.ctx.interpretations.reading(OBSTACLE_REMOVAL.name)
            label = self.ctx.interpretations.label(OBSTACLE_REMOVAL.name)
            if "*" in row.result and reading is None:
                out.append(rule.ambiguous(e["seq"], f"firepower {resolved.firepower} with an asterisk result. "
                                          f"{OBSTACLE_REMOVAL.describe()}", related=[res["seq"]], interpretation=label))
            else:
                good = reading == "asterisk" and "*" in row.result
                out.append(rule.judge(e["seq"], good, "asterisk result removes the obstacle",
                                      f"firepower {resolved.firepower} is under 31: the obstacle stays",
                                      verdict=Verdict.MISMATCH, related=[res["seq"]], interpretation=label))
        return out

    def _objective_autokill(self, decl, removed) -> bool:
        """Under the ammunition-consumption option a paid-for wire or strongpoint objective in the
        primary zone "is automatically considered destroyed" (IM.ART.AMMOCON.AUTOKILL judges it),
        whatever the 31+ obstacle rule of a destruction mission says."""
        markers = {"wire": ("wire", "wire-high"), "strongpoint": ("strongpoint",)}.get(decl.event.objective or "", ())
        marker = self.ctx.typed(removed)
        return (ammo_option_on(self.ctx.board.options or [], "IM.ART.AMMOCON") and marker.marker in markers
                and marker.location == decl.event.target)

    def _bridge_roll(self, e, rows, w):
        rule = Rule("IM.ART.EFF.INT.HE.OBST", "Selection and Effects of Ammunition, interdiction against obstacles")
        roll = self.ctx.typed(e)
        row = rows.get(roll.subject) or next(iter(rows.values()), None)
        if row is None or is_hit(row.result):
            return [rule.ok(e["seq"], f"bridge roll {roll.result}: destroyed on 1-3")]
        reading = self.ctx.interpretations.reading(INTERDICTION_BRIDGE.name)
        label = self.ctx.interpretations.label(INTERDICTION_BRIDGE.name)
        if reading is None:
            return [rule.ambiguous(e["seq"], f"bridge roll after a miss. {INTERDICTION_BRIDGE.describe()}",
                                   interpretation=label)]
        return [rule.judge(e["seq"], reading == "always", "the bridge roll needs no hit",
                           "no bridge roll after a miss under this reading", interpretation=label)]

    # -- counter-battery, smoke and gas ------------------------------------------------------------
    def on_ArtilleryElementEliminated(self, line):
        d = self.ctx.typed(line)
        decl = self.declared.get(d.by or "")
        if decl is None or decl.event.mission != "counter-battery":
            return []
        tests = self.scatter.get(decl.event.barrage, [])
        element = self.ctx.board.elements.get(d.element)
        out = [R_CB.judge(line["seq"], bool(tests) and not any(self.ctx.typed(t).scattered for t in tests),
                          "the counter-battery fire did not scatter: one enemy element eliminated",
                          "a counter-battery mission eliminates an element only when its fire does not scatter",
                          verdict=Verdict.MISMATCH, related=[decl.seq] + [t["seq"] for t in tests])]
        if element is not None and element.side == decl.event.side:
            out.append(R_CB.mismatch(line["seq"], f"{d.element} is the firer's own element", related=[decl.seq]))
        return out

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        decl = self.declared.get(d.cause or "")
        if decl is None or decl.event.ammunition not in ("smoke", "gas"):
            return []
        if decl.event.ammunition == "smoke":
            return [R_SMOKE.mismatch(line["seq"], "smoke screens have no other effects on units", related=[decl.seq])]
        unit = self.ctx.board.units.get(d.unit)
        if unit is None:
            return []
        if unit.side == decl.event.side:
            return [R_GAS_FRIENDLY.mismatch(line["seq"], f"{unit.unit} is the firer's own unit: gas has no effect on "
                                            "friendly units", related=[decl.seq])]
        if unit.unit_class in GAS_IMMUNE:
            return [R_GAS.mismatch(line["seq"], f"gas has no effect on a {unit.unit_class}", related=[decl.seq])]
        if d.status == "pinned" and d.turns == 4:
            return self._double_gas(line, decl, unit)
        return [R_GAS_EFFECTS.ok(line["seq"], f"{unit.unit} {d.status} by gas", related=[decl.seq])]

    def _double_gas(self, line, decl, unit):
        bloc, nation = side_facts(self.ctx.board, decl.event.side)
        rolls = [l for l in self.ctx.rolls(R_GAS_DOUBLE.id, after=decl.seq) if self.ctx.typed(l).subject == unit.unit]
        german = is_german(nation) or (nation is None and bloc == "central")
        if not german or (self.ctx.board.date or "") < DOUBLE_GAS_FROM:
            return [R_GAS_DOUBLE.violation(line["seq"], "only German gas from January 1916 pins for 4 turns",
                                           related=[decl.seq])]
        if not rolls:
            return [R_GAS_DOUBLE.missing_roll(line["seq"], f"double gas: roll a d6 for {unit.unit} (4-6: pinned 4 turns)",
                                              related=[decl.seq])]
        natural = self.ctx.typed(rolls[-1]).result
        return [R_GAS_DOUBLE.judge(line["seq"], natural >= 4, f"mask roll {natural}: pinned for 4 turns",
                                   f"mask roll {natural} (1-3): the unit survives the double gas",
                                   verdict=Verdict.MISMATCH, related=[decl.seq, rolls[-1]["seq"]])]

    def on_MarkerPlaced(self, line):
        d = self.ctx.typed(line)
        if d.marker not in ("smoke", "gas") or d.unit or line["phase"] != "barrage":
            return []
        decl = next((b for b in reversed(list(self.declared.values())) if b.event.ammunition == d.marker
                     and b.event.side == line.get("side", b.event.side)), None)
        if decl is None:
            return []
        centres = {self.ctx.typed(t).new_target or decl.event.target for t in self.scatter.get(decl.event.barrage, [])}
        centres.discard(None)
        out = []
        if centres:
            rule = R_SMOKE_EFFECT if d.marker == "smoke" else R_GAS_AREA
            out.append(rule.judge(line["seq"], d.location in centres,
                                  f"{d.marker} marker on the impact centre {d.location}",
                                  f"the {d.marker} marker goes on the central hex of the impact zone "
                                  f"({', '.join(sorted(centres))}), not {d.location}",
                                  verdict=Verdict.MISMATCH, related=[decl.seq]))
        if d.marker == "gas":
            reading = self.ctx.interpretations.reading(GAS_AREA.name)
            if reading is None:
                out.append(R_GAS_AREA.ambiguous(line["seq"], GAS_AREA.describe(), related=[decl.seq],
                                                interpretation=self.ctx.interpretations.label(GAS_AREA.name)))
        return out

    def on_MarkerRemoved(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        placed = next((m for m in board.markers if m["marker"] == d.marker and m.get("location") == d.location), None)
        if d.marker == "smoke" and placed is not None and placed.get("side"):
            good = line["phase"] == "pin-removal" and board.active not in (None, placed["side"])
            return [R_SMOKE_EFFECT.judge(line["seq"], good, "smoke removed in the opposing player's pin-removal phase",
                                         "smoke markers are removed during the opposing player's pin-removal phase",
                                         related=[placed["seq"]], recorded={"phase": line["phase"], "active": board.active})]
        life = self.extras.clock.life(placed["seq"]) if d.marker == "gas" and placed is not None else None
        if life is not None and TEXT not in life.watches:
            return [self._gas_removed(line, life)]
        return []

    def _gas_removed(self, line, life) -> RuleApplication:
        """Gas: "remove the marker at the end of the last phase of the opposing player's turn": a
        removal before the opponent's player turn that a reading names has begun cuts the gas short.
        A later one is bookkeeping: the board view dropped the marker when its lifetime passed."""
        due = {reading: w.started is not None for reading, w in life.watches.items()}
        label = self.ctx.interpretations.label(GAS_DURATION.name)
        related = [life.seq]
        if len(set(due.values())) == 1:
            # both readings agree: no interpretation needed
            return R_GAS_DURATION.judge(line["seq"], due["opponent-turn"], "gas removed once the opposing player's "
                                        "turn has come", f"gas placed in turn {life.turn} stays until the end of "
                                        "the opposing player's turn (the next one, or two turns later): not yet",
                                        related=related)
        reading = self.ctx.interpretations.reading(GAS_DURATION.name)
        if reading is None:
            return R_GAS_DURATION.ambiguous(line["seq"], GAS_DURATION.describe(), related=related, interpretation=label)
        return R_GAS_DURATION.judge(line["seq"], due[reading], f"gas removed at the end of the opponent's turn ({reading})",
                                    f"gas placed in turn {life.turn} stays until {GAS_DURATION.readings[reading]!r}: "
                                    "not yet", related=related, interpretation=label)

    def _unremoved(self) -> list[RuleApplication]:
        """Smoke and gas still on the board whose lifetime has passed: the log lacks their removal."""
        out = []
        for m in self.ctx.board.markers:
            life = self.extras.clock.life(m.get("seq", 0))
            if life is None:
                continue
            text = TEXT in life.watches
            gone = life.gone() if text else life.gone(self._gas_reading(life))
            if gone is None:
                continue
            started = max(w.started for w in life.watches.values() if w.started is not None)
            rule = R_SMOKE_EFFECT if m["marker"] == "smoke" else R_GAS_DURATION
            out.append(rule.unverifiable(
                started, f"the {m['marker']} marker placed in {m.get('location')} at seq {life.seq} is {life.why}, "
                f"and the log records no MarkerRemoved: Umpire treats it as gone from seq {gone}",
                related=[life.seq, gone], inputs={"marker": m["marker"], "location": m.get("location")},
                interpretation=None if text else self.ctx.interpretations.label(GAS_DURATION.name)))
        return out

    def _gas_reading(self, life) -> Optional[str]:
        """The gas-duration reading to judge a lingering marker by; asked only when the readings
        disagree (with none chosen, the marker must be gone by the later end)."""
        ends = {w.gone is not None for w in life.watches.values()}
        return None if len(ends) == 1 else self.ctx.interpretations.reading(GAS_DURATION.name)


COVERAGE = {
    "IM.ART.EFF.CAV_MODS": ("implemented", "tests/unit/test_artillery_resolution.py::test_mounted_cavalry_modifier"),
    "IM.ART.EFF.DEST.HE.INF": ("implemented", "tests/unit/test_artillery_effects.py::test_destruction_secondary_one_morale_check_ex_im_13; tests/unit/test_marker_lifetimes.py::test_a_pinned_marker_counts_towards_the_double_pin; tests/unit/test_artillery_resolution.py::test_a_morale_check_in_a_hurricanes_primary_zone_is_ambiguous_ap12"),
    "IM.ART.EFF.DEST.HE.CAV": ("implemented", "tests/unit/test_artillery_effects.py::test_destruction_cavalry_dismount_ec27"),
    "IM.ART.EFF.DEST.HE.SW": ("implemented", "tests/unit/test_artillery_effects.py::test_destruction_support_weapons_ec27"),
    "IM.ART.EFF.DEST.HE.VEH": ("implemented", "tests/unit/test_artillery_effects.py::test_vehicle_subrolls_ec24"),
    "IM.ART.EFF.DEST.HE.OBST": ("implemented", "tests/unit/test_artillery_effects.py::test_obstacle_removal"),
    "IM.ART.EFF.DEST.SHR.INF": ("implemented", "tests/unit/test_artillery_effects.py::test_shrapnel_morale_uses_shifted_result"),
    "IM.ART.EFF.DEST.SHR.CAV": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.DEST.SHR.SW": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.DEST.SHR.VEH": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.DEST.SHR.OBST": ("implemented", "tests/unit/test_artillery_effects.py::test_obstacle_removal"),
    "IM.ART.EFF.NEUT.HE.INF": ("ambiguous", "tests/unit/test_artillery_effects.py::test_neutralisation_secondary_ex_im_14"),
    "IM.ART.EFF.NEUT.HE.CAV": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.NEUT.HE.SW": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.NEUT.HE.VEH": ("implemented", "tests/unit/test_artillery_effects.py::test_vehicle_subrolls_ec24"),
    "IM.ART.EFF.NEUT.HE.OBST": ("implemented", "tests/unit/test_artillery_effects.py::test_obstacle_removal"),
    "IM.ART.EFF.SUPP.HE.INF": ("implemented", "tests/unit/test_artillery_after_effects.py::test_half_firepower_next_turn; "
                               "tests/unit/test_artillery_effects.py::test_suppression_miss_half_firepower_ec26"),
    "IM.ART.EFF.SUPP.HE.CAV": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.SUPP.HE.SW": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.SUPP.HE.VEH": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.SUPP.HE.OBST": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.INT.HE.INF": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.INT.HE.CAV": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.INT.HE.SW": ("implemented", "tests/unit/test_artillery_effects.py::test_effect_matrix_pure"),
    "IM.ART.EFF.INT.HE.VEH": ("implemented", "tests/unit/test_artillery_effects.py::test_vehicle_subrolls_ec24"),
    "IM.ART.EFF.INT.HE.OBST": ("ambiguous", "tests/unit/test_artillery_effects.py::test_bridge_roll_after_miss_ambiguous_ap14"),
    "IM.ART.EFF.SMOKE": ("implemented", "tests/unit/test_artillery_effects.py::test_smoke_has_no_effect_on_units"),
    "IM.ART.AMMO.SMOKE.EFFECT": ("implemented", "tests/unit/test_artillery_effects.py::test_smoke_removed_in_opponent_pin_removal; tests/unit/test_marker_lifetimes.py::test_smoke_blocks_observation_until_the_opponents_pin_removal_phase; tests/unit/test_marker_lifetimes.py::test_an_unremoved_smoke_marker_is_reported_once_as_unverifiable"),
    "IM.ART.EFF.GAS": ("implemented", "tests/unit/test_artillery_effects.py::test_gas_friendly_and_immune"),
    "IM.ART.AMMO.GAS.EFFECTS": ("ambiguous", "tests/unit/test_artillery_effects.py::test_gas_friendly_and_immune"),
    "IM.ART.SCATTER.GAS_FRIENDLY": ("implemented", "tests/unit/test_artillery_effects.py::test_gas_friendly_and_immune"),
    "IM.ART.MISSION.GAS.AREA": ("ambiguous", "tests/unit/test_artillery_effects.py::test_gas_area_and_duration_ambiguous_ap03"),
    "IM.ART.MISSION.GAS.DURATION": ("ambiguous", "tests/unit/test_artillery_effects.py::test_gas_area_and_duration_ambiguous_ap03; tests/unit/test_marker_lifetimes.py::test_gas_lifetime_under_each_reading; tests/unit/test_marker_lifetimes.py::test_an_unremoved_gas_marker_is_reported_when_every_reading_has_it_gone"),
    "IM.ART.EFF.CB": ("implemented", "tests/unit/test_artillery_effects.py::test_counter_battery_elimination"),
    "IM.ART.EFF.MC_SINGLE": ("implemented", "tests/unit/test_artillery_effects.py::test_destruction_secondary_one_morale_check_ex_im_13"),
    "IM.ART.EFF.PERSIST": ("implemented", "tests/unit/test_artillery_effects.py::test_active_impact_zones_until_next_barrage_phase"),
}
