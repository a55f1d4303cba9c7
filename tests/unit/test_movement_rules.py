"""Movement: who, when, impact zones, Sturmtruppen, running, crawling, cavalry, boats; reach and path cost."""
from __future__ import annotations

from domain.rules.infernal_machines.graph import UnknownCost, path_cost, reachable
from domain.rules.tables import builtin
from tests.board_helpers import BoardLog, failing

A, B, C, D, E = "5:0505", "5:0506", "5:0507", "5:0508", "5:0509"


def moved(g, unit, path, tables="sample", **kw) -> dict:
    """Add a move, then audit: the failing rules at that move."""
    seq = g.move(unit, path, **kw)["seq"]
    return failing(g.audit(tables), seq)


def zone_game(mission: str, zone_hexes, cls: str, location: str, movement=6, **kw) -> BoardLog:
    """A german barrage of `mission` resolved on `zone_hexes` in turn 1, then british movement."""
    g = BoardLog(**kw)
    g.deploy("u1", "british", cls, location, movement=movement)
    g.at(1, "barrage", "german")
    g.add("BarrageDeclared", {"barrage": "b1", "side": "german", "target": zone_hexes[0], "elements": ["e1"],
                              "mission": mission, "barrage_type": "drumfire", "ammunition": "he"}, side="german")
    g.add("BarrageResolved", {"barrage": "b1", "firepower": 20, "column": "20",
                              "results": [{"location": h, "zone": "primary", "result": "miss"} for h in zone_hexes]},
          side="german")
    return g


def test_destruction_zone_cavalry_and_light_vehicles_may_not_move_in_or_out():
    # D/HE against cavalry / vehicles, Movement restrictions: no movement into or out of the zone
    g = zone_game("destruction", [C], "cavalry-platoon", A)
    g.at(1, "first-foot-movement", "british")
    seq = g.move("u1", [A, B, C])["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.ART.EFF.DEST.HE.CAV": "violation"}
    g = zone_game("destruction", [A], "light-vehicle", A, movement=12)
    g.at(1, "vehicle-movement", "british")
    seq = g.move("u1", [A, B, C])["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.ART.EFF.DEST.HE.VEH": "violation"}


def test_destruction_zone_infantry_one_hex_in_the_second_phase():
    # D/HE against infantry, Movement restrictions: one hex per turn, in the second movement phase
    g = zone_game("destruction", [A, B], "infantry-platoon", A)
    g.at(1, "first-foot-movement", "british")
    first = g.move("u1", [A, B])["seq"]
    report = g.audit("sample")
    assert failing(report, first) == {"IM.ART.EFF.DEST.HE.INF": "violation"}
    g = zone_game("destruction", [A, B], "infantry-platoon", A)
    g.at(1, "second-foot-movement", "british")
    assert moved(g, "u1", [A, B]) == {}
    g = zone_game("destruction", [C], "infantry-platoon", A)
    g.at(1, "first-foot-movement", "british")
    assert moved(g, "u1", [A, B, C, D]) == {"IM.ART.EFF.DEST.HE.INF": "violation"}


def test_the_zone_ends_at_the_firers_next_barrage_phase():
    # Who may fire: the impact area lasts until the player's next barrage phase (IM.ART.GEN.PHASE)
    g = zone_game("destruction", [C], "cavalry-platoon", A)
    g.at(2, "barrage", "german")
    g.at(2, "first-foot-movement", "british")
    assert moved(g, "u1", [A, B, C]) == {}


def test_interdiction_zone_stops_infantry_and_costs_vehicles_one_more():
    # I/HE Movement restrictions: infantry stop on entering; vehicles +1 MP, stop in a town hex
    g = zone_game("interdiction", [B], "infantry-platoon", A)
    g.at(1, "first-foot-movement", "british")
    assert moved(g, "u1", [A, B, C]) == {"IM.ART.EFF.INT.HE.INF": "violation"}
    g = zone_game("interdiction", [B], "tank", A, movement=2)
    g.at(1, "vehicle-movement", "british")
    assert moved(g, "u1", [A, B]) == {}      # 1 + 1
    g = zone_game("interdiction", [B], "tank", A, movement=2)
    g.at(1, "vehicle-movement", "british")
    assert moved(g, "u1", [A, B, C]) == {"IM.ART.EFF.INT.HE.VEH": "violation"}
    g = zone_game("interdiction", [B], "tank", A, movement=9, hexes={B: {"terrain": "town"}})
    g.at(1, "vehicle-movement", "british")
    assert moved(g, "u1", [A, B, C]) == {"IM.ART.EFF.INT.HE.VEH": "violation"}


