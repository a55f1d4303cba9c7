"""Writes the machines' acceptance logs beside this file (tanks, vehicles, light vehicles, trains, boats).

Each case is a complete game log in the interchange format (spec/game-log.md, with the optional
extensions of docs/game-log-extensions.md) and a NAME.expected.json of the findings it must give:
every expected finding is reported and nothing else is a violation, mismatch or missing roll. Each
case cites the rulebook passage its expectation comes from. Run it to regenerate:
`.venv/bin/python -m tests.acceptance.cases_im_machines.build_cases`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from domain.log import chain

HERE = Path(__file__).resolve().parent
BRIT, GER = "british", "german"


class Game:
    """A log under construction on map 5: seq, turn and phase kept as the format requires."""

    def __init__(self, name: str, *, hexes: Optional[dict] = None, permissions: Optional[list] = None,
                 options: Optional[list] = None, date: str = "1918-08", nations: Optional[dict] = None):
        self.name, self.lines, self.turn, self.phase = name, [], 0, "setup"
        self.expected: list[dict[str, Any]] = []
        nations = nations or {BRIT: "british", GER: "german"}
        self.add("GameStarted", {"ruleset": "infernal-machines", "scenario": name, "date": date,
                                 "sides": {BRIT: {"nation": nations[BRIT], "bloc": "allied"},
                                           GER: {"nation": nations[GER], "bloc": "central"}},
                                 "options": options or [], "permissions": permissions or [], "tables": "none"})
        self.add("MapDefined", {"maps": ["5"], "hexes": hexes or {}, "hexsides": []})
        self.add("WeatherSet", {"weather": "fair", "terrain_state": "good"})

    def add(self, type_: str, data: dict[str, Any], side: Optional[str] = None) -> int:
        seq = len(self.lines) + 1
        self.lines.append({"v": 1, "game": self.name, "seq": seq, "turn": self.turn, "phase": self.phase,
                           "side": side, "type": type_, "data": data, "by": "umpire-tests",
                           "at": f"2026-11-29T13:{seq // 60 % 60:02d}:{seq % 60:02d}Z"})
        return seq

    def unit(self, unit: str, side: str, cls: str, location: str, *, firepower=4, range_=8, morale=4, movement=6,
             **attrs) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location, "facing": 0,
                                         "morale": morale, "firepower": firepower, "range": range_,
                                         "movement": movement, "attrs": attrs}, side=side)

    def at(self, turn: int, phase: str, active: Optional[str]) -> None:
        if turn != self.turn:
            self.turn, self.phase = turn, "start"
            self.add("TurnStarted", {"turn": turn})
        self.phase = phase
        self.add("PhaseStarted", {"phase": phase, "active": active})

    def die(self, side: Optional[str], purpose: str, result: int, subject: str, die: str = "d6", mods=()) -> int:
        return self.add("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject,
                                      "modifiers": [{"value": m, "why": w} for m, w in mods]}, side=side)

    def move(self, side: str, unit: str, path: list[str]) -> int:
        return self.add("UnitMoved", {"unit": unit, "path": path}, side=side)

    def spot(self, side: str, spotter: str, target: str) -> int:
        self.die(side, "IM.SPOT.ROLL", 2, spotter, die="d10")
        return self.add("Spotted", {"spotter": spotter, "target": target, "spotted": True}, side=side)

    def small_arms(self, side: str, attack: str, firers: list[str], target: str, firepower, results=(),
                   roll: Optional[int] = 3, die: str = "d6", mods=(), spot: bool = True, **extra) -> tuple[int, int]:
        if spot:
            for firer in firers:
                self.spot(side, firer, target)
        fired = self.add("SmallArmsFired", {"attack": attack, "firers": firers, "target": target,
                                            "firepower": firepower, **extra}, side=side)
        if roll is not None:
            self.die(side, "LS.SACRT", roll, attack, die=die, mods=mods)
        resolved = self.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": u, "result": r}
                                                                                for u, r in results]}, side=side)
        return fired, resolved

    def anti_tank(self, side: str, attack: str, firers: list[str], target: str, target_unit: str, results,
                  roll: int = 4, weapon: Optional[str] = None, spot: bool = True) -> tuple[int, int]:
        if spot:
            for firer in firers:
                self.spot(side, firer, target)
        data = {"attack": attack, "firers": firers, "target": target, "target_unit": target_unit}
        if weapon:
            data["weapon"] = weapon
        fired = self.add("AntiTankFired", data, side=side)
        self.die(side, "LS.ATCRT", roll, attack, die="d10")
        resolved = self.add("AntiTankResolved", {"attack": attack, "results": [{"unit": u, "result": r}
                                                                               for u, r in results]}, side=side)
        return fired, resolved

    def status(self, side: Optional[str], unit: str, status: str) -> int:
        return self.add("UnitStatusChanged", {"unit": unit, "status": status}, side=side)

    def expect(self, seq: int, rule, verdict: str = "violation", accept: Optional[list[int]] = None) -> None:
        self.expected.append({"seq": seq, "rule": rule, "verdict": verdict, "accept_seq": accept or [seq]})

    def write(self) -> None:
        (HERE / f"{self.name}.jsonl").write_text("\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.expected.json").write_text(json.dumps({"findings": self.expected}, indent=1) + "\n",
                                                         encoding="utf-8")


def row(col: int, r: int) -> str:
    return f"5:{col:02d}{r:02d}"


# -- Additional Tank Rules ------------------------------------------------------------------------------
def tank_breakdown_even() -> Game:
    """Tank Breakdowns: "If the result is even, the tank in question breaks down for the next turn only and, after
    that turn, is considered automatically repaired" (EC-39): it moves in turn 5, which is refused; in turn 6 it
    moves freely."""
    g = Game("tank-breakdown-even")
    g.unit("b-tank", BRIT, "tank", row(5, 2), model="Mark IV male")
    g.at(4, "vehicle-movement", BRIT)
    g.move(BRIT, "b-tank", [row(5, 2), row(5, 3)])
    g.die(BRIT, "LS.BREAKDOWN", 6, "b-tank")
    g.status(BRIT, "b-tank", "broken-down")
    g.die(BRIT, "IM.TANK.BREAKDOWN", 4, "b-tank")
    g.at(5, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-tank", [row(5, 3), row(5, 4)]), "IM.TANK.BREAKDOWN")
    g.at(6, "vehicle-movement", BRIT)
    g.move(BRIT, "b-tank", [row(5, 4), row(5, 5)])
    return g


def tank_breakdown_no_second_die() -> Game:
    """Tank Breakdowns: "When a tank breaks down, roll a second six-sided die": a breakdown without it."""
    g = Game("tank-breakdown-no-second-die")
    g.unit("b-tank", BRIT, "tank", row(5, 2), model="Mark IV male")
    g.at(1, "vehicle-movement", BRIT)
    g.move(BRIT, "b-tank", [row(5, 2), row(5, 3)])
    g.die(BRIT, "LS.BREAKDOWN", 6, "b-tank")
    g.expect(g.status(BRIT, "b-tank", "broken-down"), "IM.TANK.BREAKDOWN", "missing-roll")
    g.at(1, "first-foot-movement", BRIT)
    return g


def cv29_breakdown_modifier() -> Game:
    """Italian CV 29: "prone to breakdowns (breakdown modifier of +1)": a roll without it."""
    g = Game("cv29-breakdown-modifier", nations={BRIT: "italian", GER: "german"}, date="1930-05")
    g.unit("i-cv", BRIT, "tank", row(5, 2), model="CV 29")
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.die(BRIT, "LS.BREAKDOWN", 3, "i-cv"), "IM.TANK.BREAKDOWN.MOD_DEFAULT", "mismatch")
    g.die(BRIT, "LS.BREAKDOWN", 3, "i-cv", mods=[(1, "breakdown modifier")])
    return g


def fascine_sequence() -> Game:
    """Tanks and Fascines (EC-38): turn 5 the drop jams (2) and the tank tries to cross anyway; turn 6 it unjams (4)
    without moving; turn 7 it drops (3), the fascine lies in the trench and a second tank crosses there."""
    wide = row(5, 4)
    g = Game("fascine-sequence", permissions=["extra-wide-trenches"],
             hexes={wide: {"terrain": "clear", "features": ["trench-prepared", "trench-extra-wide"]}})
    g.unit("b-tank", BRIT, "tank", row(5, 2), model="Mark IV male")
    g.unit("b-tank2", BRIT, "tank", row(5, 2), model="Mark IV female")
    g.unit("g-inf", GER, "infantry-platoon", row(5, 12))
    g.at(5, "vehicle-movement", BRIT)
    g.move(BRIT, "b-tank", [row(5, 2), row(5, 3)])
    g.die(BRIT, "IM.TANK.FASCINE.DROP", 2, "b-tank")
    g.expect(g.move(BRIT, "b-tank", [row(5, 3), wide]), "IM.TANK.FASCINE.DROP")
    g.at(6, "vehicle-movement", BRIT)
    g.die(BRIT, "IM.TANK.FASCINE.UNJAM", 4, "b-tank")
    g.at(7, "vehicle-movement", BRIT)
    g.die(BRIT, "IM.TANK.FASCINE.DROP", 3, "b-tank")       # in the trench since its refused move
    g.add("MarkerPlaced", {"marker": "fascine", "location": wide}, side=BRIT)
    g.move(BRIT, "b-tank", [wide, row(5, 5)])
    g.move(BRIT, "b-tank2", [row(5, 2), row(5, 3), wide])
    return g


def fascine_mk_iv_without() -> Game:
    """EXCEPTION: "the British Mk. V and Mk. VIII tanks may cross extra wide trenches without using a fascine" (EC-38:
    a Mk V without a fascine is accepted; a Mk IV is refused)."""
    wide = row(5, 4)
    g = Game("fascine-mk-iv-without", permissions=["extra-wide-trenches"],
             hexes={wide: {"terrain": "clear", "features": ["trench-prepared", "trench-extra-wide"]}})
    g.unit("b-mkv", BRIT, "tank", row(5, 3), model="Mark V")
    g.unit("b-mkiv", BRIT, "tank", row(5, 3), model="Mark IV male")
    g.at(1, "vehicle-movement", BRIT)
    g.move(BRIT, "b-mkv", [row(5, 3), wide, row(5, 5)])
    g.expect(g.move(BRIT, "b-mkiv", [row(5, 3), wide]), "IM.TANK.FASCINE.EXEMPT")
    return g


def blast_anti_tank_phase() -> Game:
    """EX-IM-03: "an enemy tank armed with a 47 mm gun fires at the hexagon, destroying the tank. Even though the tank
    was the target, an automatic SAFA is also immediately conducted against the infantry group in the hexagon. Using
    the same ten-sided die result, the blast power of 3 ..." A fresh SACRT roll of another number is refused."""
    x = row(5, 6)
    g = Game("blast-anti-tank-phase")
    g.unit("b-tank", BRIT, "tank", x, model="Mark IV female")
    g.unit("b-inf", BRIT, "infantry-platoon", x)
    g.unit("g-tank", GER, "tank", row(5, 2), gun="47mm", mgs=0)
    g.at(1, "defensive-anti-tank-fire", BRIT)
    g.anti_tank(GER, "at1", ["g-tank"], x, "b-tank", [("b-tank", "destroyed")], roll=4)
    g.status(GER, "b-tank", "eliminated")
    g.add("SmallArmsFired", {"attack": "s1", "firers": ["g-tank"], "target": x, "firepower": 3, "blast_of": "at1"},
          side=GER)
    g.expect(g.die(GER, "LS.SACRT", 7, "s1", die="d10"), "IM.TANK.BLAST.AUTO_SAFA")
    g.add("SmallArmsResolved", {"attack": "s1", "results": [{"unit": "b-inf", "result": "no-effect"}]}, side=GER)
    return g


