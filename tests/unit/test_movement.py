"""Movement: costs, allowances and prohibitions of Infernal Machines, judged on small logs."""
from __future__ import annotations

from tests.board_helpers import BoardLog, failing, verdicts

A, B, C, D, E = "5:0505", "5:0506", "5:0507", "5:0508", "5:0509"   # a straight column of hexes


def moved(g, unit, path, tables="sample", **kw) -> dict:
    """Add a move, then audit: the failing rules at that move."""
    seq = g.move(unit, path, **kw)["seq"]
    return failing(g.audit(tables), seq)


def vehicle_move(cls="tank", movement=3, path=(A, B), state="good", weather="fair", hexes=None, hexsides=None,
                 tables="none", **readings):
    g = BoardLog(hexes=hexes, hexsides=hexsides, state=state, weather=weather)
    g.deploy("v1", "british", cls, path[0], movement=movement)
    g.at(1, "vehicle-movement")
    seq = g.move("v1", list(path))["seq"]
    return g.audit(tables, **readings), seq


def foot_move(path, cls="infantry-platoon", phase="first-foot-movement", movement=2, tables="sample", state="good",
              hexes=None, markers=(), mode=None, **attrs):
    g = BoardLog(hexes=hexes, state=state)
    g.deploy("i1", "british", cls, path[0], movement=movement, **attrs)
    for marker, loc in markers:
        g.marker(marker, loc)
    g.at(1, phase)
    seq = g.move("i1", list(path), mode=mode)["seq"]
    return g.audit(tables), seq


# -- EX-IM-01 Mud/snow movement cost ----------------------------------------------------------
def test_ex_im_01_tracked_vehicle_in_clear_snow_pays_3():
    # Terrain States: "a tracked vehicle moving through a clear hexagon filled with snow pays 3"
    report, seq = vehicle_move(movement=3, state="snow")
    assert verdicts(report, "IM.ENV.MUDSNOW.COST", seq) == ["ok"]
    report, seq = vehicle_move(movement=5, path=(A, B, C), state="snow")
    assert failing(report, seq) == {"IM.ENV.MUDSNOW.COST": "violation"}


def test_ex_im_01_other_cells_of_the_mud_and_snow_table():
    # the table: wheeled wood snow 9, cavalry clear mud 2, wheeled wood mud 8
    wood = {B: {"terrain": "wood"}}   # wood 9 then clear 5 in snow; wood 8 then clear 4 in mud
    assert verdicts(vehicle_move("armoured-car", 14, (A, B, C), state="snow", hexes=wood)[0],
                    "IM.ENV.MUDSNOW.COST") == ["ok"]
    assert verdicts(vehicle_move("armoured-car", 13, (A, B, C), state="snow", hexes=wood)[0],
                    "IM.ENV.MUDSNOW.COST") == ["violation"]
    assert verdicts(vehicle_move("armoured-car", 11, (A, B, C), state="mud", hexes=wood)[0],
                    "IM.ENV.MUDSNOW.COST") == ["violation"]
    g = BoardLog(state="mud")
    g.deploy("c1", "british", "cavalry-platoon", A, movement=2)
    g.at(1, "first-foot-movement")
    g.move("c1", [A, B])
    assert verdicts(g.audit(), "IM.ENV.MUDSNOW.COST") == ["ok"]


def test_ex_im_01_roads_through_mud_cost_1_for_everyone():
    # Terrain States: roads crossing mud or snow cancel the table; all units pay 1 MP per hex
    road = {h: {"features": ["road"]} for h in (A, B, C)}
    assert verdicts(vehicle_move("armoured-car", 2, (A, B, C), state="mud", hexes=road)[0],
                    "IM.ENV.MUDSNOW.ROAD") == ["ok"]
    report, seq = foot_move([A, B, C], movement=1, state="mud", hexes=road, tables="none")
    assert failing(report, seq) == {"IM.ENV.MUDSNOW.ROAD": "violation"}   # 2 MP > 1


def test_bad_weather_doubles_vehicle_costs_and_a_road_costs_1():
    # General Weather Rules: bad weather doubles the cost to enter; on road 1/2 becomes 1 (EC-40)
    road = {h: {"features": ["road"]} for h in (A, B, C, D)}
    report, seq = vehicle_move("light-vehicle", 2, (A, B, C), weather="bad", hexes=road)
    assert "violation" not in failing(report, seq).values()
    report, seq = vehicle_move("light-vehicle", 2, (A, B, C, D), weather="bad", hexes=road)
    assert failing(report, seq) == {"IM.ENV.WEATHER.BAD.MOVE": "violation"}
    report, seq = vehicle_move("tank", 2, (A, B), weather="bad", tables="sample")   # clear 1 x 2
    assert "violation" not in failing(report, seq).values()
    report, seq = vehicle_move("tank", 3, (A, B, C), weather="bad", tables="sample")
    assert failing(report, seq) == {"IM.ENV.WEATHER.BAD.MOVE": "violation"}


