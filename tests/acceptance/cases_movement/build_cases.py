"""Writes the movement, observation and spotting acceptance logs beside this file.

Each case is a complete game log in the interchange format (spec/game-log.md) with a
NAME.expected.json of the findings it must give (spec/examples style). Run it to regenerate:
`.venv/bin/python -m tests.acceptance.cases_movement.build_cases`. Every expectation cites the
rulebook passage it comes from.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from domain.log import chain

HERE = Path(__file__).resolve().parent
BRIT, GER = "british", "german"


def row(col: int, r: int, m: str = "5") -> str:
    return f"{m}:{col:02d}{r:02d}"


def along(c0: int, c1: int, r: int, m: str = "5") -> list[str]:
    """Hexes of one row from column c0 to c1: neighbours in the odd-q layout."""
    step = 1 if c1 >= c0 else -1
    return [row(c, r, m) for c in range(c0, c1 + step, step)]


class Game:
    """A log under construction: seq, turn and phase kept as the format requires."""

    def __init__(self, name: str, *, tables: str = "none", options: Optional[list] = None,
                 hexes: Optional[dict] = None, hexsides: Optional[list] = None, weather: str = "fair",
                 terrain_state: str = "good", date: str = "1917-04", nations: Optional[dict] = None):
        self.name, self.lines, self.turn, self.phase = name, [], 0, "setup"
        self.expected: list[dict[str, Any]] = []
        nations = nations or {BRIT: "british", GER: "german"}
        self.add("GameStarted", {"ruleset": "infernal-machines", "scenario": name, "date": date,
                                 "sides": {BRIT: {"nation": nations[BRIT], "bloc": "allied"},
                                           GER: {"nation": nations[GER], "bloc": "central"}},
                                 "options": options or [], "permissions": [], "tables": tables})
        self.add("MapDefined", {"maps": ["5"], "hexes": hexes or {}, "hexsides": hexsides or []})
        self.add("WeatherSet", {"weather": weather, "terrain_state": terrain_state})

    def add(self, type_: str, data: dict[str, Any], side: Optional[str] = None) -> int:
        seq = len(self.lines) + 1
        self.lines.append({"v": 1, "game": self.name, "seq": seq, "turn": self.turn, "phase": self.phase,
                           "side": side, "type": type_, "data": data, "by": "umpire-tests",
                           "at": f"2026-11-29T12:{seq // 60 % 60:02d}:{seq % 60:02d}Z"})
        return seq

    def unit(self, unit: str, side: str, cls: str, location: str, movement: Optional[int] = 4,
             **attrs) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location,
                                         "facing": 1, "morale": 4, "firepower": 4, "range": 6,
                                         "movement": movement, "attrs": attrs}, side=side)

    def turn_start(self, turn: int) -> None:
        self.turn, self.phase = turn, "start"
        self.add("TurnStarted", {"turn": turn})

    def phase_start(self, phase: str, active: Optional[str]) -> None:
        self.phase = phase
        self.add("PhaseStarted", {"phase": phase, "active": active})

    def move(self, side: str, unit: str, path: list[str], mode: Optional[str] = None) -> int:
        data: dict[str, Any] = {"unit": unit, "path": path}
        if mode:
            data["mode"] = mode
        return self.add("UnitMoved", data, side=side)

    def roll(self, side: str, purpose: str, result: int, subject: str, die: str = "d6") -> int:
        return self.add("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject},
                        side=side)

    def marker(self, marker: str, location: str, unit: Optional[str] = None, side: Optional[str] = None) -> int:
        data = {"marker": marker, "location": location}
        if unit:
            data["unit"] = unit
        return self.add("MarkerPlaced", data, side=side)

    def status(self, side: Optional[str], unit: str, status: str) -> int:
        return self.add("UnitStatusChanged", {"unit": unit, "status": status}, side=side)

    def expect(self, seq: int, rule, verdict: str = "violation", accept: Optional[list[int]] = None) -> None:
        self.expected.append({"seq": seq, "rule": rule, "verdict": verdict, "accept_seq": accept or [seq]})

    def write(self) -> None:
        (HERE / f"{self.name}.jsonl").write_text(
            "\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.expected.json").write_text(
            json.dumps({"findings": self.expected}, indent=1) + "\n", encoding="utf-8")


def player_turn(g: Game, side: str, phases: tuple[str, ...]) -> None:
    for phase in phases:
        g.phase_start(phase, side)


BRIT_TURN = ("pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
             "second-foot-movement")


def standard(name: str, **kw) -> Game:
    """Map 5 with a road along row 08, a wood at 1206 and a town at 1410; both sides deployed."""
    hexes = {**{h: {"terrain": "clear", "features": ["road"]} for h in along(5, 25, 8)},
             "5:1206": {"terrain": "wood"}, "5:1410": {"terrain": "town"}, **kw.pop("hexes", {})}
    g = Game(name, hexes=hexes, **kw)
    g.add("ArtilleryMissionSet", {"side": BRIT, "mission": "destruction"})
    g.add("BarrageTypesSet", {"side": BRIT, "allowed": ["drumfire", "hurricane"]})
    g.unit("b-inf", BRIT, "infantry-platoon", "5:1005", movement=4)
    g.unit("b-tank", BRIT, "tank", "5:1008", movement=4)
    g.unit("b-car", BRIT, "armoured-car", "5:1010", movement=8)
    g.unit("b-cav", BRIT, "cavalry-platoon", "5:1012", movement=10)
    g.unit("b-fo", BRIT, "forward-observer", "5:1003", movement=4)
    g.unit("g-inf", GER, "infantry-platoon", "5:1605", movement=4)
    g.unit("g-mg", GER, "mg-platoon", "5:1812", movement=3)
    g.unit("g-fo", GER, "forward-observer", "5:2204", movement=4)
    g.add("ArtilleryElementAssigned", {"element": "obm-1", "firepower": 20, "side": BRIT}, side=BRIT)
    return g


def barrage_after_observation(g: Game, side: str, barrage: str, target: str, observer: str) -> None:
    """A first-turn destruction drumfire, as in spec/examples/resistance-turns (turn 1: no FOT)."""
    g.add("BarrageDeclared", {"barrage": barrage, "side": side, "target": target, "elements": ["obm-1"],
                              "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he",
                              "observer": observer, "sustained": False}, side=side)
    g.roll(side, "IM.ART.SCATTER.DRUMFIRE", 2, barrage)
    g.add("ScatterTested", {"barrage": barrage, "scattered": False}, side=side)
    g.roll(side, "IM.ART.BCRT.REVISED", 6, barrage)
    g.add("BarrageResolved", {"barrage": barrage, "firepower": 20, "column": "20",
                              "results": [{"location": target, "zone": "primary", "result": "miss"}]}, side=side)


def spot_and_fire(g: Game, side: str, firer: str, target: str, attack: str, rng: int,
                  roll: int = 3, die: str = "d10") -> tuple[int, int]:
    g.roll(side, "IM.SPOT.ROLL", roll, firer, die=die)
    spot = g.add("Spotted", {"spotter": firer, "target": target, "spotted": True}, side=side)
    fire = g.add("SmallArmsFired", {"attack": attack, "firers": [firer], "target": target, "firepower": 4,
                                    "range": rng}, side=side)
    g.roll(side, "LS.SACRT", 5, attack)
    return spot, fire


def legal_game() -> Game:
    """Both player turns of a normal game: every class moves in its own phase, an FO observes
    ten hexes away (IM.ART.FO.RANGE: within 10, own hex not counted), a spot on a d10
    (IM.SPOT.ROLL) precedes small arms fire (IM.SPOT.NEEDED)."""
    g = standard("mv-legal-game")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    g.add("HexObserved", {"observer": "b-fo", "target": "5:2003", "via": "forward-observer"}, side=BRIT)
    barrage_after_observation(g, BRIT, "b-1", "5:2003", "b-fo")
    g.phase_start("air-combat", BRIT)
    g.phase_start("vehicle-movement", BRIT)
    g.move(BRIT, "b-tank", along(10, 12, 8))
    g.move(BRIT, "b-car", along(10, 13, 10))
    g.phase_start("first-foot-movement", BRIT)
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    g.move(BRIT, "b-cav", along(10, 13, 12))
    g.phase_start("second-foot-movement", BRIT)
    g.move(BRIT, "b-inf", ["5:1105", "5:1205"])
    g.phase_start("defensive-small-arms-fire", BRIT)
    g.phase_start("offensive-small-arms-fire", BRIT)
    spot_and_fire(g, BRIT, "b-inf", "5:1605", "a-1", 4)
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-inf", "result": "no-effect"}]},
          side=BRIT)
    g.phase_start("close-combat", BRIT)
    g.phase_start("end", BRIT)
    g.phase_start("pin-removal", GER)
    g.phase_start("barrage", GER)
    g.phase_start("vehicle-movement", GER)
    g.phase_start("first-foot-movement", GER)
    g.move(GER, "g-inf", ["5:1605", "5:1606"])
    g.move(GER, "g-mg", ["5:1812", "5:1712"])
    g.phase_start("second-foot-movement", GER)
    g.move(GER, "g-fo", ["5:2204", "5:2205"])
    g.phase_start("end", GER)
    return g





def british_turn(name: str, upto: str = "second-foot-movement", turn: int = 1, g: Optional[Game] = None,
                 **kw) -> Game:
    """A game up to the start of `upto` in the British player turn."""
    g = g or standard(name, **kw)
    g.turn_start(turn)
    for phase in BRIT_TURN:
        g.phase_start(phase, BRIT)
        if phase == upto:
            break
    return g


# -- IM.CORE: where, when, who ------------------------------------------------------------------------
def nonadjacent_step() -> Game:
    g = british_turn("mv-nonadjacent-step", "first-foot-movement")
    # Landships! movement is hex by hex: 1005 and 1205 are two hexes apart
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1205"]), "IM.CORE.PATH")
    return g


def vehicle_in_foot_phase() -> Game:
    g = british_turn("mv-vehicle-in-foot-phase", "first-foot-movement")
    # Game sequence: vehicles move in the Vehicle Movement Phase
    g.expect(g.move(BRIT, "b-tank", along(10, 11, 8)), "IM.CORE")
    return g


def foot_in_vehicle_phase() -> Game:
    g = british_turn("mv-foot-in-vehicle-phase", "vehicle-movement")
    # Game sequence: foot units move in the two foot movement phases
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), "IM.CORE")
    return g


def pinned_unit_moves() -> Game:
    g = standard("mv-pinned-unit-moves")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    g.phase_start("vehicle-movement", BRIT)
    g.phase_start("first-foot-movement", BRIT)
    g.status(BRIT, "b-inf", "pinned")
    # Landships!: a pinned unit may not move (IM.ART.FO / effects: "No movement is permitted until ...")
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), ["IM.CORE.PINNED", "IM.CORE"])
    g.marker("pinned", "5:1012", unit="b-cav", side=BRIT)
    g.expect(g.move(BRIT, "b-cav", ["5:1012", "5:1112"]), ["IM.CORE.PINNED", "IM.CORE"])
    return g


def other_sides_unit() -> Game:
    g = british_turn("mv-other-sides-unit", "first-foot-movement")
    # a player moves his own units in his own player turn
    g.expect(g.move(BRIT, "g-inf", ["5:1605", "5:1606"]), "IM.CORE.SIDE")
    g.expect(g.move(GER, "g-mg", ["5:1812", "5:1712"]), "IM.CORE.SIDE")
    return g


# -- obstacles and terrain (Obstacles (new), Additional Terrain Types (new)) ------------------------------
def high_wire_foot() -> Game:
    g = british_turn("mv-high-wire-foot", "first-foot-movement")
    g.marker("wire", "5:1105")
    g.marker("wire", "5:1105")            # two stacked counters are high wire
    g.marker("wire-high", "5:1112")
    # "Foot and cavalry units may not move through high barbed wire obstacles at all."
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"]), "IM.OBS.WIRE.HIGH")
    g.expect(g.move(BRIT, "b-cav", ["5:1012", "5:1112", "5:1212"]), "IM.OBS.WIRE.HIGH")
    return g


def high_wire_tank_legal() -> Game:
    g = british_turn("mv-high-wire-tank-legal", "vehicle-movement")
    g.marker("wire-high", "5:1108")
    # tanks are what clears high wire: nothing forbids them
    g.move(BRIT, "b-tank", ["5:1008", "5:1108", "5:1208"])
    return g


def roadblock_vehicle() -> Game:
    g = british_turn("mv-roadblock-vehicle", "vehicle-movement",
                     hexes={h: {"terrain": "clear", "features": ["road"]} for h in along(5, 25, 10)})
    g.marker("roadblock", "5:1110", side=GER)
    # "Vehicles may not pass until it is destroyed" (only tanks destroy it by movement)
    g.expect(g.move(BRIT, "b-car", along(10, 12, 10)), "IM.OBS.ROADBLOCK")
    return g


def roadblock_tank_legal() -> Game:
    g = british_turn("mv-roadblock-tank-legal", "vehicle-movement")
    g.marker("roadblock", "5:1108", side=GER)
    # a tank enters the roadblock hex and spends its remaining MP there: legal (EC-45)
    g.move(BRIT, "b-tank", ["5:1008", "5:1108"])
    g.add("MarkerRemoved", {"marker": "roadblock", "location": "5:1108"}, side=BRIT)
    return g


def rubble_level_2() -> Game:
    g = british_turn("mv-rubble-level-2", "first-foot-movement", hexes={"5:1105": {"terrain": "town"}})
    g.marker("rubble-2", "5:1105")
    # Rubble markers: no unit may enter a Level 2 rubble hex (EC-43)
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), "IM.TER.RUBBLE")
    return g


def stone_wall_wheeled() -> Game:
    walls = [{"between": ["5:1010", "5:1110"], "feature": "stone-wall"},
             {"between": ["5:1008", "5:1108"], "feature": "stone-wall"},
             {"between": ["5:1005", "5:1105"], "feature": "stone-wall"}]
    g = british_turn("mv-stone-wall-wheeled", "vehicle-movement", hexsides=walls)
    # "Wheeled vehicles may not cross stone walls." Tanks may (+1 MP), infantry freely.
    g.expect(g.move(BRIT, "b-car", along(10, 12, 10)), "IM.TER.WALL")
    g.move(BRIT, "b-tank", along(10, 11, 8))
    g.phase_start("first-foot-movement", BRIT)
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    return g


def cavalry_multi_storey() -> Game:
    g = british_turn("mv-cavalry-multi-storey", "first-foot-movement",
                     hexes={"5:1112": {"terrain": "town", "features": ["multi-storey"]}})
    # "Cavalry units may enter multi-storey buildings only if they have first dismounted."
    g.expect(g.move(BRIT, "b-cav", ["5:1012", "5:1112"]), "IM.TER.MS")
    return g


def cavalry_dismounted_legal() -> Game:
    g = british_turn("mv-cavalry-dismounted-legal", "first-foot-movement",
                     hexes={"5:1112": {"terrain": "town", "features": ["multi-storey"]}})
    g.status(BRIT, "b-cav", "dismounted")
    g.move(BRIT, "b-cav", ["5:1012", "5:1112"])
    return g


# -- weather and terrain state (Terrain States (changed)) ---------------------------------------------
def deep_snow_foot() -> Game:
    g = british_turn("mv-deep-snow-foot", "first-foot-movement", terrain_state="deep-snow")
    # "Deep snow conditions limit foot units without skis to a total movement of one hexagon per
    # turn, and that movement may only be made during the second foot movement phase."
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), "IM.ENV.DEEPSNOW")
    g.phase_start("second-foot-movement", BRIT)
    g.move(BRIT, "b-fo", ["5:1003", "5:1103"])          # one hex, second phase: legal
    return g


def deep_snow_two_hexes() -> Game:
    g = british_turn("mv-deep-snow-two-hexes", "second-foot-movement", terrain_state="deep-snow")
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"]), "IM.ENV.DEEPSNOW")
    return g


def snow_tracked_costs() -> Game:
    """EX-IM-01: a tracked vehicle entering a clear hex in snow pays 3 MP (MA 4: one hex)."""
    g = british_turn("mv-snow-tracked-costs", "vehicle-movement", terrain_state="snow",
                     hexes={"5:1111": {"terrain": "wood"}})
    g.move(BRIT, "b-tank", ["5:1008", "5:1007"])
    # the armoured car (MA 8) tries clear (5) + wood (9) in snow: 14 MP
    g.expect(g.move(BRIT, "b-car", ["5:1010", "5:1011", "5:1111"]), "IM.ENV.MUDSNOW")
    return g


def destruction_zone() -> Game:
    """Destruction/HE: infantry starting in the zone move one hex, in the second phase; no
    cavalry movement into or out of an active zone."""
    g = standard("mv-destruction-zone", hexes={"5:1810": {"terrain": "town"}})
    g.unit("g-cav", GER, "cavalry-platoon", "5:1711", movement=10)
    g.unit("g-inf2", GER, "infantry-platoon", "5:1710", movement=4)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    g.add("HexObserved", {"observer": None, "target": "5:1810", "via": "automatic"}, side=BRIT)
    g.add("BarrageDeclared", {"barrage": "b-1", "side": BRIT, "target": "5:1810", "elements": ["obm-1"],
                              "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he",
                              "observer": None, "sustained": False}, side=BRIT)
    g.roll(BRIT, "IM.ART.SCATTER.DRUMFIRE", 2, "b-1")
    g.add("ScatterTested", {"barrage": "b-1", "scattered": False}, side=BRIT)
    g.roll(BRIT, "IM.ART.BCRT.REVISED", 6, "b-1")
    g.add("BarrageResolved", {"barrage": "b-1", "firepower": 20, "column": "20", "results": [
        {"location": "5:1810", "zone": "primary", "result": "miss"},
        {"location": "5:1710", "zone": "secondary", "result": "miss"},
        {"location": "5:1711", "zone": "secondary", "result": "miss"}]}, side=BRIT)
    for phase in ("air-combat", "vehicle-movement", "first-foot-movement", "second-foot-movement", "end"):
        g.phase_start(phase, BRIT)
    g.phase_start("pin-removal", GER)
    g.phase_start("barrage", GER)
    g.phase_start("vehicle-movement", GER)
    g.phase_start("first-foot-movement", GER)
    g.expect(g.move(GER, "g-inf2", ["5:1710", "5:1610"]), "IM.ART.EFF.DEST")
    g.expect(g.move(GER, "g-cav", ["5:1711", "5:1611"]), "IM.ART.EFF.DEST")
    return g


def destruction_zone_legal() -> Game:
    g = destruction_zone()
    g.name = "mv-destruction-zone-legal"
    g.lines = g.lines[:-2]
    g.expected = []
    for line in g.lines:
        line["game"] = g.name
    g.phase_start("second-foot-movement", GER)
    g.move(GER, "g-inf2", ["5:1710", "5:1610"])       # one hex, in the second phase
    return g


def interdiction_zone() -> Game:
    """Interdiction/HE: infantry "must stop their movement on entering a primary or secondary impact
    zone hexagon and may not move further that turn"."""
    g = standard("mv-interdiction-zone", hexes={"5:1505": {"terrain": "town"}})
    g.lines[3]["data"]["mission"] = "interdiction"
    g.unit("g-inf2", GER, "infantry-platoon", "5:1606", movement=4)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    g.add("HexObserved", {"observer": None, "target": "5:1505", "via": "automatic"}, side=BRIT)
    g.add("BarrageDeclared", {"barrage": "b-1", "side": BRIT, "target": "5:1505", "elements": ["obm-1"],
                              "mission": "interdiction", "barrage_type": "drumfire", "ammunition": "he",
                              "observer": None, "sustained": False}, side=BRIT)
    g.roll(BRIT, "IM.ART.SCATTER.DRUMFIRE", 2, "b-1")
    g.add("ScatterTested", {"barrage": "b-1", "scattered": False}, side=BRIT)
    g.roll(BRIT, "IM.ART.BCRT.REVISED", 6, "b-1")
    g.add("BarrageResolved", {"barrage": "b-1", "firepower": 20, "column": "20", "results": [
        {"location": "5:1505", "zone": "primary", "result": "miss"},
        {"location": "5:1405", "zone": "secondary", "result": "miss"},
        {"location": "5:1506", "zone": "secondary", "result": "miss"}]}, side=BRIT)
    for phase in ("air-combat", "vehicle-movement", "first-foot-movement", "second-foot-movement", "end"):
        g.phase_start(phase, BRIT)
    g.phase_start("pin-removal", GER)
    g.phase_start("barrage", GER)
    g.phase_start("vehicle-movement", GER)
    g.phase_start("first-foot-movement", GER)
    g.expect(g.move(GER, "g-inf", ["5:1605", "5:1505", "5:1405"]), "IM.ART.EFF.INT")
    g.move(GER, "g-inf2", ["5:1606", "5:1506"])        # enters and stops: legal
    g.phase_start("second-foot-movement", GER)
    g.expect(g.move(GER, "g-inf2", ["5:1506", "5:1406"]), "IM.ART.EFF.INT")
    return g