def blast_small_arms_phase() -> Game:
    """EX-IM-04: "two enemy tanks had both fired at the hexagon with their 47 mm guns, each would have added the blast
    power of their main gun (3) (plus any vehicle machine gun) ... resolved on the SACRT using a six-sided die": 3 + 3
    + 2 + 2 = 10 is accepted; a d10 is refused; 12 is more than they have."""
    y = row(5, 6)
    g = Game("blast-small-arms-phase")
    g.unit("g-e1", GER, "tank", row(5, 2), gun="47mm", mgs=1)
    g.unit("g-e2", GER, "tank", row(6, 2), gun="47mm", mgs=1)
    g.unit("b-inf", BRIT, "infantry-platoon", y)
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.small_arms(GER, "a1", ["g-e1", "g-e2"], y, 10, [("b-inf", "no-effect")])
    fired, _ = g.small_arms(GER, "a2", ["g-e1", "g-e2"], y, 12, [("b-inf", "no-effect")], die="d10", spot=False)
    g.expect(fired, "IM.TANK.BLAST.SUM")
    g.expect(fired + 1, ["IM.TANK.BLAST.SAFPHASE", "IM.CORE.DICE"])
    return g


def tank_hit_not_destroyed() -> Game:
    """DESIGNER'S NOTE: "any 'hit' on a tank caused by an anti-tank weapon simply destroys it": an artillery gun's hit
    that leaves the tank on the board."""
    g = Game("tank-hit-not-destroyed")
    g.unit("b-gun", BRIT, "artillery-gun", row(5, 2))
    g.unit("g-tank", GER, "tank", row(5, 6), model="Mark IV female")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    _, resolved = g.anti_tank(BRIT, "at1", ["b-gun"], row(5, 6), "g-tank", [("g-tank", "hit")])
    g.expect(resolved, "IM.TANK.NOARMOUR")
    g.at(1, "offensive-small-arms-fire", BRIT)
    return g