def test_bad_weather_does_not_touch_foot_units():
    road = {h: {"features": ["road"]} for h in (A, B, C)}
    g = BoardLog(hexes=road, weather="bad")
    g.deploy("i1", "british", "infantry-platoon", A, movement=1)
    g.at(1, "first-foot-movement")
    seq = g.move("i1", [A, B, C])["seq"]
    assert "violation" not in failing(g.audit(), seq).values()


def test_a_road_in_mud_under_bad_weather_is_a_named_reading():
    road = {h: {"features": ["road"]} for h in (A, B, C)}
    report, seq = vehicle_move("armoured-car", 2, (A, B, C), state="mud", weather="bad", hexes=road)
    assert "violation" not in failing(report, seq).values()
    assert report.interpretations["IM.ENV.MUDSNOW.ROAD.WEATHER"] == "no-doubling"
    report, seq = vehicle_move("armoured-car", 2, (A, B, C), state="mud", weather="bad", hexes=road,
                               IM__ENV__MUDSNOW__ROAD__WEATHER="doubled")
    assert failing(report, seq) == {"IM.ENV.MUDSNOW.ROAD": "violation"}


# -- EX-IM-02 and AP-06 Shell holes -----------------------------------------------------------
SHELLS = {B: {"features": ["shell-holes"]}, C: {"features": ["shell-holes"]}}


def test_ex_im_02_shell_holes_halve_the_allowance_with_bad_weather_doubling():
    # Shell holes EXAMPLE: bad weather, two consecutive shell-hole hexes: speed halved, cost doubled
    report, seq = vehicle_move("tank", 6, (A, B, C), weather="bad", hexes=SHELLS, tables="sample")
    assert "violation" not in failing(report, seq).values()          # 4 MP, halving only from here on
    report, seq = vehicle_move("tank", 6, (A, B, C, D), weather="bad", hexes=SHELLS, tables="sample")
    assert failing(report, seq) == {"IM.SHELL.HALVE": "violation"}   # 6 MP: over floor(6/2) = 3 either way


def test_ex_im_02_halving_also_applies_on_road_hexes():
    hexes = {h: {"features": ["road", "shell-holes"] if h in (B, C) else ["road"]} for h in (A, B, C, D, E)}
    report, seq = vehicle_move("tank", 2, (A, B, C, D, E), hexes=hexes)   # 4 x 1/2 = 2 MP, halved to 1
    assert failing(report, seq) == {"IM.SHELL.HALVE": "violation"}


def test_ap_06_spent_mp_against_the_halved_allowance_is_ambiguous():
    # AP-06: MA 6, 4 MP spent when the second shell-hole hex is entered; may it go on?
    hexes = {B: {"features": ["shell-holes"]}, C: {"features": ["shell-holes", "road"]}, D: {"features": ["road"]}}
    report, seq = vehicle_move("tank", 6, (A, B, C, D), state="mud", hexes=hexes)   # 2 + 2 + 1 = 5
    assert failing(report, seq) == {"IM.SHELL.HALVE": "ambiguous"}
    report, seq = vehicle_move("tank", 6, (A, B, C, D), state="mud", hexes=hexes,
                               IM__SHELL__HALVE__SPENT="spent-counts")
    assert failing(report, seq) == {"IM.SHELL.HALVE": "violation"}
    report, seq = vehicle_move("tank", 6, (A, B, C, D), state="mud", hexes=hexes,
                               IM__SHELL__HALVE__SPENT="remaining-halved")
    assert failing(report, seq) == {}


# -- deep snow ---------------------------------------------------------------------------------
def test_deep_snow_foot_one_hex_in_the_second_phase_only():
    # Deep snow: foot units without skis, one hex per turn, only in the second foot phase
    report, seq = foot_move([A, B], state="deep-snow")
    assert failing(report, seq) == {"IM.ENV.DEEPSNOW.FOOT": "violation"}
    report, seq = foot_move([A, B], state="deep-snow", phase="second-foot-movement")
    assert failing(report, seq) == {}
    report, seq = foot_move([A, B, C], state="deep-snow", phase="second-foot-movement", movement=3)
    assert failing(report, seq) == {"IM.ENV.DEEPSNOW.FOOT": "violation"}
    report, seq = foot_move([A, B], state="deep-snow", skis=True)
    assert "IM.ENV.DEEPSNOW.FOOT" not in failing(report, seq)