def test_phase_side_pin_and_adjacency():
    g = BoardLog()
    g.deploy("t1", "british", "tank", A, movement=6).deploy("i1", "british", "infantry-platoon", A, movement=2)
    g.deploy("p1", "british", "infantry-platoon", A, movement=2).status("p1", "pinned", side="german", turns=1)
    g.at(1, "first-foot-movement")
    tank = g.move("t1", [A, B])["seq"]
    jump = g.move("i1", [A, C])["seq"]
    pinned = g.move("p1", [A, B])["seq"]
    g.at(1, "vehicle-movement", "german")
    other = g.move("t1", [B, C])["seq"]
    report = g.audit("sample")
    assert failing(report, tank) == {"IM.CORE.PHASE.MOVE": "violation"}
    assert failing(report, jump) == {"IM.CORE.PATH.ADJACENT": "violation"}
    assert failing(report, pinned) == {"IM.CORE.PINNED.MOVE": "violation"}
    assert failing(report, other)["IM.CORE.SIDE.ACTIVE"] == "violation"


def test_a_retreat_outside_the_movement_phases_is_no_phase_violation():
    g = BoardLog()
    g.deploy("g1", "german", "infantry-platoon", C, movement=2)
    g.at(1, "barrage")
    g.status("g1", "retreated", side="british")
    retreat = g.move("g1", [C, D, E], side="german")["seq"]
    g.deploy("g2", "german", "infantry-platoon", C, movement=2)
    stray = g.move("g2", [C, D], side="german")["seq"]
    report = g.audit("sample")
    assert failing(report, retreat) == {}
    assert failing(report, stray).get("IM.CORE.PHASE.MOVE") == "violation"


def test_balloons_never_move_and_boats_keep_to_rivers():
    # Balloons may not move once deployed; boats move only along rivers at 1 MP (steamboat MA 7)
    river = {h: {"terrain": "river"} for h in (A, B, C, D, E, "5:0510", "5:0511", "5:0512", "5:0513")}
    g = BoardLog(hexes=river)
    g.deploy("bl", "british", "balloon", A).deploy("s1", "british", "boat", A, kind="steamboat")
    g.at(1, "vehicle-movement")
    balloon = g.move("bl", [A, B])["seq"]
    boat = g.move("s1", [A, B, C, D, E, "5:0510", "5:0511", "5:0512"])["seq"]
    g.at(2, "vehicle-movement")
    far = g.move("s1", ["5:0512", "5:0513", "5:0613"])["seq"]
    report = g.audit()
    assert failing(report, balloon) == {"IM.ART.BALLOON.STATIC": "violation"}
    assert failing(report, boat) == {}
    assert failing(report, far) == {"IM.NAV.MOVE": "violation"}


def test_sturmtruppen_move_2_then_1():
    # Sturmtruppen movement bonus: 2 MP in the first foot phase, 1 in the second (EC-47)
    g = BoardLog()
    g.deploy("s1", "german", "infantry-platoon", A, movement=1, sturmtruppen=True)
    g.at(1, "first-foot-movement", "german")
    three = g.move("s1", [A, B, C, D], side="german")["seq"]
    g.at(2, "first-foot-movement", "german")
    two = g.move("s1", [D, C, B], side="german")["seq"]
    g.at(2, "second-foot-movement", "german")
    again = g.move("s1", [B, A, "5:0504"], side="german")["seq"]
    report = g.audit("sample")
    assert failing(report, three) == {"IM.INF.ST.MOVE": "violation"}
    assert failing(report, two) == {}
    assert failing(report, again) == {"IM.INF.ST.MOVE": "violation"}