# -- observation for indirect fire (Use of the forward observer; aircraft and balloons) ----------------
def observe_game(name: str, **kw) -> Game:
    g = standard(name, **kw)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    return g


def fo_eleven_hexes() -> Game:
    g = observe_game("obs-fo-eleven-hexes")
    # "any hexagon within 10 hexagons (not counting its own hexagon)": 1003 -> 2103 is 11
    seq = g.add("HexObserved", {"observer": "b-fo", "target": "5:2103", "via": "forward-observer"}, side=BRIT)
    g.expect(seq, "IM.ART.FO.RANGE")
    barrage_after_observation(g, BRIT, "b-1", "5:2103", "b-fo")
    return g


def fo_through_smoke() -> Game:
    g = observe_game("obs-fo-through-smoke")
    g.marker("smoke", "5:1503", side=GER)
    # "may not observe through a hexagon affected by smoke"
    seq = g.add("HexObserved", {"observer": "b-fo", "target": "5:1803", "via": "forward-observer"}, side=BRIT)
    g.expect(seq, ["IM.ART.FO.SMOKE", "IM.ART.AMMO.SMOKE"])
    barrage_after_observation(g, BRIT, "b-1", "5:1803", "b-fo")
    return g


def fo_pinned() -> Game:
    g = observe_game("obs-fo-pinned")
    g.status(BRIT, "b-fo", "pinned")
    # Restrictions on indirect fire: a pinned FO may not observe any hexagon
    seq = g.add("HexObserved", {"observer": "b-fo", "target": "5:1503", "via": "forward-observer"}, side=BRIT)
    g.expect(seq, ["IM.ART.RESTRICT.PINNED_OBS", "IM.ART.FO"])
    barrage_after_observation(g, BRIT, "b-1", "5:1503", "b-fo")
    return g


