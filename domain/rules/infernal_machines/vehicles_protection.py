"""What small arms and anti-tank fire do to the new vehicles and their crews.

- Italian CV 29: "The CV 29 cannot be damaged by small arms fire"; 47 mm Armoured Car: "Immune to small
  arms fire"; French SPG: "While it is in the tractor, the crew is invulnerable to small arms fire".
- Carden-Lloyd Mk. VI and American Mack: "The ... crew are also vulnerable to small arms fire, but add +2
  to the to-hit die roll ... If a 'Hit' is recorded on the SACRT, the ... crew must take a morale check.
  The C-L and its crew are eliminated if the crew fails its morale check, but ignore 'pinned' results if
  the crew passes." (the check's die: `LS.MORALE` about the vehicle or the attack).
- Benz: "small arms fire is ineffective against them" and "small arms fire by machine guns affects it in
  the same way as a normal armoured car" (⚠ AP-20: rifle fire, the named reading IM.VEH.BENZ.RIFLES).
- French SPG: "The gun cannot fire if the crew is pinned or eliminated ... the crew must dismount from the
  tractor and be stacked on the gun counter ... This vehicle has no other weapons." (the gun: an
  artillery gun whose `attrs.vehicle` names the SPG; its crew: a crew whose `attrs.vehicle` does.)
- New Armoured Cars: "remain vulnerable to damage to their wheels from non-small-arms fire, as under the
  standard Landships! rules" (not in the text: an anti-tank hit on one is `unverifiable`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.direct_fire import Shot, Term, fire_facts
from domain.rules.infernal_machines.tanks import MISSES, RULEBOOK
from domain.rules.infernal_machines.vehicles import PhaseEnd, spec_of
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.VEH.CV29", "IM.VEH.AC47", "IM.VEH.CLMK6.CREW", "IM.VEH.MACK", "IM.VEH.BENZ", "IM.VEH.FRSPG.CREW",
    "IM.VEH.FRSPG.GUN", "IM.VEH.AC.WHEELS", "IM.VEH.CLMK6.MG_VULN",
))
IMMUNE = {"cv-29": ("IM.VEH.CV29", "cannot be damaged by small arms fire"),
          "ac-47mm": ("IM.VEH.AC47", "is immune to small arms fire")}
CREW_EXPOSED = {"carden-loyd-mk-vi": "IM.VEH.CLMK6.CREW", "mack": "IM.VEH.MACK"}
MG_CLASSES = ("mg-platoon", "tank", "armoured-car", "light-vehicle", "armoured-train", "boat", "infantry-squad")
BENZ_RIFLES = declare(Interpretation(
    "IM.VEH.BENZ.RIFLES", ("IM.VEH.BENZ",),
    "Benz APC: \"small arms fire is ineffective against them\" yet \"small arms fire by machine guns affects it in the "
    "same way as a normal armoured car\" (AP-20): what does rifle fire (no machine gun) do to it?",
    {"ineffective": "rifle fire has no effect; machine gun fire affects it as an armoured car",
     "as-armoured-car": "all small arms fire affects it as an armoured car (the Landships! rules)"},
    default=None))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def model(unit) -> Optional[str]:
    spec = spec_of(unit)
    return spec.model if spec else None


def machine_gun(unit) -> bool:
    if unit is None:
        return False
    weapon = str(unit.attrs.get("weapon", "")).lower()
    return unit.unit_class in MG_CLASSES or "mg" in weapon or "machine" in weapon


def crew_terms(shot: Shot, ctx) -> list[Term]:
    """The C-L's and the Mack's crews: "add +2 to the to-hit die roll" (when the vehicle is what the hex holds
    of its side: a roll for other units there is another unit's)."""
    if shot.kind != "small-arms":
        return []
    here = [u for u in ctx.board.units_at(shot.target) if u.side != shot.side]
    exposed = [u for u in here if model(u) in CREW_EXPOSED]
    if not exposed or len(exposed) != len(here):
        return []
    return [Term(CREW_EXPOSED[model(exposed[0])], 2, f"{exposed[0].unit}'s crew behind its armour and gun shields")]


DIRECT_FIRE_TERMS = (crew_terms,)


@dataclass
class CrewCheck:
    vehicle: str
    rule: str
    seq: int
    attack: str
    natural: Optional[int] = None
    passed: Optional[bool] = None
    eliminated: bool = False
    pinned_seq: Optional[int] = None


class VehicleProtection(PhaseEnd, RuleModule):
    """Immunities, exposed crews, the Benz's passengers and rifles, the French SPG's gun and crew, wheels."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.checks: dict[str, CrewCheck] = {}

    def on_SmallArmsResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        out = []
        for result in resolved.results:
            unit = board.units.get(result.unit)
            if unit is None or result.result in MISSES:
                continue
            kind = model(unit)
            if kind in IMMUNE:
                rule_id, words = IMMUNE[kind]
                out.append(rule(rule_id).violation(line["seq"], f"{unit.unit} {words}: {result.result} is recorded",
                                                   expected="no-effect", recorded=result.result))
            elif kind in CREW_EXPOSED and result.result in ("hit", "pinned"):
                self.checks[unit.unit] = CrewCheck(unit.unit, CREW_EXPOSED[kind], line["seq"], resolved.attack)
            elif kind == "benz-apc" and shot is not None:
                out += self._benz(line, shot, result)
            carrier = model(board.units.get(str(unit.attrs.get("aboard", ""))))
            if carrier == "french-spg" and unit.unit_class == "crew":
                out.append(rule("IM.VEH.FRSPG.CREW").violation(
                    line["seq"], f"{unit.unit} is in the tractor, where the crew is invulnerable to small arms fire",
                    expected="no-effect", recorded=result.result))
        return out

    def _benz(self, line, shot: Shot, result) -> list[RuleApplication]:
        if any(machine_gun(self.ctx.board.units.get(f)) for f in shot.firers):
            return []
        reading = self.ctx.interpretations.reading(BENZ_RIFLES.name)
        label = self.ctx.interpretations.label(BENZ_RIFLES.name)
        r = rule("IM.VEH.BENZ")
        if reading is None:
            return [r.ambiguous(line["seq"], f"rifle fire at the Benz {result.unit} ({result.result}). "
                                f"{BENZ_RIFLES.describe()}", interpretation=label)]
        return [r.judge(line["seq"], reading != "ineffective", f"rifle fire at the Benz ({reading})",
                        f"small arms fire other than machine guns' is ineffective against the Benz ({reading}): "
                        f"{result.result} is recorded", interpretation=label, recorded=result.result)]

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        if d.purpose in ("LS.MORALE", "IM.VEH.CLMK6.CREW", "IM.VEH.MACK"):
            for c in self.checks.values():
                if c.natural is None and d.subject in (c.vehicle, c.attack):
                    c.natural = d.result + sum(m.value for m in d.modifiers)
        return []

    def on_MoraleChecked(self, line):
        for name in self.ctx.typed(line).units:
            if name in self.checks:
                self.checks[name].passed = self.ctx.typed(line).passed
        return []

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        c = self.checks.get(d.unit)
        if c is not None:
            c.eliminated |= d.status == "eliminated"
            if d.status == "pinned":
                c.pinned_seq = line["seq"]
        return []

    def close(self, seq: int) -> list[RuleApplication]:
        if not self.checks:
            return []
        out = [app for c in self.checks.values() for app in self._crew(c)]
        self.checks = {}
        return out

    def _crew(self, c: CrewCheck) -> list[RuleApplication]:
        r, unit = rule(c.rule), self.ctx.board.units.get(c.vehicle)
        if c.natural is None and c.passed is None:
            return [r.missing_roll(c.seq, f"a hit on {c.vehicle}'s exposed crew: the crew must take a morale check")]
        passed = c.passed if c.natural is None or unit is None or unit.morale is None else c.natural <= unit.morale
        if not passed:
            return [r.judge(c.seq, c.eliminated, "the crew fails: vehicle and crew are eliminated",
                            f"{c.vehicle}'s crew fails its morale check: the vehicle and its crew are eliminated")]
        return [r.judge(c.seq, c.pinned_seq is None, "the crew passes and ignores the pinned result",
                        f"{c.vehicle}'s crew passes: it ignores \"pinned\" results, yet it is pinned",
                        related=[c.pinned_seq] if c.pinned_seq else [])]

    # -- the French SPG: a gun on its own counter, its crew stacked on it ------------------------------------
    def on_SmallArmsFired(self, line):
        return self._spg_fire(line)

    def on_AntiTankFired(self, line):
        return self._spg_fire(line)

    def _spg_fire(self, line) -> list[RuleApplication]:
        d, board, out = self.ctx.typed(line), self.ctx.board, []
        for firer in d.firers:
            unit = board.units.get(firer)
            if model(unit) == "french-spg":
                out.append(rule("IM.VEH.FRSPG.GUN").violation(
                    line["seq"], f"{firer}, the French SPG's tractor, fires: \"This vehicle has no other weapons\" (the "
                    "gun fires from its own counter)", recorded=firer))
            spg = board.units.get(str(unit.attrs.get("vehicle", ""))) if unit else None
            if unit is None or unit.unit_class != "artillery-gun" or model(spg) != "french-spg":
                continue
            crews = [u for u in board.units.values() if u.unit_class == "crew" and u.attrs.get("vehicle") == spg.unit]
            ready = [c for c in crews if c.location == unit.location and not c.attrs.get("aboard")
                     and "pinned" not in c.status and not c.eliminated]
            out.append(rule("IM.VEH.FRSPG.CREW").judge(
                line["seq"], bool(ready) or not crews, f"{firer} fires with its crew stacked on it",
                f"the French SPG's gun {firer} \"cannot fire if the crew is pinned or eliminated\", and the crew must "
                "dismount and be stacked on the gun counter", recorded=[c.unit for c in crews]))
        return out

    def on_AntiTankResolved(self, line):
        """New Armoured Cars: their wheels' vulnerability to fire other than small arms is Landships!'."""
        out, board = [], self.ctx.board
        for result in self.ctx.typed(line).results:
            unit = board.units.get(result.unit)
            spec = spec_of(unit)
            if unit is not None and unit.unit_class == "armoured-car" and spec is not None and result.result not in MISSES:
                out.append(rule("IM.VEH.AC.WHEELS").unverifiable(
                    line["seq"], f"{unit.unit} ({spec.name}) is hit ({result.result}): the damage to its wheels follows "
                    "the standard Landships! rules, not in the text"))
        return out


T = "tests/unit/test_im_vehicles.py::"
COVERAGE = {
    "IM.VEH.CV29": ("implemented", f"{T}test_the_cv_29_and_the_47_mm_car_ignore_small_arms; "
                    "tests/unit/test_im_tanks.py::test_the_breakdown_roll_carries_the_catalogue_modifier; "
                    f"{T}test_single_forward_machine_guns_bear_ahead_only",
                    "no small arms result on it; breakdown +1; its one MG on a fixed (8.12) mount"),
    "IM.VEH.CLMK6.CREW": ("implemented", f"{T}test_exposed_crews_of_the_c_l_and_the_mack"),
    "IM.VEH.MACK": ("implemented", f"{T}test_exposed_crews_of_the_c_l_and_the_mack",
                    "+2 on the SACRT, the crew's morale check (fail: eliminated, pass: no pin); the Austin arcs are "
                    "the counter's"),
    "IM.VEH.FRSPG.CREW": ("implemented", f"{T}test_the_french_spg_crew_fires_the_gun_from_the_gun"),
    "IM.VEH.FRSPG.GUN": ("implemented", f"{T}test_the_french_spg_crew_fires_the_gun_from_the_gun; "
                         f"{T}test_optional_ranges_apply_when_agreed",
                         "the tractor never fires; the gun's optional range 20"),
    "IM.VEH.AC.WHEELS": ("needs a chart", f"{T}test_wheel_damage_is_landships",
                         "an anti-tank hit on a new armoured car: the wheels are Landships!' rule (unverifiable); its "
                         "MGs of 2 are the firepower terms'"),
    "IM.VEH.CLMK6.MG_VULN": ("needs a chart", "tests/unit/test_im_tanks.py::test_machine_gun_vehicles_destroy_only_armour_with_the_mg_indicator",
                             "the \"!\" indicator lets machine guns destroy it; the lightly armoured results are "
                             "Landships!'"),
    "IM.VEH.AC47": ("implemented", f"{T}test_the_cv_29_and_the_47_mm_car_ignore_small_arms; "
                    f"{T}test_rear_guns_fire_rearward; "
                    "tests/unit/test_im_carrying.py::test_benz_passengers_dismount_to_fight",
                    "immune to small arms, its gun fires rearward (8.12), it moves as a truck (light)"),
    "IM.VEH.BENZ": ("ambiguous", f"{T}test_ap_20_rifle_fire_at_the_benz_is_ambiguous",
                    "rifle fire at it is the named reading IM.VEH.BENZ.RIFLES (AP-20)"),
}