def elephant_confirmation() -> Game:
    """The Elephant: "a second confirming result of 1 to 5 on a ten-sided die is required. Otherwise, the anti-tank
    fire has no effect" (EC-36: d10 = 6 -> no effect): eliminating it after a 6 is refused."""
    g = Game("elephant-confirmation")
    g.unit("g-gun", GER, "artillery-gun", row(5, 2))
    g.unit("b-ele", BRIT, "tank", row(5, 6), model="Elephant")
    g.at(1, "defensive-anti-tank-fire", BRIT)
    g.anti_tank(GER, "at1", ["g-gun"], row(5, 6), "b-ele", [("b-ele", "hit")])
    g.die(GER, "IM.VEH.ELEPHANT.CONFIRM", 6, "b-ele", die="d10")
    g.expect(g.status(GER, "b-ele", "eliminated"), "IM.VEH.ELEPHANT.CONFIRM")
    return g


def tank_cover() -> Game:
    """Tanks as Cover: "If infantry or cavalry units are in the same hexagon as the tank, they now receive a +1 die
    modifier on the SACRT": a roll without it."""
    x = row(5, 6)
    g = Game("tank-cover")
    g.unit("b-tank", BRIT, "tank", x, model="Mark IV male")
    g.unit("b-inf", BRIT, "infantry-platoon", x)
    g.unit("g-inf", GER, "infantry-platoon", row(5, 3))
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, resolved = g.small_arms(GER, "a1", ["g-inf"], x, 4, [("b-inf", "no-effect")])
    g.expect(resolved, "IM.TANK.COVER", "mismatch")
    g.small_arms(GER, "a2", ["g-inf"], x, 4, [("b-inf", "no-effect")], mods=[(1, "tank in the hex")], spot=False)
    return g


