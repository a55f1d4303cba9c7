"""Movement, terrain, obstacle, observation and spotting cases read paragraph by paragraph from the TEXT.

A second, independent pass over the rulebook (not over rule-cases.md): each checkable sentence of
Environmental Conditions, Terrain with Shell Holes, Additional Terrain Types, Obstacles, Spotting,
Buttoned-Up Hatches, Infantry Options, Advanced Infantry Movement, Cavalry Options and the
observation parts of the artillery module gives a legal variant (clean) and, where it forbids
something, an illegal one (the expected finding). The logs are written as a person would write them
from spec/game-log.md alone: `UnitMoved {unit, path, mode?}`, `MarkerPlaced`, `UnitStatusChanged`,
`MapDefined` with the named terrain, features and hexside features, table pack "none".

Run `.venv/bin/python -m tests.acceptance.movement_text_cases` to (re)write the `txt-*` files in
cases_movement/; tests/acceptance/test_cases_movement.py audits them with the other cases and
tests/acceptance/test_movement_text_cases.py checks the files are what this module builds.
"""
from __future__ import annotations

from typing import Callable, Optional

from tests.acceptance.cases_movement.build_cases import BRIT, GER, Game, along, british_turn, standard

ROAD = {"terrain": "clear", "features": ["road"]}


def road_row(r: int, c0: int = 5, c1: int = 25, extra: Optional[list] = None) -> dict:
    return {h: {"terrain": "clear", "features": ["road", *(extra or [])]} for h in along(c0, c1, r)}


def turn(name: str, upto: str, **kw) -> Game:
    return british_turn(name, upto, **kw)


# -- Environmental Conditions: the minimum-move note ------------------------------------------------
def minmove_vehicle() -> Game:
    g = turn("txt-minmove-vehicle", "vehicle-movement", terrain_state="snow")
    g.unit("b-slow", BRIT, "tank", "5:1014", movement=2)
    # Note: "a vehicle may always move at least one hexagon per Vehicle Movement Phase": one clear
    # snow hex costs a tank 3 MP (> 2) and is legal ...
    g.move(BRIT, "b-slow", ["5:1014", "5:1114"])
    # ... but the second hex of the phase is not covered by the note: 6 MP against 2
    g.expect(g.move(BRIT, "b-slow", ["5:1114", "5:1214"]), "IM.ENV.MUDSNOW")
    return g


# -- General Weather Rules: bad weather doubles vehicle costs, road 1/2 -> 1 --------------------------
def bad_weather_road() -> Game:
    g = turn("txt-bad-weather-road", "vehicle-movement", weather="bad", hexes=road_row(10))
    # "On road, the cost of 1/2 movement point per hexagon becomes 1 movement point per hexagon":
    # the armoured car (8 MP) drives 8 road hexes (8 MP): legal
    g.move(BRIT, "b-car", along(10, 18, 10))
    g.unit("b-car2", BRIT, "armoured-car", "5:0510", movement=8)
    # 9 road hexes are 9 MP: over its 8
    g.expect(g.move(BRIT, "b-car2", along(5, 14, 10)), "IM.ENV.WEATHER.BAD")
    return g


def fair_weather_road_legal() -> Game:
    g = turn("txt-fair-weather-road-legal", "vehicle-movement", hexes=road_row(10))
    # fair weather: 1/2 MP a road hex, 16 hexes for 8 MP
    g.move(BRIT, "b-car", along(10, 25, 10)[:17])
    return g


def bad_weather_foot_legal() -> Game:
    g = turn("txt-bad-weather-foot-legal", "first-foot-movement", weather="bad", hexes=road_row(5))
    # "Only vehicle movement is affected by bad weather": 2 road hexes at 1/2 MP for a foot unit
    g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"])
    return g


# -- Terrain States: the mud and snow table, roads through mud and snow -------------------------------
def mud_wheeled() -> Game:
    g = turn("txt-mud-wheeled", "vehicle-movement", terrain_state="mud",
             hexes={"5:1110": {"terrain": "wood"}, "5:1210": {"terrain": "clear"}})
    # Mud, wheeled vehicles: wood 8 MP, clear 4 MP. The armoured car (8 MP) enters the wood: 8 MP,
    g.move(BRIT, "b-car", ["5:1010", "5:1110"])
    # then a clear mud hex: 12 MP in the phase, over its 8 (not its first hex: the note does not help)
    g.expect(g.move(BRIT, "b-car", ["5:1110", "5:1210"]), "IM.ENV.MUDSNOW")
    return g


def snow_cavalry() -> Game:
    g = turn("txt-snow-cavalry", "first-foot-movement", terrain_state="snow",
             hexes={"5:1112": {"terrain": "wood"}, "5:1212": {"terrain": "wood"},
                    "5:1414": {"terrain": "wood"}})
    # Snow, cavalry: wood 5 MP, clear 3 MP. Two wood hexes are 10 MP, the cavalry's 10: legal,
    g.move(BRIT, "b-cav", ["5:1012", "5:1112", "5:1212"])
    g.phase_start("second-foot-movement", BRIT)
    g.unit("b-cav2", BRIT, "cavalry-platoon", "5:1014", movement=10)
    # a second cavalry platoon: three clear snow hexes (9 MP) then a snow wood hex (5 MP) = 14 MP
    g.expect(g.move(BRIT, "b-cav2", ["5:1014", "5:1114", "5:1214", "5:1314", "5:1414"]), "IM.ENV.MUDSNOW")
    return g