def fo_ten_hexes_legal() -> Game:
    g = observe_game("obs-fo-ten-hexes-legal")
    g.add("HexObserved", {"observer": "b-fo", "target": "5:2003", "via": "forward-observer"}, side=BRIT)
    barrage_after_observation(g, BRIT, "b-1", "5:2003", "b-fo")
    return g


def aircraft_game(name: str) -> Game:
    g = standard(name)
    g.unit("b-air", BRIT, "aircraft", "5:1515", movement=None, type="CS", mission="artillery-observation")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    return g


def aircraft_three_hexes() -> Game:
    g = aircraft_game("obs-aircraft-three-hexes")
    # Aircraft: "may automatically observe any hexagon at a distance of two hexagons"
    seq = g.add("HexObserved", {"observer": "aircraft:b-air", "target": "5:1815", "via": "aircraft"}, side=BRIT)
    g.expect(seq, "IM.ART.AIR.FO")
    return g


def aircraft_two_hexes_legal() -> Game:
    g = aircraft_game("obs-aircraft-two-hexes-legal")
    g.add("HexObserved", {"observer": "aircraft:b-air", "target": "5:1715", "via": "aircraft"}, side=BRIT)
    return g


def aircraft_one_hex_probe() -> Game:
    g = aircraft_game("obs-aircraft-one-hex-probe")
    # "at a distance of two hexagons": exactly two or up to two? (IM.ART.AIR.FO ⚠)
    seq = g.add("HexObserved", {"observer": "aircraft:b-air", "target": "5:1615", "via": "aircraft"}, side=BRIT)
    g.expect(seq, "IM.ART.AIR.FO", "ambiguous")
    return g


