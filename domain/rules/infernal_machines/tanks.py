"""Additional tank rules (IM.TANK): breakdowns, tanks as cover, blast power and anti-tank fire at tanks.

- Tank Breakdowns (changed): "When a tank breaks down, roll a second six-sided die. If the result is
  even, the tank in question breaks down for the next turn only and, after that turn, is considered
  automatically repaired. Odd results always follow rule 6.16 of Landships!" A breakdown is the
  tank's `UnitStatusChanged` broken-down (after its Landships! breakdown roll, `LS.BREAKDOWN`); the
  second die is a `DieRolled` with purpose `IM.TANK.BREAKDOWN` about the tank. Even: the tank may
  not move until its next turn is over and needs no repair; odd: Landships! 6.16 (not in the text).
- New Tanks: "All new vehicles have a breakdown modifier of +0 unless specifically stated otherwise":
  the breakdown roll of a catalogue vehicle (vehicles.json) carries its modifier.
- Tanks as Cover (changed): infantry or cavalry in a tank's hexagon get +1 on the SACRT (a term of
  the direct-fire checks, docs/rules/im-direct-fire.md).
- Main Gun Blast Power (changed): a vehicle's small arms fire is its blast power plus its machine
  guns (a term: the most it may put on a hex); in an anti-tank phase a vehicle gun's shot at a hex
  with light targets brings an automatic SAFA at its blast power, read with the anti-tank d10.
- Anti-Tank Capabilities (changed): only a 20 mm or larger gun fires anti-tank; the designer's note:
  any anti-tank hit destroys a tank (the Elephant's confirmation die and its immunity to anti-tank
  rifles are its own rules; anti-tank rifles have their critical hits, IM.SW.ATR.CRIT).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from domain.rulebook import beside
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.direct_fire import ANTI_TANK_PHASES, SMALL_ARMS_PHASES, Shot, Term, fire_facts
from domain.rules.infernal_machines.vehicles import (
    ARMOURED, INFANTRY_AND_CAVALRY, LIGHT_TARGETS, armament_known, blast_power, bridge_drops, calibre, gun_of,
    PhaseEnd, has_atfa, is_tank, is_vehicle, mg_count, mg_firepower, mg_vulnerable, spec_of)

RULEBOOK = beside(__file__)
SECTIONS = RULEBOOK.sections((
    "IM.TANK.NOARMOUR", "IM.TANK.BLAST.VALUE", "IM.TANK.BLAST.SUM", "IM.TANK.BLAST.AUTO_SAFA",
    "IM.TANK.BLAST.SAFPHASE", "IM.TANK.ATFA", "IM.TANK.BREAKDOWN", "IM.TANK.BREAKDOWN.MOD_DEFAULT",
    "IM.TANK.COVER", "IM.VEH.ELEPHANT.ATR_IMMUNE", "IM.VEH.ELEPHANT.CONFIRM", "IM.CORE.DICE", "IM.ENV.TSTATE.DIFFICULT",
))
LS_BREAKDOWN = Rule("LS.BREAKDOWN", "breakdown roll (the Landships! breakdown table and rule 6.16, not in the "
                    "Infernal Machines text)", "Landships! (base game)")
MISSES = ("miss", "no-effect", "-", "none")
ATR_NAMES = ("atr", "anti-tank-rifle", "at-rifle", "tankgewehr", "mauser-t-gewehr")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def weapon_name(shot: Shot, board) -> str:
    """The weapon of an anti-tank shot: the line's `weapon`, else the first firer's `attrs.weapon`."""
    named = getattr(shot.event, "weapon", None)
    if not named:
        firers = [board.units.get(f) for f in shot.firers]
        named = next((u.attrs.get("weapon") for u in firers if u is not None and u.attrs.get("weapon")), "")
    return str(named or "").lower().replace("_", "-").replace(" ", "-")


def is_atr(shot: Shot, board) -> bool:
    return weapon_name(shot, board) in ATR_NAMES


def is_flamethrower(shot: Shot, board) -> bool:
    return "flame" in weapon_name(shot, board) or any(
        (u := board.units.get(f)) is not None and "flame" in str(u.attrs.get("weapon", "")).lower()
        for f in shot.firers)


def is_elephant(unit) -> bool:
    spec = spec_of(unit)
    return spec is not None and spec.model == "elephant"


# -- direct-fire terms ---------------------------------------------------------------------------------
def cover_terms(shot: Shot, ctx) -> list[Term]:
    """Tanks as Cover (changed): "If infantry or cavalry units are in the same hexagon as the tank, they
    now receive a +1 die modifier on the SACRT due to the presence of the tank protecting them"."""
    if shot.kind != "small-arms":
        return []
    units = ctx.board.units_at(shot.target)
    firing_side = shot.side or next((u.side for f in shot.firers if (u := ctx.board.units.get(f))), None)
    covered = [u for u in units if u.unit_class in INFANTRY_AND_CAVALRY and u.side != firing_side]
    tanks = [u for u in units if is_tank(u) and u.side != firing_side and any(c.side == u.side for c in covered)]
    if not tanks:
        return []
    return [Term("IM.TANK.COVER", 1, f"the tank {tanks[0].unit} in {shot.target} covers the infantry and cavalry there")]