def running(options=("IM.OPTMOVE.RUN",), cls="infantry-platoon", hexes=None, **attrs) -> BoardLog:
    g = BoardLog(hexes=hexes, options=list(options))
    g.deploy("r1", "british", cls, A, movement=1, **attrs)
    return g


def test_ex_im_21_run_then_rest_a_whole_turn():
    # Running EXAMPLE: run in turn 1, no movement in phase 2 of turn 1 nor in turn 2, move in turn 3
    g = running()
    g.at(1, "first-foot-movement")
    run = g.move("r1", [A, B, C, D, E], mode="run")["seq"]
    g.at(1, "second-foot-movement")
    again = g.move("r1", [E, D])["seq"]
    g.at(2, "first-foot-movement")
    rested = g.move("r1", [D, C])["seq"]
    g.at(3, "first-foot-movement")
    later = g.move("r1", [C, B])["seq"]
    report = g.audit("sample")
    assert failing(report, run) == {}
    assert failing(report, again) == {"IM.OPTMOVE.RUN.ELIG": "violation"}
    assert failing(report, rested) == {"IM.OPTMOVE.RUN.AFTER": "violation"}
    assert failing(report, later) == {}


def test_running_eligibility_terrain_and_agreement():
    # Running: infantry platoons only, up to 4 MP, clear and road hexes only; vests may not run (EC-49, EC-51)
    cases = {
        "wood": (running(hexes={C: {"terrain": "wood"}}), [A, B, C, D], "IM.OPTMOVE.RUN.TERRAIN"),
        "mg": (running(cls="mg-platoon"), [A, B, C], "IM.OPTMOVE.RUN.ELIG"),
        "vest": (running(vest=True), [A, B, C], "IM.INF.VEST"),
        "far": (running(), [A, B, C, D, E, "5:0510"], "IM.OPTMOVE.RUN.ELIG"),
        "not agreed": (running(options=()), [A, B], "IM.OPTMOVE.AGREE"),
    }
    for name, (g, path, rule) in cases.items():
        g.at(1, "first-foot-movement")
        seq = g.move("r1", path, mode="run")["seq"]
        assert rule in failing(g.audit("sample"), seq), name
    g = running(hexes={A: {"terrain": "wood"}, C: {"features": ["road"]}})
    g.at(1, "first-foot-movement")
    assert moved(g, "r1", [A, B, C, D], mode="run") == {}


def test_crawling_and_cavalry_trot():
    # Going Prone: prone before the first foot phase, one hex in the second (EC-50); a trot is <= 5 hexes (EC-55)
    g = BoardLog()
    g.deploy("i1", "british", "infantry-platoon", A, movement=2)
    g.at(1, "vehicle-movement")
    g.status("i1", "prone", side="british")
    g.at(1, "second-foot-movement")
    seq = g.move("i1", [A, B, C])["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.OPTMOVE.PRONE.CRAWL": "violation"}
    g = BoardLog()
    g.deploy("c1", "british", "cavalry-platoon", A, movement=8)
    g.at(1, "first-foot-movement")
    seq = g.move("c1", [A, B, C, D, E, "5:0510", "5:0511"], mode="trot")["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.CAV.TROT": "violation"}


def test_without_a_pack_costs_are_unverifiable_but_prohibitions_are_judged():
    g = BoardLog()
    g.deploy("i1", "british", "infantry-platoon", A, movement=2).marker("rubble-2", C)
    g.at(1, "first-foot-movement")
    plain, blocked = g.move("i1", [A, B])["seq"], g.move("i1", [B, C, D])["seq"]
    report = g.audit("none")
    assert failing(report, plain) == {"IM.ENV.TSTATE.TYPES": "unverifiable"}
    assert failing(report, blocked)["IM.TER.RUBBLE.L2"] == "violation"