def test_deep_snow_gallop_is_6_mp_and_roads_vanish():
    # Deep snow: galloping cavalry move 6 MP, not 10; roads disappear
    path = ["5:05%02d" % r for r in range(5, 13)]          # 7 clear hexes (1 MP each in the sample pack)
    g = BoardLog(state="deep-snow")
    g.deploy("c1", "british", "cavalry-platoon", path[0], movement=4)
    g.at(1, "first-foot-movement")
    seq = g.move("c1", path, mode="gallop")["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.ENV.DEEPSNOW.CAV": "violation"}
    road = {h: {"features": ["road"]} for h in (A, B, C, D, E)}
    report, seq = vehicle_move("tank", 2, (A, B, C, D, E), state="deep-snow", hexes=road, tables="sample")
    assert failing(report, seq) == {"IM.ENV.DEEPSNOW.ROAD": "violation"}   # 4 clear hexes, 4 MP


# -- walls, storeys, wire, roadblocks, rubble, buildings ------------------------------------------
WALL = [{"between": [A, B], "feature": "stone-wall"}]


def test_stone_walls():
    # Stone walls: wheeled no; tanks +1 MP and the wall is gone; cavalry +2; infantry 0
    report, seq = vehicle_move("armoured-car", 9, (A, B, C), hexsides=WALL, tables="sample")
    assert failing(report, seq) == {"IM.TER.WALL.CROSS": "violation"}
    report, seq = vehicle_move("tank", 2, (A, B), hexsides=WALL, tables="sample")
    assert failing(report, seq) == {}
    report, seq = vehicle_move("tank", 1, (A, B, C), hexsides=WALL, tables="sample")
    assert "violation" in failing(report, seq).values()
    g = BoardLog(hexsides=WALL)
    g.deploy("t1", "british", "tank", A, movement=6).deploy("a1", "british", "armoured-car", A, movement=9)
    g.at(1, "vehicle-movement")
    g.move("t1", [A, B])
    seq = g.move("a1", [A, B, C])["seq"]
    assert "IM.TER.WALL.CROSS" not in failing(g.audit("sample"), seq)   # the tank destroyed the wall
    g = BoardLog(hexsides=WALL)
    g.deploy("c1", "british", "cavalry-platoon", A, movement=2).deploy("i1", "british", "infantry-platoon", A,
                                                                         movement=1)
    g.at(1, "first-foot-movement")
    cav, inf = g.move("c1", [A, B, C])["seq"], g.move("i1", [A, B])["seq"]
    report = g.audit("sample")
    assert failing(report, cav) == {"IM.TER.WALL.CROSS": "violation"}     # 1 + 2 + 1 = 4 > 2
    assert failing(report, inf) == {}


def test_storeys_cost_one_mp_a_level():
    # Storeys: going up or down one level costs +1 MP per level
    building = {B: {"terrain": "town", "features": ["multi-storey"]}}
    g = BoardLog(hexes=building)
    g.deploy("i1", "british", "infantry-platoon", A, movement=2)
    g.at(1, "first-foot-movement")
    ok = g.move("i1", [A, B], level=2)["seq"]
    g.at(1, "second-foot-movement")
    over = g.move("i1", [B, C], level=3)["seq"]
    report = g.audit("sample")
    assert failing(report, ok) == {}
    assert "violation" in failing(report, over).values()


def test_high_wire_stops_foot_and_cavalry_not_tanks():
    # Barbed wire: foot and cavalry units may not move through high barbed wire at all
    report, seq = foot_move([A, B, C], markers=[("wire", B), ("wire", B)])
    assert failing(report, seq) == {"IM.OBS.WIRE.HIGH": "violation"}
    g = BoardLog()
    g.deploy("t1", "british", "tank", A, movement=6).marker("wire-high", B)
    g.at(1, "vehicle-movement")
    assert "IM.OBS.WIRE.HIGH" not in moved(g, "t1", [A, B, C])


def test_ap_16_minimum_move_against_a_prohibition_is_ambiguous():
    # AP-16: "always at least one hexagon ... whatever happens" against high wire
    report, seq = foot_move([A, B], markers=[("wire-high", B)])
    assert failing(report, seq) == {"IM.CORE.MINMOVE": "ambiguous"}
    g = BoardLog()
    g.deploy("i1", "british", "infantry-platoon", A, movement=2).marker("wire-high", B)
    g.at(1, "first-foot-movement")
    seq = g.move("i1", [A, B])["seq"]
    assert failing(g.audit("sample", IM__CORE__MINMOVE="costs-only"), seq) == {"IM.OBS.WIRE.HIGH": "violation"}
    assert failing(g.audit("sample", IM__CORE__MINMOVE="overrides"), seq) == {}


