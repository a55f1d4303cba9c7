"""Dux Bellorum AVBCW movement, judged on the table in inches (dux-bellorum-avbcw.txt, Movement
and Vehicles: Movement; game-log-tabletop.md, Dux Bellorum, UnitMoved). Each expectation is
worked from the text's numbers by hand; a legal variant gives no finding, an illegal one its own."""
from __future__ import annotations

import json
from typing import Any, Optional

from domain.log import read_lines
from domain.rules.engine import Verdict, audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve

SIDES = {"royalist": {"nation": "anglican-league", "bloc": "other", "role": "aggressor"},
         "socialist": {"nation": "chopwell-soviet", "bloc": "other", "role": "repeller"}}
INFANTRY = {"type": "inf-regulars", "figures": 10, "stats": {"MV": "6", "BRV": "8", "MELEE": "4(1)", "SHOOT": "6",
                                                            "PRO": "5", "COH": "5"}, "pts": 5}
CAR = {"type": "vehicle:car", "crew": 2, "stats": {"MV": "24", "BRV": "8", "SHOOT": "4", "PRO": "2"},
       "options": ["mounted-lmg"], "weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F", "L", "R", "B"],
                                                "crewed": True}], "drive": "wheeled", "pts": 2}
WHIPPET = {"type": "vehicle:mk-a-whippet", "crew": 3, "stats": {"MV": "12", "BRV": "6", "SHOOT": "4", "PRO": "4"},
           "drive": "tracked", "pts": 4}
ROAD = {"id": "rd-1", "kind": "road", "width": 3.0, "points": [[0.0, 20.0], [48.0, 20.0]]}


class Game:
    """A valid AVBCW log, built line by line (each line checked by domain.log.read_lines)."""

    def __init__(self, features=(), options=("avbcw-arc=quadrant",)):
        self.lines: list[dict[str, Any]] = []
        self.turn, self.phase = 0, "setup"
        self.add("GameStarted", {"ruleset": "dux-bellorum-avbcw", "scenario": "test", "date": "1938-05", "sides": SIDES,
                                 "options": list(options), "permissions": [], "tables": "none"})
        self.add("TableDefined", {"width": 48.0, "depth": 48.0, "features": list(features)})

    def add(self, kind: str, data: dict, side: Optional[str] = None) -> int:
        line = {"v": 1, "game": "t", "seq": len(self.lines) + 1, "turn": self.turn, "phase": self.phase,
                "type": kind, "data": data}
        if side:
            line["side"] = side
        self.lines.append(line)
        return line["seq"]

    def army(self, side: str, **units: dict) -> None:
        listed = [{"unit": uid, "special": [], **spec} for uid, spec in units.items()]
        self.add("ArmyListed", {"side": side, "units": listed, "army_rules": [],
                                "total": sum(u["pts"] for u in listed)}, side)

    def deploy(self, side: str, unit: str, x: float, y: float, facing: int = 0, w: float = 5.0, d: float = 2.0) -> None:
        self.add("UnitDeployed", {"unit": unit, "position": {"x": x, "y": y}, "facing": facing,
                                  "footprint": {"w": w, "d": d}}, side)

    def start(self, turn: int, phase: str = "move") -> None:
        self.turn, self.phase = turn, "start"
        self.add("TurnStarted", {"turn": turn})
        for name in ("leadership", "missile-fire", "move"):
            self.phase = name
            self.add("PhaseStarted", {"phase": name, "active": None})
            if name == phase:
                return

    def to_phase(self, name: str) -> None:
        self.phase = name
        self.add("PhaseStarted", {"phase": name, "active": None})

    def move(self, side: str, unit: str, *points: tuple, mode: Optional[str] = None) -> int:
        path = [{"x": p[0], "y": p[1], **({"f": p[2]} if len(p) > 2 else {})} for p in points]
        return self.add("UnitMoved", {"unit": unit, "path": path, **({"mode": mode} if mode else {})}, side)

    def audit(self, *pairs: str):
        lines = read_lines([json.dumps(line) for line in self.lines])
        return audit(lines, tables=resolve("none"), interpretations=Interpretations.from_pairs(pairs))

    def verdicts(self, rule: str, *pairs: str) -> dict[int, list[str]]:
        """Each seq's verdicts of one rule id."""
        out: dict[int, list[str]] = {}
        for a in self.audit(*pairs).applications:
            if a.rule == rule:
                out.setdefault(a.seq, []).append(a.verdict.value)
        return out

    def failing(self) -> list[tuple[int, str, str]]:
        return [(a.seq, a.rule, a.verdict.value) for a in self.audit().findings
                if a.verdict in (Verdict.VIOLATION, Verdict.MISMATCH, Verdict.MISSING_ROLL)]