# -- Light vehicles --------------------------------------------------------------------------------------
def truck_hit_natural_one() -> Game:
    """Light Vehicles: "The crew and vehicle counters are automatically eliminated on a natural result of '1'" (EC-46);
    the crew counter is placed after the attack, not before."""
    t = row(5, 6)
    g = Game("truck-hit-natural-one")
    g.unit("b-truck", BRIT, "light-vehicle", t, model="Truck")
    g.unit("g-mg", GER, "mg-platoon", row(5, 3))
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.add("MarkerPlaced", {"marker": "crew", "unit": "b-truck", "location": t}, side=BRIT),
             "IM.LV.CREWMARKER")
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.small_arms(GER, "a1", ["g-mg"], t, 4, [("b-truck", "hit")])
    g.add("MarkerPlaced", {"marker": "crew", "unit": "b-truck", "location": t}, side=BRIT)
    g.expect(g.die(BRIT, "IM.LV.HITCHECK", 1, "b-truck"), "IM.LV.HITCHECK")
    g.at(1, "offensive-small-arms-fire", BRIT)
    return g


def truck_overloaded() -> Game:
    """Trucks: "up to one platoon of infantry or machine gunners, or up to four squads, or four crews": a platoon and a
    squad is too much."""
    g = Game("truck-overloaded")
    g.unit("b-truck", BRIT, "light-vehicle", row(5, 2), model="Truck")
    g.unit("b-inf", BRIT, "infantry-platoon", row(5, 2))
    g.unit("b-sq", BRIT, "infantry-squad", row(5, 2), firepower=1)
    g.at(1, "first-foot-movement", BRIT)
    g.add("Embarked", {"carrier": "b-truck", "units": ["b-inf"]}, side=BRIT)
    g.expect(g.add("Embarked", {"carrier": "b-truck", "units": ["b-sq"]}, side=BRIT), "IM.LV.TRUCK.CAPACITY")
    g.at(2, "vehicle-movement", BRIT)
    g.move(BRIT, "b-truck", [row(5, 2), row(5, 3)])
    return g