def mud_road() -> Game:
    g = turn("txt-mud-road", "vehicle-movement", terrain_state="mud", hexes=road_row(10))
    # "roads crossing these types of terrain cancel the movement point costs ... all units pay just
    # 1 movement point per hexagon": 8 road hexes are the car's 8 MP,
    g.move(BRIT, "b-car", along(10, 18, 10))
    g.unit("b-car2", BRIT, "armoured-car", "5:0510", movement=8)
    # 9 are one too many
    g.expect(g.move(BRIT, "b-car2", along(5, 14, 10)), "IM.ENV.MUDSNOW")
    return g


def deep_snow_skis() -> Game:
    g = turn("txt-deep-snow-skis", "first-foot-movement", terrain_state="deep-snow")
    g.unit("b-ski", BRIT, "infantry-platoon", "5:1016", movement=4, skis=True)
    g.unit("b-crew", BRIT, "crew", "5:1018", movement=4, skis=True)
    # Skis: "three hexagons per foot movement phase" (deep snow limits only units "without skis")
    g.move(BRIT, "b-ski", along(10, 13, 16), mode="ski")
    g.phase_start("second-foot-movement", BRIT)
    # a fourth hex in the phase is one too many
    g.expect(g.move(BRIT, "b-ski", along(13, 17, 16), mode="ski"), "IM.INF.SKI")
    # "No cavalry platoon, crew or vehicle may do so"
    g.expect(g.move(BRIT, "b-crew", along(10, 11, 18), mode="ski"), ["IM.INF.SKI", "IM.ENV.DEEPSNOW"])
    return g


def deep_snow_road() -> Game:
    g = turn("txt-deep-snow-road", "second-foot-movement", terrain_state="deep-snow", hexes=road_row(5))
    # "Roads disappear in deep snow": a foot unit on a road still moves one hex a turn
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"]), "IM.ENV.DEEPSNOW")
    return g


# -- Terrain with Shell Holes and Vehicles -----------------------------------------------------------
def shell_holes() -> Game:
    hexes = {**road_row(8), **road_row(8, 11, 12, ["shell-holes"]),
             **road_row(14), **road_row(14, 11, 12, ["shell-holes"])}
    g = turn("txt-shell-holes", "vehicle-movement", hexes=hexes)
    # two consecutive shell-hole hexes halve the tank's 4 MP to 2, "This also applies to road
    # hexagons": 4 road hexes (2 MP) are within the halved allowance,
    g.move(BRIT, "b-tank", along(10, 14, 8))
    g.unit("b-tank2", BRIT, "tank", "5:1014", movement=4)
    # 6 road hexes (3 MP) are not
    g.expect(g.move(BRIT, "b-tank2", along(10, 16, 14)), "IM.SHELL.HALVE")
    return g


def shell_holes_apart_legal() -> Game:
    hexes = {**road_row(8), "5:1108": {"terrain": "clear", "features": ["road", "shell-holes"]},
             "5:1308": {"terrain": "clear", "features": ["road", "shell-holes"]}}
    g = turn("txt-shell-holes-apart-legal", "vehicle-movement", hexes=hexes)
    # shell holes in 1108 and 1308 are not consecutive: 8 road hexes for the full 4 MP
    g.move(BRIT, "b-tank", along(10, 18, 8))
    return g


# -- Additional Terrain Types: stone walls, ridgelines, rubble, multi-storey buildings ----------------
def stone_wall_costs() -> Game:
    walls = [{"between": ["5:1108", "5:1208"], "feature": "stone-wall"}]
    g = turn("txt-stone-wall-costs", "vehicle-movement", hexsides=walls, hexes=road_row(8))
    # "Tanks may do so at a cost of one movement point (+1 MP)": 1/2 + 1/2 + 1 + 4 x 1/2 = 4 MP: legal
    g.move(BRIT, "b-tank", along(10, 16, 8))
    return g


def stone_wall_tank_over() -> Game:
    walls = [{"between": ["5:1108", "5:1208"], "feature": "stone-wall"}]
    g = turn("txt-stone-wall-tank-over", "vehicle-movement", hexsides=walls, hexes=road_row(8))
    # 1/2 + 1/2 + (1/2 + 1) + 5 x 1/2 = 5 MP against 4
    g.expect(g.move(BRIT, "b-tank", along(10, 17, 8)), "IM.TER.WALL")
    return g


def stone_wall_destroyed() -> Game:
    walls = [{"between": ["5:1110", "5:1210"], "feature": "stone-wall"}]
    g = turn("txt-stone-wall-destroyed", "vehicle-movement", hexsides=walls, hexes=road_row(10))
    g.unit("b-truck", BRIT, "light-vehicle", "5:0910", movement=8)
    g.unit("b-tank2", BRIT, "tank", "5:1110", movement=4)
    # a light vehicle (wheeled) may not cross the wall ...
    g.expect(g.move(BRIT, "b-truck", ["5:0910", "5:1010", "5:1110", "5:1210"]), "IM.TER.WALL")
    # ... a tank crosses it "and in doing so destroy[s] the stone wall along that hexside",
    g.move(BRIT, "b-tank2", ["5:1110", "5:1210"])
    # after which the armoured car may cross there
    g.move(BRIT, "b-car", ["5:1010", "5:1110", "5:1210"])
    return g


