"""Writes the direct-fire acceptance logs beside this file: spotting, small arms and anti-tank fire,
support weapons, mortars, morale, the optional combat rules, trotting cavalry, the core conventions.

Each case is a complete game log (spec/game-log.md and docs/game-log-extensions.md) with a
NAME.expected.json of the findings it must give; every expectation names the rulebook passage it
comes from (`passage`). Regenerate: `.venv/bin/python -m tests.acceptance.cases_im_fire.build_cases`.
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

    def __init__(self, name: str, *, options: Optional[list] = None, date: str = "1918-06", tables: str = "none",
                 nations: Optional[dict] = None, scenario: Optional[str] = None, permissions: Optional[list] = None,
                 hexes: Optional[dict] = None, weather: str = "fair"):
        self.name, self.lines, self.turn, self.phase = name, [], 0, "setup"
        self.expected: list[dict[str, Any]] = []
        nations = nations or {BRIT: "british", GER: "german"}
        self.add("GameStarted", {"ruleset": "infernal-machines", "scenario": scenario or name, "date": date,
                                 "sides": {BRIT: {"nation": nations[BRIT], "bloc": "allied"},
                                           GER: {"nation": nations[GER], "bloc": "central"}},
                                 "options": options or [], "permissions": permissions or [], "tables": tables})
        self.add("MapDefined", {"maps": ["5"], "hexes": hexes or {}, "hexsides": []})
        self.add("WeatherSet", {"weather": weather, "terrain_state": "good"})

    def add(self, type_: str, data: dict[str, Any], side: Optional[str] = None) -> int:
        seq = len(self.lines) + 1
        self.lines.append({"v": 1, "game": self.name, "seq": seq, "turn": self.turn, "phase": self.phase,
                           "side": side, "type": type_, "data": data, "by": "umpire-tests",
                           "at": f"2026-11-29T13:{seq // 60 % 60:02d}:{seq % 60:02d}Z"})
        return seq

    def unit(self, unit: str, side: str, cls: str, at: Optional[str], firepower=4, range_=6, morale=4, movement=4,
             **attrs) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": at, "facing": 1,
                                         "morale": morale, "firepower": firepower, "range": range_,
                                         "movement": movement, "attrs": attrs}, side=side)

    def at(self, turn: int, phase: str, active: Optional[str] = BRIT) -> None:
        if turn != self.turn:
            self.turn, self.phase = turn, "start"
            self.add("TurnStarted", {"turn": turn})
        self.phase = phase
        self.add("PhaseStarted", {"phase": phase, "active": active})

    def roll(self, side: str, purpose: str, result: int, subject: Optional[str], die: str = "d6", mods=()) -> int:
        data = {"purpose": purpose, "die": die, "result": result, "subject": subject}
        if mods:
            data["modifiers"] = [{"value": v, "why": why} for v, why in mods]
        return self.add("DieRolled", data, side=side)

    def spot(self, side: str, spotter: str, target: str, roll: int = 2) -> int:
        self.roll(side, "IM.SPOT.ROLL", roll, spotter, die="d10")
        return self.add("Spotted", {"spotter": spotter, "target": target, "spotted": True}, side=side)

    def fire(self, side: str, attack: str, firers: list[str], target: str, firepower, rng: int, *, sacrt: Optional[int] = 5,
             mods=(), results=(), spot: bool = True, before=(), **extra) -> tuple[int, int]:
        if spot:
            for firer in firers:
                self.spot(side, firer, target)
        fired = self.add("SmallArmsFired", {"attack": attack, "firers": firers, "target": target,
                                            "firepower": firepower, "range": rng, **extra}, side=side)
        for purpose, result in before:
            self.roll(side, purpose, result, attack)
        if sacrt is not None:
            self.roll(side, "LS.SACRT", sacrt, attack, mods=mods)
        resolved = self.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": u, "result": r}
                                                                                for u, r in results]}, side=side)
        return fired, resolved

    def status(self, side: Optional[str], unit: str, status: str) -> int:
        return self.add("UnitStatusChanged", {"unit": unit, "status": status}, side=side)

    def expect(self, seq: int, rule, verdict: str, passage: str) -> None:
        self.expected.append({"seq": seq, "rule": rule, "verdict": verdict, "accept_seq": [seq], "passage": passage})

    def write(self) -> None:
        (HERE / f"{self.name}.jsonl").write_text("\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.expected.json").write_text(json.dumps({"findings": self.expected}, indent=1) + "\n",
                                                          encoding="utf-8")


def forces(g: Game) -> None:
    """British platoons at 5:0502 and 5:0602, a German platoon at 5:0505 and an MG platoon at 5:0605."""
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0502")
    g.unit("b-inf2", BRIT, "infantry-platoon", "5:0602")
    g.unit("g-inf", GER, "infantry-platoon", "5:0505")
    g.unit("g-mg", GER, "mg-platoon", "5:0605", firepower=6, range_=10)


# -- spotting -------------------------------------------------------------------------------------------
def spot_cases() -> list[Game]:
    g = Game("fire-spot-needed")
    forces(g)
    g.at(1, "offensive-small-arms-fire")
    fired, _ = g.fire(BRIT, "a-1", ["b-inf"], "5:0505", 4, 3, spot=False, results=[("g-inf", "no-effect")])
    g.expect(fired, "IM.SPOT.NEEDED", "violation", "Spotting (changed): 'the firing unit must first be able to spot "
             "the target'")
    out = [g]

    g = Game("fire-reinforcement-buttoned-up")
    forces(g)
    g.at(2, "vehicle-movement")
    tank = g.unit("b-tank", BRIT, "tank", "5:0501", firepower=6, range_=8, hatch="open")
    g.expect(tank, "IM.SPOT.BUTTONED.DEFAULT", "violation", "Buttoned-Up Hatches: 'All reinforcement vehicles "
             "entering play are considered to have their hatches buttoned up.'")
    out.append(g)

    g = Game("fire-commander-hit-roll")
    forces(g)
    g.unit("b-tank", BRIT, "tank", "5:0504", firepower=6, range_=8)
    g.unit("b-cdr", BRIT, "forward-observer", "5:0504", firepower=0, range_=0, vehicle="b-tank")
    g.at(1, "defensive-small-arms-fire")
    _, resolved = g.fire(GER, "a-1", ["g-inf"], "5:0504", 4, 1, results=[("b-tank", "hit")])
    g.at(1, "offensive-anti-tank-fire")
    g.expect(resolved, "IM.SPOT.BUTTONED.CMDR_HIT", "missing-roll", "Buttoned-Up Hatches: 'A second result of 1 or 2 "
             "on a six-sided die following a successful to-hit roll on the SACRT indicates that the commander has "
             "been seriously wounded.'")
    out.append(g)
    return out


# -- direct fire ------------------------------------------------------------------------------------------
def fire_cases() -> list[Game]:
    g = Game("fire-range-counted-in-hexes")
    forces(g)
    g.at(1, "offensive-small-arms-fire")
    miscounted, _ = g.fire(BRIT, "a-1", ["b-inf"], "5:0505", 4, 2, results=[("g-inf", "no-effect")])
    g.unit("g-far", GER, "infantry-platoon", "5:0509")
    far, _ = g.fire(BRIT, "a-2", ["b-inf2"], "5:0609", 4, 7, results=[], spot=True)
    g.expect(miscounted, "IM.CORE.RANGE.COUNT", "mismatch", "Spotting (changed): 'the number shown for that "
             "distance in hexagons' (5:0502 to 5:0505 is three hexagons)")
    g.expect(far, "IM.CORE.RANGE", "violation", "counters: a platoon of range 6 fires at seven hexagons")
    out = [g]

    g = Game("fire-phase-and-side")
    forces(g)
    g.at(1, "first-foot-movement")
    moving = g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-inf"], "target": "5:0505", "firepower": 4,
                                      "range": 3}, side=BRIT)
    g.at(1, "defensive-small-arms-fire")
    own, _ = g.fire(BRIT, "a-2", ["b-inf"], "5:0505", 4, 3, results=[("g-inf", "no-effect")])
    g.expect(moving, ["IM.CORE.PHASE.FIRE"], "violation", "Mortar fire procedure: small arms fire is made 'during "
             "the defensive or offensive small arms fire phases'")
    g.expect(moving, ["IM.SPOT.NEEDED"], "violation", "Spotting (changed): spot before direct fire")
    g.expect(own, "IM.CORE.SIDE.FIRE", "violation", "Running: 'If fired upon during a defensive fire phase' (the "
             "other player fires in the defensive phase)")
    out.append(g)

    g = Game("fire-morale-after-hit")
    forces(g)
    g.at(1, "offensive-small-arms-fire")
    g.fire(BRIT, "a-1", ["b-inf"], "5:0505", 4, 3, sacrt=1, results=[("g-inf", "hit")])
    g.roll(GER, "LS.MORALE", 5, "g-inf")
    checked = g.add("MoraleChecked", {"units": ["g-inf"], "morale": 4, "passed": True}, side=GER)
    g.status(GER, "g-inf", "pinned")
    g.fire(BRIT, "a-2", ["b-inf2"], "5:0605", 4, 3, sacrt=1, results=[("g-mg", "hit")])
    unrolled = g.add("MoraleChecked", {"units": ["g-mg"], "morale": 4, "passed": False}, side=GER)
    g.status(GER, "g-mg", "eliminated")
    g.expect(checked, "IM.CORE.MORALE", "mismatch", "Secondary impact zones: 'Infantry that roll a die result less "
             "than or equal to their morale value pass the morale check' (5 against 4 fails)")
    g.expect(unrolled, "LS.MORALE", "missing-roll", "Armoured Trains: 'If hit, it is subject to the normal morale "
             "check' (a morale check is a roll)")
    out.append(g)
    return out


# -- support weapons ------------------------------------------------------------------------------------------
def sw_cases() -> list[Game]:
    g = Game("sw-carriers-ec34", date="1918-02", nations={BRIT: "american", GER: "german"})
    forces(g)
    smg_mg = g.unit("g-mg2", GER, "mg-platoon", "5:0705", firepower=6, range_=10, smg=True)
    mmg_inf = g.unit("b-inf3", BRIT, "infantry-platoon", "5:0702", mmg=True)
    gl5 = g.unit("b-inf4", BRIT, "infantry-platoon", "5:0802", gl=5)
    bar = g.unit("b-inf5", BRIT, "infantry-platoon", "5:0902", lmg=["bar"])
    g.expect(smg_mg, "IM.SW.SMG", "violation", "Submachine Guns: 'Neither machine gun platoons nor cavalry units of "
             "any kind may carry a submachine gun.'")
    g.expect(mmg_inf, "IM.SW.MMG", "violation", "Medium Machine Guns: 'Neither infantry or MG platoons nor cavalry "
             "units of any kind may use a medium machine gun without a crew counter.'")
    g.expect(gl5, "IM.SW.GL", "violation", "Grenade Launchers: 'up to four grenade launcher markers'")
    g.expect(bar, "IM.SW.LMG.BAR", "violation", "Light Machine Guns: 'The BAR is available only to American troops "
             "and from March 1918.' (February 1918)")
    out = [g]

    g = Game("sw-smg-by-distance")
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0502", smg=True)
    g.unit("g-inf", GER, "infantry-platoon", "5:0505")
    g.unit("g-near", GER, "infantry-platoon", "5:0504")
    g.at(1, "offensive-small-arms-fire")
    near, _ = g.fire(BRIT, "a-1", ["b-inf"], "5:0504", 14, 2, results=[("g-near", "no-effect")])
    three, _ = g.fire(BRIT, "a-2", ["b-inf"], "5:0505", 14, 3, results=[("g-inf", "no-effect")])
    g.expect(three, "IM.SW.SMG", "violation", "Submachine Guns: '+10 ... up to a distance of two hexagons. At a "
             "distance of three hexagons, it may add +5.'")
    out.append(g)

    g = Game("sw-benet-ec30")
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0502", lmg=[{"type": "benet", "firepower": 2, "range": 8}])
    g.unit("g-inf", GER, "infantry-platoon", "5:0505")
    g.at(3, "offensive-small-arms-fire")
    g.fire(BRIT, "a-1", ["b-inf"], "5:0505", 6, 3, results=[("g-inf", "no-effect")])
    g.roll(BRIT, "IM.SW.LMG.BENET", 2, "b-inf")
    g.at(4, "offensive-small-arms-fire")
    again, _ = g.fire(BRIT, "a-2", ["b-inf"], "5:0505", 6, 3, results=[("g-inf", "no-effect")], weapons=["benet"])
    g.at(5, "pin-removal")
    g.expect(again, "IM.SW.LMG.BENET", "violation", "Light Machine Guns: 'On a result of 1 or 2, the Benet light "
             "machine gun breaks. Remove the counter from play.'")
    g.expect(again, "IM.CORE.FIREPOWER", "violation", "the broken Benet adds nothing: printed firepower 4")
    out.append(g)

    g = Game("sw-atr-ec35")
    g.unit("g-atr", GER, "support-weapon", "5:0502", firepower=1, range_=4, weapon="atr")
    g.unit("b-tank", BRIT, "tank", "5:0505", firepower=6, range_=8, movement=2)
    g.at(1, "defensive-anti-tank-fire")
    g.spot(GER, "g-atr", "5:0505")
    g.add("AntiTankFired", {"attack": "t-1", "firers": ["g-atr"], "target": "5:0505", "target_unit": "b-tank",
                            "weapon": "atr", "range": 3}, side=GER)
    g.roll(GER, "LS.ATCRT", 3, "t-1", die="d10")
    g.add("AntiTankResolved", {"attack": "t-1", "results": [{"unit": "b-tank", "result": "hit"}]}, side=GER)
    g.roll(GER, "IM.SW.ATR.CRIT", 3, "b-tank")
    g.roll(GER, "IM.SW.ATR.CRIT", 4, "b-tank")
    g.at(2, "vehicle-movement")
    held = g.add("UnitMoved", {"unit": "b-tank", "path": ["5:0505", "5:0504"]}, side=BRIT)
    g.expect(held, "IM.SW.ATR.CRIT", "violation", "Anti-Tank Rifles: 'on a result of 2 or 3, the tank's driver is "
             "hit ... the tank immediately stops its movement and will then remain in the hexagon for one turn'")
    out.append(g)

    g = Game("sw-mortar-ec32", hexes={"5:0606": {"terrain": "clear"}})
    g.unit("b-mortar", BRIT, "mortar", "5:0502", firepower=4, range_=13, type="light", rate_of_fire=6)
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0503")
    g.unit("b-fo", BRIT, "forward-observer", "5:0603", firepower=0, range_=0)
    g.unit("g-inf", GER, "infantry-platoon", "5:0506")
    g.unit("g-inf2", GER, "infantry-platoon", "5:0606")
    g.at(1, "barrage")
    in_barrage, _ = g.fire(BRIT, "m-0", ["b-mortar"], "5:0506", 4, 4, mods=[(-1, "mortar, clear")],
                           before=[("IM.SW.MORTAR.SCATTER", 2)], results=[("g-inf", "no-effect")])
    g.at(1, "offensive-small-arms-fire")
    g.fire(BRIT, "m-1", ["b-mortar"], "5:0506", 4, 4, mods=[(-1, "mortar, clear")],
           before=[("IM.SW.MORTAR.SCATTER", 2)], results=[("g-inf", "no-effect")])
    second, _ = g.fire(BRIT, "m-2", ["b-mortar"], "5:0606", 4, 4, mods=[(-1, "mortar, clear")],
                       before=[("IM.SW.MORTAR.SCATTER", 1)], results=[("g-inf2", "no-effect")])
    combined, _ = g.fire(BRIT, "a-3", ["b-mortar", "b-inf"], "5:0506", 8, 4, mods=[(-1, "mortar, clear")],
                         before=[("IM.SW.MORTAR.SCATTER", 2)], results=[("g-inf", "no-effect")])
    g.expect(in_barrage, "IM.SW.MORTAR.DIRECT", "violation", "Mortar fire procedure: 'Mortars may not fire in the "
             "barrage phase.'")
    g.expect(second, "IM.SW.MORTAR.ONEHEX", "violation", "'Each mortar may attack only one hexagon per fire phase.'")
    g.expect(combined, "IM.SW.MORTAR.ORDER", "violation", "'A mortar's small arms fire is never combined with other "
             "small arms fire not made by mortars'")
    out.append(g)
    return out


# -- optional combat, cavalry, core ------------------------------------------------------------------------------
def optional_cases() -> list[Game]:
    g = Game("optcbt-pin-removal-ec53", options=["IM.OPTCBT.PINREMOVAL", "IM.OPTCBT.HEROISM"])
    forces(g)
    g.status(BRIT, "b-inf", "pinned")
    g.status(BRIT, "b-inf2", "pinned")
    g.at(2, "pin-removal")
    g.roll(BRIT, "IM.OPTCBT.PINREMOVAL", 4, "b-inf")
    stays = g.status(BRIT, "b-inf", "unpinned")
    g.roll(BRIT, "IM.OPTCBT.PINREMOVAL", 6, "b-inf2")
    g.roll(BRIT, "IM.OPTCBT.HEROISM", 4, "b-inf2")
    retreat = g.status(BRIT, "b-inf2", "unpinned")
    g.expect(stays, "IM.OPTCBT.PINREMOVAL", "mismatch", "Non-Automatic Removal of Pinned Markers: '3-5 All units in "
             "the hexagon remain pinned'")
    g.expect(retreat, "IM.OPTCBT.HEROISM", "mismatch", "Infantry Heroism: 'Retreat: the unit or stack retreats two "
             "hexagons and remains pinned.'")
    out = [g]

    g = Game("optcbt-red-army-ec54", options=["IM.OPTCBT.REDARMY"], scenario="russian civil war 1919",
             nations={BRIT: "british", GER: "red-army"}, date="1919-05")
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0502")
    g.unit("r-inf", GER, "infantry-platoon", "5:0505")
    g.unit("r-inf2", GER, "infantry-platoon", "5:0605")
    g.unit("r-ldr", GER, "infantry-leader", "5:0605", firepower=0, range_=0)
    g.at(1, "offensive-small-arms-fire")
    _, unrolled = g.fire(BRIT, "a-1", ["b-inf"], "5:0505", 4, 3, sacrt=1, results=[("r-inf", "hit")])
    _, led = g.fire(BRIT, "a-2", ["b-inf"], "5:0605", 4, 3, sacrt=1, results=[("r-inf2", "hit")])
    g.roll(GER, "IM.OPTCBT.REDARMY", 4, "r-inf2")
    g.at(1, "close-combat")
    g.expect(unrolled, "IM.OPTCBT.REDARMY", "missing-roll", "Unpredictability of the Red Army: 'each time a Red Army "
             "unit suffers a hit result on the SACRT, roll another six-sided die'")
    g.expect(led, "IM.OPTCBT.REDARMY", "violation", "'EXCEPTION: if a Red Army infantry leader is present in the "
             "hexagon ... no rout test is needed'")
    out.append(g)

    g = Game("optcbt-preset-ec52", options=["IM.OPTCBT.PRESET"])
    forces(g)
    g.unit("g-far", GER, "infantry-platoon", "5:0506")
    g.at(1, "offensive-small-arms-fire")
    _, missing = g.fire(BRIT, "a-1", ["b-inf"], "5:0506", 4, 4, results=[("g-far", "no-effect")])
    _, near = g.fire(BRIT, "a-2", ["b-inf2"], "5:0605", 4, 3, mods=[(0, "none")], results=[("g-mg", "no-effect")])
    g.expect(missing, "IM.OPTCBT.PRESET", "mismatch", "Pre-Set Rifle Ranges: Americans/British 2 hexagons; '+1 to "
             "the die roll on the SACRT for every two hexagons' (four hexagons: +1)")
    g.expect(near, "IM.OPTCBT.PRESET", "ambiguous", "AP-17: British rifles at three hexagons, one beyond their pre-set "
             "range: +0 or +1?")
    out.append(g)

    g = Game("optcbt-not-agreed")
    forces(g)
    g.status(BRIT, "b-inf", "pinned")
    g.at(2, "pin-removal")
    roll = g.roll(BRIT, "IM.OPTCBT.PINREMOVAL", 2, "b-inf")
    g.status(BRIT, "b-inf", "unpinned")
    g.expect(roll, "IM.OPTCBT.AGREE", "violation", "Advanced Infantry Combat Rules (Optional): 'Both players must "
             "agree at the start of a scenario which they will use.'")
    out.append(g)

    g = Game("cav-trot-ec55")
    g.unit("b-cav", BRIT, "cavalry-platoon", "5:0502", firepower=0, range_=0, movement=10)
    g.unit("b-cav2", BRIT, "cavalry-platoon", "5:0602", firepower=0, range_=0, movement=10)
    g.unit("g-inf", GER, "infantry-platoon", "5:0510")
    g.unit("g-inf2", GER, "infantry-platoon", "5:0610")
    g.at(1, "first-foot-movement")
    g.add("UnitMoved", {"unit": "b-cav", "path": [f"5:05{r:02d}" for r in range(2, 8)], "mode": "trot"}, side=BRIT)
    g.add("UnitMoved", {"unit": "b-cav2", "path": [f"5:06{r:02d}" for r in range(2, 9)], "mode": "gallop"}, side=BRIT)
    g.at(1, "offensive-small-arms-fire")
    far, _ = g.fire(BRIT, "a-1", ["b-cav"], "5:0510", 1, 3, results=[("g-inf", "no-effect")])
    gallop, _ = g.fire(BRIT, "a-2", ["b-cav2"], "5:0610", 1, 2, results=[("g-inf2", "no-effect")])
    g.expect(far, "IM.CAV.TROT", "violation", "Mounted Cavalry Small Arms Fire: 'an inherent firepower of 1 and a "
             "range of 2' (EC-55: a target at 3 -> REJECT)")
    g.expect(gallop, "IM.CAV.TROT", "violation", "'Cavalry units that charge or gallop still have no firepower or "
             "firing range.'")
    out.append(g)

    g = Game("core-dice-and-signs", hexes={"5:0506": {"terrain": "clear"}})
    g.unit("b-mortar", BRIT, "mortar", "5:0502", firepower=4, range_=13, type="light", rate_of_fire=6)
    g.unit("g-inf", GER, "infantry-platoon", "5:0506")
    g.at(1, "offensive-small-arms-fire")
    g.spot(BRIT, "b-mortar", "5:0506")
    g.add("SmallArmsFired", {"attack": "m-1", "firers": ["b-mortar"], "target": "5:0506", "firepower": 4,
                             "range": 4}, side=BRIT)
    d10 = g.roll(BRIT, "IM.SW.MORTAR.SCATTER", 2, "m-1", die="d10")
    g.roll(BRIT, "LS.SACRT", 4, "m-1", mods=[(1, "mortar")])
    resolved = g.add("SmallArmsResolved", {"attack": "m-1", "results": [{"unit": "g-inf", "result": "no-effect"}]},
                     side=BRIT)
    g.expect(d10, "IM.CORE.DICE", "violation", "Mortar fire procedure: 'On a result of 5 or 6 (using a six-sided die)'")
    g.expect(resolved, "IM.SW.MORTAR.RESOLVE", "mismatch", "'a favourable die modifier of -1 against clear terrain'")
    out.append(g)
    return out


def legal_game() -> Game:
    """A clean turn of the ground war: every check passes."""
    g = Game("fire-legal-turn", date="1918-06", nations={BRIT: "american", GER: "german"},
             hexes={"5:0506": {"terrain": "clear"}})
    g.unit("b-inf", BRIT, "infantry-platoon", "5:0503", smg=True, gl=2, lmg=["bar"])
    g.unit("b-crew", BRIT, "crew", "5:0603", firepower=1, range_=2, mmg=True)
    g.unit("b-mortar", BRIT, "mortar", "5:0502", firepower=4, range_=13, type="light", rate_of_fire=6)
    g.unit("g-inf", GER, "infantry-platoon", "5:0506")
    g.unit("g-inf2", GER, "infantry-platoon", "5:0605")
    g.at(1, "offensive-small-arms-fire")
    g.fire(BRIT, "m-1", ["b-mortar"], "5:0506", 4, 4, mods=[(-1, "mortar, clear")],
           before=[("IM.SW.MORTAR.SCATTER", 3)], results=[("g-inf", "no-effect")])
    g.fire(BRIT, "a-1", ["b-inf"], "5:0506", 9, 3, weapons=["smg"], results=[("g-inf", "hit")], sacrt=1)
    g.roll(GER, "LS.MORALE", 3, "g-inf")
    g.add("MoraleChecked", {"units": ["g-inf"], "morale": 4, "passed": True}, side=GER)
    g.status(GER, "g-inf", "pinned")
    g.fire(BRIT, "a-2", ["b-crew"], "5:0605", 4, 2, results=[("g-inf2", "no-effect")])
    return g


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    for old in HERE.glob("*.expected.json"):
        old.unlink()
    for game in [*spot_cases(), *fire_cases(), *sw_cases(), *optional_cases(), legal_game()]:
        game.write()


if __name__ == "__main__":
    main()