def moved(game: Game, verdicts: dict[int, list[str]]) -> dict[int, list[str]]:
    """The verdicts at the moves (the army lists are judged too: tests/unit/test_avbcw_army.py)."""
    return {seq: v for seq, v in verdicts.items() if game.lines[seq - 1]["type"] == "UnitMoved"}


def infantry_game(features=(), **listed) -> Game:
    game = Game(features)
    game.army("royalist", **{"r-inf": INFANTRY | listed})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    game.deploy("socialist", "s-inf", 24.0, 40.0, facing=180)
    return game


def test_no_move_after_shooting():
    # "Movement and shooting; A unit or vehicle cannot move if it shoots this turn"
    game = infantry_game()
    game.start(1, "missile-fire")
    game.add("ShotFired", {"attack": "a-1", "shooter": "r-inf", "target": "s-inf", "rating": "soft", "dice": 6,
                           "range": 30.0, "modifiers": []}, "royalist")
    game.to_phase("move")
    shot_then_moved = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 12.0))
    did_not_shoot = game.move("socialist", "s-inf", (24.0, 40.0), (24.0, 36.0))
    game.start(2)
    next_turn = game.move("royalist", "r-inf", (24.0, 12.0), (24.0, 16.0))
    verdicts = game.verdicts("AVBCW.MOVE.NOSHOOT")
    assert verdicts[shot_then_moved] == ["violation"]
    assert verdicts[did_not_shoot] == ["ok"] and verdicts[next_turn] == ["ok"]


def test_a_shot_after_a_move_of_the_same_turn_is_the_same_breach():
    game = infantry_game()
    game.start(1)
    moved = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 12.0))
    game.to_phase("missile-fire")   # out of the turn's order, yet still "this turn"
    shot = game.add("ShotFired", {"attack": "a-1", "shooter": "r-inf", "target": "s-inf", "rating": "soft",
                                  "dice": 6, "range": 26.0, "modifiers": []}, "royalist")
    assert game.verdicts("AVBCW.MOVE.NOSHOOT") == {moved: ["ok"], shot: ["violation"]}


def test_allowance():
    # Unit type table: Infantry Regulars MV 6”; "within X" is <= X (game-log-tabletop.md, Measuring)
    game = infantry_game()
    game.start(1)
    six = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 14.0))
    game.start(2)
    over = game.move("royalist", "r-inf", (24.0, 14.0), (24.0, 20.1))
    game.start(3)
    # "A unit's bravery test that rolls double 1 ... allows the unit to move twice; these are two
    # consecutive normal moves": each is judged against the 6”
    first = game.move("royalist", "r-inf", (24.0, 20.1), (30.0, 20.1))
    second = game.move("royalist", "r-inf", (30.0, 20.1), (36.0, 20.1), mode="second")
    # a fall back is the distance MELEE.FALLBACK commands, not the MV of a normal move
    fall_back = game.move("royalist", "r-inf", (36.0, 20.1), (36.0, 11.0), mode="fall-back")
    verdicts = game.verdicts("AVBCW.UNIT.STATS")
    assert verdicts[six] == ["ok"] and verdicts[over] == ["violation"]
    assert verdicts[first] == ["ok"] and verdicts[second] == ["ok"] and fall_back not in verdicts


