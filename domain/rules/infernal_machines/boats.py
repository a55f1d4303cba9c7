"""Naval units (IM.NAV): steamboats, barges and gunboats (class `boat`, `attrs.kind` steamboat, barge or gunboat).

- Movement (the rivers and the allowances of 7 and 10 are movement.py's): "Barges may only be towed by
  steamboats ... there may be no more than one ship per hexagon", "They spend 1 movement point to change
  facing", "Boats never suffer breakdowns"; "Steamboats and gunboats have crews included in the counter, and they
  never take morale checks."
- Carrying: "each barge or steamboat may carry up to two or four platoons respectively. Non-pinned platoons may
  board ... during the second foot movement phase by being adjacent to the steamboat or barge at the start of the
  Vehicle Movement Phase. The steamboat may move on the following turn ... Platoons may disembark from their
  transport during the second foot movement phase if the ship is adjacent to land."
- Combat: "Each 6-inch gun has a firepower of 20, each 3-inch gun a firepower of 10 ... All weapons have a range of
  10 hexagons in direct fire when mounted on a gunboat"; "gunboats may not have more than 40 points of firepower
  from artillery guns or 8 machine gun units" (the weapons are units `Embarked` on, or deployed `aboard`, the
  gunboat; a gun's `attrs.gun`: "6-inch" or "3-inch").
- Vulnerability: "Small arms fire alone has no effect on boats or their passengers. Only direct fire by enemy
  artillery guns ... or aerial bombing may damage them. Artillery guns use the ATCRT as if they were vehicles.
  Subtract 1 from the die roll to hit ... If a boat is hit ..., it is not automatically eliminated. Instead, roll a
  six-sided die on the Naval Combat Results Table (NCRT)" (a `DieRolled` `IM.NAV.VULN` about the boat or the
  attack; the NCRT itself is table-pack data); "Boats are invulnerable to gas".
"""
from __future__ import annotations

from typing import Optional

from domain.board.hexes import distance
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict, bookkeeping, in_phases
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import Shot, Term, fire_facts
from domain.rules.infernal_machines.tanks import MISSES, RULEBOOK
from domain.rules.infernal_machines.vehicles import PhaseEnd, bearing, facings

SECTIONS = RULEBOOK.sections((
    "IM.NAV.MOVE", "IM.NAV.CREW", "IM.NAV.CARRY", "IM.NAV.GUNBOAT.ARMS", "IM.NAV.GUNBOAT.DESIGN",
    "IM.NAV.GUNBOAT.FIRE", "IM.NAV.VULN", "IM.NAV.GAS",
))
CAPACITY = {"barge": 2, "steamboat": 4}
GUN_FIREPOWER = {"6-inch": 20, "6in": 20, "3-inch": 10, "3in": 10}
PLATOONS = ("infantry-platoon", "mg-platoon", "cavalry-platoon")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def kind(unit) -> Optional[str]:
    return str(unit.attrs.get("kind", "gunboat")) if unit is not None and unit.unit_class == "boat" else None


def boat_of(board, unit):
    carrier = board.units.get(str(unit.attrs.get("aboard", ""))) if unit is not None else None
    return carrier if kind(carrier) else None


def gunboat_terms(shot: Shot, ctx) -> list[Term]:
    """"All weapons have a range of 10 hexagons in direct fire when mounted on a gunboat"."""
    return [Term("IM.NAV.GUNBOAT.FIRE", 10, "a weapon mounted on a gunboat", "range", f)
            for f in shot.firers if kind(boat_of(ctx.board, ctx.board.units.get(f))) == "gunboat"]


DIRECT_FIRE_TERMS = (gunboat_terms,)