def balloon_anywhere_legal() -> Game:
    g = standard("obs-balloon-anywhere-legal")
    g.unit("b-bal", BRIT, "balloon", "5:0101", movement=None)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    # Balloons "automatically observe all hexagons on the map"
    g.add("HexObserved", {"observer": "balloon:b-bal", "target": "5:3030", "via": "balloon"}, side=BRIT)
    return g


def balloon_moves() -> Game:
    g = standard("mv-balloon-moves")
    g.unit("b-bal", BRIT, "balloon", "5:0101", movement=None)
    g = british_turn("", "vehicle-movement", g=g)
    # "Balloons may not move once deployed at the start of the scenario."
    g.expect(g.move(BRIT, "b-bal", ["5:0101", "5:0201"]), "IM.ART.BALLOON.STATIC")
    return g


# -- spotting (Spotting (changed)) ---------------------------------------------------------------------
def fire_game(name: str) -> Game:
    g = british_turn(name, "second-foot-movement")
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    g.phase_start("defensive-small-arms-fire", BRIT)
    g.phase_start("offensive-small-arms-fire", BRIT)
    return g


def spot_with_d6() -> Game:
    g = fire_game("spot-with-d6")
    # "roll a ten-sided die" against the Spotting Table
    roll = len(g.lines) + 1
    spot, _ = spot_and_fire(g, BRIT, "b-inf", "5:1605", "a-1", 5, roll=3, die="d6")
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-inf", "result": "no-effect"}]}, side=BRIT)
    g.expect(roll, ["IM.CORE.DICE", "IM.SPOT.ROLL"], accept=[roll, spot])
    return g