# -- the graph API ---------------------------------------------------------------------------------
def test_reachable_on_open_ground_is_the_hex_ball():
    g = BoardLog(maps=[{"id": "5", "extent": [[1, 1], [20, 20]]}])
    g.deploy("t1", "british", "tank", "5:1010", movement=2)
    g.at(1, "vehicle-movement")
    reach = reachable(g.board(), "t1", builtin("sample"))
    assert len(reach) == 19                        # 1 + 6 + 12 hexes within 2
    assert reach["5:1012"] == (2.0, "IM.ENV.TSTATE.TYPES")
    assert reach["5:1011"][1] is None


def test_reachable_respects_prohibitions_stops_and_missing_tables():
    g = BoardLog(maps=[{"id": "5", "extent": [[1, 1], [20, 20]]}])
    g.deploy("i1", "british", "infantry-platoon", "5:1010", movement=2).marker("wire-high", "5:1011")
    g.at(1, "first-foot-movement")
    reach = reachable(g.board(), "i1", builtin("sample"))
    assert "5:1011" not in reach and reach["5:1010"] == (0, "IM.OBS.WIRE.HIGH")
    try:
        reachable(g.board(), "i1", builtin("none"))
        raise AssertionError("expected UnknownCost")
    except UnknownCost as err:
        assert "MOVEMENT" in str(err)


def test_path_cost_reports_steps_and_the_rule():
    g = BoardLog(state="snow")
    g.deploy("t1", "british", "tank", A, movement=6)
    result = path_cost(g.board(), "t1", [A, B, C], builtin("none"))
    assert result.total == 6 and result.cost_rule == "IM.ENV.MUDSNOW.COST"


def test_sturmtruppen_run_instead_of_the_bonus_and_no_more():
    # Sturmtruppen: they may run instead of the bonus; running gives no MP beyond the normal bonus (3)
    g = running(sturmtruppen=True)
    g.at(1, "first-foot-movement")
    assert moved(g, "r1", [A, B, C, D], mode="run") == {}
    g = running(sturmtruppen=True)
    g.at(1, "first-foot-movement")
    assert moved(g, "r1", [A, B, C, D, E], mode="run") == {"IM.INF.ST.RUN": "violation"}


def test_interdiction_costs_cavalry_two_more():
    # I/HE against cavalry, Movement restrictions: +2 MP to enter a primary or secondary zone hex
    g = zone_game("interdiction", [B], "cavalry-platoon", A, movement=3)
    g.at(1, "first-foot-movement", "british")
    assert moved(g, "u1", [A, B]) == {}                                       # 1 + 2
    g = zone_game("interdiction", [B], "cavalry-platoon", A, movement=3)
    g.at(1, "first-foot-movement", "british")
    assert moved(g, "u1", [A, B, C]) == {"IM.ART.EFF.INT.HE.CAV": "violation"}   # 4 > 3


def test_skis_three_hexes_a_foot_phase_for_ski_users_only():
    # Skis: three hexagons per foot movement phase; no cavalry, crews or vehicles
    g = BoardLog(state="deep-snow")
    g.deploy("i1", "british", "infantry-platoon", A, movement=1, skis=True)
    g.deploy("c1", "british", "crew", A, movement=1, skis=True)
    g.at(1, "first-foot-movement")
    three, four = g.move("i1", [A, B, C, D], mode="ski")["seq"], None
    g.at(2, "first-foot-movement")
    four = g.move("i1", [D, C, B, A, "5:0504"], mode="ski")["seq"]
    crew = g.move("c1", [A, B], mode="ski")["seq"]
    report = g.audit("sample")
    assert failing(report, three) == {}
    assert failing(report, four) == {"IM.INF.SKI": "violation"}
    assert failing(report, crew)["IM.INF.SKI"] == "violation"


def test_ridgelines_do_not_change_movement():
    # Ridgelines: ridgelines have no effect on movement
    g = BoardLog(hexsides=[{"between": [A, B], "feature": "ridgeline"}])
    g.deploy("t1", "british", "tank", A, movement=2)
    g.at(1, "vehicle-movement")
    seq = g.move("t1", [A, B, C])["seq"]
    report = g.audit("sample")
    assert failing(report, seq) == {} and "ok" in [a.verdict.value for a in report.applications
                                                   if a.rule == "IM.TER.RIDGE.MOVE" and a.seq == seq]