def blast_terms(shot: Shot, ctx) -> list[Term]:
    """Main Gun Blast Power: a vehicle's small arms fire is its gun's blast power "plus any vehicle machine
    gun" (2 each unless stated otherwise); inside an anti-tank phase, the automatic SAFA is the gun's blast
    power alone. Only for vehicles whose armament the log or the catalogue gives."""
    if shot.kind != "small-arms":
        return []
    out = []
    for firer in shot.firers:
        unit = ctx.board.units.get(firer)
        if unit is None or unit.unit_class not in ARMOURED or not armament_known(unit):
            continue
        if shot.phase in ANTI_TANK_PHASES:
            value, why = blast_power(unit, ctx.tables)
            out.append(Term("IM.TANK.BLAST.VALUE", value, f"{firer}'s blast power ({why})", "firepower-set", firer))
            continue
        total = _most_firepower(unit, ctx)
        if total is not None:
            out.append(Term(total[1], total[0], f"{firer}'s blast power plus its machine guns", "firepower-set", firer))
    return out


def _most_firepower(unit, ctx) -> Optional[tuple[Optional[float], str]]:
    """(the most small arms firepower the vehicle puts on one hex, the rule): blast power + its MGs."""
    mgs, each = mg_count(unit), mg_firepower(unit)
    spec = spec_of(unit)
    if mgs is None:
        return None
    guns = gun_of(unit)
    blast = 0.0
    if guns is not None and not (spec is not None and guns == "12.7mm-hmg"):
        blast, _ = blast_power(unit, ctx.tables)
        if blast is None:
            return None, "IM.TANK.BLAST.VALUE"
    total = blast + mgs * each
    cap = _cap_at_one_target(spec, each)
    return (total if cap is None else min(total, cap)), "IM.TANK.BLAST.SUM"


def _cap_at_one_target(spec, each: float) -> Optional[float]:
    """What the text lets a vehicle put on one target: the A7V(54)'s "up to 6", the 1915 Ehrhardt's two machine
    guns on one target, the Latil's 4 to a side."""
    if spec is None:
        return None
    if spec.get("max_firepower_at_one_target") is not None:
        return float(spec.get("max_firepower_at_one_target"))
    if spec.get("max_mgs_at_one_target") is not None:
        return spec.get("max_mgs_at_one_target") * each
    by_side = spec.get("firepower_by_side")
    return float(max(by_side.values())) if by_side else None


DIRECT_FIRE_TERMS = (cover_terms, blast_terms)


# -- what the module keeps -------------------------------------------------------------------------------
@dataclass
class Breakdown:
    tank: str
    seq: int
    turn: int
    phase: tuple[int, str]
    second: Optional[int] = None        # the second die
    second_seq: Optional[int] = None

    @property
    def even(self) -> bool:
        return self.second is not None and self.second % 2 == 0


@dataclass
class Pending:
    """Something the rest of the phase must show: a tank's destruction, an automatic SAFA."""
    seq: int
    unit: str
    attack: str
    phase: tuple[int, str]
    what: str
    related: list[int] = field(default_factory=list)
    done: bool = False