def fire_without_spotting() -> Game:
    g = fire_game("spot-fire-without-spotting")
    # "the firing unit must first spot the target before conducting direct fire"
    fire = g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-inf"], "target": "5:1605", "firepower": 4,
                                    "range": 5}, side=BRIT)
    g.roll(BRIT, "LS.SACRT", 5, "a-1")
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-inf", "result": "no-effect"}]}, side=BRIT)
    g.expect(fire, "IM.SPOT.NEEDED")
    return g


def spot_without_roll() -> Game:
    g = fire_game("spot-without-roll")
    spot = g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT)
    g.expect(spot, "IM.SPOT.ROLL", "missing-roll")
    return g


def spot_legal_failed() -> Game:
    """A failed spot is legal and is followed by no fire."""
    g = fire_game("spot-failed-legal")
    g.roll(BRIT, "IM.SPOT.ROLL", 9, "b-inf", die="d10")
    g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": False}, side=BRIT)
    return g


# -- infantry options ----------------------------------------------------------------------------------
def sturm_game(name: str) -> Game:
    """EX-IM-19: an allied unit in 6613, a German Sturmtruppen squad in 6713 (map 5)."""
    g = Game(name)
    g.unit("b-1", BRIT, "infantry-platoon", "5:6613")
    g.unit("g-sq", GER, "infantry-squad", "5:6713", movement=4, sturmtruppen=True)
    g.unit("g-pl", GER, "infantry-platoon", "5:6712", movement=4, sturmtruppen=True)
    g.turn_start(1)
    for phase in BRIT_TURN + ("end",):
        g.phase_start(phase, BRIT)
    g.phase_start("pin-removal", GER)
    g.phase_start("barrage", GER)
    g.phase_start("vehicle-movement", GER)
    g.phase_start("first-foot-movement", GER)
    return g


