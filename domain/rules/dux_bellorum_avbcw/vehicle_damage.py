"""Judging Dux Bellorum AVBCW vehicle damage (dux-bellorum-avbcw.txt, Cohesion, Vehicle Damage
Table, Vehicles ramming each other; game-log-tabletop.md, Dux Bellorum, VehicleDamaged,
VehicleRammed): the table read from its d6 (+1 a soft vehicle's roll for a hit, -1 any vehicle's for
a double 6 of bravery), each result applied once, a vehicle never losing cohesion, a hard vehicle
harmed only by an anti-tank rating, a ram's rolls equal to the other's PRO, and what the results
do next: no move or shot when wrecked or crew shaken, no shot from a damaged weapon, and a brew-up's
1 COH on every unit within its 2d6”."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, is_vehicle, unit_extent
from domain.rules.dux_bellorum_avbcw.placing import distance
from domain.rules.engine import RuleApplication, Verdict, bookkeeping, closer

TABLE = RULEBOOK.rule("AVBCW.VEH.DAMAGE_TABLE")
SOURCE = RULEBOOK.rule("AVBCW.VEH.DAMAGE_SOURCE")
RAM = RULEBOOK.rule("AVBCW.VEH.RAM")
PURPOSE = "AVBCW.VEH.DAMAGE_TABLE"

# "1 or less Traction damage ... 2 Traction wrecked ... 3 Weapon damaged ... 4 Crew shaken ...
# 5 Wrecked ... 6 or more Brews up!"
RESULTS = {1: "traction-damage", 2: "traction-wrecked", 3: "weapon-damaged", 4: "crew-shaken", 5: "wrecked",
           6: "brews-up"}
# Soft Vehicles: the rows of the soft vehicle table ("Draft vehicles", "Motor vehicles").
SOFT = frozenset({"vehicle:cart", "vehicle:coach", "vehicle:wagon", "vehicle:limber", "vehicle:agricultural-tractor",
                  "vehicle:bike", "vehicle:car", "vehicle:lorry", "vehicle:omnibus", "vehicle:steam-engine",
                  "vehicle:truck"})
# Options: "Armour plate ... +1/+1/+1", "Mounted Flamethrower ... -1" (PRO column)
PRO_OPTIONS = {"armour-plate": 1, "mounted-flamethrower": -1}


def result_of(face: int) -> str:
    return RESULTS[min(6, max(1, face))]


@dataclass
class Rammed:
    seq: int
    owed: dict[str, int]                       # vehicle -> damage rolls it takes
    taken: dict[str, int] = field(default_factory=dict)


class AVBCWVehicleDamage(ListedModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.applied: dict[str, set[str]] = {}          # vehicle -> results that apply
        self.shaken: dict[str, int] = {}                # vehicle -> turn its crew was shaken
        self.dead_weapons: dict[str, set[str]] = {}     # vehicle -> damaged weapons
        self.wrecked: set[str] = set()
        self.ram: Optional[Rammed] = None
        self.brew: Optional[dict] = None                # a brew-up waiting for its 2d6 and its losses

    def _soft(self, vehicle: str) -> bool:
        entry = self.lists.get(vehicle)
        return (entry.type if entry else "") in SOFT

    # ------------------------------------------------------------ VehicleDamaged

    def on_VehicleDamaged(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        out = [*self._read(line, data), *self._repeat(seq, data), *self._source(line, data)]
        if data.cause == "ram" and self.ram is not None and data.vehicle in self.ram.owed:
            self.ram.taken[data.vehicle] = self.ram.taken.get(data.vehicle, 0) + 1
        if not data.repeat:
            self.applied.setdefault(data.vehicle, set()).add(data.result)
            if data.result == "crew-shaken":
                self.shaken[data.vehicle] = line["turn"]
            elif data.result == "weapon-damaged" and data.weapon:
                self.dead_weapons.setdefault(data.vehicle, set()).add(data.weapon)
            elif data.result in ("wrecked", "brews-up"):
                self.wrecked.add(data.vehicle)
            if data.result == "brews-up":
                self.brew = {"vehicle": data.vehicle, "seq": seq, "radius": None, "hit": set()}
        return out

    def _read(self, line, data) -> list[RuleApplication]:
        """"Soft vehicles roll 1d6+1 for any Vehicle Damage rolled in response to a hit. All vehicles
        roll 1d6-1 for any Vehicle Damage rolled in response to a Bravery roll of double 6.\""""
        seq = line["seq"]
        after = self.ctx.of_type("VehicleDamaged", before=seq)
        rolls = self.ctx.rolls_for(data.vehicle, PURPOSE, after=after[-1]["seq"] if after else 0, before=seq)
        if not rolls:
            return [TABLE.missing_roll(seq, f"{data.vehicle}'s damage has no {PURPOSE} d6 before it")]
        face = self.ctx.typed(rolls[-1]).result
        soft = self._soft(data.vehicle)
        if data.cause == "ram" and soft:
            reading = self.ctx.interpretations.reading("avbcw-ram-soft")
            if reading is None:
                options = {result_of(face), result_of(face + 1)}
                if len(options) > 1 and data.result in options:
                    return [TABLE.ambiguous(seq, f"soft {data.vehicle} rammed rolls {face}: 1d6 or 1d6+1 (\"in response "
                                            "to a hit\") is not settled for a ram", related=[rolls[-1]["seq"]],
                                            interpretation=self.ctx.interpretations.label("avbcw-ram-soft"))]
            change = 1 if reading == "1d6+1" else 0
        else:
            change = {"hit": 1 if soft else 0, "bravery": -1}.get(data.cause, 0)
        expected = result_of(face + change)
        return [TABLE.judge(seq, data.result == expected, f"{data.vehicle}: {face}{change:+d} = {expected}",
                            f"{data.vehicle} records {data.result}; the roll {face}{change:+d} reads {expected}",
                            verdict=Verdict.MISMATCH, expected=expected, recorded=data.result, related=[rolls[-1]["seq"]])]

    def _repeat(self, seq: int, data) -> list[RuleApplication]:
        """"Each result only applies once. Subsequent repeat results are ignored.\""""
        before = data.result in self.applied.get(data.vehicle, set())
        return [TABLE.judge(seq, data.repeat == before, f"{data.vehicle}'s {data.result}: repeat {before}",
                            f"{data.vehicle}'s {data.result} is recorded repeat {data.repeat}, yet it "
                            + ("has applied before" if before else "has not applied before"),
                            verdict=Verdict.MISMATCH, expected=before, recorded=data.repeat)]

    def _source(self, line, data) -> list[RuleApplication]:
        """"Hard vehicles can only be harmed by weapons with an anti-tank rating. Small arms do no
        damage to them": the shot at it that this damage answers."""
        if data.cause != "hit":
            return []
        shots = [l for l in self.ctx.of_type("ShotFired", before=line["seq"])
                 if l["turn"] == line["turn"] and l["data"]["target"] == data.vehicle]
        if not shots:
            return []
        shot = self.ctx.typed(shots[-1])
        if self._soft(data.vehicle):
            return []
        return [SOURCE.judge(line["seq"], shot.rating == "hard", f"hard {data.vehicle} hit by the anti-tank rating of "
                             f"{shot.attack}", f"hard {data.vehicle} damaged by {shot.attack}'s soft rating: \"Hard "
                             "vehicles can only be harmed by weapons with an anti-tank rating\"", related=[shots[-1]["seq"]])]

    def on_CohesionLost(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        unit = self.ctx.board.units.get(data.unit)
        out = []
        if unit is not None and is_vehicle(unit, self.lists.get(data.unit)):
            out.append(SOURCE.violation(line["seq"], f"{data.unit} is a vehicle: \"Vehicles do not have cohesion. Instead "
                                        "every point of cohesion lost should be rolled on the vehicle damage table\""))
        if data.cause == "brew-up":
            out += self._brewed(line, data)
        return out

    # ------------------------------------------------------------ brews up

    @bookkeeping   # notes a pending brew-up's radius: a brew-up pending already wakes the closers
    def on_DieRolled(self, line):
        if self.brew is None:
            return   # no brew-up waiting: nearly every roll
        data = self.ctx.typed(line)
        if data.purpose == PURPOSE and data.die == "2d6" and data.subject == self.brew["vehicle"]:
            self.brew["radius"] = float(data.result)

    def _brewed(self, line, data) -> list[RuleApplication]:
        """"Vehicle explodes killing crew/passengers and inflicting 1 COH loss on all units within 2d6”"."""
        seq, brew = line["seq"], self.brew
        if brew is None or brew["radius"] is None:
            return [TABLE.violation(seq, f"{data.unit} loses COH to a brew-up with no brewed-up vehicle and 2d6 before it")]
        vehicle, unit = self.ctx.board.units.get(brew["vehicle"]), self.ctx.board.units.get(data.unit)
        brew["hit"].add(data.unit)
        far = distance(self.ctx, unit_extent(vehicle), unit_extent(unit))
        good = far <= brew["radius"] and data.points == 1
        return [TABLE.judge(seq, good, f"{data.unit} is {far}\" from {brew['vehicle']}: within the 2d6 {brew['radius']:g}”",
                            f"{data.unit} loses {data.points} COH {far}\" from the brew-up: \"1 COH loss on all units "
                            f"within 2d6”\" ({brew['radius']:g}”)", expected=brew["radius"], recorded=far)]

    def _brew_done(self) -> list[RuleApplication]:
        brew, self.brew = self.brew, None
        if brew is None or brew["radius"] is None:
            return []
        vehicle = self.ctx.board.units.get(brew["vehicle"])
        missed = [uid for uid, u in self.ctx.board.units.items() if uid != brew["vehicle"] and uid not in brew["hit"]
                  and u.position is not None and not is_vehicle(u, self.lists.get(uid))
                  and distance(self.ctx, unit_extent(vehicle), unit_extent(u)) <= brew["radius"]]
        return [TABLE.violation(brew["seq"], f"{', '.join(missed)} within the brew-up's {brew['radius']:g}” lose no COH: "
                                "\"inflicting 1 COH loss on all units within 2d6”\"")] if missed else []

    # ------------------------------------------------------------ rams

    def on_VehicleRammed(self, line) -> Iterable[RuleApplication]:
        """"If a vehicle rams another, both inflict damage on each other equal to their Protection
        rating ... If a soft vehicle is involved in a ram with a hard vehicle it counts its PRO as 1 lower.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        out = self._ram_done()
        if len(data.vehicles) != 2:
            return out + [RAM.unverifiable(seq, "a ram of other than two vehicles: the text speaks of two")]
        pros = [self._pro(v, data.vehicles[1 - i]) for i, v in enumerate(data.vehicles)]
        if None in pros:
            return out + [RAM.ambiguous(seq, "a PRO given by facing (Front / Sides / Rear): the text does not say which "
                                        "facing's PRO a ram inflicts")]
        recorded = data.pro if isinstance(data.pro, list) else [data.pro] * 2
        out.append(RAM.judge(seq, recorded == pros, f"PRO {pros[0]} and {pros[1]}", f"the ram records PRO {recorded}; "
                             f"the vehicles' are {pros}", verdict=Verdict.MISMATCH, expected=pros, recorded=recorded))
        # each takes as many rolls as the other's PRO
        self.ram = Rammed(seq, {data.vehicles[0]: pros[1], data.vehicles[1]: pros[0]})
        return out

    def _pro(self, vehicle: str, other: str) -> Optional[int]:
        entry = self.lists.get(vehicle)
        printed = (entry.stats.get("PRO") if entry else None) or ""
        if not printed.strip().isdigit():
            return None
        pro = int(printed) + sum(PRO_OPTIONS.get(o, 0) for o in (entry.options or ()))
        return pro - (1 if self._soft(vehicle) and not self._soft(other) else 0)

    def _ram_done(self) -> list[RuleApplication]:
        ram, self.ram = self.ram, None
        if ram is None:
            return []
        return [RAM.judge(ram.seq, ram.taken.get(v, 0) == n, f"{v} takes its {n} damage rolls",
                          f"{v} takes {ram.taken.get(v, 0)} damage rolls for the ram, not {n}: \"inflict damage on each "
                          "other equal to their Protection rating\"", verdict=Verdict.MISMATCH, expected=n,
                          recorded=ram.taken.get(v, 0)) for v, n in ram.owed.items()]

    # ------------------------------------------------------------ what the results forbid

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        out = self._ram_done()
        if self.shaken.get(data.unit) == line["turn"]:
            out.append(TABLE.violation(line["seq"], f"{data.unit}'s crew is shaken: \"The vehicle cannot move this turn\""))
        if data.unit in self.wrecked:
            out.append(TABLE.violation(line["seq"], f"{data.unit} is wrecked and moves"))
        return out

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        out = []
        if self.shaken.get(data.shooter) == line["turn"] - 1:
            out.append(TABLE.violation(seq, f"{data.shooter}'s crew was shaken last turn: it cannot \"shoot next turn\""))
        if data.shooter in self.wrecked:
            out.append(TABLE.violation(seq, f"{data.shooter} is wrecked and shoots"))
        if data.weapon and data.weapon in self.dead_weapons.get(data.shooter, set()):
            out.append(TABLE.violation(seq, f"{data.weapon} is damaged: it \"stops working for the rest of the battle\""))
        return out

    def on_UnitEmbarked(self, line):
        return self._no_boarding(line)

    def on_UnitDisembarked(self, line):
        return self._no_boarding(line)

    def _no_boarding(self, line) -> list[RuleApplication]:
        data = self.ctx.typed(line)
        if self.shaken.get(data.vehicle) == line["turn"]:
            return [TABLE.violation(line["seq"], f"{data.vehicle}'s crew is shaken: \"Passengers cannot (dis)embark\"")]
        return []

    @closer   # it flushes only what this module's own steps left pending
    def on_PhaseStarted(self, line):
        return [*self._ram_done(), *self._brew_done()]

    @closer   # the same flush: a ram or brew-up is pending only after a step of this module
    def on_TurnStarted(self, line):
        return [*self._ram_done(), *self._brew_done()]

    def finish(self):
        return [*self._ram_done(), *self._brew_done()]


TESTS = "tests/unit/test_avbcw_vehicle_damage.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.VEH.DAMAGE_TABLE": ("implemented", f"{TESTS}test_the_table_and_its_modifiers; {TESTS}test_each_result_once; "
                               f"{TESTS}test_what_the_results_forbid; {TESTS}test_a_brew_up",
                               "the result from the d6 before it (none: `missing-roll`), +1 a soft vehicle's for a hit, "
                               "-1 for a bravery double 6, a soft vehicle's in a ram by `avbcw-ram-soft` (no default: "
                               "`ambiguous` where it matters); `repeat` true exactly when the result applied before; no "
                               "move when crew shaken that turn or wrecked, no shot the next turn or from a damaged "
                               "weapon, no (dis)embarking from a shaken vehicle; a brew-up's 2d6: 1 COH on every unit "
                               "within it (`measure`), none beyond; traction damage's half MV and traction wrecked's no "
                               "move: movement.py (tests/unit/test_avbcw_movement.py::"
                               "test_vehicle_allowance_and_traction_damage)"),
    "AVBCW.VEH.DAMAGE_SOURCE": ("partial", f"{TESTS}test_vehicles_have_no_cohesion",
                                "no CohesionLost for a vehicle; a hard vehicle's hit damage after a soft-rated shot at "
                                "it: violation. A soft vehicle under a normal rating \"at half that value (rounded down\" "
                                "(AVBCW.Z 3, unclosed): not judged; how many rolls a hit gives: DB core"),
    "AVBCW.VEH.RAM": ("implemented", TESTS + "test_a_ram",
                      "the recorded PRO against the listed one (armour plate +1, mounted flamethrower -1; a soft "
                      "vehicle's 1 lower against a hard one; a PRO by facing: `ambiguous`) and each vehicle's damage "
                      "rolls (cause ram) equal to the other's PRO"),
}