class TankChecks(PhaseEnd, RuleModule):
    """Breakdowns, the breakdown modifier, blast power and anti-tank fire at and by tanks."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.breakdowns: dict[str, Breakdown] = {}
        self.pending: list[Pending] = []
        self.safa_of: dict[str, str] = {}      # small arms attack -> the anti-tank attack it comes with
        bridge_drops(ctx)                      # a fold: made now, so that it sees every line

    # -- phase ends ------------------------------------------------------------------------------
    def close(self, seq: int) -> list[RuleApplication]:
        out = []
        for b in self.breakdowns.values():
            if b.second is None and b.phase is not None:
                out.append(rule("IM.TANK.BREAKDOWN").missing_roll(
                    b.seq, f"{b.tank} broke down: \"roll a second six-sided die\" (DieRolled IM.TANK.BREAKDOWN about "
                    "the tank) is not in the log", related=[b.seq]))
                b.phase = None
        for p in self.pending:
            if not p.done and p.what != "survives":
                out.append(self._unmet(p))
        self.pending = []
        return out

    def _unmet(self, p: Pending) -> RuleApplication:
        if p.what == "destroyed":
            return rule("IM.TANK.NOARMOUR").violation(
                p.seq, f"anti-tank attack {p.attack} hits the tank {p.unit}: \"any 'hit' on a tank caused by an "
                "anti-tank weapon simply destroys it\", and the tank is not eliminated", related=p.related)
        if p.what == "confirm":
            return rule("IM.VEH.ELEPHANT.CONFIRM").missing_roll(
                p.seq, f"the Elephant {p.unit} is hit by {p.attack}: \"a second confirming result of 1 to 5 on a "
                "ten-sided die is required\" (DieRolled IM.VEH.ELEPHANT.CONFIRM)", related=p.related)
        return rule("IM.TANK.BLAST.AUTO_SAFA").violation(
            p.seq, f"{p.unit}'s gun fires at {p.attack.split('@')[-1]} in an anti-tank phase, where light targets "
            "stand: \"an automatic SAFA is also immediately conducted\" with its blast power, and none is recorded",
            related=p.related)

    # -- breakdowns ------------------------------------------------------------------------------
    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        unit = self.ctx.board.units.get(d.unit)
        if d.status == "eliminated":
            for p in self.pending:
                if p.unit == d.unit and p.what == "destroyed":
                    p.done = True
        if not is_tank(unit):
            return []
        if d.status == "broken-down":
            self.breakdowns[d.unit] = Breakdown(d.unit, line["seq"], line["turn"], (line["turn"], line["phase"]))
            return []
        b = self.breakdowns.get(d.unit)
        if d.status == "repaired" and b is not None and b.even and line["turn"] <= b.turn + 1:
            return [rule("IM.TANK.BREAKDOWN").violation(
                line["seq"], f"{d.unit} broke down on an even second die (seq {b.second_seq}): broken down for the "
                f"next turn (turn {b.turn + 1}) only, then automatically repaired; repaired in turn {line['turn']}",
                related=[b.seq, b.second_seq])]
        return []

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        purpose = d.purpose or ""
        if purpose == "IM.TANK.BREAKDOWN":
            return self._second_die(line, d)
        if purpose == "LS.BREAKDOWN":
            return self._difficult(line, d) + self._modifier(line, d)
        if purpose == "IM.VEH.ELEPHANT.CONFIRM":
            return self._confirm(line, d)
        if purpose == "LS.SACRT" and d.subject in self.safa_of and line["phase"] in ANTI_TANK_PHASES:
            return self._same_die(line, d)
        if "REPAIR" in purpose.upper() and not purpose.startswith("IM.SW.ATR"):
            b = self.breakdowns.get(d.subject or "")
            if b is not None and b.even and line["turn"] <= b.turn + 2:
                return [rule("IM.TANK.BREAKDOWN").violation(
                    line["seq"], f"{b.tank}'s breakdown had an even second die: it is \"considered automatically "
                    "repaired\" after the next turn, with no repair roll", related=[b.seq, b.second_seq])]
        return []

    def _second_die(self, line, d) -> list[RuleApplication]:
        b = self.breakdowns.get(d.subject or "")
        out = [rule("IM.CORE.DICE").judge(line["seq"], d.die == "d6", "the second breakdown die is a d6",
                                          f"\"roll a second six-sided die\", not a {d.die}", expected="d6",
                                          recorded=d.die)]
        if b is None or b.second is not None:
            out.append(rule("IM.TANK.BREAKDOWN").violation(
                line["seq"], f"a second breakdown die for {d.subject}, which has no breakdown waiting for it "
                "(a UnitStatusChanged broken-down of the tank comes first)", recorded=d.subject))
            return out
        b.second, b.second_seq = d.result, line["seq"]
        if b.even:
            out.append(rule("IM.TANK.BREAKDOWN").ok(
                line["seq"], f"even ({d.result}): {b.tank} is broken down for turn {b.turn + 1} only, then "
                "automatically repaired", related=[b.seq]))
        else:
            out.append(rule("IM.TANK.BREAKDOWN").unverifiable(
                line["seq"], f"odd ({d.result}): \"Odd results always follow rule 6.16 of Landships!\", which is not "
                "in the text", related=[b.seq]))
        return out

    def _difficult(self, line, d) -> list[RuleApplication]:
        """Terrain States: "difficult terrain increases the chance of a vehicle breaking down" (by how much: the
        Landships! breakdown table)."""
        if self.ctx.board.terrain_state != "difficult":
            return []
        return [rule("IM.ENV.TSTATE.DIFFICULT").unverifiable(
            line["seq"], "difficult terrain raises the chance of a breakdown by the Landships! breakdown table, not in "
            f"the text (the roll's modifiers: {[m.value for m in d.modifiers]})")]

    def _modifier(self, line, d) -> list[RuleApplication]:
        """New Tanks: the breakdown modifier of a catalogue vehicle (+0 unless stated otherwise)."""
        unit = self.ctx.board.units.get(d.subject or "")
        spec = spec_of(unit)
        if unit is None or spec is None:
            return []
        expected, why = expected_breakdown_modifier(unit, spec, self.ctx)
        r = rule("IM.TANK.BREAKDOWN.MOD_DEFAULT")
        values = [m.value for m in d.modifiers]
        named = [m.value for m in d.modifiers if "breakdown" in str(m.why or "").lower()]
        if expected is None:
            return [r.unverifiable(line["seq"], f"{unit.unit} ({spec.name}): {why}", recorded=values)]
        good = (named == [expected]) if named else (expected == 0 or expected in values)
        return [r.judge(line["seq"], good, f"{unit.unit} ({spec.name}) rolls with its breakdown modifier {expected:+d}",
                        f"{unit.unit} ({spec.name}) has a breakdown modifier of {expected:+d} ({why}); the roll's "
                        f"modifiers are {values}", Verdict.MISMATCH, expected=expected, recorded=values)]

    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        b = self.breakdowns.get(d.unit)
        if b is None or len(d.path) < 2 or line["seq"] < b.seq:
            return []
        if b.second is None and line["turn"] == b.turn:
            return [rule("IM.TANK.BREAKDOWN").violation(line["seq"], f"{d.unit} broke down (seq {b.seq}) and moves "
                                                        "on before its second die", related=[b.seq])]
        if b.even and line["turn"] <= b.turn + 1:
            return [rule("IM.TANK.BREAKDOWN").violation(
                line["seq"], f"{d.unit} broke down in turn {b.turn} on an even second die: it is broken down for the "
                f"next turn only (turn {b.turn + 1}); it moves in turn {line['turn']}", related=[b.seq, b.second_seq])]
        if b.even:
            del self.breakdowns[d.unit]     # automatically repaired: nothing more to watch
        return []

    # -- anti-tank fire ------------------------------------------------------------------------------
    def on_AntiTankFired(self, line):
        shot, board = self.facts.open(line), self.ctx.board
        out = []
        for firer in shot.firers:
            unit = board.units.get(firer)
            if not is_vehicle(unit):
                continue
            out.append(self._atfa(line, shot, unit))
            light = [u.unit for u in board.units_at(shot.target)
                     if u.unit_class in LIGHT_TARGETS and u.side != unit.side]
            if light and gun_of(unit) is not None and has_atfa(unit):
                self.pending.append(Pending(line["seq"], firer, f"{shot.attack}@{shot.target}",
                                            (line["turn"], line["phase"]), "safa", [line["seq"]]))
        return out

    def _atfa(self, line, shot: Shot, unit) -> RuleApplication:
        target = self.ctx.board.units.get(shot.event.target_unit or "")
        able = has_atfa(unit)
        r = rule("IM.TANK.ATFA")
        if able is None:
            return r.unverifiable(line["seq"], f"{unit.unit}'s gun is not in the log (attrs.gun) or the catalogue")
        if able:
            return r.ok(line["seq"], f"{unit.unit} carries a {gun_of(unit)} gun (20 mm or larger)")
        if mg_vulnerable(target):
            return r.ok(line["seq"], f"{unit.unit} has no gun of 20 mm or more, but {target.unit} has the \"!\" "
                        "indicator (vulnerable to machine gun fire)")
        size = calibre(gun_of(unit))
        return r.violation(line["seq"], f"{unit.unit} has " + (f"a {size:g} mm gun" if size else "no gun")
                           + ": only vehicles armed with a 20 mm or larger gun possess an anti-tank fire capability",
                           recorded=gun_of(unit))

    def on_SmallArmsFired(self, line):
        d = self.ctx.typed(line)
        if line["phase"] not in ANTI_TANK_PHASES:
            return []
        key = getattr(d, "blast_of", None)
        for p in self.pending:
            if p.what != "safa" or p.done or p.unit not in d.firers:
                continue
            attack, target = p.attack.split("@")
            if (key is None and target == d.target) or key == attack:
                p.done = True
                self.safa_of[d.attack] = attack
                return [rule("IM.TANK.BLAST.AUTO_SAFA").ok(line["seq"], f"the automatic SAFA of {attack} at {target}",
                                                           related=[p.seq])]
        return []

    def _same_die(self, line, d) -> list[RuleApplication]:
        """"Using the same ten-sided die result": the SAFA's SACRT is read with the anti-tank roll."""
        at = self.facts.shot(self.safa_of[d.subject])
        rolls = [r for r in (at.rolls if at else []) if r["data"].get("purpose") == "LS.ATCRT"]
        if not rolls:
            return []
        natural = self.ctx.typed(rolls[0]).result
        return [rule("IM.TANK.BLAST.AUTO_SAFA").judge(
            line["seq"], d.result == natural, f"the SAFA reads the anti-tank d10 ({natural})",
            f"the automatic SAFA uses \"the same ten-sided die result\" as the anti-tank roll ({natural}, seq "
            f"{rolls[0]['seq']}); a fresh roll of {d.result} is recorded", expected=natural, recorded=d.result,
            related=[rolls[0]["seq"]])]

    def on_AntiTankResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        if shot is None:
            return []
        out, atr, flame = [], is_atr(shot, board), is_flamethrower(shot, board)
        for result in resolved.results:
            unit = board.units.get(result.unit)
            if not is_tank(unit):
                continue
            hit = result.result not in MISSES
            if is_elephant(unit) and atr:
                out.append(rule("IM.VEH.ELEPHANT.ATR_IMMUNE").judge(
                    line["seq"], result.result in MISSES + ("hit",), "an anti-tank rifle has no effect on the Elephant",
                    f"\"anti-tank rifles had no effect on it\": {result.result} is recorded", recorded=result.result))
            elif is_elephant(unit) and hit and not flame:
                self.pending.append(Pending(line["seq"], unit.unit, shot.attack, (line["turn"], line["phase"]),
                                            "confirm", [shot.seq, line["seq"]]))
            elif hit and not atr and not flame:
                out.extend(self._destroyed(line, shot, unit.unit, result.result))
        return out

    def _destroyed(self, line, shot: Shot, tank: str, result: str) -> list[RuleApplication]:
        if result in ("destroyed", "eliminated"):
            return [rule("IM.TANK.NOARMOUR").ok(line["seq"], f"the hit destroys {tank}")]
        if result == "hit":
            self.pending.append(Pending(line["seq"], tank, shot.attack, (line["turn"], line["phase"]), "destroyed",
                                        [shot.seq, line["seq"]]))
            return []
        return [rule("IM.TANK.NOARMOUR").violation(
            line["seq"], f"{tank} is hit by {shot.attack} and the log records {result}: tanks have no armour value and "
            "any anti-tank hit simply destroys them", expected="destroyed", recorded=result)]

    def _confirm(self, line, d) -> list[RuleApplication]:
        found = next((p for p in self.pending if p.what == "confirm" and not p.done
                      and d.subject in (p.unit, p.attack)), None)
        out = [rule("IM.CORE.DICE").judge(line["seq"], d.die == "d10", "the Elephant's confirmation die is a d10",
                                          f"\"a second confirming result of 1 to 5 on a ten-sided die\", not a {d.die}",
                                          expected="d10", recorded=d.die)]
        if found is None:
            out.append(rule("IM.VEH.ELEPHANT.CONFIRM").violation(
                line["seq"], f"a confirmation die about {d.subject}, which no anti-tank hit on the Elephant asks for"))
            return out
        found.done = True
        if d.result <= 5:
            self.pending.append(Pending(line["seq"], found.unit, found.attack, found.phase, "destroyed",
                                        found.related + [line["seq"]]))
            out.append(rule("IM.VEH.ELEPHANT.CONFIRM").ok(line["seq"], f"{d.result}: the hit is confirmed"))
        else:
            out.append(rule("IM.VEH.ELEPHANT.CONFIRM").ok(line["seq"], f"{d.result}: the anti-tank fire has no effect"))
            out.extend(self._survives(line, found))
        return out

    def _survives(self, line, found: Pending) -> list[RuleApplication]:
        """A 6-10: "the anti-tank fire has no effect": an elimination later in the phase contradicts it."""
        self.pending.append(Pending(line["seq"], found.unit, found.attack, found.phase, "survives", found.related))
        return []

    def after_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        if d.status != "eliminated":
            return []
        for p in self.pending:
            if p.unit == d.unit and p.what == "survives" and not p.done:
                p.done = True
                return [rule("IM.VEH.ELEPHANT.CONFIRM").violation(
                    line["seq"], f"the Elephant's confirmation die (seq {p.seq}) was 6-10: the anti-tank fire has no "
                    "effect, and it is eliminated", related=[p.seq])]
        return []

    # -- small arms ----------------------------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        shot = self.facts.shot(self.ctx.typed(line).attack)
        if shot is None or shot.kind != "small-arms":
            return []
        board = self.ctx.board
        vehicles = [u for f in shot.firers if (u := board.units.get(f)) is not None and u.unit_class in ARMOURED]
        out = []
        if vehicles and shot.phase in SMALL_ARMS_PHASES and any(gun_of(u) for u in vehicles):
            for roll in shot.sacrt_rolls():
                die = self.ctx.typed(roll).die
                out.append(rule("IM.TANK.BLAST.SAFPHASE").judge(
                    roll["seq"], die == "d6", "blast power in a small arms phase: the SACRT with a d6",
                    f"in the small arms fire phase blast power is \"resolved on the SACRT using a six-sided die\", "
                    f"not a {die}", expected="d6", recorded=die))
        if vehicles and all(gun_of(u) is None and armament_known(u) for u in vehicles):
            out.extend(self._mg_only(line, shot))
        return out

    def _mg_only(self, line, shot: Shot) -> list[RuleApplication]:
        """"Vehicles armed only with machine guns cannot destroy other armoured targets unless those targets
        have the '!' indicator"."""
        out = []
        for result in self.ctx.typed(line).results:
            target = self.ctx.board.units.get(result.unit)
            if target is None or target.unit_class not in ARMOURED or result.result != "eliminated":
                continue
            out.append(rule("IM.TANK.ATFA").judge(
                line["seq"], mg_vulnerable(target), f"{target.unit} has the \"!\" indicator",
                f"vehicles armed only with machine guns cannot destroy {target.unit}, which has no \"!\" indicator",
                recorded=result.result, related=[shot.seq]))
        return out