def sturm_infiltration_legal() -> Game:
    g = sturm_game("inf-sturm-infiltration-legal")
    # "a Sturmtruppen squad [may] enter a hexagon occupied by the enemy and pass through it"
    g.move(GER, "g-sq", ["5:6713", "5:6613", "5:6612"])
    return g


def sturm_infiltration_ends_in_enemy() -> Game:
    g = sturm_game("inf-sturm-ends-in-enemy-hex")
    # "may not end their movement in a hexagon containing an enemy unit (except individuals)"
    g.expect(g.move(GER, "g-sq", ["5:6713", "5:6613"]), "IM.INF.ST.INFILTRATE")
    return g


def sturm_enters_for_close_combat_legal() -> Game:
    g = sturm_game("inf-sturm-close-combat-legal")
    # "the Sturmtruppen squad may not enter the enemy-controlled hexagon unless it intends to engage
    # it in close combat": it enters, and the close combat follows
    g.move(GER, "g-sq", ["5:6713", "5:6613"])
    for phase in ("second-foot-movement", "defensive-anti-tank-fire", "defensive-small-arms-fire",
                  "offensive-anti-tank-fire", "offensive-small-arms-fire", "close-combat"):
        g.phase_start(phase, GER)
    g.roll(GER, "LS.CACRT", 2, "g-sq")
    g.status(GER, "b-1", "retreated")
    g.move(BRIT, "b-1", ["5:6613", "5:6513", "5:6413"])
    return g