def stone_wall_foot_cavalry() -> Game:
    walls = [{"between": ["5:1005", "5:1105"], "feature": "stone-wall"},
             {"between": ["5:1012", "5:1112"], "feature": "stone-wall"}]
    g = turn("txt-stone-wall-foot-cavalry", "first-foot-movement", hexsides=walls)
    # "Infantry suffer no movement point penalty"; "Cavalry units may cross a stone wall at a cost of
    # two movement points (+2 MP)": both cross (the base costs are unverifiable, never a violation)
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    g.move(BRIT, "b-cav", ["5:1012", "5:1112"])
    return g


def ridgeline_move_legal() -> Game:
    sides = [{"between": ["5:1008", "5:1108"], "feature": "ridgeline"}]
    g = turn("txt-ridgeline-move-legal", "vehicle-movement", hexsides=sides)
    # "Ridgelines have no effect on movement": 4 road hexes for 2 MP
    g.move(BRIT, "b-tank", along(10, 14, 8))
    return g


def rubble_one_legal() -> Game:
    g = turn("txt-rubble-one-legal", "first-foot-movement", hexes={"5:1105": {"terrain": "town"}})
    g.marker("rubble-1", "5:1105")
    # Level 1 rubble changes defence, not movement
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    return g


def rubble_two_vehicle() -> Game:
    g = turn("txt-rubble-two-vehicle", "vehicle-movement", hexes={"5:1108": {"terrain": "town"}})
    g.marker("rubble-2", "5:1108")
    # "no unit, except aircraft overflying, may enter Level 2 rubble hexagons"
    g.expect(g.move(BRIT, "b-tank", ["5:1008", "5:1108"]), "IM.TER.RUBBLE")
    g.unit("b-air", BRIT, "aircraft", "5:1208", movement=None)
    g.move(BRIT, "b-air", ["5:1208", "5:1108", "5:1008"])
    return g


def multi_storey_cooccupy() -> Game:
    hexes = {"5:1105": {"terrain": "town", "features": ["multi-storey"]},
             "5:1106": {"terrain": "town", "features": ["multi-storey"]}}
    g = turn("txt-multi-storey-cooccupy", "first-foot-movement", hexes=hexes)
    g.unit("g-up", GER, "infantry-platoon", "5:1106", movement=4)
    g.marker("2nd-story", "5:1106", unit="g-up", side=GER)
    g.unit("g-down", GER, "infantry-platoon", "5:1105", movement=4)
    # "enemy units may not occupy the same storey of the same town hexagon after movement, except in
    # the case of close combat": b-inf enters g-down's ground floor and no close combat follows
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), "IM.TER.MS.COOCCUPY")
    return g


def multi_storey_other_level_legal() -> Game:
    hexes = {"5:1105": {"terrain": "town", "features": ["multi-storey"]}}
    g = turn("txt-multi-storey-other-level-legal", "first-foot-movement", hexes=hexes)
    g.unit("g-up", GER, "infantry-platoon", "5:1105", movement=4)
    g.marker("2nd-story", "5:1105", unit="g-up", side=GER)
    # the enemy is on level 2: the ground floor of the same building hex is another storey
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    return g


# -- Obstacles: wire, roadblocks ---------------------------------------------------------------------
def low_wire_legal() -> Game:
    g = turn("txt-low-wire-legal", "first-foot-movement")
    g.marker("wire", "5:1105")
    # a single counter is low wire: Landships! 7.13 (cost unverifiable), never forbidden
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"])
    g.move(BRIT, "b-cav", ["5:1012", "5:1112"])
    return g


def high_wire_stacked_cavalry() -> Game:
    g = turn("txt-high-wire-stacked-cavalry", "first-foot-movement")
    g.marker("wire", "5:1112")
    g.marker("wire", "5:1112")
    # "indicated by stacking two barbed wire counters"; "Foot and cavalry units may not move
    # through high barbed wire obstacles at all"
    g.expect(g.move(BRIT, "b-cav", ["5:1012", "5:1112", "5:1212"]), "IM.OBS.WIRE.HIGH")
    return g


def roadblock_placement() -> Game:
    g = turn("txt-roadblock-placement", "vehicle-movement", hexes=road_row(10))
    g.marker("roadblock", "5:1510", side=GER)
    # "only one Roadblock counter may be placed in a road hexagon"
    g.expect(g.marker("roadblock", "5:1510", side=GER), "IM.OBS.ROADBLOCK.LIMIT")
    # 1605 has no road
    g.expect(g.marker("roadblock", "5:1606", side=GER), "IM.OBS.ROADBLOCK.LIMIT")
    return g


def roadblock_truck() -> Game:
    g = turn("txt-roadblock-truck", "vehicle-movement", hexes=road_row(10))
    g.unit("b-truck", BRIT, "light-vehicle", "5:0910", movement=8)
    g.marker("roadblock", "5:1110", side=GER)
    # "Roadblocks prevent vehicles from passing"; only tanks destroy them by movement
    g.expect(g.move(BRIT, "b-truck", ["5:0910", "5:1010", "5:1110"]), "IM.OBS.ROADBLOCK")
    return g