class BoatChecks(PhaseEnd, RuleModule):
    """Boats' moves and stacking, crews, passengers, gunboats' arms, and what may damage a boat."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.boarded: dict[str, int] = {}                       # steamboat -> turn passengers boarded
        self.start: dict[str, Optional[str]] = {}               # unit -> where it stood when the VMP began
        self.ncrt: list[tuple[int, str, str]] = []              # (seq, boat, attack) owed an NCRT die
        self.barges: list[tuple[int, str, str, str]] = []       # barge moves of the phase: (seq, barge, from, to)
        self.steamers: set[tuple[str, str]] = set()             # the phase's steamboat moves: (from, to)
        self.any_boat = False
        facings(ctx)

    def after_UnitDeployed(self, line):
        self.any_boat = self.any_boat or kind(self.ctx.board.units.get(self.ctx.typed(line).unit)) is not None

    @bookkeeping
    @in_phases("vehicle-movement")
    def after_PhaseStarted(self, line):
        if line["phase"] == "vehicle-movement" and self.any_boat:
            self.start = {u.unit: u.location for u in self.ctx.board.units.values() if u.unit_class in PLATOONS}
        return []

    # -- movement ---------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        boat = board.units.get(d.unit)
        if kind(boat) is None or len(d.path) < 2:
            return []
        out, r = [], rule("IM.NAV.MOVE")
        if kind(boat) == "barge":
            self.barges.append((line["seq"], d.unit, d.path[0], d.path[-1]))
        elif kind(boat) == "steamboat":
            self.steamers.add((d.path[0], d.path[-1]))
        others = [u.unit for u in board.units_at(d.path[-1]) if kind(u) and u.unit != d.unit
                  and not (kind(boat) == "steamboat" and kind(u) == "barge" and u.location == d.path[0])]
        out.append(r.judge(line["seq"], not others, f"{d.unit} alone in {d.path[-1]}",
                           f"\"there may be no more than one ship per hexagon\": {', '.join(others)} in {d.path[-1]}",
                           recorded=others))
        if kind(boat) == "steamboat" and self.boarded.get(d.unit) == line["turn"]:
            out.append(rule("IM.NAV.CARRY").violation(
                line["seq"], f"platoons boarded {d.unit} this turn: \"The steamboat may move on the following turn\""))
        return out + self._facing_cost(line, boat, d)

    def _facing_cost(self, line, boat, d) -> list[RuleApplication]:
        """"They spend 1 movement point to change facing": a hexside's turn costs 1 beside the hexes."""
        if boat.movement is None and kind(boat) not in ("steamboat", "gunboat"):
            return []
        start = facings(self.ctx).of(boat.unit)
        if start is None:
            return []
        turns, heading = 0, start
        for a, b in zip(d.path, d.path[1:]):
            step = bearing(self.ctx, a, b)
            if step is not None:
                turns += round(abs((step - heading + 180) % 360 - 180) / 60)
                heading = step
        allowance = {"steamboat": 7, "gunboat": 10}.get(kind(boat), boat.movement)
        cost = len(d.path) - 1 + turns
        return [rule("IM.NAV.MOVE").judge(line["seq"], allowance is None or cost <= allowance,
                                          f"{cost} MP with {turns} change(s) of facing",
                                          f"{d.unit} spends {len(d.path) - 1} MP on river hexes and {turns} on changing "
                                          f"facing: {cost} of {allowance}", expected=allowance, recorded=cost)]

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        boat = self.ctx.board.units.get(d.unit)
        if kind(boat) is None:
            return []
        if d.status == "broken-down":
            return [rule("IM.NAV.MOVE").violation(line["seq"], "boats never suffer breakdowns")]
        if "gas" in str(d.cause or "").lower():
            return [rule("IM.NAV.GAS").violation(line["seq"], f"boats are invulnerable to gas: {d.unit} {d.status}")]
        return []

    def on_MoraleChecked(self, line):
        boats = [n for n in self.ctx.typed(line).units if kind(self.ctx.board.units.get(n)) in ("steamboat", "gunboat")]
        return [rule("IM.NAV.CREW").violation(line["seq"], f"the crews of steamboats and gunboats \"never take morale "
                                              f"checks\": {', '.join(boats)}")] if boats else []

    # -- carrying ---------------------------------------------------------------------------------
    def on_Embarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        boat = board.units.get(d.carrier)
        if kind(boat) is None:
            return []
        if kind(boat) == "gunboat":
            return self._design(line, boat, d.units)
        out, r = [], rule("IM.NAV.CARRY")
        units = [board.units[n] for n in d.units if n in board.units]
        load = len([u for u in board.units.values() if u.attrs.get("aboard") == boat.unit]) + len(units)
        out.append(r.judge(line["seq"], load <= CAPACITY[kind(boat)], f"{boat.unit} carries {load} platoon(s)",
                           f"a {kind(boat)} may carry up to {CAPACITY[kind(boat)]} platoons, not {load}",
                           expected=CAPACITY[kind(boat)], recorded=load))
        if line["turn"] == 0:
            return out
        view = board_view(self.ctx)
        for u in units:
            why = []
            if view.pinned(u):
                why.append("it is pinned")
            if line["phase"] != "second-foot-movement":
                why.append(f"platoons board in the second foot movement phase, not the {line['phase']} phase")
            start = self.start.get(u.unit, u.location)
            if start is None or boat.location is None or distance(start, boat.location, view.placement) > 1:
                why.append("it was not adjacent to the boat at the start of the Vehicle Movement Phase")
            out.append(r.judge(line["seq"], not why, f"{u.unit} boards {boat.unit}", f"{u.unit} may not board: "
                               + "; ".join(why), recorded=u.unit))
        if kind(boat) == "steamboat":
            self.boarded[boat.unit] = line["turn"]
        return out

    def on_Disembarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        boat = board.units.get(d.carrier)
        if kind(boat) not in ("barge", "steamboat") or line["turn"] == 0:
            return []
        view, where = board_view(self.ctx), d.location or boat.location
        why = []
        if line["phase"] != "second-foot-movement":
            why.append(f"platoons disembark in the second foot movement phase, not the {line['phase']} phase")
        if where is None or view.river(where) or (boat.location and distance(boat.location, where, view.placement) > 1):
            why.append(f"they land on a land hexagon next to the boat, not {where}")
        return [rule("IM.NAV.CARRY").judge(line["seq"], not why, f"{', '.join(d.units)} land at {where}",
                                           "; ".join(why), recorded=where)]

    def _design(self, line, boat, names) -> list[RuleApplication]:
        board = self.ctx.board
        units = [u for u in board.units.values() if u.attrs.get("aboard") == boat.unit] + \
            [board.units[n] for n in names if n in board.units]
        out = []
        for u in units:
            gun = str(u.attrs.get("gun", "")).lower().replace(" ", "")
            if u.unit_class == "artillery-gun" and gun in GUN_FIREPOWER and u.firepower is not None:
                out.append(rule("IM.NAV.GUNBOAT.ARMS").judge(
                    line["seq"], u.firepower == GUN_FIREPOWER[gun], f"a {gun} gun of firepower {u.firepower:g}",
                    f"\"Each 6-inch gun has a firepower of 20, each 3-inch gun a firepower of 10\": {u.unit} ({gun}) "
                    f"has {u.firepower:g}", expected=GUN_FIREPOWER[gun], recorded=u.firepower))
        guns = sum(float(u.firepower or 0) for u in units if u.unit_class == "artillery-gun")
        mgs = sum(1 for u in units if u.unit_class == "mg-platoon")
        out.append(rule("IM.NAV.GUNBOAT.DESIGN").judge(
            line["seq"], guns <= 40 and mgs <= 8, f"{boat.unit}: {guns:g} firepower of guns, {mgs} machine gun units",
            f"\"gunboats may not have more than 40 points of firepower from artillery guns or 8 machine gun units\": "
            f"{guns:g} and {mgs}", recorded={"guns": guns, "mgs": mgs}))
        return out

    # -- fire at boats --------------------------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        board, out = self.ctx.board, []
        for result in self.ctx.typed(line).results:
            unit = board.units.get(result.unit)
            target = unit if kind(unit) else boat_of(board, unit)
            if target is not None and result.result not in MISSES:
                out.append(rule("IM.NAV.VULN").violation(
                    line["seq"], f"\"Small arms fire alone has no effect on boats or their passengers\": {result.unit} "
                    f"takes {result.result}", expected="no-effect", recorded=result.result))
        return out

    def on_AntiTankResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        if shot is None:
            return []
        out, guns = [], all((u := board.units.get(f)) is not None and u.unit_class == "artillery-gun" for f in shot.firers)
        for result in resolved.results:
            boat = board.units.get(result.unit)
            if kind(boat) is None:
                continue
            r = rule("IM.NAV.VULN")
            if not guns:
                out.append(r.judge(line["seq"], result.result in MISSES, "only artillery guns damage boats",
                                   f"only direct fire by artillery guns (or aerial bombing) may damage boats: "
                                   f"{result.result}", recorded=result.result))
                continue
            rolls = [x for x in shot.rolls if x["data"].get("purpose") == "LS.ATCRT"]
            if rolls:
                mods = [m.value for m in self.ctx.typed(rolls[0]).modifiers]
                out.append(r.judge(rolls[0]["seq"], -1 in mods, "the to-hit roll carries -1 for the boat's size",
                                   f"\"Subtract 1 from the die roll to hit to account for the large size of the boats\": "
                                   f"the roll's modifiers are {mods}", Verdict.MISMATCH, expected=-1, recorded=mods))
            if result.result not in MISSES:
                self.ncrt.append((line["seq"], boat.unit, shot.attack))
        return out

    def after_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        if d.status != "eliminated" or kind(self.ctx.board.units.get(d.unit)) is None:
            return []
        owed = [x for x in self.ncrt if x[1] == d.unit]
        if not owed:
            return []
        rolls = self.ctx.rolls("IM.NAV.VULN", after=owed[0][0], before=line["seq"])
        return [] if rolls else [rule("IM.NAV.VULN").violation(
            line["seq"], f"a hit boat \"is not automatically eliminated\": the NCRT die comes first", related=[owed[0][0]])]

    def close(self, seq: int) -> list[RuleApplication]:
        if not (self.barges or self.ncrt):
            return []
        out = [rule("IM.NAV.MOVE").judge(
            at, (start, end) in self.steamers, f"{barge} is towed by a steamboat from {start} to {end}",
            f"barges 'have no motive power of their own': {barge} moves from {start} to {end} and no steamboat tows it",
            recorded=barge) for at, barge, start, end in self.barges]
        self.barges, self.steamers = [], set()
        for at, boat, attack in self.ncrt:
            rolls = [x for x in self.ctx.rolls("IM.NAV.VULN", after=at, before=seq + 1)
                     if x["data"].get("subject") in (boat, attack)]
            r = rule("IM.NAV.VULN")
            if not rolls:
                out.append(r.missing_roll(at, f"{boat} is hit: \"roll a six-sided die on the Naval Combat Results Table\""
                                          " (IM.NAV.VULN)"))
            elif self.ctx.tables.get("NCRT", str(self.ctx.typed(rolls[0]).result)) is None:
                out.append(r.unverifiable(rolls[0]["seq"], self.ctx.tables.lacks("Naval Combat Results Table (NCRT)")))
        self.ncrt = []
        return out