def motorcycles_into_wood() -> Game:
    """Motorcycles: "Using their cross-country movement allowance, motorcycles may only enter clear terrain hexagons"."""
    g = Game("motorcycles-into-wood", hexes={row(5, 4): {"terrain": "wood"}})
    g.unit("b-moto", BRIT, "light-vehicle", row(5, 2), model="Motorcycle")
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-moto", [row(5, 2), row(5, 3), row(5, 4)]), "IM.LV.MOTO.XC")
    return g


def mk_v_star_two_squads() -> Game:
    """British Mk. V*: "The Mark V* could carry only one squad"; a squad dropped off fires "sick": +1 on the SACRT."""
    g = Game("mk-v-star-two-squads")
    g.unit("b-star", BRIT, "tank", row(5, 2), model="Mk V*")
    g.unit("b-s1", BRIT, "infantry-squad", row(5, 2), firepower=1)
    g.unit("b-s2", BRIT, "infantry-squad", row(5, 2), firepower=1)
    g.unit("g-inf", GER, "infantry-platoon", row(5, 5))
    g.at(1, "vehicle-movement", BRIT)
    g.add("Embarked", {"carrier": "b-star", "units": ["b-s1"]}, side=BRIT)
    g.expect(g.add("Embarked", {"carrier": "b-star", "units": ["b-s2"]}, side=BRIT), "IM.VEH.MKVSTAR_IX.CAPACITY")
    g.at(2, "vehicle-movement", BRIT)
    g.add("Disembarked", {"carrier": "b-star", "units": ["b-s1"]}, side=BRIT)
    g.at(2, "offensive-small-arms-fire", BRIT)
    _, resolved = g.small_arms(BRIT, "a1", ["b-s1"], row(5, 5), 1, [("g-inf", "no-effect")])
    g.expect(resolved, "IM.VEH.MKVSTAR_IX.SICK", "mismatch")
    return g