def roadblock_tank_clears() -> Game:
    g = turn("txt-roadblock-tank-clears", "vehicle-movement", hexes=road_row(8))
    g.unit("b-big", BRIT, "tank", "5:1208", movement=7)
    g.marker("roadblock", "5:1308", side=GER)
    # a 7 MP tank enters (1/2), spends 5 MP clearing it, and drives 3 more road hexes (1 1/2): 7 MP
    g.move(BRIT, "b-big", ["5:1208", "5:1308"])
    g.add("MarkerRemoved", {"marker": "roadblock", "location": "5:1308"}, side=BRIT)
    g.move(BRIT, "b-big", ["5:1308", "5:1408", "5:1508", "5:1608"])
    return g


def roadblock_tank_moves_on() -> Game:
    g = turn("txt-roadblock-tank-moves-on", "vehicle-movement", hexes=road_row(8))
    g.marker("roadblock", "5:1108", side=GER)
    # the 4 MP tank clears the roadblock with "all their movement points during a single Vehicle
    # Movement Phase if they have fewer than 5": it may not move on in that phase
    g.move(BRIT, "b-tank", ["5:1008", "5:1108"])
    g.add("MarkerRemoved", {"marker": "roadblock", "location": "5:1108"}, side=BRIT)
    g.expect(g.move(BRIT, "b-tank", ["5:1108", "5:1208"]), "IM.OBS.ROADBLOCK.TANKCLEAR")
    return g


# -- Infantry options: running, prone, Sturmtruppen, vests, skis; cavalry trot ------------------------
def running() -> Game:
    g = turn("txt-running", "first-foot-movement", options=["IM.OPTMOVE"],
             hexes={"5:1105": {"terrain": "wood"}, "5:1107": {"terrain": "wood"}})
    g.unit("b-inf2", BRIT, "infantry-platoon", "5:1007", movement=4)
    g.unit("b-mg", BRIT, "mg-platoon", "5:1009", movement=4)
    g.unit("g-vest", GER, "infantry-platoon", "5:2009", movement=4, vest=True)
    # "Units may only run through clear and road hexagons ... They may start or finish their run in
    # these hexagons": ending in the wood 1105 is legal,
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"], mode="run")
    # passing through the wood 1107 is not
    g.expect(g.move(BRIT, "b-inf2", ["5:1007", "5:1107", "5:1207"], mode="run"), "IM.OPTMOVE.RUN.TERRAIN")
    # "Only infantry platoons (not machine gun platoons) may run"
    g.expect(g.move(BRIT, "b-mg", ["5:1009", "5:1109"], mode="run"), "IM.OPTMOVE.RUN.ELIG")
    g.phase_start("second-foot-movement", BRIT)
    # "Units that do so may not move during the other foot movement phase of that turn"
    g.expect(g.move(BRIT, "b-inf", ["5:1105", "5:1205"]), ["IM.OPTMOVE.RUN"])
    g.phase_start("end", BRIT)
    for phase in ("pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement"):
        g.phase_start(phase, GER)
    # "Units with bulletproof vests may not run"
    g.expect(g.move(GER, "g-vest", ["5:2009", "5:1909"], mode="run"), "IM.INF.VEST")
    return g


def running_not_agreed() -> Game:
    g = turn("txt-running-not-agreed", "first-foot-movement")
    # "Both players must agree at the start of a scenario which they will use"
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"], mode="run"), ["IM.OPTMOVE"])
    return g


def running_rest() -> Game:
    g = turn("txt-running-rest", "first-foot-movement", options=["IM.OPTMOVE"])
    # EXAMPLE: runs in turn 1, may not fire that turn, may not move in turn 2, may move in turn 3
    g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"], mode="run")
    g.phase_start("second-foot-movement", BRIT)
    g.phase_start("offensive-small-arms-fire", BRIT)
    g.roll(BRIT, "IM.SPOT.ROLL", 2, "b-inf", die="d10")
    g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT)
    g.expect(g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-inf"], "target": "5:1605",
                                      "firepower": 4, "range": 4}, side=BRIT), "IM.OPTMOVE.RUN")
    g.phase_start("end", BRIT)
    british_turn("", "first-foot-movement", turn=2, g=g)
    g.expect(g.move(BRIT, "b-inf", ["5:1205", "5:1305"]), "IM.OPTMOVE.RUN")
    g.phase_start("second-foot-movement", BRIT)
    g.phase_start("end", BRIT)
    british_turn("", "first-foot-movement", turn=3, g=g)
    g.move(BRIT, "b-inf", ["5:1305", "5:1405", "5:1505"], mode="run")
    return g


def prone() -> Game:
    g = standard("txt-prone", options=["IM.OPTMOVE"], hexes={"5:1009": {"terrain": "clear"}})
    g.unit("b-mg", BRIT, "mg-platoon", "5:1009", movement=4)
    g.unit("b-trench", BRIT, "infantry-platoon", "5:1011", movement=4)
    g.marker("trench-hasty", "5:1011")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    # "Going prone takes place either before the first foot movement phase": legal for b-inf
    g.marker("prone", "5:1005", unit="b-inf", side=BRIT)
    # "Cavalry units and machine gun platoons may not go prone"
    g.expect(g.marker("prone", "5:1009", unit="b-mg", side=BRIT), "IM.OPTMOVE.PRONE.ELIG")
    g.expect(g.status(BRIT, "b-cav", "prone"), "IM.OPTMOVE.PRONE.ELIG")
    # "only in hexagons other than trench or strongpoint hexagons"
    g.expect(g.status(BRIT, "b-trench", "prone"), "IM.OPTMOVE.PRONE.ELIG")
    for phase in ("barrage", "air-combat", "vehicle-movement", "first-foot-movement"):
        g.phase_start(phase, BRIT)
    # "the unit crawls and may only move a maximum of one hexagon this turn (the actual movement
    # takes place during the second foot movement phase)"
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105"]), "IM.OPTMOVE.PRONE.CRAWL")
    return g