def test_minimum_move_lets_one_hex_exceed_the_allowance():
    # Environmental Conditions, Note: a vehicle may always move at least one hexagon per VMP
    report, seq = vehicle_move("tank", 1, (A, B), hexes={B: {"terrain": "wood"}}, tables="sample")
    assert verdicts(report, "IM.CORE.MINMOVE", seq) == ["ok"] and failing(report, seq) == {}


def test_roadblocks():
    # Roadblocks: no vehicle passes; a tank clears one with 5 MP, or all its MP if fewer (EC-45)
    road = {h: {"features": ["road"]} for h in (A, B, C, D)}
    g = BoardLog(hexes=road)
    g.deploy("k1", "british", "light-vehicle", A, movement=6).deploy("t1", "british", "tank", A, movement=8)
    g.deploy("t2", "british", "tank", A, movement=3).marker("roadblock", B)
    second = g.marker("roadblock", B).lines[-1]["seq"]
    g.at(1, "vehicle-movement")
    truck = g.move("k1", [A, B, C])["seq"]
    tank = g.move("t1", [A, B, C])["seq"]
    small = g.move("t2", [A, B, C])["seq"]
    report = g.audit("sample")
    assert failing(report, second) == {"IM.OBS.ROADBLOCK.LIMIT": "violation"}
    assert failing(report, truck) == {"IM.OBS.ROADBLOCK.LIMIT": "violation"}
    assert failing(report, tank) == {}            # 1/2 + 5 + 1/2 = 6 of 8
    assert failing(report, small) == {"IM.OBS.ROADBLOCK.TANKCLEAR": "violation"}


def test_level_2_rubble_and_multi_storey_cavalry():
    # Rubble markers: no unit may enter Level 2 rubble (EC-43); cavalry enter buildings only dismounted
    report, seq = foot_move([A, B, C], markers=[("rubble-2", B)])
    assert failing(report, seq) == {"IM.TER.RUBBLE.L2": "violation"}
    building = {B: {"terrain": "town", "features": ["multi-storey"]}}
    g = BoardLog(hexes=building)
    g.deploy("c1", "british", "cavalry-platoon", A, movement=4).deploy("c2", "british", "cavalry-platoon", A,
                                                                         movement=4)
    g.status("c2", "dismounted", side="british")
    g.at(1, "first-foot-movement")
    mounted, dismounted = g.move("c1", [A, B, C])["seq"], g.move("c2", [A, B, C])["seq"]
    report = g.audit("sample")
    assert failing(report, mounted) == {"IM.TER.MS.CAV": "violation"}
    assert failing(report, dismounted) == {}


def test_low_wire_costs_what_the_base_game_chart_says():
    # IM, Barbed wire: "A single wire counter is low wire" and uses Landships! 7.13, a chart the text
    # does not hold: the sample pack's wire cost (+1 MP for foot) counts, the `none` pack cannot say
    report, seq = foot_move([A, B], markers=[("wire", B)])
    assert verdicts(report, "IM.OBS.WIRE.LOW", seq) == ["ok"]            # 1 clear + 1 wire, of 2 MP
    report, seq = foot_move([A, B, C], markers=[("wire", B)])
    assert failing(report, seq) == {"IM.OBS.WIRE.LOW": "violation"}      # 3 MP of 2
    report, seq = foot_move([A, B], markers=[("wire", B)], tables="none")
    assert verdicts(report, "IM.OBS.WIRE.LOW", seq) == ["unverifiable"]


def test_a_train_never_leaves_the_rails():
    # IM, Armoured trains, Movement: trains move "only along road hexes the scenario designates as
    # railway, and never leave the rails"
    report, seq = vehicle_move("armoured-train", 4, (A, B), tables="sample")
    assert failing(report, seq) == {"IM.TRAIN.MOVE.RAIL": "violation"}
    rail = {loc: {"terrain": "clear", "features": ["road", "railway"]} for loc in (A, B)}
    report, seq = vehicle_move("armoured-train", 4, (A, B), hexes=rail, tables="sample")
    assert failing(report, seq) == {} and verdicts(report, "IM.TRAIN.MOVE.RAIL", seq) == ["ok"]