# -- New vehicles -----------------------------------------------------------------------------------------
def latil_front() -> Game:
    """Spanish Latil: "up to 4 to the left or right, but only a firepower of 2 to the front or rear" (EX-IM-25)."""
    g = Game("latil-front", nations={BRIT: "spanish", GER: "rif"}, date="1921-07")
    g.unit("b-latil", BRIT, "armoured-car", row(5, 5), model="Latil")
    g.unit("g-front", GER, "infantry-platoon", row(5, 2))
    g.unit("g-side", GER, "infantry-platoon", row(9, 5))
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.small_arms(BRIT, "a1", ["b-latil"], row(9, 5), 4, [("g-side", "no-effect")])
    fired, _ = g.small_arms(BRIT, "a2", ["b-latil"], row(5, 2), 4, [("g-front", "no-effect")])
    g.expect(fired, "IM.VEH.LATIL")
    return g


def a7v54_eight() -> Game:
    """The A7V(54): "A target located in this combined zone may be attacked with a firepower of up to 6" (EX-IM-23)."""
    g = Game("a7v54-eight", date="1919-05")
    g.unit("g-heidi", GER, "tank", row(5, 5), model="A7V(54)")
    g.unit("b-inf", BRIT, "infantry-platoon", row(5, 2))
    g.at(1, "offensive-small-arms-fire", GER)
    fired, _ = g.small_arms(GER, "a1", ["g-heidi"], row(5, 2), 8, [("b-inf", "no-effect")])
    g.expect(fired, ["IM.VEH.A7V54.MG", "IM.TANK.BLAST.SUM"])
    return g


def cv29_small_arms() -> Game:
    """Italian CV 29: "The CV 29 cannot be damaged by small arms fire"."""
    g = Game("cv29-small-arms", nations={BRIT: "italian", GER: "ethiopian"}, date="1935-10")
    g.unit("i-cv", BRIT, "tank", row(5, 5), model="CV 29")
    g.unit("e-inf", GER, "infantry-platoon", row(5, 2))
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, resolved = g.small_arms(GER, "a1", ["e-inf"], row(5, 5), 4, [("i-cv", "pinned")])
    g.expect(resolved, "IM.VEH.CV29")
    return g


def benz_rifles_probe() -> Game:
    """AP-20: rifle fire at the Benz: "small arms fire is ineffective against them" against "small arms fire by
    machine guns affects it in the same way as a normal armoured car" (ambiguous)."""
    g = Game("benz-rifles-probe")
    g.unit("g-benz", GER, "armoured-car", row(5, 5), model="Benz")
    g.unit("b-inf", BRIT, "infantry-platoon", row(5, 2))
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, resolved = g.small_arms(BRIT, "a1", ["b-inf"], row(5, 5), 4, [("g-benz", "hit")])
    g.expect(resolved, "IM.VEH.BENZ", "ambiguous")
    return g


def carden_loyd_size() -> Game:
    """C-L Mk VI: "a size modifier of +2 on the anti-tank fire table when rolling the die that determines whether it is
    hit": a to-hit roll without it."""
    g = Game("carden-loyd-size", date="1928-06")
    g.unit("g-gun", GER, "artillery-gun", row(5, 2))
    g.unit("b-cl", BRIT, "tank", row(5, 6), model="Carden-Lloyd Mk VI", movement=9)
    g.at(1, "defensive-anti-tank-fire", BRIT)
    fired, _ = g.anti_tank(GER, "at1", ["g-gun"], row(5, 6), "b-cl", [("b-cl", "miss")])
    g.expect(fired + 1, "IM.VEH.CLMK6.SIZE", "mismatch")
    return g