def prone_crawl_legal() -> Game:
    g = standard("txt-prone-crawl-legal", options=["IM.OPTMOVE"])
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.status(BRIT, "b-inf", "prone")
    for phase in ("barrage", "air-combat", "vehicle-movement", "first-foot-movement", "second-foot-movement"):
        g.phase_start(phase, BRIT)
    # one hex in the second foot movement phase, crawling
    g.move(BRIT, "b-inf", ["5:1005", "5:1105"], mode="crawl")
    # "OR after moving during the second foot movement phase"
    g.status(BRIT, "b-inf", "prone")
    return g


def prone_spotting() -> Game:
    g = standard("txt-prone-spotting", options=["IM.OPTMOVE"])
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.status(BRIT, "b-inf", "prone")
    for phase in ("barrage", "air-combat", "vehicle-movement", "first-foot-movement", "second-foot-movement",
                  "offensive-small-arms-fire"):
        g.phase_start(phase, BRIT)
    # "a prone unit may not spot except in adjacent hexagons": g-inf is 6 hexes away
    g.roll(BRIT, "IM.SPOT.ROLL", 2, "b-inf", die="d10")
    g.expect(g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT),
             "IM.OPTMOVE.PRONE")
    # an adjacent hex is fine
    g.roll(BRIT, "IM.SPOT.ROLL", 2, "b-inf", die="d10")
    g.add("Spotted", {"spotter": "b-inf", "target": "5:1105", "spotted": True}, side=BRIT)
    return g


def cavalry_trot() -> Game:
    g = turn("txt-cavalry-trot", "first-foot-movement")
    g.unit("b-cav2", BRIT, "cavalry-platoon", "5:1014", movement=10)
    # "A cavalry platoon that moves a maximum of five hexagons ... is considered to be trotting"
    g.move(BRIT, "b-cav", along(10, 15, 12), mode="trot")
    g.expect(g.move(BRIT, "b-cav2", along(10, 16, 14), mode="trot"), "IM.CAV.TROT")
    return g


# -- Observation (artillery module) and spotting -------------------------------------------------------
def fo_observation() -> Game:
    g = standard("txt-fo-observation", hexes={"5:1303": {"terrain": "clear"}})
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    # "within a radius of 10 hexagons (the hexagon it occupies is excluded from the calculation)"
    g.add("HexObserved", {"observer": "b-fo", "target": "5:2003", "via": "forward-observer"}, side=BRIT)
    g.expect(g.add("HexObserved", {"observer": "b-fo", "target": "5:2103", "via": "forward-observer"},
                   side=BRIT), "IM.ART.FO.RANGE")
    g.marker("smoke", "5:1303", side=GER)
    # "Forward observers may not observe through a hexagon affected by smoke"
    g.expect(g.add("HexObserved", {"observer": "b-fo", "target": "5:1603", "via": "forward-observer"},
                   side=BRIT), ["IM.ART.FO.SMOKE", "IM.ART.AMMO.SMOKE"])
    # "Units in smoke screens may be neither spotted nor observed"
    g.expect(g.add("HexObserved", {"observer": "b-fo", "target": "5:1303", "via": "forward-observer"},
                   side=BRIT), ["IM.ART.FO.SMOKE", "IM.ART.AMMO.SMOKE"])
    return g


def fo_sight_terrain() -> Game:
    hexes = {"5:2013": {"terrain": "town", "features": ["multi-storey"]},
             "5:2813": {"terrain": "clear", "elevation": 2}}
    sides = [{"between": ["5:2413", "5:2414"], "feature": "ridgeline"},
             {"between": ["5:2611", "5:2612"], "feature": "stone-wall"},
             {"between": ["5:2815", "5:2816"], "feature": "ridgeline"}]
    g = standard("txt-fo-sight-terrain", hexes=hexes, hexsides=sides)
    for unit, loc in (("b-fo2", "5:2010"), ("b-fo3", "5:2410"), ("b-fo4", "5:2413"), ("b-fo5", "5:2609"),
                      ("b-fo6", "5:2813")):
        g.unit(unit, BRIT, "forward-observer", loc, movement=4)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    # "multi-storey buildings block any line of sight traced through them"
    g.expect(g.add("HexObserved", {"observer": "b-fo2", "target": "5:2016", "via": "forward-observer"},
                   side=BRIT), "IM.TER.MS.LOS")
    # "units at ground level (or lower) may not spot or observe over a non-adjacent ridgeline"
    g.expect(g.add("HexObserved", {"observer": "b-fo3", "target": "5:2418", "via": "forward-observer"},
                   side=BRIT), "IM.TER.RIDGE.LOS")
    # "They may do so if they are adjacent to the ridgeline"
    g.add("HexObserved", {"observer": "b-fo4", "target": "5:2418", "via": "forward-observer"}, side=BRIT)
    # "Units may freely spot or observe through stone walls"
    g.add("HexObserved", {"observer": "b-fo5", "target": "5:2615", "via": "forward-observer"}, side=BRIT)
    # "Non-adjacent ridgelines do not block the line of sight of ... units occupying hills"
    g.add("HexObserved", {"observer": "b-fo6", "target": "5:2819", "via": "forward-observer"}, side=BRIT)
    return g