def spot_subject_is_target_legal() -> Game:
    """A spotting roll about the target unit, then a spot and fire: legal."""
    g = fire_game("spot-roll-about-target-legal")
    g.roll(BRIT, "IM.SPOT.ROLL", 2, "g-inf", die="d10")
    g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT)
    g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-inf"], "target": "5:1605", "firepower": 4,
                             "range": 5}, side=BRIT)
    g.roll(BRIT, "LS.SACRT", 5, "a-1")
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-inf", "result": "no-effect"}]}, side=BRIT)
    return g


def sturm_platoon_cannot_infiltrate() -> Game:
    g = sturm_game("inf-sturm-platoon-cannot-infiltrate")
    # "Platoon-sized Sturmtruppen units do not have this capability."
    g.expect(g.move(GER, "g-pl", ["5:6712", "5:6613", "5:6614"]), "IM.INF.ST.INFILTRATE")
    return g


def running() -> Game:
    """EX-IM-21: run in foot phase 1 of turn 1; no move in phase 2, nor in turn 2; turn 3 free."""
    g = standard("inf-running", options=["IM.OPTMOVE"])
    g = british_turn("", "first-foot-movement", g=g)
    g.move(BRIT, "b-inf", along(10, 12, 5), mode="run")
    g.status(BRIT, "b-inf", "prone")                 # "may decide to go prone (even ... first phase)"
    g.marker("fatigue", "5:1205", unit="b-inf", side=BRIT)
    g.phase_start("second-foot-movement", BRIT)
    g.expect(g.move(BRIT, "b-inf", ["5:1205", "5:1305"]), "IM.OPTMOVE.RUN")
    g.phase_start("defensive-small-arms-fire", BRIT)
    g.phase_start("offensive-small-arms-fire", BRIT)
    # "It may not conduct small arms fire that turn"
    _, fire = spot_and_fire(g, BRIT, "b-inf", "5:1405", "a-1", 1)
    g.expect(fire, ["IM.OPTMOVE.RUN"])
    g.add("SmallArmsResolved", {"attack": "a-1", "results": []}, side=BRIT)
    g.phase_start("end", BRIT)
    british_turn("", "second-foot-movement", turn=2, g=g)
    g.status(BRIT, "b-inf", "standing")               # turn 2: "could stand up"
    g.expect(g.move(BRIT, "b-inf", ["5:1305", "5:1405"]), "IM.OPTMOVE.RUN")
    g.phase_start("defensive-small-arms-fire", BRIT)
    g.phase_start("offensive-small-arms-fire", BRIT)
    spot_and_fire(g, BRIT, "b-inf", "5:1605", "a-2", 2)    # "or conduct small arms fire"
    g.add("SmallArmsResolved", {"attack": "a-2", "results": [{"unit": "g-inf", "result": "no-effect"}]},
          side=BRIT)
    g.phase_start("end", BRIT)
    british_turn("", "first-foot-movement", turn=3, g=g)
    g.move(BRIT, "b-inf", ["5:1405", "5:1505"])
    return g