T = "tests/unit/test_im_boats.py::"
COVERAGE = {
    "IM.NAV.MOVE": ("implemented", f"{T}test_ec_57_one_ship_a_hex_barges_towed_and_facing_costs",
                    "beside the rivers and allowances of the moves: one ship a hex, barges only towed, 1 MP a change of "
                    "facing, no breakdowns"),
    "IM.NAV.CREW": ("implemented", f"{T}test_boat_crews_never_check_morale"),
    "IM.NAV.CARRY": ("implemented", f"{T}test_ec_57_boarding_and_landing"),
    "IM.NAV.GUNBOAT.ARMS": ("implemented", f"{T}test_ec_57_a_gunboat_of_fifty_is_refused"),
    "IM.NAV.GUNBOAT.DESIGN": ("ambiguous", f"{T}test_ec_57_a_gunboat_of_fifty_is_refused",
                              "both caps judged (40 firepower of guns, 8 MG units); whether the \"or\" allows both at "
                              "once is not stated"),
    "IM.NAV.GUNBOAT.FIRE": ("partial", f"{T}test_gunboat_weapons_reach_ten",
                            "range 10 in direct fire (spotting: IM.SPOT.NEEDED); indirect fire observed by aircraft is "
                            "not judged (the text does not say whether the barrage procedure applies)"),
    "IM.NAV.VULN": ("needs a chart", f"{T}test_ec_57_only_artillery_guns_hurt_boats",
                    "no small arms effect, artillery guns only, -1 to hit, an NCRT die before any elimination; the "
                    "NCRT itself is the table pack's"),
    "IM.NAV.GAS": ("implemented", f"{T}test_boat_crews_never_check_morale"),
}