def gun_carrier_too_soon() -> Game:
    """Mk. I Gun Carrier (EC-37): "adding +1 to the die for each previous failed die roll. On a result of 10 or more,
    the gun is now ready": a gun placed after the fourth roll (6 + 3 = 9) is refused; the fifth (6 + 4) readies it."""
    g = Game("gun-carrier-too-soon", date="1917-11")
    g.unit("b-gc", BRIT, "tank", row(5, 5), model="Gun Carrier")
    g.unit("b-crew", BRIT, "crew", row(5, 5), vehicle="b-gc")
    for turn, natural in enumerate((3, 5, 2, 6), 1):
        g.at(turn, "vehicle-movement", BRIT)
        g.die(BRIT, "IM.VEH.GUNCARRIER.UNLOAD", natural, "b-gc", mods=[(turn - 1, "previous failures")] if turn > 1 else [])
    g.expect(g.add("UnitDeployed", {"unit": "b-gun", "class": "artillery-gun", "name": "60-pounder", "location": row(5, 5),
                                    "firepower": 20, "attrs": {}}, side=BRIT), "IM.VEH.GUNCARRIER.UNLOAD")
    g.at(5, "vehicle-movement", BRIT)
    g.die(BRIT, "IM.VEH.GUNCARRIER.UNLOAD", 6, "b-gc", mods=[(4, "previous failures")])
    g.add("UnitDeployed", {"unit": "b-gun2", "class": "artillery-gun", "name": "60-pounder", "location": row(5, 5),
                           "firepower": 20, "attrs": {}}, side=BRIT)
    return g


def tadpole_strays() -> Game:
    """The Tadpole: "may never end its Vehicle Movement Phase more than two hexagons away from the nearest friendly
    infantry or machine gun platoon" (EC-33: three hexes away is refused)."""
    g = Game("tadpole-strays")
    g.unit("b-tad", BRIT, "tank", row(5, 5), model="Tadpole", movement=3)
    g.unit("b-inf", BRIT, "infantry-platoon", row(5, 6))
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-tad", [row(5, 5), row(5, 4), row(5, 3)]), "IM.VEH.TADPOLE.LEASH")
    g.at(1, "first-foot-movement", BRIT)
    return g


# -- Armoured trains and boats -------------------------------------------------------------------------------
RAILWAY = {row(5, r): {"terrain": "clear", "features": ["railway"]} for r in range(1, 15)}
RIVER = {row(5, r): {"terrain": "river"} for r in range(1, 15)}


def train(name: str) -> Game:
    g = Game(name, hexes=RAILWAY, date="1919-06", nations={BRIT: "british", GER: "bolshevik"})
    g.unit("b-train", BRIT, "armoured-train", row(5, 6), movement=8, protection=2, cars=2)
    g.unit("b-loco", BRIT, "crew", row(5, 6), aboard="b-train", car=0)
    g.unit("b-mg", BRIT, "mg-platoon", row(5, 6), aboard="b-train", car=1)
    return g


def train_over_cut_rails() -> Game:
    """Armoured Trains: "Armoured trains may not enter a hexagon with cut rails" (EC-56)."""
    g = train("train-over-cut-rails")
    g.add("MarkerPlaced", {"marker": "rail-cut", "location": row(5, 4)})
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-train", [row(5, 6), row(5, 5), row(5, 4)]), "IM.TRAIN.CUT_RAIL")
    return g