def fo_pinned_and_air() -> Game:
    g = standard("txt-fo-pinned-and-air")
    g.unit("b-plane", BRIT, "aircraft", "5:1505", movement=None)
    g.unit("b-balloon", BRIT, "balloon", "5:0101", movement=None)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.status(BRIT, "b-fo", "pinned")
    g.phase_start("barrage", BRIT)
    # "A forward observer that is not pinned to the ground may observe"
    g.expect(g.add("HexObserved", {"observer": "b-fo", "target": "5:1203", "via": "forward-observer"},
                   side=BRIT), "IM.ART.RESTRICT.PINNED_OBS")
    # aircraft: "any hexagon at a distance of two hexagons"; balloons: "all hexagons on the map"
    g.add("HexObserved", {"observer": "aircraft:b-plane", "target": "5:1705", "via": "aircraft"}, side=BRIT)
    g.expect(g.add("HexObserved", {"observer": "aircraft:b-plane", "target": "5:1805", "via": "aircraft"},
                   side=BRIT), "IM.ART.AIR.FO")
    g.add("HexObserved", {"observer": "balloon:b-balloon", "target": "5:3020", "via": "balloon"}, side=BRIT)
    # "Balloons may not move once deployed"
    g.phase_start("air-combat", BRIT)
    g.move(BRIT, "b-plane", ["5:1505", "5:1605"])
    g.phase_start("vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-balloon", ["5:0101", "5:0201"]), "IM.ART.BALLOON")
    return g


def spotting() -> Game:
    g = standard("txt-spotting")
    g.unit("b-plane", BRIT, "aircraft", "5:1505", movement=None)
    g.unit("b-balloon", BRIT, "balloon", "5:0101", movement=None)
    g.turn_start(1)
    for phase in BRIT_FIRE:
        g.phase_start(phase, BRIT)
    # "roll a ten-sided die": a Spotted with no d10 before it
    g.expect(g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT),
             "IM.SPOT.ROLL", "missing-roll")
    # "Balloons may not spot instead of ground units"
    g.roll(BRIT, "IM.SPOT.ROLL", 1, "b-balloon", die="d10")
    g.expect(g.add("Spotted", {"spotter": "b-balloon", "target": "5:1605", "spotted": True}, side=BRIT),
             "IM.ART.AIR.NOSPOT")
    # direct fire needs the firer's own spot: b-tank spotted nothing
    g.expect(g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-tank"], "target": "5:1605",
                                      "firepower": 2, "range": 6}, side=BRIT), ["IM.SPOT.NEEDED", "IM.ART.AIR"])
    return g


def spotting_smoke() -> Game:
    g = standard("txt-spotting-smoke")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.marker("smoke", "5:1605", side=BRIT)
    for phase in BRIT_FIRE[1:]:
        g.phase_start(phase, BRIT)
    # "Units in smoke screens may be neither spotted nor observed"
    g.roll(BRIT, "IM.SPOT.ROLL", 1, "b-inf", die="d10")
    g.expect(g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT),
             ["IM.ART.AMMO.SMOKE", "IM.ART.FO.SMOKE"])
    # a failed spot of a smoke hex is what the rules give
    g.roll(BRIT, "IM.SPOT.ROLL", 9, "b-tank", die="d10")
    g.add("Spotted", {"spotter": "b-tank", "target": "5:1605", "spotted": False}, side=BRIT)
    return g


BRIT_FIRE = ("pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
             "second-foot-movement", "defensive-small-arms-fire", "offensive-small-arms-fire")


# -- inputs that are unusual but valid: none of them may crash the auditor ----------------------------
def odd_inputs() -> Game:
    g = Game("txt-odd-inputs", hexes={"9:1010": {"terrain": "river"}, "9:1110": {"terrain": "river"},
                                      "10:0505": {"terrain": "clear", "features": ["road", "railway"]},
                                      "10:0605": {"terrain": "clear", "features": ["road", "railway"]}})
    g.lines[1]["data"]["maps"] = ["9", "10"]
    g.unit("b-boat", BRIT, "boat", "9:1010", movement=None, kind="gunboat")
    g.unit("b-train", BRIT, "armoured-train", "10:0505", movement=6)
    g.unit("b-nowhere", BRIT, "infantry-platoon", None, movement=4)
    g.unit("b-plane", BRIT, "aircraft", None, movement=None)
    g.unit("b-fo", BRIT, "forward-observer", "9:0505", movement=4)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    # an aircraft with no position observes: unverifiable, not a crash
    g.add("HexObserved", {"observer": "aircraft:b-plane", "target": "9:0707", "via": "aircraft"}, side=BRIT)
    g.add("HexObserved", {"observer": "b-fo", "target": "9:0707", "via": "forward-observer"}, side=BRIT)
    g.phase_start("air-combat", BRIT)
    g.phase_start("vehicle-movement", BRIT)
    # "Boats may only move along rivers (costs 1 movement point per hexagon)"
    g.move(BRIT, "b-boat", ["9:1010", "9:1110"])
    g.expect(g.move(BRIT, "b-boat", ["9:1110", "9:1210"]), "IM.NAV.MOVE")
    # armoured trains "may only move along road hexagons designated as railways"
    g.move(BRIT, "b-train", ["10:0505", "10:0605"])
    g.expect(g.move(BRIT, "b-train", ["10:0605", "10:0705"]), "IM.TRAIN")
    g.phase_start("first-foot-movement", BRIT)
    # a unit deployed with no location moves onto the map: its path start cannot be checked
    g.move(BRIT, "b-nowhere", ["9:0101", "9:0102"])
    return g