def expected_breakdown_modifier(unit, spec, ctx) -> tuple[Optional[int], str]:
    """The catalogue's breakdown modifier: a number, or a Landships! counter's (attrs.breakdown_modifier)
    plus what the text adds (the Mine Clearer over the female Mk IV; the Bridge Layer over the Mk V
    while it carries its bridge)."""
    value: Any = spec.get("breakdown_modifier", 0)
    carrying = spec.get("while_carrying_bridge")
    if carrying is not None and _carries_bridge(unit, ctx):
        value = carrying["breakdown_modifier"]
    if isinstance(value, int):
        return value, "as the text states" if value else "+0 unless specifically stated otherwise"
    base = unit.attrs.get("breakdown_modifier")
    if not isinstance(base, int):
        return None, (f"its breakdown modifier is {value['plus']:+d} over the {value['over']}'s, which is on the "
                      "Landships! counter (attrs.breakdown_modifier), not in the log")
    return base + value["plus"], f"{value['plus']:+d} over the {value['over']}'s {base:+d}"


def _carries_bridge(unit, ctx) -> bool:
    return not bridge_drops(ctx).dropped(unit.unit)


# rule id -> (status, tests[, what is judged])
T = "tests/unit/test_im_tanks.py::"
COVERAGE: dict[str, tuple[str, ...]] = {
    "IM.TANK.BREAKDOWN": ("needs a chart", f"{T}test_an_even_second_die_holds_the_tank_for_the_next_turn_only; "
                          f"{T}test_an_odd_second_die_is_landships_6_16; {T}test_a_breakdown_needs_its_second_die",
                          "the second d6: even, no move until the next turn is over and no repair roll; odd, "
                          "Landships! 6.16 (unverifiable); the breakdown chance itself is the Landships! table"),
    "IM.TANK.BREAKDOWN.MOD_DEFAULT": ("implemented", f"{T}test_the_breakdown_roll_carries_the_catalogue_modifier; "
                                      f"{T}test_a_vehicle_fires_its_blast_power_plus_two_for_each_machine_gun",
                                      "the catalogue's modifier on the LS.BREAKDOWN roll (a relative one needs the "
                                      "counter's, attrs.breakdown_modifier); MGs of 2 in the firepower"),
    "IM.ENV.TSTATE.DIFFICULT": ("needs a chart", f"{T}test_difficult_terrain_breakdowns_are_the_landships_table",
                                "a breakdown roll in difficult terrain: its higher chance is the Landships! table's"),
    "IM.TANK.COVER": ("implemented", f"{T}test_infantry_with_a_tank_get_plus_one_on_the_sacrt",
                      "+1 on the SACRT roll (a direct-fire term); tanks never block sight (spotting.py)"),
    "IM.TANK.BLAST.VALUE": ("needs a chart", f"{T}test_the_automatic_safa_fires_at_the_guns_blast_power; "
                            f"{T}test_a_gun_whose_blast_power_is_on_the_play_aid_is_unverifiable",
                            "the text's 47 mm = 3 and the Vickers Mk IA's 1 (vehicles.json); any other gun's from the "
                            "table pack's BLAST"),
    "IM.TANK.BLAST.SUM": ("implemented", f"{T}test_a_vehicle_fires_its_blast_power_plus_two_for_each_machine_gun",
                          "a vehicle's small arms firepower: its blast power plus its machine guns, at most"),
    "IM.TANK.BLAST.AUTO_SAFA": ("implemented", f"{T}test_ex_im_03_the_automatic_safa_reuses_the_anti_tank_d10; "
                                f"{T}test_the_automatic_safa_must_follow_the_guns_anti_tank_shot",
                                "a SAFA after a vehicle gun's anti-tank shot at a hex with light targets, in the phase, "
                                "at the blast power, read with the same d10 (the SACRT cell: LS.SACRT)"),
    "IM.TANK.BLAST.SAFPHASE": ("implemented", f"{T}test_ex_im_04_blast_power_in_a_small_arms_phase_is_summed_on_a_d6"),
    "IM.TANK.ATFA": ("implemented", f"{T}test_only_a_gun_of_20_mm_fires_anti_tank; "
                     f"{T}test_machine_gun_vehicles_destroy_only_armour_with_the_mg_indicator",
                     "anti-tank fire by a vehicle needs a gun of 20 mm or more, unless the target has the \"!\"; "
                     "MG-only vehicles' small arms do not eliminate other armour without it"),
    "IM.TANK.NOARMOUR": ("implemented", f"{T}test_an_anti_tank_hit_destroys_a_tank",
                         "a non-rifle, non-flamethrower anti-tank hit on a tank: destroyed, or eliminated in the "
                         "phase (the anti-tank rifle's criticals: IM.SW.ATR.CRIT; the Elephant: its confirmation)"),
    "IM.VEH.ELEPHANT.ATR_IMMUNE": ("implemented", f"{T}test_the_elephant_ignores_anti_tank_rifles_and_confirms_hits"),
    "IM.VEH.ELEPHANT.CONFIRM": ("implemented", f"{T}test_the_elephant_ignores_anti_tank_rifles_and_confirms_hits",
                                "a d10 after a non-flamethrower hit: 1-5 destroyed, 6-10 no effect"),
}
