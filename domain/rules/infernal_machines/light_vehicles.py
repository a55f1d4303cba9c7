"""Light vehicles, trucks and motorcycles (IM.LV).

- Light Vehicles (changed): "do not place a crew counter on light vehicles until they are attacked" (a
  `crew` marker on the vehicle, or a crew deployed with `attrs.vehicle` naming it). "Each time a light
  vehicle suffers a 'hit' result of any kind on the SACRT ... (and is not directly eliminated), its crew
  must take a special morale check ...: automatically eliminated on a natural result of '1' ...; if the
  crew fails its morale check, it becomes pinned in the hexagon and the light vehicle may not move. If
  the crew passes its morale check, the light vehicle must always automatically move during its next
  Vehicle Movement Phase toward the nearest hexagon (counted using movement points) that contains cover
  (any hexagon other than clear terrain)." The check's die is a `DieRolled` with purpose
  `IM.LV.HITCHECK` (or `LS.MORALE`) about the vehicle or the attack; a barrage's hits on light vehicles
  are judged with the barrage's effects (IM.ART.EFF.*.VEH). The lost movement points of a cautious
  driver (IM.LV.CAUTION) are judged with the moves (movement.py).
- Motorcycles (new): "Using their cross-country movement allowance, motorcycles may only enter clear
  terrain hexagons"; armed ones "carry three machine guns (each with a firepower of 2, range 9) and may
  engage up to three different hexagons within their firing arc".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from domain.board.hexes import distance
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict, in_phases
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import SMALL_ARMS_PHASES, Shot, Term
from domain.rules.infernal_machines.tanks import RULEBOOK
from domain.rules.infernal_machines.vehicles import PhaseEnd, spec_of

SECTIONS = RULEBOOK.sections((
    "IM.LV.CREWMARKER", "IM.LV.HITCHECK", "IM.LV.MOTO.XC", "IM.LV.MOTO.ARMED",
))
HITS = ("hit", "pinned", "retreated")
CHECK_PURPOSES = ("IM.LV.HITCHECK", "LS.MORALE")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def motorcycle(unit) -> Optional[str]:
    """"armed", "unarmed" or None (not motorcycles): the catalogue's model, or `attrs.kind` motorcycle."""
    if unit is None or unit.unit_class != "light-vehicle":
        return None
    spec = spec_of(unit)
    if spec is not None and spec.model.startswith("motorcycle"):
        return "armed" if spec.model == "motorcycle-armed" or unit.attrs.get("armed") else "unarmed"
    if str(unit.attrs.get("kind", "")).lower() in ("motorcycle", "motorcycles"):
        return "armed" if unit.attrs.get("armed") else "unarmed"
    return None


def motorcycle_terms(shot: Shot, ctx) -> list[Term]:
    """Armed motorcycles: "three machine guns (each with a firepower of 2, range 9)"."""
    if shot.kind != "small-arms":
        return []
    out = []
    for firer in shot.firers:
        if motorcycle(ctx.board.units.get(firer)) == "armed":
            out += [Term("IM.LV.MOTO.ARMED", 6, "three machine guns of firepower 2", "firepower-set", firer),
                    Term("IM.LV.MOTO.ARMED", 9, "the armed motorcycles' machine guns reach 9 hexagons", "range", firer)]
    return out


DIRECT_FIRE_TERMS = (motorcycle_terms,)


@dataclass
class HitCheck:
    """A light vehicle's special morale check, owed since a small arms hit."""
    vehicle: str
    attack: str
    seq: int
    natural: Optional[int] = None
    modified: Optional[int] = None
    roll_seq: Optional[int] = None
    passed: Optional[bool] = None
    eliminated: bool = False
    pinned: bool = False


@dataclass
class ToCover:
    """A light vehicle whose crew passed: it must move toward cover in its next Vehicle Movement Phase."""
    vehicle: str
    side: Optional[str]
    seq: int
    start: Optional[str] = None
    phase: Optional[tuple[int, str]] = None     # the VMP it owes the move in, once it starts
    moved: Optional[tuple[int, str]] = None     # (seq, end hex) of its move