def test_armour_costs_an_inch():
    # EQ.ARMOUR: "The unit gains +1 Protection but suffers -1” move": 6 - 1 = 5”, judged under the
    # rule that sets it
    game = infantry_game(special=["AVBCW.EQ.ARMOUR"], pts=7)
    game.start(1)
    five = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 13.0))
    game.start(2)
    five_and_a_half = game.move("royalist", "r-inf", (24.0, 13.0), (24.0, 18.5))
    assert moved(game, game.verdicts("AVBCW.EQ.ARMOUR")) == {five: ["ok"], five_and_a_half: ["violation"]}
    assert moved(game, game.verdicts("AVBCW.UNIT.STATS")) == {}


def test_bicycles():
    # EQ.BICYCLES: "The unit can move 12” on roads or off road in good going."
    good_going = {"id": "gg-1", "kind": "good-going", "points": [[30.0, 30.0], [46.0, 30.0], [46.0, 46.0], [30.0, 46.0]]}
    game = Game([ROAD, good_going])
    game.army("royalist", **{"r-bike": INFANTRY | {"special": ["AVBCW.EQ.BICYCLES"]}})
    game.deploy("royalist", "r-bike", 2.0, 20.0, facing=90)
    game.start(1)
    on_road = game.move("royalist", "r-bike", (2.0, 20.0), (14.0, 20.0))
    game.start(2)
    too_far = game.move("royalist", "r-bike", (14.0, 20.0), (26.1, 20.0))
    game.start(3)
    game.move("royalist", "r-bike", (26.1, 20.0), (26.1, 23.0))     # off the road (y 18.5 to 21.5)
    game.start(4)
    # across open ground the bicycles give nothing: MV 6”
    open_ground = game.move("royalist", "r-bike", (26.1, 23.0), (26.1, 30.0))
    game.start(5)
    # 9” of which 5.1” are in good going: neither 6” nor 12” is stated for it
    partly = game.move("royalist", "r-bike", (26.1, 30.0), (35.1, 30.0))
    game.start(6)
    in_good_going = game.move("royalist", "r-bike", (35.1, 30.0), (35.1, 42.0))
    verdicts = game.verdicts("AVBCW.EQ.BICYCLES")
    assert verdicts[on_road] == ["ok"] and verdicts[too_far] == ["violation"]
    assert verdicts[open_ground] == ["violation"] and verdicts[partly] == ["ambiguous"]
    assert verdicts[in_good_going] == ["ok"]


def test_vehicle_allowance_and_traction_damage():
    # Car MV 24”; "Traction damage: Vehicle can only move at half its listed rate" (12”);
    # "Traction wrecked: Vehicle cannot move again for the rest of the battle"
    game = Game([{"id": "gg-1", "kind": "good-going", "points": [[0.0, 0.0], [48.0, 0.0], [48.0, 48.0], [0.0, 48.0]]}])
    game.army("socialist", **{"s-car": CAR})
    game.deploy("socialist", "s-car", 4.0, 4.0, w=2.0, d=4.0)
    game.start(1)
    full = game.move("socialist", "s-car", (4.0, 4.0), (4.0, 28.0))
    game.add("VehicleDamaged", {"vehicle": "s-car", "cause": "hit", "result": "traction-damage", "repeat": False})
    game.start(2)
    half = game.move("socialist", "s-car", (4.0, 28.0), (4.0, 40.0))
    game.start(3)
    over_half = game.move("socialist", "s-car", (4.0, 40.0), (16.5, 40.0))
    game.add("VehicleDamaged", {"vehicle": "s-car", "cause": "hit", "result": "traction-wrecked", "repeat": False})
    game.start(4)
    wrecked = game.move("socialist", "s-car", (16.5, 40.0), (17.0, 40.0))
    # after the damage the allowance is the Vehicle Damage Table's
    assert moved(game, game.verdicts("AVBCW.VEH.STATS")) == {full: ["ok"]}
    verdicts = moved(game, game.verdicts("AVBCW.VEH.DAMAGE_TABLE"))
    assert verdicts == {half: ["ok"], over_half: ["violation"], wrecked: ["violation"]}