def train_pinned_locomotive() -> Game:
    """Armoured Trains: "An armoured train may not move if the locomotive's crew ... is pinned" (EC-56)."""
    g = train("train-pinned-locomotive")
    g.at(1, "defensive-small-arms-fire", GER)
    g.status(GER, "b-loco", "pinned")
    g.at(2, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-train", [row(5, 6), row(5, 5)]), "IM.TRAIN.MOVE.LOCO")
    return g


def train_attacks() -> Game:
    """Armoured Trains: "Armoured trains may not initiate close combat but may be attacked" (EC-56)."""
    g = train("train-attacks")
    g.unit("r-inf", GER, "infantry-platoon", row(6, 6))
    g.at(1, "close-combat", BRIT)
    g.expect(g.add("CloseCombatFought", {"combat": "c1", "location": row(6, 6), "attackers": ["b-train"],
                                         "defenders": ["r-inf"]}, side=BRIT), "IM.TRAIN.CC")
    return g


def boats(name: str) -> Game:
    g = Game(name, hexes=RIVER, date="1918-09")
    g.unit("b-steam", BRIT, "boat", row(5, 8), kind="steamboat")
    g.unit("b-gunboat", BRIT, "boat", row(5, 3), kind="gunboat")
    return g


def two_ships_one_hex() -> Game:
    """Naval Units: "there may be no more than one ship per hexagon" (EC-57)."""
    g = boats("two-ships-one-hex")
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-gunboat", [row(5, 3), row(5, 4), row(5, 5), row(5, 6), row(5, 7), row(5, 8)]),
             "IM.NAV.MOVE")
    return g


def pinned_platoon_boards() -> Game:
    """Naval Units: "Non-pinned platoons may board ... during the second foot movement phase" (EC-57: a pinned platoon
    boarding is refused)."""
    g = boats("pinned-platoon-boards")
    g.unit("b-inf", BRIT, "infantry-platoon", row(6, 8))
    g.at(1, "defensive-small-arms-fire", GER)
    g.status(GER, "b-inf", "pinned")
    g.at(2, "vehicle-movement", BRIT)
    g.at(2, "second-foot-movement", BRIT)
    g.expect(g.add("Embarked", {"carrier": "b-steam", "units": ["b-inf"]}, side=BRIT), "IM.NAV.CARRY")
    return g


def gunboat_of_fifty() -> Game:
    """Naval Units: "gunboats may not have more than 40 points of firepower from artillery guns" (EC-57: two 6-inch and
    one 3-inch, 50, are refused)."""
    g = boats("gunboat-of-fifty")
    for name, gun, fp in (("b-g1", "6-inch", 20), ("b-g2", "6-inch", 20), ("b-g3", "3-inch", 10)):
        g.unit(name, BRIT, "artillery-gun", row(5, 3), firepower=fp, gun=gun)
    g.expect(g.add("Embarked", {"carrier": "b-gunboat", "units": ["b-g1", "b-g2", "b-g3"]}, side=BRIT),
             "IM.NAV.GUNBOAT.DESIGN")
    return g


def rifles_at_a_steamboat() -> Game:
    """Naval Units: "Small arms fire alone has no effect on boats or their passengers" (EC-57: rifle fire at a steamboat
    -> no effect)."""
    g = boats("rifles-at-a-steamboat")
    g.unit("g-inf", GER, "infantry-platoon", row(6, 8))
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.small_arms(GER, "a1", ["g-inf"], row(5, 8), 4, [("b-steam", "no-effect")])
    _, resolved = g.small_arms(GER, "a2", ["g-inf"], row(5, 8), 4, [("b-steam", "hit")], spot=False)
    g.expect(resolved, "IM.NAV.VULN")
    return g


CASES = [train_over_cut_rails, train_pinned_locomotive, train_attacks, two_ships_one_hex, pinned_platoon_boards,
         gunboat_of_fifty, rifles_at_a_steamboat, latil_front, a7v54_eight, cv29_small_arms, benz_rifles_probe, carden_loyd_size, gun_carrier_too_soon,
         tadpole_strays,
         tank_breakdown_even, tank_breakdown_no_second_die, cv29_breakdown_modifier, fascine_sequence,
         fascine_mk_iv_without, blast_anti_tank_phase, blast_small_arms_phase, tank_hit_not_destroyed,
         elephant_confirmation, tank_cover, truck_hit_natural_one, truck_overloaded, motorcycles_into_wood,
         mk_v_star_two_squads]


def main() -> None:
    for make in CASES:
        make().write()


if __name__ == "__main__":
    main()