# -- more of the text: gas, smoke, aircraft, running limits, boards of several maps --------------------
def gas_entry() -> Game:
    g = turn("txt-gas-entry", "first-foot-movement")
    g.unit("b-inf2", BRIT, "infantry-platoon", "5:1007", movement=4)
    g.marker("gas", "5:1105", side=GER)
    g.marker("gas", "5:1108", side=GER)
    g.marker("gas", "5:1112", side=BRIT)   # the British side's own gas
    # "Gas effects also apply to enemy units that enter a gas zone, which become pinned there":
    # b-inf enters the German gas in 1105 and moves on
    g.expect(g.move(BRIT, "b-inf", ["5:1005", "5:1105", "5:1205"]), "IM.ART.AMMO.GAS")
    # b-inf2 stops in the gas of 1108 (legal), then moves in the second phase while the marker is there
    g.move(BRIT, "b-inf2", ["5:1007", "5:1107", "5:1108"])
    # "Friendly units that enter a gassed zone suffer no effect"
    g.move(BRIT, "b-cav", ["5:1012", "5:1112", "5:1212"])
    g.phase_start("second-foot-movement", BRIT)
    g.expect(g.move(BRIT, "b-inf2", ["5:1108", "5:1208"]), "IM.ART.AMMO.GAS")
    return g


def gas_tank_legal() -> Game:
    g = turn("txt-gas-tank-legal", "vehicle-movement")
    g.marker("gas", "5:1108", side=GER)
    # "Gas has no effect on obstacles, support weapons, tanks or armoured cars"
    g.move(BRIT, "b-tank", ["5:1008", "5:1108", "5:1208"])
    return g


def smoke_inside() -> Game:
    g = standard("txt-smoke-inside")
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.marker("smoke", "5:1005", side=GER)
    g.marker("smoke", "5:1003", side=GER)
    g.phase_start("barrage", BRIT)
    # "Units caught in a smoke screen may neither observe nor spot targets located outside the hexagon"
    g.expect(g.add("HexObserved", {"observer": "b-fo", "target": "5:1503", "via": "forward-observer"},
                   side=BRIT), ["IM.ART.FO.SMOKE", "IM.ART.AMMO.SMOKE"])
    for phase in BRIT_FIRE[2:]:
        g.phase_start(phase, BRIT)
    g.roll(BRIT, "IM.SPOT.ROLL", 1, "b-inf", die="d10")
    g.expect(g.add("Spotted", {"spotter": "b-inf", "target": "5:1605", "spotted": True}, side=BRIT),
             ["IM.ART.AMMO.SMOKE", "IM.ART.FO.SMOKE"])
    return g


def aircraft_phases_legal() -> Game:
    g = standard("txt-aircraft-phases-legal")
    g.unit("b-plane", BRIT, "aircraft", "5:0101", movement=None)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    g.phase_start("air-combat", BRIT)
    # "During the common air combat phase, place the aircraft directly on the hexagon targeted by the
    # barrage. The aircraft may automatically observe any hexagon at a distance of two hexagons"
    g.move(BRIT, "b-plane", ["5:0101", "5:1806"])
    g.add("HexObserved", {"observer": "aircraft:b-plane", "target": "5:1606", "via": "aircraft"}, side=BRIT)
    g.add("HexObserved", {"observer": "b-plane", "target": "5:2006", "via": "aircraft"}, side=BRIT)
    return g


def running_limits() -> Game:
    g = turn("txt-running-limits", "first-foot-movement", options=["IM.OPTMOVE"],
             hexes={**road_row(5, 5, 13), **road_row(14)})
    g.unit("b-inf4", BRIT, "infantry-platoon", "5:1014", movement=4)
    g.unit("b-inf2", BRIT, "infantry-platoon", "5:1009", movement=4)
    g.unit("b-inf3", BRIT, "infantry-platoon", "5:0505", movement=4)
    g.marker("trench-hasty", "5:1109")
    # "up to four movement points": 8 road hexes at 1/2 MP
    g.move(BRIT, "b-inf3", along(5, 13, 5), mode="run")
    # "They may not pass through trench ... hexagons"
    g.expect(g.move(BRIT, "b-inf2", ["5:1009", "5:1109", "5:1209"], mode="run"), "IM.OPTMOVE.RUN.TERRAIN")
    # 9 road hexes are 4 1/2 MP
    g.expect(g.move(BRIT, "b-inf4", along(10, 19, 14), mode="run"), "IM.OPTMOVE.RUN.ELIG")
    return g