def test_a_mounted_field_gun_slows_a_soft_vehicle():
    # AVBCW, Vehicles, Soft vehicles Options: "Mounted field gun +3 -3 -2” 6(2) +2": a lorry (MV 12”)
    # so armed moves 10”, whether its list prints the row's MV or the MV with the option applied
    gun = {"type": "vehicle:lorry", "crew": 4, "stats": {"MV": "12", "BRV": "8", "SHOOT": "6(2)", "PRO": "2"},
           "options": ["mounted-field-gun"], "drive": "wheeled", "pts": 3}
    good_going = {"id": "gg-1", "kind": "good-going", "points": [[0.0, 0.0], [48.0, 0.0], [48.0, 48.0], [0.0, 48.0]]}
    for printed in ("12", "10"):
        game = Game([good_going])
        game.army("socialist", **{"s-gun": gun | {"stats": gun["stats"] | {"MV": printed}}})
        game.deploy("socialist", "s-gun", 4.0, 4.0, w=3.0, d=6.0)
        game.start(1)
        ten = game.move("socialist", "s-gun", (4.0, 4.0), (4.0, 14.0))
        game.start(2)
        eleven = game.move("socialist", "s-gun", (4.0, 14.0), (4.0, 25.0))
        assert moved(game, game.verdicts("AVBCW.VEH.STATS")) == {ten: ["ok"], eleven: ["violation"]}, printed


def test_armour_and_traction_damage_have_no_stated_order():
    # (24 - 1) / 2 = 11.5 or 24 / 2 - 1 = 11: a move of 11.3” is within one, beyond the other
    game = Game([{"id": "gg-1", "kind": "good-going", "points": [[0.0, 0.0], [48.0, 0.0], [48.0, 48.0], [0.0, 48.0]]}])
    game.army("socialist", **{"s-car": CAR | {"special": ["AVBCW.EQ.ARMOUR"], "pts": 4}})
    game.deploy("socialist", "s-car", 4.0, 4.0, w=2.0, d=4.0)
    game.add("VehicleDamaged", {"vehicle": "s-car", "cause": "hit", "result": "traction-damage", "repeat": False})
    game.start(1)
    eleven = game.move("socialist", "s-car", (4.0, 4.0), (4.0, 15.0))
    game.start(2)
    between = game.move("socialist", "s-car", (4.0, 15.0), (4.0, 26.3))
    game.start(3)
    beyond = game.move("socialist", "s-car", (4.0, 26.3), (4.0, 37.9))
    verdicts = moved(game, game.verdicts("AVBCW.VEH.DAMAGE_TABLE"))
    assert verdicts == {eleven: ["ok"], between: ["ambiguous"], beyond: ["violation"]}


WOOD = {"id": "w-1", "kind": "woodland", "points": [[20.0, 20.0], [30.0, 20.0], [30.0, 30.0], [20.0, 30.0]]}
HEDGE = {"id": "h-1", "kind": "hedge", "points": [[10.0, 14.0], [40.0, 14.0]]}


def test_terrain_stops():
    # "A unit stops and ends its move if it meets a linear obstacle that it did not begin in
    # contact with. It stops upon entering area terrain (e.g. woodland or a building)."
    game = infantry_game([WOOD, HEDGE])
    game.start(1)
    # the base (2” deep) at y 8 has its front edge at 9; the hedge at y 14 is met after 5”
    to_hedge = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 13.0))
    game.start(2)
    # it began in contact with the hedge: it may cross, and it meets the wood's edge (y 20) after 6”
    over_hedge = game.move("royalist", "r-inf", (24.0, 13.0), (24.0, 19.0))
    game.start(3)
    # "A unit starting in a wood has not entered it" (geometry.first_contact): begun at its edge
    into_wood = game.move("royalist", "r-inf", (24.0, 19.0), (24.0, 21.0))
    game.start(4)
    away = game.move("socialist", "s-inf", (24.0, 40.0), (24.0, 34.0))
    verdicts = game.verdicts("AVBCW.MOVE.TERRAIN")
    assert verdicts == {to_hedge: ["ok"], over_hedge: ["ok"], into_wood: ["ok"], away: ["ok"]}

    game = infantry_game([WOOD, HEDGE])
    game.start(1)
    through_hedge = game.move("royalist", "r-inf", (24.0, 8.0), (24.0, 14.0))   # 1” past meeting it
    game.start(2)
    short_of_the_wood = game.move("socialist", "s-inf", (24.0, 40.0), (24.0, 34.0))  # its front stops at y 33
    game.start(3)
    into_the_wood = game.move("socialist", "s-inf", (24.0, 34.0), (24.0, 29.0))   # meets y 30 after 3”, goes 5”
    verdicts = game.verdicts("AVBCW.MOVE.TERRAIN")
    assert verdicts[through_hedge] == ["violation"] and verdicts[short_of_the_wood] == ["ok"]
    assert verdicts[into_the_wood] == ["violation"]


