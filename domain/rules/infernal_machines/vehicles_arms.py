"""The new vehicles' arms: what each may fire where, how much, how far, and how big a target it is.

From each vehicle's section of New Tanks, Self-Propelled Guns, Armoured Personnel Carriers and New
Armoured Cars, through the catalogue's `weapons` (vehicles.json: a gun or machine guns and their arc):
- a vehicle firing alone puts on one target at most the weapons that bear on it: the all-round ones
  always, the forward or rearward "8.12" ones ahead (the front hexside) or behind (the rear hexside),
  never beyond the flank line; an arc drawn on a counter or a diagram the text does not hold (the
  Whippet's, the Austin's, the C-L's 180 degrees) makes a shot above what surely bears `unverifiable`;
- the text's own limits: the A7V(54)'s "firepower of up to 6" (4 in the lower double zone, 2 in a single
  arc: the diagram), the 1915 Ehrhardt's two machine guns on one target, the Latil's 4 to a side and 2
  ahead or behind, the Vickers Mk IA's "at most three directions per fire phase", the Bridge Layer's
  blind front while it carries its bridge;
- size on the anti-tank to-hit roll: the A7V(54) (and "all A7Vs") -1, the Mk IX -1, the C-L Mk VI +2;
- ranges: the Tadpole's main gun 9, and the optional ones (Landships! 16.31: A7V(54) 6, Mk E 8; the
  Pierce Arrow 30 with 16.23, the French SPG's gun 20, the Gun Carrier's 10) when the game agreed them;
- the printed speeds the text gives (the Tadpole 3/5, the C-L 9/18);
- the Vickers Mk E's 12.7 mm at vehicles: +1 on the die.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.direct_fire import FIRE_PHASES, Shot, Term, fire_facts
from domain.rules.infernal_machines.tanks import RULEBOOK
from domain.rules.infernal_machines.vehicles import (
    ARMOURED, bearing, blast_power, bridge_drops, catalogue, facings, gun_blast, in_arc, key, mg_firepower, off_facing,
    spec_of, spec_named)

SECTIONS = RULEBOOK.sections((
    "IM.VEH.TADPOLE.COMPOSITION", "IM.VEH.BRIDGELAYER.CARRY", "IM.VEH.ELEPHANT.ARMS", "IM.VEH.A7V54.MG",
    "IM.VEH.A7V54.SIZE", "IM.VEH.A7V54.RANGE", "IM.VEH.VICKERSIA.ARMS", "IM.VEH.VICKERSIA.BLAST",
    "IM.VEH.VICKERSIA.ICS", "IM.VEH.CLMK6.ARMS", "IM.VEH.CLMK6.SIZE", "IM.VEH.VICKERSE.HMG",
    "IM.VEH.VICKERSE.EXPORT", "IM.VEH.VICKERSE.RANGE", "IM.VEH.CV29", "IM.VEH.GUNCARRIER.OPT_RANGE",
    "IM.VEH.FRSPG.GUN", "IM.VEH.MKVSTAR_IX.ARMS", "IM.VEH.EHRHARDT15", "IM.VEH.EHRHARDT17",
    "IM.VEH.PIERCEARROW", "IM.VEH.AC47", "IM.VEH.LANCIA", "IM.VEH.LATIL", "IM.VEH.NAVALAC",
    "IM.VEH.MACK",
))
ARMS_RULE = {
    "elephant": "IM.VEH.ELEPHANT.ARMS", "vickers-mk-ia": "IM.VEH.VICKERSIA.ARMS",
    "vickers-mk-ia-ics": "IM.VEH.VICKERSIA.ICS", "carden-loyd-mk-vi": "IM.VEH.CLMK6.ARMS",
    "vickers-mk-e": "IM.VEH.VICKERSE.HMG", "vickers-mk-e-export": "IM.VEH.VICKERSE.EXPORT", "cv-29": "IM.VEH.CV29",
    "mk-ix": "IM.VEH.MKVSTAR_IX.ARMS", "ehrhardt-1917": "IM.VEH.EHRHARDT17", "mack": "IM.VEH.MACK",
    "pierce-arrow": "IM.VEH.PIERCEARROW", "ac-47mm": "IM.VEH.AC47", "lancia": "IM.VEH.LANCIA",
    "naval-ac": "IM.VEH.NAVALAC",
}
SIZE = {"a7v-54": ("IM.VEH.A7V54.SIZE", -1), "mk-ix": ("IM.VEH.MKVSTAR_IX.ARMS", -1),
        "carden-loyd-mk-vi": ("IM.VEH.CLMK6.SIZE", 2)}
SPEEDS = {"mk-iv-tadpole": "IM.VEH.TADPOLE.COMPOSITION", "carden-loyd-mk-vi": "IM.VEH.CLMK6.ARMS"}
# optional rules: (the options a game may name, the rule, the range); the text's 16.23 for the 30 hexes of the
# Pierce Arrow is a mis-cite (IM.Z 25): either option name is taken
OPTIONAL_RANGE = {
    "a7v-54": (("16.31", "LS.16.31", "IM.VEH.A7V54.RANGE"), "IM.VEH.A7V54.RANGE", 6),
    "vickers-mk-e": (("16.31", "LS.16.31", "IM.VEH.VICKERSE.RANGE"), "IM.VEH.VICKERSE.RANGE", 8),
    "pierce-arrow": (("16.23", "LS.16.23", "IM.VEH.PIERCEARROW"), "IM.VEH.PIERCEARROW", 30),
    "gun-carrier-mk-i": (("IM.VEH.GUNCARRIER.OPT_RANGE",), "IM.VEH.GUNCARRIER.OPT_RANGE", 10),
}


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def agreed(ctx, names: tuple[str, ...]) -> bool:
    options = {str(o) for o in ctx.board.options}
    return bool(options & set(names))


def is_a7v(unit) -> bool:
    """"As with all A7Vs, this tank has a size modifier of -1": the A7V(54), and the Landships! A7V by its model."""
    spec = spec_of(unit)
    return (spec is not None and spec.model == "a7v-54") or key(unit.attrs.get("model")).startswith("a7v")


# -- direct-fire terms --------------------------------------------------------------------------------
def range_terms(shot: Shot, ctx) -> list[Term]:
    """The Tadpole's main gun "remains 9"; the optional ranges the game agreed (docs above); the French SPG's
    gun (a gun counter whose attrs.vehicle names it) "to 20" with its optional rule."""
    out = []
    for firer in shot.firers:
        unit = ctx.board.units.get(firer)
        spec = spec_of(unit)
        if spec is not None and spec.model == "mk-iv-tadpole" and shot.kind == "anti-tank":
            out.append(Term("IM.VEH.TADPOLE.COMPOSITION", 9, "the Tadpole's main gun range remains 9", "range", firer))
        if spec is not None and spec.model in OPTIONAL_RANGE:
            names, rule_id, hexes = OPTIONAL_RANGE[spec.model]
            if agreed(ctx, names):
                out.append(Term(rule_id, hexes, f"{spec.name}'s optional range", "range", firer))
        if spec is not None and spec.model == "vickers-mk-ia-ics" and getattr(shot.event, "ammunition", None) == "smoke":
            out.append(Term("IM.VEH.VICKERSIA.ICS", 20, "the ICS mortar's smoke reaches 20 hexagons", "range", firer))
        carrier = spec_of(ctx.board.units.get(str(unit.attrs.get("vehicle", "")))) if unit else None
        if carrier is not None and carrier.model == "french-spg" and agreed(ctx, ("IM.VEH.FRSPG.GUN",)):
            out.append(Term("IM.VEH.FRSPG.GUN", 20, "the French SPG's gun on its raised platform", "range", firer))
    return out


def hmg_terms(shot: Shot, ctx) -> list[Term]:
    """Vickers Mk. E: "it may conduct small arms fire against enemy vehicles (add +1 to the die roll)"."""
    if shot.kind != "small-arms":
        return []
    mk_e = [f for f in shot.firers if (s := spec_of(ctx.board.units.get(f))) is not None and s.model == "vickers-mk-e"]
    armour = [u for u in ctx.board.units_at(shot.target) if u.unit_class in ARMOURED and u.side != shot.side]
    if mk_e and armour and len(shot.firers) == 1:
        return [Term("IM.VEH.VICKERSE.HMG", 1, f"the Mk E's heavy machine gun against the vehicle {armour[0].unit}")]
    return []


DIRECT_FIRE_TERMS = (range_terms, hmg_terms)


class VehicleArms(RuleModule):
    """Arcs and the text's firepower limits, directions per phase, size on the to-hit roll, printed speeds."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.phase_shots: dict[tuple[str, int, str], list[tuple[str, float, int, Optional[float]]]] = {}
        facings(ctx), bridge_drops(ctx)        # folds: made now, so that they see every line

    def on_UnitDeployed(self, line):
        d = self.ctx.typed(line)
        spec = spec_of(self.ctx.board.units.get(d.unit)) or _spec_from(d)
        if spec is None or spec.model not in SPEEDS or d.movement is None:
            return []
        speeds = spec.get("speeds")
        return [rule(SPEEDS[spec.model]).judge(
            line["seq"], d.movement in speeds, f"{d.unit} ({spec.name}) moves {d.movement:g}",
            f"{spec.name}: the text gives its speeds as {speeds[0]}/{speeds[1]}, not {d.movement:g}",
            expected=speeds, recorded=d.movement)]

    # -- shots ----------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        shot = self.facts.open(line)
        return self._shot(line, shot)

    def on_AntiTankFired(self, line):
        shot = self.facts.open(line)
        return self._shot(line, shot)

    def _shot(self, line, shot: Shot) -> list[RuleApplication]:
        out = []
        for firer in shot.firers:
            unit = self.ctx.board.units.get(firer)
            spec = spec_of(unit)
            if spec is None:
                continue
            off = off_facing(self.ctx, unit, shot.target)
            out += self._bridge(line, unit, spec, off)
            if len(shot.firers) == 1:
                out += self._arcs(line, shot, unit, spec, off)
            out += self._per_phase(line, shot, unit, spec, off)
        return out

    def _arcs(self, line, shot: Shot, unit, spec, off: Optional[float]) -> list[RuleApplication]:
        weapons = spec.get("weapons")
        if spec.model == "a7v-54" and shot.kind == "small-arms":
            return [self._a7v54(line, shot)]
        if spec.model == "latil" and shot.kind == "small-arms":
            return [self._latil(line, shot, off)]
        if not weapons or spec.model not in ARMS_RULE:
            return []
        r = rule(ARMS_RULE[spec.model])
        purist = agreed(self.ctx, ("IM.VEH.NAVALAC",))
        if shot.kind == "anti-tank":
            guns = [w for w in weapons if "gun" in w]
            if not guns:
                return []
            bears = in_arc(guns[0].get("purist") if purist and guns[0].get("purist") else guns[0]["arc"], off)
            where = "unknown" if off is None else f"{off:.0f} degrees off its facing"
            if bears == "maybe":
                return [r.unverifiable(line["seq"], f"{unit.unit}'s gun at {shot.target} ({where}): its arc is the "
                                       "counter's or Landships! 8.12, not in the text")]
            return [r.judge(line["seq"], bears == "yes", f"{unit.unit}'s gun bears on {shot.target}",
                            f"{unit.unit}'s gun cannot fire at {shot.target} ({where}): {spec.name}'s gun fires "
                            f"{_arc_words(guns[0]['arc'])}", recorded=shot.target)]
        if shot.firepower is None:
            return []
        sure, maybe = self._bearing_firepower(unit, weapons, off, purist)
        fp = shot.firepower
        if fp <= sure:
            return [r.ok(line["seq"], f"{unit.unit} puts {fp:g} on {shot.target}, within the {sure:g} that surely bears")]
        if maybe is None or fp <= sure + maybe:
            return [r.unverifiable(line["seq"], f"{unit.unit} puts {fp:g} on {shot.target}: {sure:g} surely bears, the "
                                   "rest depends on arcs drawn on the counter (or Landships! 8.12)", recorded=fp)]
        return [r.violation(line["seq"], f"{unit.unit} ({spec.name}) puts {fp:g} on {shot.target}, but at most "
                            f"{sure + maybe:g} of its weapons bear there", expected=sure + maybe, recorded=fp)]

    def _bearing_firepower(self, unit, weapons, off, purist) -> tuple[float, Optional[float]]:
        """(firepower that surely bears, more that may bear; None when a weapon's value is not known)."""
        sure, maybe = 0.0, 0.0
        for w in weapons:
            bears = in_arc(w.get("purist") if purist and w.get("purist") else w["arc"], off)
            if bears == "no":
                continue
            if "gun" in w:
                value = blast_power(unit, self.ctx.tables)[0] if "gun" in unit.attrs else gun_blast(w["gun"], self.ctx.tables)
            else:
                value = w["mgs"] * mg_firepower(unit)
            if value is None:
                return sure, None
            if bears == "yes":
                sure += value
            else:
                maybe += value
        return sure, maybe

    def _a7v54(self, line, shot: Shot) -> RuleApplication:
        """"Targets located in the double-hatched zone may be attacked by two machine guns, for a total firepower
        of 4 ... this combined zone ... up to 6" (EX-IM-23; the zones are the diagram's)."""
        r, fp = rule("IM.VEH.A7V54.MG"), shot.firepower
        if fp is None or fp <= 2:
            return r.ok(line["seq"], f"firepower {fp}: one machine gun's")
        if fp <= 6:
            return r.unverifiable(line["seq"], f"firepower {fp:g}: 4 in the lower double zone, 6 in the combined zone, "
                                  "whose diagram is not in the text", recorded=fp)
        return r.violation(line["seq"], f"the A7V(54) may attack a target \"with a firepower of up to 6\", not {fp:g}",
                           expected=6, recorded=fp)

    def _latil(self, line, shot: Shot, off: Optional[float]) -> RuleApplication:
        """"up to 4 to the left or right, but only a firepower of 2 to the front or rear" (EX-IM-25)."""
        r, fp = rule("IM.VEH.LATIL"), shot.firepower
        if fp is None or fp <= 2:
            return r.ok(line["seq"], f"firepower {fp} to any side")
        if off is None or abs(off - 30) < 1e-6 or abs(off - 150) < 1e-6:
            return r.unverifiable(line["seq"], f"firepower {fp:g}: whether {shot.target} lies to a flank or ahead or "
                                  "behind is not known (the facing, or a hex corner line)", recorded=fp)
        side = "front" if off < 30 else "rear" if off > 150 else "flank"
        cap = 4 if side == "flank" else 2
        return r.judge(line["seq"], fp <= cap, f"firepower {fp:g} to the {side} (at most {cap})",
                       f"the Latil projects \"up to 4 to the left or right, but only a firepower of 2 to the front or "
                       f"rear\": {fp:g} to the {side}", expected=cap, recorded=fp)

    def _bridge(self, line, unit, spec, off: Optional[float]) -> list[RuleApplication]:
        """The Bridge Layer "may not fire its weapons toward the front of the tank" while it carries its bridge."""
        if not spec.get("while_carrying_bridge") or bridge_drops(self.ctx).dropped(unit.unit):
            return []
        r, bears = rule("IM.VEH.BRIDGELAYER.CARRY"), in_arc("8.12", off)
        if bears == "maybe":
            return [r.unverifiable(line["seq"], f"{unit.unit} fires {off if off is None else round(off)} degrees off its "
                                   "facing: the blind spot is Landships! 8.12's arc, not in the text")]
        return [r.judge(line["seq"], bears == "no", f"{unit.unit} fires away from its blind front",
                        f"{unit.unit} carries its bridge and may not fire toward the front of the tank", recorded=off)]

    def _per_phase(self, line, shot: Shot, unit, spec, off) -> list[RuleApplication]:
        if spec.model not in ("vickers-mk-ia", "vickers-mk-ia-ics", "ehrhardt-1915") or line["phase"] not in FIRE_PHASES:
            return []
        shots = self.phase_shots.setdefault((unit.unit, line["turn"], line["phase"]), [])
        shots.append((shot.target, float(shot.firepower or 0), line["seq"], off))
        related = [s for _, _, s, _ in shots]
        if spec.model == "ehrhardt-1915":
            here = sum(f for t, f, _, _ in shots if t == shot.target)
            total = sum(f for _, f, _, _ in shots)
            each = mg_firepower(unit)
            return [rule("IM.VEH.EHRHARDT15").judge(
                line["seq"], here <= 2 * each and total <= 3 * each, f"{here:g} on {shot.target}, {total:g} in the phase",
                f"the 1915 Ehrhardt \"allows two machine guns to engage the same target while the third must fire at "
                f"another\": {here:g} on {shot.target}, {total:g} in all", expected=2 * each, recorded=here,
                related=related)]
        directions = {_direction(self.ctx, unit, t) for t, _, _, _ in shots}
        if None in directions:
            return []
        return [rule(ARMS_RULE[spec.model]).judge(
            line["seq"], len(directions) <= 3, f"{len(directions)} direction(s) this fire phase",
            f"\"The Mk. IA may fire in at most three directions per fire phase\": {len(directions)}",
            expected=3, recorded=len(directions), related=related)]

    # -- size on the to-hit roll -----------------------------------------------------------------------
    def on_AntiTankResolved(self, line):
        shot = self.facts.shot(self.ctx.typed(line).attack)
        target = self.ctx.board.units.get(getattr(shot.event, "target_unit", None) or "") if shot else None
        if target is None:
            return []
        spec = spec_of(target)
        size = SIZE.get(spec.model) if spec else (("IM.VEH.A7V54.SIZE", -1) if is_a7v(target) else None)
        rolls = [r for r in shot.rolls if r["data"].get("purpose") == "LS.ATCRT"]
        if size is None or not rolls:
            return []
        rule_id, value = size
        mods = [m.value for m in self.ctx.typed(rolls[0]).modifiers]
        return [rule(rule_id).judge(
            rolls[0]["seq"], value in mods, f"the to-hit roll carries {target.unit}'s size modifier {value:+d}",
            f"{target.unit} has a size modifier of {value:+d} on the anti-tank to-hit roll; the roll's modifiers are "
            f"{mods}", Verdict.MISMATCH, expected=value, recorded=mods)]