class LightVehicleChecks(PhaseEnd, RuleModule):
    """Crew markers, the special morale check and its outcome, motorcycles off road and armed."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.attacked: set[str] = set()
        self.checks: dict[str, HitCheck] = {}
        self.to_cover: dict[str, ToCover] = {}
        self.targets: dict[tuple[str, int, str], list[tuple[str, float, int]]] = {}   # armed motos' shots per phase

    # not a `closer`: its close also owes the move toward cover in the phase the crew must make it, told or not
    def on_PhaseStarted(self, line):
        return self.close(line["seq"])

    def on_TurnStarted(self, line):
        return self.close(line["seq"])

    # -- attacks and the crew marker -------------------------------------------------------------
    def _attack_on(self, loc: Optional[str], side: Optional[str]) -> None:
        for u in self.ctx.board.units_at(loc) if loc else []:
            if u.unit_class == "light-vehicle" and u.side != side:
                self.attacked.add(u.unit)

    def on_SmallArmsFired(self, line):
        d = self.ctx.typed(line)
        self._attack_on(d.target, line.get("side"))
        return self._armed_targets(line, d)

    def on_AntiTankFired(self, line):
        self._attack_on(self.ctx.typed(line).target, line.get("side"))

    def on_BarrageResolved(self, line):
        for r in self.ctx.typed(line).results:
            self._attack_on(r.location, line.get("side"))

    def on_MarkerPlaced(self, line):
        d = self.ctx.typed(line)
        if d.marker == "crew" and d.unit:
            return self._crew_on(line, d.unit)
        return []

    def on_UnitDeployed(self, line):
        d = self.ctx.typed(line)
        carried = d.attrs.get("vehicle") or d.attrs.get("crew_of")
        return self._crew_on(line, str(carried)) if d.class_ == "crew" and carried else []

    def _crew_on(self, line, vehicle: str) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(vehicle)
        if unit is None or unit.unit_class != "light-vehicle":
            return []
        return [rule("IM.LV.CREWMARKER").judge(
            line["seq"], vehicle in self.attacked, f"a crew counter on {vehicle}, which has been attacked",
            f"\"do not place a crew counter on light vehicles until they are attacked\": {vehicle} has not been",
            recorded=vehicle)]

    # -- the special morale check ------------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        d = self.ctx.typed(line)
        for result in d.results:
            unit = self.ctx.board.units.get(result.unit)
            if unit is not None and unit.unit_class == "light-vehicle" and result.result in HITS:
                self.checks[unit.unit] = HitCheck(unit.unit, d.attack, line["seq"])
        return []

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        if d.purpose not in CHECK_PURPOSES:
            return []
        for check in self.checks.values():
            if check.natural is None and d.subject in (check.vehicle, check.attack):
                check.natural, check.roll_seq = d.result, line["seq"]
                check.modified = d.result + sum(m.value for m in d.modifiers)
        return []

    def on_MoraleChecked(self, line):
        d = self.ctx.typed(line)
        for name in d.units:
            if name in self.checks:
                self.checks[name].passed = d.passed
        return []

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        check = self.checks.get(d.unit)
        if check is not None:
            check.eliminated |= d.status == "eliminated"
            check.pinned |= d.status == "pinned"
        return []

    def close(self, seq: int) -> list[RuleApplication]:
        if not (self.checks or self.to_cover):
            return []
        out = []
        for check in self.checks.values():
            out += self._judge(check)
        self.checks = {}
        return out + self._cover_owed()

    def _judge(self, c: HitCheck) -> list[RuleApplication]:
        r, unit = rule("IM.LV.HITCHECK"), self.ctx.board.units.get(c.vehicle)
        if c.eliminated and c.natural is None:
            return []       # eliminated by the fire itself
        if c.natural is None:
            return [r.missing_roll(c.seq, f"{c.vehicle} suffers a hit (attack {c.attack}): its crew must take a special "
                                   "morale check (DieRolled IM.LV.HITCHECK about the vehicle)")]
        if c.natural == 1:
            return [r.judge(c.roll_seq, c.eliminated, "a natural 1: crew and vehicle are eliminated",
                            f"\"The crew and vehicle counters are automatically eliminated on a natural result of "
                            f"'1'\": {c.vehicle} is not eliminated", related=[c.seq])]
        morale = unit.morale if unit is not None else None
        passed = c.passed if morale is None else c.modified <= morale
        out = []
        if morale is not None and c.passed is not None and c.passed != passed:
            out.append(r.mismatch(c.roll_seq, f"{c.vehicle}'s crew rolls {c.modified} against morale {morale}: "
                                  f"{'passes' if passed else 'fails'}; the log says {'passed' if c.passed else 'failed'}",
                                  expected=passed, recorded=c.passed, related=[c.seq]))
        if passed is None:
            return out + [r.unverifiable(c.roll_seq, f"{c.vehicle}: no morale value and no MoraleChecked in the log")]
        if not passed:
            return out + [r.judge(c.roll_seq, c.pinned, "the crew fails: pinned, the vehicle may not move",
                                  f"\"if the crew fails its morale check, it becomes pinned in the hexagon\": {c.vehicle} "
                                  "is not pinned", related=[c.seq])]
        self.to_cover[c.vehicle] = ToCover(c.vehicle, unit.side if unit else None, c.roll_seq)
        return out + [r.ok(c.roll_seq, "the crew passes: the vehicle moves toward cover in its next Vehicle Movement "
                           "Phase")]

    # -- the move to cover -------------------------------------------------------------------------
    @in_phases("vehicle-movement")
    def after_PhaseStarted(self, line):
        if line["phase"] != "vehicle-movement":
            return []
        for owed in self.to_cover.values():
            unit = self.ctx.board.units.get(owed.vehicle)
            if owed.phase is None and unit is not None and self.ctx.board.active == owed.side:
                owed.phase, owed.start = (line["turn"], line["phase"]), unit.location
        return []

    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        owed = self.to_cover.get(d.unit)
        if owed is not None and owed.phase == (line["turn"], line["phase"]):
            owed.moved = (line["seq"], d.path[-1])
        return self._cross_country(line, d)

    def _cover_owed(self) -> list[RuleApplication]:
        out, here = [], (self.ctx.board.turn, self.ctx.board.phase)
        for name, owed in list(self.to_cover.items()):
            if owed.phase is None or owed.phase != here:
                continue
            del self.to_cover[name]
            out.append(self._toward_cover(owed))
        return out

    def _toward_cover(self, owed: ToCover) -> RuleApplication:
        r = rule("IM.LV.HITCHECK")
        if owed.moved is None:
            return r.violation(owed.seq, f"{owed.vehicle}'s crew passed (seq {owed.seq}): it \"must always automatically "
                               "move during its next Vehicle Movement Phase\" toward cover, and it does not move")
        seq, end = owed.moved
        view = board_view(self.ctx)
        cover = [loc for loc, spec in self.ctx.board.hexes.items() if spec.get("terrain", "clear") != "clear"]
        if not cover or owed.start is None:
            return r.unverifiable(seq, "the map records no hexagon other than clear terrain near it")
        gain = [distance(owed.start, c, view.placement) - distance(end, c, view.placement) for c in cover]
        nearest = min(distance(end, c, view.placement) for c in cover)
        if end in cover or nearest < min(distance(owed.start, c, view.placement) for c in cover):
            return r.ok(seq, f"{owed.vehicle} moves toward cover, to {end}")
        if max(gain) <= 0:
            return r.violation(seq, f"{owed.vehicle} must move toward the nearest hexagon with cover; from {owed.start} "
                               f"to {end} it comes no nearer to any", recorded=end)
        return r.unverifiable(seq, f"{owed.vehicle} moves to {end}: the nearest cover is \"counted using movement "
                              "points\", the Landships! costs", recorded=end)

    # -- motorcycles ---------------------------------------------------------------------------------
    def _cross_country(self, line, d) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(d.unit)
        if motorcycle(unit) is None or len(d.path) < 2:
            return []
        view = board_view(self.ctx)
        off = [v for u, v in zip(d.path, d.path[1:]) if not (view.road(u) and view.road(v)) and view.terrain(v) != "clear"]
        return [rule("IM.LV.MOTO.XC").judge(
            line["seq"], not off, f"{d.unit} enters clear hexagons only off road",
            f"motorcycles using their cross-country allowance may only enter clear terrain hexagons: "
            f"{', '.join(f'{v} ({view.terrain(v)})' for v in off)}", recorded=off)]

    def _armed_targets(self, line, d) -> list[RuleApplication]:
        """Up to three different hexagons per fire phase, with the three machine guns (6) among them."""
        out = []
        if line["phase"] not in SMALL_ARMS_PHASES:
            return out
        for firer in d.firers:
            if motorcycle(self.ctx.board.units.get(firer)) != "armed":
                continue
            shots = self.targets.setdefault((firer, line["turn"], line["phase"]), [])
            shots.append((d.target, float(d.firepower or 0), line["seq"]))
            hexes = {t for t, _, _ in shots}
            used = sum(f for _, f, _ in shots)
            out.append(rule("IM.LV.MOTO.ARMED").judge(
                line["seq"], len(hexes) <= 3 and used <= 6, f"{firer}: {len(hexes)} hexagon(s), firepower {used:g} of 6",
                f"armed motorcycles \"may engage up to three different hexagons\" with three machine guns of firepower "
                f"2: {firer} fires at {len(hexes)} hexagons with {used:g} in all this phase", Verdict.VIOLATION,
                recorded=sorted(hexes), related=[s for _, _, s in shots]))
        return out


T = "tests/unit/test_im_light_vehicles.py::"
COVERAGE = {
    "IM.LV.CREWMARKER": ("implemented", f"{T}test_no_crew_counter_until_the_light_vehicle_is_attacked"),
    "IM.LV.HITCHECK": ("partial", f"{T}test_a_natural_1_eliminates_crew_and_vehicle; "
                       f"{T}test_a_failed_check_pins_and_a_passed_one_drives_to_cover; {T}test_ec_46_caution_then_a_hit",
                       "after a small arms hit: the special check's die, a natural 1 eliminates, a failure pins, a pass "
                       "moves the vehicle nearer to cover in its next VMP (the nearest cover by MP: unverifiable when "
                       "the move comes nearer to some cover but not the nearest); barrage hits: the effects matrix"),
    "IM.LV.MOTO.XC": ("implemented", f"{T}test_motorcycles_off_road_enter_clear_hexes_only"),
    "IM.LV.MOTO.ARMED": ("needs a chart", f"{T}test_armed_motorcycles_fire_three_guns_at_up_to_three_hexes",
                         "firepower 6 at most in a phase, over at most three hexagons, range 9; the arc (the "
                         "Schneider's, extended) and the machine gun bonus are the counter's and Landships!'s"),
}