def prone_eligibility() -> Game:
    """EC-50: going prone in a trench hex, while pinned, as cavalry or as an MG platoon -> REJECT;
    prone before the first foot phase, then two hexes -> REJECT (crawl: one hex, second phase)."""
    g = standard("inf-prone-eligibility", options=["IM.OPTMOVE"],
                 hexes={"5:1005": {"terrain": "clear", "features": ["trench-hasty"]}})
    g.unit("b-mg", BRIT, "mg-platoon", "5:0907", movement=3)
    g.unit("b-inf2", BRIT, "infantry-platoon", "5:0909", movement=4)
    g.unit("b-inf3", BRIT, "infantry-platoon", "5:0911", movement=4)
    g.unit("b-inf4", BRIT, "infantry-platoon", "5:0913", movement=4)
    g = british_turn("", "vehicle-movement", g=g)
    g.expect(g.status(BRIT, "b-inf", "prone"), "IM.OPTMOVE.PRONE")     # in a trench hex
    g.expect(g.status(BRIT, "b-cav", "prone"), "IM.OPTMOVE.PRONE")     # cavalry
    g.expect(g.status(BRIT, "b-mg", "prone"), "IM.OPTMOVE.PRONE")      # MG platoon
    g.status(BRIT, "b-inf3", "pinned")
    g.expect(g.status(BRIT, "b-inf3", "prone"), "IM.OPTMOVE.PRONE")    # pinned
    g.status(BRIT, "b-inf2", "prone")                                  # legal: crawls this turn
    g.marker("prone", "5:0913", unit="b-inf4", side=BRIT)               # legal, as a marker
    g.phase_start("first-foot-movement", BRIT)
    g.phase_start("second-foot-movement", BRIT)
    g.expect(g.move(BRIT, "b-inf2", ["5:0909", "5:1009", "5:1109"]), "IM.OPTMOVE.PRONE")
    g.move(BRIT, "b-inf4", ["5:0913", "5:1013"])                          # one hex, second phase
    return g


# -- ambiguity probes (Part C) --------------------------------------------------------------------------
def minmove_high_wire_probe() -> Game:
    """AP-16: a foot unit's only hex of the turn, into high wire: the one-hex guarantee against
    the prohibition."""
    g = british_turn("probe-minmove-high-wire", "first-foot-movement")
    g.marker("wire-high", "5:1105")
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), ["IM.CORE.MINMOVE", "IM.OBS.WIRE.HIGH"], "ambiguous")
    return g


def minmove_roadblock_probe() -> Game:
    g = british_turn("probe-minmove-roadblock", "vehicle-movement",
                     hexes={h: {"terrain": "clear", "features": ["road"]} for h in along(5, 25, 10)})
    g.marker("roadblock", "5:1110", side=GER)
    g.expect(g.move(BRIT, "b-car", ["5:1010", "5:1110"]), ["IM.CORE.MINMOVE", "IM.OBS.ROADBLOCK"], "ambiguous")
    return g


def shell_holes_probe() -> Game:
    """AP-06: MA 8 in mud (tracked clear 2 MP); 4 MP spent on entering the second shell-hole hex,
    then one more hex: 6 MP. Halved allowance 4: over if spent MP count, within if the remaining
    4 MP are halved to 2."""
    holes = {"5:1108": {"terrain": "clear", "features": ["shell-holes"]},
             "5:1208": {"terrain": "clear", "features": ["shell-holes"]}}
    g = Game("probe-shell-holes", hexes=holes, terrain_state="mud")
    g.unit("b-tank", BRIT, "tank", "5:1008", movement=8)
    g = british_turn("", "vehicle-movement", g=g)
    g.expect(g.move(BRIT, "b-tank", along(10, 13, 8)), "IM.SHELL", "ambiguous")
    return g


CASES = [legal_game, nonadjacent_step, vehicle_in_foot_phase, foot_in_vehicle_phase, pinned_unit_moves,
         other_sides_unit, high_wire_foot, high_wire_tank_legal, roadblock_vehicle, roadblock_tank_legal,
         rubble_level_2, stone_wall_wheeled, cavalry_multi_storey, cavalry_dismounted_legal, deep_snow_foot,
         deep_snow_two_hexes, snow_tracked_costs, destruction_zone, destruction_zone_legal, interdiction_zone,
         fo_eleven_hexes, fo_through_smoke, fo_pinned, fo_ten_hexes_legal, aircraft_three_hexes,
         aircraft_two_hexes_legal, aircraft_one_hex_probe, balloon_anywhere_legal, balloon_moves, spot_with_d6,
         fire_without_spotting, spot_without_roll, spot_legal_failed, sturm_infiltration_legal,
         sturm_infiltration_ends_in_enemy, sturm_platoon_cannot_infiltrate, running, prone_eligibility,
         sturm_enters_for_close_combat_legal, spot_subject_is_target_legal,
         minmove_high_wire_probe,
         minmove_roadblock_probe, shell_holes_probe]


def main() -> None:
    for make in CASES:
        make().write()


if __name__ == "__main__":
    main()