def _direction(ctx, unit, target: str) -> Optional[int]:
    """The hex direction (0-5) of the target from the vehicle: its "direction" of fire."""
    angle = bearing(ctx, unit.location, target)
    return None if angle is None else int(round(angle / 60)) % 6


def _spec_from(d) -> Any:
    return spec_named(str(d.attrs.get("model", ""))) if d.attrs.get("model") else None


def _arc_words(arc: str) -> str:
    return catalogue()["arcs"].get(arc, arc)


T = "tests/unit/test_im_vehicles.py::"
COVERAGE = {
    "IM.VEH.TADPOLE.COMPOSITION": ("implemented", f"{T}test_speeds_and_gun_ranges_the_text_gives",
                                   "main gun range 9, speed 3/5; its mortar and crew are units under it "
                                   "(attrs.vehicle, vehicles_tadpole.py)"),
    "IM.VEH.ELEPHANT.ARMS": ("needs a chart", f"{T}test_single_forward_machine_guns_bear_ahead_only",
                             "its gun all round (its 57 mm blast power: the table pack's BLAST), its MG ahead (8.12)"),
    "IM.VEH.ELEPHANT.BREAKDOWN": ("implemented", f"{T}test_the_elephant_breaks_down_at_plus_one"),
    "IM.VEH.A7V54.MG": ("needs a chart", f"{T}test_ex_im_23_the_a7v54_puts_up_to_six_on_one_target",
                        "2 always, more than 6 never, 4 or 6 as the zones of the diagram (not in the text) allow"),
    "IM.VEH.A7V54.SIZE": ("implemented", f"{T}test_size_modifiers_on_the_anti_tank_roll"),
    "IM.VEH.A7V54.RANGE": ("implemented", f"{T}test_optional_ranges_apply_when_agreed"),
    "IM.VEH.VICKERSIA.ARMS": ("needs a chart", f"{T}test_the_vickers_mk_ia_fires_in_three_directions_at_most",
                              "three directions a fire phase; the gun and the forward MG all round; the other MGs' "
                              "Whippet arcs are the counter's"),
    "IM.VEH.VICKERSIA.BLAST": ("implemented", f"{T}test_the_vickers_mk_ia_fires_in_three_directions_at_most"),
    "IM.VEH.VICKERSIA.ICS": ("needs a chart", f"{T}test_the_ics_smoke_and_its_full_blast_power",
                             "smoke to 20 hexagons (`ammunition: smoke` on its shot); \"full blast power\": the table "
                             "pack's BLAST for 94mm-mortar"),
    "IM.VEH.CLMK6.ARMS": ("needs a chart", f"{T}test_speeds_and_gun_ranges_the_text_gives",
                          "speeds 9/18, one MG of 2; its 180 degree arc is a diagram not in the text"),
    "IM.VEH.CLMK6.SIZE": ("implemented", f"{T}test_size_modifiers_on_the_anti_tank_roll"),
    "IM.VEH.VICKERSE.HMG": ("implemented", f"{T}test_the_mk_e_heavy_machine_gun",
                            "firepower 5 all round, +1 on the die at vehicles; the MG bonus is the SACRT's (Landships!)"),
    "IM.VEH.VICKERSE.EXPORT": ("needs a chart", f"{T}test_the_mk_e_heavy_machine_gun",
                               "two MGs of 2 and no anti-tank fire; the Austin arcs are the counter's"),
    "IM.VEH.VICKERSE.RANGE": ("implemented", f"{T}test_optional_ranges_apply_when_agreed"),
    "IM.VEH.GUNCARRIER.OPT_RANGE": ("implemented", f"{T}test_optional_ranges_apply_when_agreed"),
    "IM.VEH.MKVSTAR_IX.ARMS": ("needs a chart", f"{T}test_single_forward_machine_guns_bear_ahead_only; "
                               f"{T}test_size_modifiers_on_the_anti_tank_roll",
                               "the Mk IX: -1 to hit, one forward MG (8.12); the Mk V*'s arms are the male Mk V counter's"),
    "IM.VEH.EHRHARDT15": ("implemented", f"{T}test_the_ehrhardts_machine_guns"),
    "IM.VEH.EHRHARDT17": ("needs a chart", f"{T}test_the_ehrhardts_machine_guns",
                          "six MGs of 2 at most; the Whippet and turret arcs are the counter's"),
    "IM.VEH.PIERCEARROW": ("needs a chart", f"{T}test_rear_guns_fire_rearward; {T}test_optional_ranges_apply_when_agreed",
                           "the gun rearward (8.12), never ahead of the flank line; the MG's Schneider arc mirrored is "
                           "the counter's; range 30 when the option is agreed"),
    "IM.VEH.LANCIA": ("implemented", f"{T}test_rear_guns_fire_rearward",
                      "the turret MG all round, the rear MG behind only (8.12)"),
    "IM.VEH.LATIL": ("implemented", f"{T}test_ex_im_25_the_latil_by_side"),
    "IM.VEH.NAVALAC": ("implemented", f"{T}test_rear_guns_fire_rearward",
                       "the gun all round (the purist option IM.VEH.NAVALAC: ahead or behind), the MG ahead (8.12)"),
}