def test_vehicles_and_terrain_follow_the_named_interpretation():
    # avbcw-vehicle-terrain: MOVE.TERRAIN says "A unit"; the tracked rules move "though area terrain"
    game = Game([WOOD])
    game.army("royalist", **{"r-tank": WHIPPET})
    game.deploy("royalist", "r-tank", 25.0, 14.0, w=3.0, d=5.0)
    game.start(1)
    through = game.move("royalist", "r-tank", (25.0, 14.0), (25.0, 20.0))
    assert game.verdicts("AVBCW.MOVE.TERRAIN") == {through: ["ok"]}
    assert game.verdicts("AVBCW.MOVE.TERRAIN", "avbcw-vehicle-terrain=stop") == {through: ["violation"]}


def car_game(features=(), **listed) -> Game:
    everywhere = {"id": "gg-0", "kind": "good-going", "points": [[0.0, 0.0], [48.0, 0.0], [48.0, 48.0], [0.0, 48.0]]}
    game = Game([everywhere, *features])
    game.army("socialist", **{"s-car": CAR | listed})
    game.deploy("socialist", "s-car", 10.0, 4.0, w=2.0, d=4.0)
    return game


def test_vehicle_facing():
    # "A vehicle that moves 6” or less during any move can change facing as desired. A vehicle that
    # moves more than 6” can only change facing by up to 45° during their move."
    game = car_game()
    game.start(1)
    short_and_round = game.move("socialist", "s-car", (10.0, 4.0), (10.0, 10.0, 90))   # 6.0”, 90°
    game.start(2)
    long_and_45 = game.move("socialist", "s-car", (10.0, 10.0), (20.0, 10.0, 135))      # 10.0”, 45°
    game.start(3)
    # the page's example: 8.0 + 2.0 = 10.0” (rounded), 180 -> 240 = 60°
    long_and_60 = game.move("socialist", "s-car", (20.0, 10.0, 180), (20.0, 2.0), (18.3, 1.0, 240))
    verdicts = game.verdicts("AVBCW.VEH.FACING")
    assert verdicts == {short_and_round: ["ok"], long_and_45: ["ok"], long_and_60: ["violation"]}


def test_turning_to_follow_a_road():
    # "Vehicles can move along roads changing facing to follow that road as required": rotations
    # made where both segments lie on one road are not counted
    bend = {"id": "rd-2", "kind": "road", "width": 3.0, "points": [[10.0, 4.0], [10.0, 14.0], [24.0, 14.0], [24.0, 30.0]]}
    game = car_game([bend])
    game.start(1)
    along = game.move("socialist", "s-car", (10.0, 4.0), (10.0, 14.0, 90), (24.0, 14.0, 0), (24.0, 20.0))
    game.start(2)
    # turning 90° off the road's end at the last point: that rotation is counted
    off_the_end = game.move("socialist", "s-car", (24.0, 20.0), (24.0, 30.0, 90))
    assert game.verdicts("AVBCW.VEH.FACING") == {along: ["ok"], off_the_end: ["violation"]}