def placed_maps() -> Game:
    g = Game("txt-placed-maps", hexes={**{f"9:{c:02d}05": ROAD for c in range(10, 16)},
                                       **{f"10:{c:02d}05": ROAD for c in range(0, 6)}})
    g.lines[1]["data"]["maps"] = [{"id": "9", "origin": [0, 0], "extent": [[0, 0], [15, 21]]},
                                  {"id": "10", "origin": [16, 0], "extent": [[0, 0], [15, 21]]}]
    g.unit("b-car", BRIT, "armoured-car", "9:1205", movement=8)
    g.unit("b-inf", BRIT, "infantry-platoon", "9:1505", movement=4)
    g.unit("g-inf", GER, "infantry-platoon", "10:0505", movement=4)
    g.unit("b-fo", BRIT, "forward-observer", "9:1405", movement=4)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.phase_start("barrage", BRIT)
    # the maps lie side by side: 9:1405 to 10:0505 is 7 hexes
    g.add("HexObserved", {"observer": "b-fo", "target": "10:0505", "via": "forward-observer"}, side=BRIT)
    g.phase_start("air-combat", BRIT)
    g.phase_start("vehicle-movement", BRIT)
    # 9:1505 and 10:0005 are neighbours across the map edge: a road move over it
    g.move(BRIT, "b-car", ["9:1205", "9:1305", "9:1405", "9:1505", "10:0005", "10:0105"])
    g.phase_start("first-foot-movement", BRIT)
    g.expect(g.move(BRIT, "b-inf", ["9:1505", "10:0105"]), "IM.CORE.PATH")
    return g


def no_location() -> Game:
    g = standard("txt-no-location", options=["IM.OPTMOVE"])
    g.unit("b-off", BRIT, "infantry-platoon", None, movement=4)
    g.unit("b-gun", BRIT, "artillery-gun", None, movement=None)
    g.turn_start(1)
    g.phase_start("pin-removal", BRIT)
    g.status(BRIT, "b-off", "prone")
    for phase in BRIT_FIRE[1:]:
        g.phase_start(phase, BRIT)
    # units off the map: spotting and fire are judged as far as the log allows, never a crash
    g.roll(BRIT, "IM.SPOT.ROLL", 3, "b-gun", die="d10")
    g.add("Spotted", {"spotter": "b-gun", "target": "5:1605", "spotted": True}, side=BRIT)
    g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-gun"], "target": "5:1605", "firepower": 10,
                             "range": 6}, side=BRIT)
    g.roll(BRIT, "LS.SACRT", 5, "a-1")
    return g


def light_vehicle_caution() -> Game:
    g = standard("txt-light-vehicle-caution", hexes=road_row(14, 1, 26))
    g.unit("b-truck", BRIT, "light-vehicle", "5:1014", movement=8)
    g.unit("b-truck2", BRIT, "light-vehicle", "5:2614", movement=8)
    g.unit("g-inf2", GER, "infantry-platoon", "5:1213", movement=4)
    g.turn_start(1)
    for phase in ("pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
                  "second-foot-movement", "end"):
        g.phase_start(phase, BRIT)
    for phase in ("pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
                  "second-foot-movement", "defensive-small-arms-fire", "offensive-small-arms-fire"):
        g.phase_start(phase, GER)
    g.roll(GER, "IM.SPOT.ROLL", 2, "g-inf2", die="d10")
    g.add("Spotted", {"spotter": "g-inf2", "target": "5:1014", "spotted": True}, side=GER)
    g.add("SmallArmsFired", {"attack": "g-a1", "firers": ["g-inf2"], "target": "5:1014", "firepower": 4,
                             "range": 2}, side=GER)
    g.roll(GER, "LS.SACRT", 6, "g-a1")
    g.add("SmallArmsResolved", {"attack": "g-a1", "results": [{"unit": "b-truck", "result": "no-effect"}]},
          side=GER)
    g.phase_start("end", GER)
    g.turn_start(2)
    for phase in ("pin-removal", "barrage", "air-combat", "vehicle-movement"):
        g.phase_start(phase, BRIT)
    # "A light vehicle loses 5 movement points during its next movement phase each time small arms or
    # barrage fire is directed against it, whether or not a 'hit' result is obtained": 8 - 5 = 3 MP,
    # 6 road hexes; b-truck2 was not fired on and keeps its 8 MP (16 road hexes)
    g.move(BRIT, "b-truck2", along(26, 10, 14))
    g.expect(g.move(BRIT, "b-truck", ["5:1014", "5:0914", "5:0814", "5:0714", "5:0614", "5:0514", "5:0414",
                                      "5:0314"]), "IM.LV.CAUTION")
    return g


CASES: list[Callable[[], Game]] = [
    minmove_vehicle, bad_weather_road, fair_weather_road_legal, bad_weather_foot_legal, mud_wheeled,
    snow_cavalry, mud_road, deep_snow_skis, deep_snow_road, shell_holes, shell_holes_apart_legal,
    stone_wall_costs, stone_wall_tank_over, stone_wall_destroyed, stone_wall_foot_cavalry,
    ridgeline_move_legal, rubble_one_legal, rubble_two_vehicle, multi_storey_cooccupy,
    multi_storey_other_level_legal, low_wire_legal, high_wire_stacked_cavalry, roadblock_placement,
    roadblock_truck, roadblock_tank_clears, roadblock_tank_moves_on, running, running_not_agreed,
    running_rest, prone, prone_crawl_legal, prone_spotting, cavalry_trot, fo_observation, fo_sight_terrain,
    fo_pinned_and_air, spotting, spotting_smoke, odd_inputs, gas_entry, gas_tank_legal, smoke_inside,
    aircraft_phases_legal, running_limits, placed_maps, no_location, light_vehicle_caution,
]


def build() -> list[Game]:
    return [make() for make in CASES]


if __name__ == "__main__":
    for game in build():
        game.write()