def test_poor_turn():
    # Poor Turn: "If the vehicle moves 6” or less during any move it can change facing by up to 45°.
    # If the vehicle moves more than 6” it can only move directly forwards, even along roads."
    game = Game([])
    game.army("royalist", **{"r-tank": WHIPPET})
    game.deploy("royalist", "r-tank", 10.0, 4.0, w=3.0, d=5.0)
    game.start(1)
    straight = game.move("royalist", "r-tank", (10.0, 4.0), (10.0, 12.0))
    game.start(2)
    long_turn = game.move("royalist", "r-tank", (10.0, 12.0), (10.0, 20.0, 10))
    game.start(3)
    oblique = game.move("royalist", "r-tank", (10.0, 20.0), (11.0, 27.0))
    game.start(4)
    short_45 = game.move("royalist", "r-tank", (11.0, 27.0), (11.0, 32.0, 55))
    game.start(5)
    short_50 = game.move("royalist", "r-tank", (11.0, 32.0), (14.0, 34.0, 105))
    verdicts = game.verdicts("AVBCW.VEH.FACING")
    assert verdicts == {straight: ["ok"], long_turn: ["violation"], oblique: ["violation"], short_45: ["ok"],
                        short_50: ["violation"]}


def test_armour_plate_makes_a_soft_vehicle_a_poor_turner():
    # Soft vehicles, Options: "Armour plate ... Poor turn"
    game = car_game(options=["mounted-lmg", "armour-plate"])
    game.start(1)
    five_and_90 = game.move("socialist", "s-car", (10.0, 4.0), (10.0, 9.0, 90))
    assert game.verdicts("AVBCW.VEH.FACING") == {five_and_90: ["violation"]}


def test_wheeled():
    # "Wheeled vehicles cannot cross linear terrain. They can only travel off-road on ground
    # designated as good enough for wheeled vehicles."
    good_going = {"id": "gg-1", "kind": "good-going", "points": [[0.0, 0.0], [30.0, 0.0], [30.0, 30.0], [0.0, 30.0]]}
    wall = {"id": "wl-1", "kind": "wall", "points": [[0.0, 20.0], [20.0, 20.0]]}
    game = Game([good_going, wall, ROAD | {"points": [[30.0, 10.0], [48.0, 10.0]]}])
    game.army("socialist", **{"s-car": CAR, "s-lorry": CAR | {"drive": None}})
    game.deploy("socialist", "s-car", 10.0, 4.0, w=2.0, d=4.0)
    game.deploy("socialist", "s-lorry", 4.0, 4.0, w=2.0, d=4.0)
    game.start(1)
    on_good_going = game.move("socialist", "s-car", (10.0, 4.0), (10.0, 10.0), (28.0, 10.0))
    game.start(2)
    onto_the_road = game.move("socialist", "s-car", (28.0, 10.0), (46.0, 10.0))
    game.start(3)
    off_road = game.move("socialist", "s-car", (46.0, 10.0), (46.0, 16.0))
    unknown_drive = game.move("socialist", "s-lorry", (4.0, 4.0), (4.0, 10.0))
    game.start(4)
    over_the_wall = game.move("socialist", "s-lorry", (4.0, 10.0), (4.0, 22.0))
    verdicts = game.verdicts("AVBCW.VEH.WHEELED")
    assert verdicts[on_good_going] == ["ok"] and verdicts[onto_the_road] == ["ok"]
    assert verdicts[off_road] == ["violation"] and verdicts[unknown_drive] == ["unverifiable"]
    assert verdicts[over_the_wall] == ["unverifiable"]
    game = Game([good_going, wall])
    game.army("socialist", **{"s-car": CAR})
    game.deploy("socialist", "s-car", 10.0, 14.0, w=2.0, d=4.0)
    game.start(1)
    crossing = game.move("socialist", "s-car", (10.0, 14.0), (10.0, 26.0))
    assert game.verdicts("AVBCW.VEH.WHEELED") == {crossing: ["violation"]}


def test_a_tracked_vehicle_is_not_held_to_wheels():
    # "Tracked vehicles can cross linear obstacles and any passable terrain (except dense woodland)"
    game = Game([HEDGE])
    game.army("royalist", **{"r-tank": WHIPPET})
    game.deploy("royalist", "r-tank", 24.0, 8.0, w=3.0, d=5.0)
    game.start(1)
    game.move("royalist", "r-tank", (24.0, 8.0), (24.0, 16.0))
    assert game.verdicts("AVBCW.VEH.WHEELED") == {}
