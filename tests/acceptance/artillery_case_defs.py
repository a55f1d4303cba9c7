"""The artillery acceptance cases (see artillery_cases.py). Each function builds one game and
states, with the rulebook passage, the findings it must give; a legal game states none."""
from __future__ import annotations

from typing import Optional

from tests.acceptance.artillery_cases import Game, case

FOT_PREFIXES = ["IM.ART.FOT", "IM.ART.RESIST"]


# -- legal baselines -------------------------------------------------------------------------------
@case
def legal_fo_three_turns():
    # First-turn barrages: turn 1 needs no communication test and no FOT; from turn 2 the normal
    # procedure (communication 4-6 passes, FOT in column 0: no small arms fire on the hex).
    g = Game()
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.new_turn(2); g.phase_start("barrage"); g.full_fo_barrage_pinning("b-2", column=0)
    g.new_turn(3); g.phase_start("barrage"); g.full_fo_barrage_pinning("b-3", column=0)
    return g


def ex_im_06(saf_turn_2=(), column_turn_3=1, expect_wrong=False, aircraft_timing=True):
    """EX-IM-06: resisted 1 turn after turn 1; turn 2 aircraft-observed FOT column 1 with -1."""
    g = Game(hexes={"1:1010": {"terrain": "clear"}})
    g.unit("b-air", "british", "aircraft", "1:1008", attrs={"type": "CS"})
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.phase_start("offensive-small-arms-fire")
    g.small_arms("a-1", "no-effect")   # the turn-1 small arms fire without result: resisted 1 turn
    g.new_turn(2); g.phase_start("barrage")
    g.observe("1:1010", "aircraft:b-air", "aircraft")
    g.declare("b-2", observer="aircraft:b-air")
    g.fot("b-2", 2, 1, modifiers=[(-1, "aircraft")])      # no communication test for an aircraft
    g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    for i, result in enumerate(saf_turn_2):
        if i == 0:
            g.phase_start("offensive-small-arms-fire")
        g.small_arms(f"a-2{i}", result)
        if result in ("retreated", "eliminated"):
            g.add("UnitStatusChanged", {"unit": "g-1", "status": result, "cause": f"a-2{i}"}, "british")
        if result == "retreated":
            g.add("UnitMoved", {"unit": "g-1", "path": ["1:1010", "1:1011", "1:1012"]}, "german")
    g.new_turn(3); g.phase_start("barrage")
    g.observe(); g.declare("b-3"); g.comm("b-3", 6)
    seq = g.fot("b-3", 2, column_turn_3)
    g.scatter("b-3", 1, False); g.resolve("b-3", 4, 20, "20")
    if "retreated" not in saf_turn_2 and "eliminated" not in saf_turn_2:
        g.status("g-1", "pinned", "b-3")
    if expect_wrong:
        g.expect(seq, FOT_PREFIXES, "mismatch", [seq - 1, seq])
    return g


@case
def ex_im_06_resistance_base():
    return ex_im_06()                                   # turn 3 column 1: no SAF on turn 2


@case
def ex_im_06_wrong_column_after_no_saf_turn():
    return ex_im_06(column_turn_3=2, expect_wrong=True)  # a turn without SAF does not increment


@case
def ex_im_07_two_attacks_one_turn():
    return ex_im_06(saf_turn_2=("no-effect", "no-effect"), column_turn_3=2)


@case
def ex_im_07_wrong_column_counts_attacks():
    return ex_im_06(saf_turn_2=("no-effect", "no-effect"), column_turn_3=3, expect_wrong=True)


@case
def ex_im_08_retreat_resets():
    return ex_im_06(saf_turn_2=("retreated",), column_turn_3=0)


@case
def ex_im_08_wrong_column_after_reset():
    return ex_im_06(saf_turn_2=("eliminated",), column_turn_3=2, expect_wrong=True)


@case
def ex_im_09_pinned_counts():
    return ex_im_06(saf_turn_2=("pinned",), column_turn_3=2)


@case
def ex_im_09_wrong_column_pinned():
    return ex_im_06(saf_turn_2=("pinned",), column_turn_3=0, expect_wrong=True)


# -- communication ---------------------------------------------------------------------------------
def turn_two(g: Game) -> None:
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.new_turn(2); g.phase_start("barrage")


@case
def comm_failure_cancels():
    # Procedure: on 1-3 the FO is not in communication; no barrage on that hex this turn.
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 2)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "no-communication"}, "british")
    g.new_turn(3); g.phase_start("barrage"); g.full_fo_barrage_pinning("b-3", column=0)  # not expended: fires later
    return g


@case
def comm_roll_three_recorded_in_communication():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2")
    seq = g.comm("b-2", 3, ok=True)
    g.expect(seq, "IM.ART.COMM", "mismatch", [seq - 1, seq])
    g.fot("b-2", 2, 0); g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def comm_failed_barrage_still_fires():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 1)
    seq = g.fot("b-2", 2, 0)
    g.expect(seq, "IM.ART.COMM", "violation", [seq - 1, seq, seq + 1, seq + 2, seq + 3, seq + 4])
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def comm_failed_elements_fire_elsewhere():
    # The potential allocated to that hexagon is lost for the turn.
    g = Game(hexes={"1:1010": {"terrain": "clear"}, "1:1009": {"terrain": "clear"}}); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 3)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "no-communication"}, "british")
    g.observe("1:1009")
    seq = g.declare("b-3", target="1:1009")
    g.expect(seq, "IM.ART.COMM", "violation")
    g.comm("b-3", 5); g.fot("b-3", 1, 0); g.scatter("b-3", 2, False)
    g.resolve("b-3", 6, 20, "20", (("1:1009", "primary", "miss"),))
    return g


@case
def missing_comm_test_turn_two():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2")
    seq = g.fot("b-2", 2, 0)
    g.expect(seq, ["IM.ART.COMM", "IM.ART.FO", "IM.ART.FIRSTTURN"], "missing-roll",
             range(seq - 1, seq + 5))
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def aircraft_comm_failure_is_wrong():
    # Aircraft: always in communication; a comm roll treated as a failure is not allowed.
    g = Game(); g.unit("b-air", "british", "aircraft", "1:1008", attrs={"type": "CS"}); turn_two(g)
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    seq = g.comm("b-2", 2)
    g.expect(seq, ["IM.ART.AIR", "IM.ART.COMM"], "violation", [seq - 1, seq, seq + 1])
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "no-communication"}, "british")
    return g


# -- fire order table --------------------------------------------------------------------------------
@case
def missing_fot_turn_two():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5)
    seq = g.scatter("b-2", 3, False)
    g.expect(seq, "IM.ART.FOT", "missing-roll", range(seq - 1, seq + 3))
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def fot_recorded_without_roll():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5)
    seq = g.fot("b-2", 0, 0, roll=False)
    g.expect(seq, "IM.ART.FOT", "missing-roll", range(seq, seq + 4))
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def fot_refused_wastes_elements():
    # EX-IM-10: without an F the elements assigned may not fire at another hex this turn; other
    # scheduled barrages (other OBMs) continue.
    g = Game(elements=2, hexes={"1:1010": {"terrain": "clear"}, "1:1009": {"terrain": "clear"}}); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5); g.fot("b-2", 6, 0, granted=False)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "fire-order-refused"}, "british")
    g.observe("1:1009"); g.declare("b-3", elements=("obm-2",), target="1:1009")
    g.comm("b-3", 4); g.fot("b-3", 1, 0); g.scatter("b-3", 1, False)
    g.resolve("b-3", 6, 20, "20", (("1:1009", "primary", "miss"),))
    return g


@case
def fot_refused_elements_fire_elsewhere():
    g = Game(hexes={"1:1010": {"terrain": "clear"}, "1:1009": {"terrain": "clear"}}); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5); g.fot("b-2", 6, 0, granted=False)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "fire-order-refused"}, "british")
    g.observe("1:1009")
    seq = g.declare("b-3", target="1:1009")
    g.expect(seq, "IM.ART.FOT.FAIL", "violation")
    g.comm("b-3", 4); g.fot("b-3", 1, 0); g.scatter("b-3", 1, False)
    g.resolve("b-3", 6, 20, "20", (("1:1009", "primary", "miss"),))
    return g


@case
def fot_refused_barrage_still_fires():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5); g.fot("b-2", 6, 0, granted=False)
    seq = g.scatter("b-2", 3, False)
    g.expect(seq, "IM.ART.FOT", "violation", [seq - 1, seq, seq + 1, seq + 2])
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def fot_sample_table_wrong_letter():
    # With the sample pack, FOT column 0 row 5 is "-": recording an F is a mismatch.
    g = Game(tables="sample"); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5)
    seq = g.fot("b-2", 5, 0, granted=True)
    g.expect(seq, "IM.ART.FOT", "mismatch", [seq - 1, seq])
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


# -- first turn and automatic observation ---------------------------------------------------------------
@case
def first_turn_missing_scatter_roll():
    # First-turn barrages: scatter is still tested (EC-11).
    g = Game(); g.new_turn(1); g.phase_start("barrage")
    g.observe(); g.declare("b-1")
    seq = g.scatter("b-1", None, False)
    g.expect(seq, "IM.ART.SCATTER", "missing-roll", [seq, seq + 1, seq + 2])
    g.resolve("b-1", 5, 20, "20"); g.status("g-1", "pinned", "b-1")
    return g


@case
def first_turn_no_scatter_test_at_all():
    g = Game(); g.new_turn(1); g.phase_start("barrage")
    g.observe(); g.declare("b-1")
    seq = g.resolve("b-1", 5, 20, "20"); g.status("g-1", "pinned", "b-1")
    g.expect(seq, "IM.ART.SCATTER", "missing-roll", [seq - 1, seq])
    return g


@case
def missing_bcrt_roll():
    g = Game(); g.new_turn(1); g.phase_start("barrage")
    g.observe(); g.declare("b-1"); g.scatter("b-1", 2, False)
    seq = g.resolve("b-1", None, 20, "20"); g.status("g-1", "pinned", "b-1")
    g.expect(seq, "IM.ART.BCRT", "missing-roll")
    return g


def automatic(hexes, target, turn2_fot=True, town=False):
    g = Game(hexes=hexes, observers=False)
    g.new_turn(1); g.phase_start("barrage")
    g.observe(target, None, "automatic"); g.declare("b-1", target=target, observer=None)
    g.scatter("b-1", 6, True, new_target="1:1110", direction=2)   # EX-IM-22: scatters on a 6
    g.resolve("b-1", 4, 20, "20", (("1:1110", "primary", "miss"),))
    g.new_turn(2); g.phase_start("barrage")
    g.observe(target, None, "automatic"); g.declare("b-2", target=target, observer=None)
    if turn2_fot:
        g.fot("b-2", 1, 0)                               # no communication test, the FOT still rolled
    seq = g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20", ((target, "primary", "miss"),), modifiers=[(2, "town")] if town else ())
    g.status("g-1", "pinned", "b-2")
    return g, seq


@case
def auto_town_two_turns():
    return automatic({"1:1010": {"terrain": "town"}}, "1:1010", town=True)[0]


@case
def auto_bridge_two_turns():
    return automatic({"1:1010": {"terrain": "river", "features": ["bridge"]}}, "1:1010")[0]


@case
def auto_road_junction_two_turns():
    return automatic({"1:1010": {"terrain": "clear", "features": ["road", "road-junction"]}}, "1:1010")[0]


@case
def auto_town_missing_fot_turn_two():
    g, seq = automatic({"1:1010": {"terrain": "town"}}, "1:1010", turn2_fot=False, town=True)
    g.expect(seq, ["IM.ART.FOT", "IM.ART.AUTOOBS", "IM.ART.FIRSTTURN"], "missing-roll", [seq - 1, seq, seq + 1, seq + 2])
    return g


@case
def auto_clear_hex_not_observed():
    g = Game(observers=False)
    g.new_turn(1); g.phase_start("barrage")
    obs = g.observe("1:1010", None, "automatic")
    g.expect(obs, ["IM.ART.AUTOOBS", "IM.ART.FOT.PRIOR_OBS", "IM.ART.FO", "IM.ART.RESTRICT"], "violation",
             [obs, obs + 1])
    g.declare("b-1", observer=None)
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20"); g.status("g-1", "pinned", "b-1")
    return g


@case
def unobserved_target():
    # Only hexes previously targeted by an aircraft or FO (or automatically observed) may be attacked.
    g = Game(); g.new_turn(1); g.phase_start("barrage")
    seq = g.declare("b-1")
    g.expect(seq, ["IM.ART.FOT.PRIOR_OBS", "IM.ART.FO", "IM.ART.AUTOOBS", "IM.ART.RESTRICT"], "violation")
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20"); g.status("g-1", "pinned", "b-1")
    return g


# -- balloons --------------------------------------------------------------------------------------------
@case
def balloon_observes_any_hex():
    # Balloons: every hex of the map, resolved this turn, no communication test, FOT with a modifier.
    g = Game(hexes={"1:1010": {"terrain": "clear"}, "1:1030": {"terrain": "clear"}})
    g.unit("b-bal", "british", "balloon", "1:1001", firepower=0, range=0, movement=0)
    g.unit("g-2", "german", "infantry-platoon", "1:1030")
    turn_two(g)
    g.observe("1:1030", "balloon:b-bal", "balloon"); g.declare("b-2", target="1:1030", observer="balloon:b-bal")
    g.fot("b-2", 2, 0, modifiers=[(-1, "balloon")])
    g.scatter("b-2", 1, False); g.resolve("b-2", 5, 20, "20", (("1:1030", "primary", "miss"),))
    g.status("g-2", "pinned", "b-2")
    return g


@case
def balloon_as_barrage_target():
    g = Game(hexes={"1:1010": {"terrain": "clear"}, "1:1012": {"terrain": "clear"}})
    g.unit("g-bal", "german", "balloon", "1:1012", firepower=0, range=0, movement=0)
    g.new_turn(1); g.phase_start("barrage")
    g.observe("1:1012"); seq = g.declare("b-1", target="1:1012")
    g.scatter("b-1", 2, False)
    res = g.resolve("b-1", 5, 20, "20", (("1:1012", "primary", "miss"),))
    g.expect(seq, "IM.ART.BALLOON", "violation", range(seq - 1, res + 1))
    return g


# -- scatter -----------------------------------------------------------------------------------------------
def scatter_case(bat, natural, scattered, modifiers=(), mission="destruction"):
    g = Game(elements=2 if bat == "hurricane" else 1, german_at="1:1020")   # the hexes hit are empty
    g.new_turn(1); g.phase_start("barrage")
    g.observe()
    elements = ("obm-1", "obm-2") if bat == "hurricane" else ("obm-1",)
    g.declare("b-1", elements=elements, bat=bat, mission=mission)
    kind = bat.upper()
    new = ("1:1110" if bat == "drumfire" else "1:1210") if scattered else None
    seq = g.scatter("b-1", natural, scattered, new_target=new, kind=kind, direction=2)
    loc = new or "1:1010"
    if bat == "hurricane":
        g.resolve("b-1", 5, 20, "10", ((loc, "primary", "miss"),), element="obm-1")
        g.resolve("b-1", 6, 20, "10", ((loc, "primary", "miss"),), element="obm-2")
    else:
        g.resolve("b-1", 5, 20, "20", ((loc, "primary", "miss"),))
    return g, seq


@case
def scatter_drumfire_four_stays():
    return scatter_case("drumfire", 4, False)[0]


@case
def scatter_drumfire_five_scatters():
    return scatter_case("drumfire", 5, True)[0]


@case
def scatter_hurricane_four_scatters():
    return scatter_case("hurricane", 4, True)[0]


@case
def scatter_hurricane_three_stays():
    return scatter_case("hurricane", 3, False)[0]


def scatter_wrong(bat, natural, scattered):
    g, seq = scatter_case(bat, natural, scattered)
    roll = seq - 2 if scattered else seq - 1
    g.expect(seq, "IM.ART.SCATTER", "mismatch", range(roll, seq + 1))
    return g


@case
def scatter_drumfire_five_recorded_stays():
    return scatter_wrong("drumfire", 5, False)


@case
def scatter_drumfire_six_recorded_stays():
    return scatter_wrong("drumfire", 6, False)


@case
def scatter_drumfire_four_recorded_scatters():
    return scatter_wrong("drumfire", 4, True)


@case
def scatter_hurricane_four_recorded_stays():
    return scatter_wrong("hurricane", 4, False)


@case
def scatter_hurricane_three_recorded_scatters():
    return scatter_wrong("hurricane", 3, True)


@case
def scatter_drumfire_two_hexes_away():
    # Drumfire: the centre moves to one of the six adjacent hexes (hurricane: 2 hexes).
    g = Game(); g.new_turn(1); g.phase_start("barrage")
    g.observe(); g.declare("b-1")
    seq = g.scatter("b-1", 6, True, new_target="1:1012", direction=4)
    g.expect(seq, "IM.ART.SCATTER", "mismatch", [seq])
    g.resolve("b-1", 5, 20, "20", (("1:1012", "primary", "miss"),))
    return g


# -- counter-battery ----------------------------------------------------------------------------------------
def counter_battery(natural, scattered, eliminated):
    g = Game(german_elements=1, hexes={"1:1010": {"terrain": "clear"}, "1:1004": {"terrain": "town"}})
    g.new_turn(1); g.phase_start("barrage")
    g.first_turn_fo_barrage("b-1")
    g.phase_start("barrage", "german")
    g.observe("1:1004", None, "automatic", side="german")
    g.declare("gb-1", elements=("gobm-1",), target="1:1004", observer=None, side="german")
    g.scatter("gb-1", 2, False, side="german")
    g.resolve("gb-1", 5, 20, "20", (("1:1004", "primary", "miss"),), side="german")
    g.new_turn(2); g.phase_start("barrage")
    g.declare("b-cb", target=None, mission="counter-battery", observer="b-fo", target_element="gobm-1")
    g.comm("b-cb", 5); g.fot("b-cb", 2, 0)
    seq = g.scatter("b-cb", natural, scattered, modifiers=[(2, "counter-battery")], direction=3,
                    new_target=None)
    if eliminated:
        g.add("ArtilleryElementEliminated", {"element": "gobm-1", "by": "b-cb"}, "british")
    return g, seq


@case
def counter_battery_natural_two_eliminates():
    return counter_battery(2, False, True)[0]


@case
def counter_battery_natural_three_fails():
    return counter_battery(3, True, False)[0]


@case
def counter_battery_natural_three_recorded_hit():
    g, seq = counter_battery(3, False, True)
    g.expect(seq, ["IM.ART.MISSION.CB", "IM.ART.SCATTER", "IM.ART.EFF.CB"], "mismatch",
             range(seq - 1, seq + 2))
    return g


# -- legality: mission x barrage type x ammunition, permissions and dates --------------------------------
LEGALITY = ["IM.ART.LEGAL", "IM.ART.MISSION", "IM.ART.AMMO", "IM.ART.BAT"]


def declaration(mission, bat, ammo, *, date="1917-04", permissions=(), side_mission=None, legal=True,
                rule=None, elements=1):
    """One turn-1 barrage on an empty hex; an illegal declaration is the violation (at its seq)."""
    g = Game(date=date, permissions=permissions, elements=elements, german_at="1:1020",
             missions={"british": side_mission or mission, "german": "destruction"})
    g.new_turn(1); g.phase_start("barrage")
    g.observe()
    els = tuple(f"obm-{i}" for i in range(1, elements + 1))
    seq = g.declare("b-1", elements=els, mission=mission, bat=bat, ammo=ammo)
    if not legal:
        g.expect(seq, rule or LEGALITY, "violation")
        return g
    if ammo in ("smoke", "gas"):                  # scatter per element, no BCRT roll
        for e in els:
            g.scatter("b-1", 2, False, element=e)
        g.add("MarkerPlaced", {"marker": ammo, "location": "1:1010"}, "british")
    elif bat == "hurricane":
        g.scatter("b-1", 2, False, kind="HURRICANE")
        for e in els:
            g.resolve("b-1", 5, 20, "10", element=e)
    else:
        g.scatter("b-1", 2, False)
        g.resolve("b-1", 5, 20 * elements, "20" if elements == 1 else "31+")
    return g


@case
def legal_destruction_hurricane_shrapnel():
    return declaration("destruction", "hurricane", "shrapnel", elements=2)   # EC-01: accepted


@case
def illegal_neutralisation_shrapnel():
    return declaration("neutralisation", "drumfire", "shrapnel", legal=False)   # EC-01


@case
def illegal_suppression_shrapnel():
    return declaration("suppression", "drumfire", "shrapnel", legal=False)


@case
def illegal_interdiction_shrapnel():
    return declaration("interdiction", "drumfire", "shrapnel", side_mission="suppression", legal=False)


@case
def illegal_neutralisation_hurricane_smoke():
    return declaration("neutralisation", "hurricane", "smoke", permissions=["smoke"], legal=False)   # EC-02


@case
def illegal_gas_hurricane():
    return declaration("gas", "hurricane", "gas", permissions=["gas"], legal=False)


@case
def legal_neutralisation_drumfire_smoke():
    return declaration("neutralisation", "drumfire", "smoke", permissions=["smoke"])   # EC-02: accepted


@case
def illegal_suppression_hurricane():
    return declaration("suppression", "hurricane", "he", legal=False)   # EC-03


@case
def illegal_interdiction_hurricane():
    return declaration("interdiction", "hurricane", "he", side_mission="suppression", legal=False)


@case
def illegal_destruction_smoke():
    return declaration("destruction", "drumfire", "smoke", permissions=["smoke"], legal=False)   # EC-04


@case
def illegal_destruction_gas():
    return declaration("destruction", "drumfire", "gas", permissions=["gas"], legal=False)


@case
def illegal_interdiction_smoke():
    return declaration("interdiction", "drumfire", "smoke", side_mission="suppression", permissions=["smoke"],
                       legal=False)


@case
def illegal_gas_mission_he():
    return declaration("gas", "drumfire", "he", permissions=["gas"], legal=False)


@case
def illegal_smoke_without_permission():
    # EC-05: smoke shells only "when stated by the scenario".
    return declaration("suppression", "drumfire", "smoke", legal=False, rule="IM.ART.AMMO.SMOKE")


@case
def illegal_gas_march_1915():
    # Gas missions: never before April 1915, even when the scenario lists gas.
    return declaration("gas", "drumfire", "gas", date="1915-03", permissions=["gas"], legal=False,
                       rule=["IM.ART.MISSION.GAS", "IM.ART.AMMO.GAS"])


@case
def illegal_gas_without_permission():
    # Gas: the scenario indicates gas, or the AFMT gives it; here neither (AFMT destruction).
    return declaration("gas", "drumfire", "gas", date="1917-04", side_mission="destruction", legal=False,
                       rule=["IM.ART.MISSION.GAS", "IM.ART.AMMO.GAS", "IM.ART.AFMT", "IM.ART.MISSION"])


@case
def legal_gas_by_afmt_without_scenario_mention():
    # The AFMT gives gas and the scenario does not forbid it.
    return declaration("gas", "drumfire", "gas", date="1917-04")


def german_gas(date: str, double: bool, roll: int = 5):
    """A German gas barrage on British infantry; double gas pins for 4 turns on a mask roll of 4-6."""
    g = Game(date=date, permissions=["gas"], german_elements=1, missions={"german": "gas", "british": "destruction"},
             hexes={"1:1007": {"terrain": "town"}})
    g.new_turn(1); g.phase_start("barrage"); g.phase_start("barrage", "german")
    g.observe("1:1007", None, "automatic", side="german")
    g.declare("gb-1", elements=("gobm-1",), target="1:1007", mission="gas", ammo="gas", observer=None, side="german")
    g.scatter("gb-1", 2, False, element="gobm-1", side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1007"}, "german")
    if double:
        g.roll("IM.ART.AMMO.GAS.DOUBLE", roll, "b-inf", side="german")
        seq = g.status("b-inf", "pinned", "gb-1", side="german", turns=4)
    else:
        seq = g.status("b-inf", "pinned", "gb-1", side="german")
    return g, seq


@case
def legal_german_gas_april_1915():
    return german_gas("1915-04", double=False)[0]


@case
def legal_german_double_gas_1916():
    return german_gas("1916-02", double=True)[0]


@case
def illegal_double_gas_december_1915():
    g, seq = german_gas("1915-12", double=True)
    g.expect(seq, "IM.ART.AMMO.GAS.DOUBLE", "violation", [seq - 1, seq])
    return g


@case
def double_gas_mask_roll_survives():
    g, seq = german_gas("1916-02", double=True, roll=3)   # 1-3: the unit survives
    g.expect(seq, "IM.ART.AMMO.GAS.DOUBLE", "mismatch", [seq - 1, seq])
    return g


def allied_1915(ammo: str, roll, mission="destruction"):
    # Allied use of shrapnel: in 1915 another ammunition needs a d6 of 6 with +1 (natural 5-6).
    g = Game(date="1915-06", german_at="1:1020", missions={"british": mission, "german": "destruction"})
    g.new_turn(1); g.phase_start("barrage")
    g.observe()
    seq = g.declare("b-1", ammo=ammo, mission=mission)
    if roll is not None:
        g.roll("IM.ART.AMMO.SHRAP.ALLIED", roll, "b-1", modifiers=[{"value": 1, "why": "1915"}])
    sc = g.scatter("b-1", 2, False)
    g.resolve("b-1", 5, 20, "20")
    return g, seq, sc


@case
def legal_allied_shrapnel_1915():
    return allied_1915("shrapnel", None)[0]


@case
def legal_allied_he_1915_roll_five():
    return allied_1915("he", 5)[0]


@case
def illegal_allied_he_1915_roll_four():
    g, seq, sc = allied_1915("he", 4)
    g.expect(seq, "IM.ART.AMMO.SHRAP.ALLIED", "violation", range(seq, sc + 1))
    return g


@case
def missing_allied_shrapnel_roll_1915():
    g, seq, sc = allied_1915("he", None)
    g.expect(sc, "IM.ART.AMMO.SHRAP.ALLIED", "missing-roll", range(seq, sc + 3))
    return g


@case
def illegal_counter_battery_hurricane():
    g = Game(german_elements=1, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage")
    seq = g.declare("b-cb", target=None, mission="counter-battery", bat="hurricane", observer="b-fo",
                    target_element="gobm-1")
    g.expect(seq, LEGALITY, "violation")
    return g


@case
def illegal_counter_battery_enemy_did_not_fire():
    # Counter-battery: the enemy must have used an OBM in the previous barrage phase (EC-17).
    g = Game(german_elements=1, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.phase_start("barrage", "german")
    g.new_turn(2); g.phase_start("barrage")
    seq = g.declare("b-cb", target=None, mission="counter-battery", observer="b-fo", target_element="gobm-1")
    g.expect(seq, "IM.ART.MISSION.CB", "violation")
    return g


@case
def illegal_barrage_outside_barrage_phase():
    g = Game(german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.phase_start("offensive-small-arms-fire")
    seq = g.declare("b-1")
    g.expect(seq, ["IM.ART.GEN.PHASE", "IM.ART.RESTRICT"], "violation")
    return g


@case
def illegal_two_barrage_types_one_hex():
    # Only one barrage type per turn against a given hex.
    g = Game(elements=3, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1"); g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    seq = g.declare("b-2", elements=("obm-2", "obm-3"), bat="hurricane")
    g.expect(seq, "IM.ART.BAT.ONE_PER_HEX", "violation")
    return g


@case
def illegal_declaration_changed_after_roll():
    # EC-07: declarations are immutable.
    g = Game(permissions=["smoke"], missions={"british": "neutralisation"}, german_at="1:1020")
    turn_two(g)
    g.observe(); g.declare("b-2", mission="neutralisation"); g.comm("b-2", 5)
    seq = g.declare("b-2", mission="neutralisation", ammo="smoke")
    g.expect(seq, "IM.ART.DECLARE", "violation")
    return g


# -- firepower and barrage types ---------------------------------------------------------------------------
def drumfire(n: int, firepower: int, column: str, terrain="clear", modifiers=()):
    g = Game(elements=n, hexes={"1:1010": {"terrain": terrain}}, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", elements=tuple(f"obm-{i}" for i in range(1, n + 1)))
    g.scatter("b-1", 1, False)
    seq = g.resolve("b-1", 3, firepower, column, modifiers=modifiers)
    return g, seq


@case
def ex_im_16_drumfire_two_elements():
    return drumfire(2, 40, "31+")[0]                  # Firepower of barrages: 2 x 20 = 40


@case
def ex_im_17_drumfire_three_elements():
    return drumfire(3, 60, "31+")[0]                  # Determining results: 3 x 20 = 60 uses 31+


@case
def drumfire_firepower_not_summed():
    g, seq = drumfire(2, 20, "20")
    g.expect(seq, ["IM.ART.FP", "IM.ART.BAT.DRUMFIRE"], "mismatch")
    return g


@case
def drumfire_wrong_column():
    g, seq = drumfire(3, 60, "30")
    g.expect(seq, ["IM.ART.FP", "IM.ART.BCRT"], "mismatch")
    return g


@case
def drumfire_single_element_column_matches():
    return drumfire(1, 20, "20")[0]


def hurricane(n=4, column="10", mission="neutralisation", results=None, terrain="clear", modifiers=()):
    # "Hurricane" barrage: one scatter roll; each element attacks separately on column "10".
    g = Game(elements=n, missions={"british": mission, "german": "destruction"},
             hexes={"1:1010": {"terrain": terrain}}, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", elements=tuple(f"obm-{i}" for i in range(1, n + 1)), mission=mission, bat="hurricane")
    g.scatter("b-1", 2, False, kind="HURRICANE")
    seqs = [g.resolve("b-1", 4, 20, column, element=f"obm-{i}", modifiers=modifiers) for i in range(1, n + 1)]
    return g, seqs


@case
def ex_im_11_hurricane_four_elements():
    return hurricane()[0]


@case
def hurricane_combined_column():
    g, seqs = hurricane(column="31+")
    for seq in seqs:
        g.expect(seq, ["IM.ART.FP.HURRICANE_COL", "IM.ART.BAT.HURRICANE", "IM.ART.FP"], "mismatch")
    return g


@case
def ec_28_hurricane_forty_firepower_trench():
    # EC-28: one element of firepower 40 still uses column "10".
    g = Game(elements=0, hexes={"1:1010": {"terrain": "clear"}}, german_at="1:1020")
    g.element("obm-1", "british", 40)
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", bat="hurricane"); g.scatter("b-1", 3, False, kind="HURRICANE")
    g.resolve("b-1", 4, 40, "10", element="obm-1")
    return g


@case
def hurricane_single_scatter_roll_per_barrage():
    # One roll for all elements: a scatter test per element is not the procedure.
    g = Game(elements=2, german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", elements=("obm-1", "obm-2"), bat="hurricane")
    g.scatter("b-1", 2, False, kind="HURRICANE", element="obm-1")
    seq = g.scatter("b-1", 3, False, kind="HURRICANE", element="obm-2")
    g.expect(seq, ["IM.ART.SCATTER", "IM.ART.BAT.HURRICANE"], "violation", [seq - 1, seq])
    g.resolve("b-1", 4, 20, "10", element="obm-1"); g.resolve("b-1", 4, 20, "10", element="obm-2")
    return g


# -- optional ammunition consumption -------------------------------------------------------------------------
AMMOCON = ["IM.ART.AMMOCON.ENABLE"]


def ammo_game(**kw):
    return Game(options=AMMOCON, points=25, german_at="1:1020", **kw)


@case
def ex_im_18_gun_destroyed():
    # EX-IM-18: 1 point per element firing; no scatter -> the gun is destroyed, no BCRT roll.
    g = ammo_game(); g.unit("g-gun", "german", "artillery-gun", "1:1010")
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", objective="gun")
    g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 1, "reason": "destruction-gun", "barrage": "b-1"},
          "british")
    g.scatter("b-1", 2, False)
    g.status("g-gun", "eliminated", "b-1")
    return g


@case
def ammo_points_over_cap():
    # Each element may spend at most 25 points: 6 turns of strongpoint destruction (4 each) = 24,
    # the seventh spends 4 more.
    g = ammo_game(); g.unit("g-sp", "german", "infantry-platoon", "1:1012")
    last = 0
    for turn in range(1, 8):
        g.new_turn(turn); g.phase_start("barrage")
        g.observe("1:1012"); g.declare(f"b-{turn}", target="1:1012", objective="strongpoint")
        if turn > 1:
            g.comm(f"b-{turn}", 5); g.fot(f"b-{turn}", 1, 0)
        last = g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 4, "reason": "destruction-strongpoint",
                                              "barrage": f"b-{turn}"}, "british")
        g.scatter(f"b-{turn}", 6, True, new_target="1:1013", direction=3)
        g.resolve(f"b-{turn}", 5, 20, "20", (("1:1013", "primary", "miss"),))
    g.expect(last, "IM.ART.AMMOCON", "violation")
    return g


@case
def ammo_missing_spend():
    g = ammo_game(); g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1")
    seq = g.scatter("b-1", 2, False)
    g.expect(seq, "IM.ART.AMMOCON", "missing-roll", [seq - 2, seq - 1, seq, seq + 1, seq + 2])
    g.resolve("b-1", 5, 20, "20")
    return g


@case
def ammo_barrage_two_points():
    g = ammo_game(); g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1")
    g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 2, "reason": "barrage", "barrage": "b-1"}, "british")
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    return g


@case
def ammo_wrong_cost():
    g = ammo_game(); g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1")
    seq = g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 1, "reason": "barrage", "barrage": "b-1"},
                "british")
    g.expect(seq, "IM.ART.AMMOCON", "mismatch")
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    return g


# -- sustained fire ---------------------------------------------------------------------------------------------
def sustained(pause=False, roll=3, fires=True):
    g = Game(german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1", pin=False)
    g.new_turn(2); g.phase_start("barrage"); g.full_fo_barrage("b-2", column=0)
    turn = 3
    if pause:
        g.new_turn(3); g.phase_start("barrage"); turn = 4
    g.new_turn(turn); g.phase_start("barrage")
    g.observe()
    seq = g.declare("b-s", sustained=True)
    g.roll("IM.ART.SUSTAINED", roll, "b-s")
    if fires:
        g.scatter("b-s", 2, False)
        end = g.resolve("b-s", 5, 20, "20")
    else:
        end = g.add("BarrageCancelled", {"barrage": "b-s", "reason": "sustained-ended"}, "british")
    return g, seq, end


@case
def sustained_fire_next_turn():
    # Sustained fire option: after a barrage has fallen with the full procedure, d6 1-5 repeats it
    # with no communication test and no FOT.
    return sustained()[0]


@case
def sustained_fire_roll_six_ends():
    return sustained(roll=6, fires=False)[0]


@case
def sustained_fire_roll_six_still_fires():
    g, seq, end = sustained(roll=6)
    g.expect(end, "IM.ART.SUSTAINED", ["violation", "mismatch"][0], range(seq + 1, end + 1))
    return g


@case
def sustained_fire_after_pause():
    # Any pause means restarting the full procedure.
    g, seq, end = sustained(pause=True)
    g.expect(seq, "IM.ART.SUSTAINED", "violation", range(seq, end + 1))
    return g


@case
def sustained_fire_after_first_turn_only():
    # The first-turn barrage skipped the communication test and the FOT: not "the full procedure".
    g = Game(german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1", pin=False)
    g.new_turn(2); g.phase_start("barrage"); g.observe()
    seq = g.declare("b-s", sustained=True); g.roll("IM.ART.SUSTAINED", 2, "b-s")
    g.scatter("b-s", 2, False); end = g.resolve("b-s", 5, 20, "20")
    g.expect(seq, ["IM.ART.SUSTAINED", "IM.ART.COMM", "IM.ART.FOT"], "violation", range(seq, end + 1))
    return g


# -- effects -------------------------------------------------------------------------------------------------
def secondary_hex(ammo="he", terrain="clear", result="H+1", mc_natural=4, mc_mod=1, a_outcome="eliminated",
                  b_outcome="pinned", a_passed=False, b_passed=True, two_rolls=False, bcrt_mods=()):
    """EX-IM-13: two platoons (morale 4 and 5) in a secondary-zone hex; one morale roll for the hex."""
    g = Game(german_at="1:1020", hexes={"1:1010": {"terrain": "clear"}, "1:1011": {"terrain": terrain}})
    g.unit("g-a", "german", "infantry-platoon", "1:1011", morale=4)
    g.unit("g-b", "german", "infantry-platoon", "1:1011", morale=5)
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", ammo=ammo)
    g.scatter("b-1", 1, False)
    g.resolve("b-1", 2, 20, "20", (("1:1010", "primary", "miss"), ("1:1011", "secondary", result)),
              modifiers=bcrt_mods)
    seqs = {"mc_roll": g.roll("LS.MORALE", mc_natural, "g-a", side="german",
                              modifiers=[{"value": mc_mod, "why": result}])}
    if two_rolls:
        seqs["mc_roll2"] = g.roll("LS.MORALE", 2, "g-b", side="german", modifiers=[{"value": mc_mod, "why": result}])
    seqs["mc_a"] = g.add("MoraleChecked", {"units": ["g-a"], "morale": 4, "passed": a_passed}, "german")
    seqs["mc_b"] = g.add("MoraleChecked", {"units": ["g-b"], "morale": 5, "passed": b_passed}, "german")
    seqs["a"] = g.status("g-a", a_outcome, "b-1")
    seqs["b"] = g.status("g-b", b_outcome, "b-1")
    return g, seqs


@case
def ex_im_13_secondary_one_morale_check():
    return secondary_hex()[0]     # 4 + 1 = 5: A (4) fails -> eliminated, B (5) passes -> pinned


@case
def ex_im_13_two_morale_rolls():
    g, s = secondary_hex(two_rolls=True)
    g.expect(s["mc_roll2"], "IM.ART.EFF.MC_SINGLE", "violation", [s["mc_roll"], s["mc_roll2"]])
    return g


@case
def ex_im_13_wrong_outcome():
    g, s = secondary_hex(b_outcome="eliminated")
    g.expect(s["b"], ["IM.ART.EFF.DEST.HE.INF", "IM.ART.EFF"], "mismatch", [s["mc_b"], s["b"]])
    return g


@case
def ex_im_13_wrong_morale_result():
    g, s = secondary_hex(a_passed=True, a_outcome="pinned")
    g.expect(s["mc_a"], ["IM.ART.EFF", "IM.CORE.MORALE", "LS.MORALE"], "mismatch", [s["mc_a"], s["a"]])
    return g


@case
def ex_im_15_shrapnel_in_wood():
    # Shrapnel: +3 on the BCRT roll in woods; H+1 becomes H+2, so the morale check adds 2: 3 + 2 = 5
    # fails morale 4 (eliminated) and passes morale 5 (pinned).
    return secondary_hex(ammo="shrapnel", terrain="wood", mc_natural=3, mc_mod=2,
                         bcrt_mods=[(3, "shrapnel in cover")])[0]


@case
def ex_im_15_shrapnel_morale_without_shift():
    g, s = secondary_hex(ammo="shrapnel", terrain="wood", mc_natural=3, mc_mod=1, a_passed=True, a_outcome="pinned",
                         bcrt_mods=[(3, "shrapnel in cover")])
    g.expect(s["mc_a"], ["IM.ART.EFF", "IM.ART.AMMO.SHRAP", "IM.CORE.MORALE", "LS.MORALE"], "mismatch",
             [s["mc_roll"], s["mc_a"], s["a"]])
    return g


@case
def primary_hit_recorded_pinned():
    # Destruction, HE, infantry in the primary zone: H -> eliminated.
    g = Game(); g.new_turn(1); g.phase_start("barrage"); g.observe(); g.declare("b-1")
    g.scatter("b-1", 1, False); g.resolve("b-1", 1, 20, "20", (("1:1010", "primary", "H"),))
    seq = g.status("g-1", "pinned", "b-1")
    g.expect(seq, "IM.ART.EFF.DEST.HE.INF", "mismatch", [seq - 1, seq])
    return g


@case
def primary_hit_eliminates():
    g = Game(); g.new_turn(1); g.phase_start("barrage"); g.observe(); g.declare("b-1")
    g.scatter("b-1", 1, False); g.resolve("b-1", 1, 20, "20", (("1:1010", "primary", "H"),))
    g.status("g-1", "eliminated", "b-1")
    return g


@case
def ec_10_scattered_onto_friendly_platoon():
    # A scattered drumfire HE barrage affects friendly units in the new zone like any other.
    g = Game(german_at="1:1020"); g.new_turn(1); g.phase_start("barrage"); g.observe(); g.declare("b-1")
    g.scatter("b-1", 6, True, new_target="1:1009", direction=1)
    g.resolve("b-1", 1, 20, "20", (("1:1009", "primary", "H"),))
    return g


# -- ambiguity probes (Part C) -----------------------------------------------------------------------------------
@case
def ap_05_sustained_without_scatter():
    g = Game(german_at="1:1020")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1", pin=False)
    g.new_turn(2); g.phase_start("barrage"); g.full_fo_barrage("b-2", column=0)
    g.new_turn(3); g.phase_start("barrage"); g.observe()
    g.declare("b-s", sustained=True); g.roll("IM.ART.SUSTAINED", 2, "b-s")
    seq = g.resolve("b-s", 5, 20, "20")
    g.expect(seq, ["IM.ART.SUSTAINED", "IM.ART.SCATTER"], "ambiguous", [seq - 1, seq])
    return g


@case
def ap_08_comm_on_d10():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2")
    seq = g.comm("b-2", 4, die="d10")
    g.expect(seq - 1, "IM.ART.COMM", "ambiguous", [seq - 1, seq])
    g.fot("b-2", 2, 0); g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def ap_18_aircraft_same_turn():
    g = Game(); g.unit("b-air", "british", "aircraft", "1:1008", attrs={"type": "CS"}); turn_two(g)
    g.observe("1:1010", "aircraft:b-air", "aircraft"); seq = g.declare("b-2", observer="aircraft:b-air")
    g.fot("b-2", 2, 0, modifiers=[(-1, "aircraft")])
    g.scatter("b-2", 3, False); end = g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.AIR", "ambiguous", range(seq - 1, end + 1))
    return g


@case
def ap_02_hurricane_two_elements():
    g, seqs = hurricane(n=2)
    g.expect(seqs[0], "IM.ART.FP.HURRICANE_COL", "ambiguous", range(seqs[0] - 4, seqs[-1] + 1))
    return g


@case
def ap_07_allied_suppression_failed_shrapnel_roll():
    g = Game(date="1915-06", german_at="1:1020", missions={"british": "suppression", "german": "destruction"})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    seq = g.declare("b-1", mission="suppression")
    g.roll("IM.ART.AMMO.SHRAP.ALLIED", 2, "b-1", modifiers=[{"value": 1, "why": "1915"}])
    end = g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    g.expect(seq, "IM.ART.AMMO.SHRAP", "ambiguous", range(seq, end + 3))
    return g


@case
def ap_13_neutralisation_secondary_pin_duration():
    g = Game(date="1918-03", german_at="1:1020", missions={"british": "neutralisation", "german": "destruction"})
    g.unit("g-a", "german", "infantry-platoon", "1:1011", morale=4)
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", mission="neutralisation", bat="hurricane")
    g.scatter("b-1", 2, False, kind="HURRICANE")
    g.resolve("b-1", 2, 20, "10", (("1:1010", "primary", "miss"), ("1:1011", "secondary", "H+1")), element="obm-1")
    g.roll("LS.MORALE", 4, "g-a", side="german", modifiers=[{"value": 1, "why": "H+1"}])
    g.add("MoraleChecked", {"units": ["g-a"], "morale": 4, "passed": False}, "german")
    seq = g.status("g-a", "pinned", "b-1", turns=2)
    g.expect(seq, "IM.ART.EFF.NEUT", "ambiguous", [seq - 1, seq])
    return g


@case
def ap_14_interdiction_bridge_on_miss():
    g = Game(german_at="1:1020", missions={"british": "suppression", "german": "destruction"},
             hexes={"1:1010": {"terrain": "river", "features": ["bridge"]}})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", mission="interdiction")
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    seq = g.roll("IM.ART.EFF.INT.HE.OBST", 2, "b-1")
    end = g.add("MarkerPlaced", {"marker": "bridge-destroyed", "location": "1:1010"}, "british")
    g.expect(seq, "IM.ART.EFF.INT.HE.OBST", "ambiguous", [seq - 2, seq - 1, seq, end])
    return g


# -- smoke and gas procedures ---------------------------------------------------------------------------------
def smoke(elements=2, per_element=True, bcrt=False, turn2=True):
    # Smoke: observed and communication checked, the FOT ignored, scatter per element, no BCRT roll.
    g = Game(elements=elements, permissions=["smoke"], german_at="1:1020",
             missions={"british": "suppression", "german": "destruction"})
    turn_two(g) if turn2 else (g.new_turn(1), g.phase_start("barrage"))
    g.observe()
    els = tuple(f"obm-{i}" for i in range(1, elements + 1))
    g.declare("b-s", elements=els, mission="suppression", ammo="smoke")
    g.comm("b-s", 5)
    seqs = []
    for e in (els if per_element else els[:1]):
        seqs.append(g.scatter("b-s", 2, False, element=e if per_element else None))
    if bcrt:
        seqs.append(g.resolve("b-s", 3, 20 * elements, "31+" if elements > 1 else "20"))
    for _ in els:
        g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    return g, seqs


@case
def smoke_screen_turn_two():
    return smoke()[0]


@case
def smoke_one_scatter_for_two_elements():
    g, seqs = smoke(per_element=False)
    g.expect(seqs[0], ["IM.ART.AMMO.SMOKE", "IM.ART.SCATTER"], "missing-roll", range(seqs[0] - 1, seqs[0] + 3))
    return g


@case
def smoke_with_bcrt_roll():
    g, seqs = smoke(bcrt=True)
    g.expect(seqs[-1], ["IM.ART.AMMO.SMOKE", "IM.ART.EFF.SMOKE", "IM.ART.BCRT"], "violation",
             [seqs[-1] - 1, seqs[-1]])
    return g


@case
def gas_turn_two_missing_fot():
    # Gas: observe, communication, the FOT is rolled, scatter per element.
    g = Game(permissions=["gas"], german_at="1:1020", missions={"british": "gas", "german": "destruction"})
    turn_two(g)
    g.observe(); g.declare("b-g", mission="gas", ammo="gas"); g.comm("b-g", 6)
    seq = g.scatter("b-g", 2, False, element="obm-1")
    g.expect(seq, ["IM.ART.FOT", "IM.ART.AMMO.GAS"], "missing-roll", [seq - 1, seq, seq + 1])
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, "british")
    return g


# -- observers ---------------------------------------------------------------------------------------------------
@case
def pinned_fo_observes():
    # A pinned FO or LNO may not observe any hex.
    g = Game(german_at="1:1020"); g.new_turn(1); g.phase_start("barrage")
    g.status("b-fo", "pinned", "g-mg", side="german")
    seq = g.observe()
    g.expect(seq, ["IM.ART.RESTRICT.PINNED_OBS", "IM.ART.FO"], "violation", [seq, seq + 1])
    g.declare("b-1"); g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20")
    return g


@case
def fo_beyond_ten_hexes():
    # The FO may observe any hex within 10 hexes.
    g = Game(german_at="1:1020", hexes={"1:1010": {"terrain": "clear"}, "1:1017": {"terrain": "clear"}})
    g.new_turn(1); g.phase_start("barrage")
    seq = g.observe("1:1017")     # 1005 -> 1017: 12 hexes
    g.expect(seq, ["IM.ART.FO.RANGE", "IM.ART.FO"], "violation", [seq, seq + 1])
    g.declare("b-1", target="1:1017"); g.scatter("b-1", 2, False)
    g.resolve("b-1", 5, 20, "20", (("1:1017", "primary", "miss"),))
    return g


@case
def fo_at_ten_hexes():
    g = Game(german_at="1:1020", hexes={"1:1010": {"terrain": "clear"}, "1:1015": {"terrain": "clear"}})
    g.new_turn(1); g.phase_start("barrage")
    g.observe("1:1015"); g.declare("b-1", target="1:1015"); g.scatter("b-1", 2, False)
    g.resolve("b-1", 5, 20, "20", (("1:1015", "primary", "miss"),))
    return g


@case
def second_comm_test_same_turn():
    # Each non-pinned FO may attempt communication once per turn for each hexagon it targets.
    g = Game(german_at="1:1020"); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 2)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "no-communication"}, "british")
    g.observe(); g.declare("b-3", elements=("obm-1",))
    seq = g.comm("b-3", 5)
    g.expect(seq, ["IM.ART.COMM"], "violation", [seq - 3, seq - 2, seq - 1, seq])
    return g


# -- counter-battery eligibility ------------------------------------------------------------------------------------
def cb_game(date="1917-04", weather="fair", side_bloc="allied"):
    g = Game(date=date, german_elements=1, weather=weather,
             hexes={"1:1010": {"terrain": "clear"}, "1:1004": {"terrain": "town"}})
    # before 1917 the Allied player fires shrapnel unless he rolls for another ammunition
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1", ammo="he" if date >= "1917" else "shrapnel")
    g.phase_start("barrage", "german")
    g.observe("1:1004", None, "automatic", side="german")
    g.declare("gb-1", elements=("gobm-1",), target="1:1004", observer=None, side="german")
    g.scatter("gb-1", 2, False, side="german")
    g.resolve("gb-1", 5, 20, "20", (("1:1004", "primary", "miss"),), side="german")
    g.new_turn(2); g.phase_start("barrage")
    seq = g.declare("b-cb", target=None, mission="counter-battery", observer="b-fo", target_element="gobm-1")
    return g, seq


@case
def counter_battery_allies_1916():
    g, seq = cb_game(date="1916-07")
    g.expect(seq, "IM.ART.MISSION.CB", "violation")
    return g


@case
def counter_battery_bad_weather():
    g, seq = cb_game(weather="bad")
    g.expect(seq, "IM.ART.MISSION.CB", "violation")
    return g


@case
def counter_battery_after_the_war():
    g, seq = cb_game(date="1920-05")
    g.expect(seq, "IM.ART.MISSION.CB", "violation")
    return g


# -- hurricane early stop -------------------------------------------------------------------------------------------
@case
def ex_im_12_hurricane_retarget():
    # "Hurricane" barrage: later attacks on an emptied hex are ignored; the remaining elements may
    # not pick a new hexagon.
    g = Game(elements=4, german_at="1:1010", hexes={"1:1010": {"terrain": "clear"}, "1:1012": {"terrain": "clear"}})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", elements=("obm-1", "obm-2", "obm-3", "obm-4"), bat="hurricane")
    g.scatter("b-1", 1, False, kind="HURRICANE")
    g.resolve("b-1", 5, 20, "10", element="obm-1"); g.status("g-1", "pinned", "b-1")
    g.resolve("b-1", 5, 20, "10", element="obm-2")
    g.status("g-1", "retreated", "b-1")
    g.add("UnitMoved", {"unit": "g-1", "path": ["1:1010", "1:1011", "1:1012"]}, "german")
    seq = g.resolve("b-1", 3, 20, "10", (("1:1012", "primary", "miss"),), element="obm-3")
    g.expect(seq, "IM.ART.BAT.HURRICANE.STOP", "violation")
    return g


# -- vehicles under destruction -----------------------------------------------------------------------------------------
def tank_case(zone="primary", result="H", subroll: Optional[int] = 1, outcome: Optional[str] = "eliminated"):
    g = Game(german_at="1:1020", hexes={"1:1010": {"terrain": "clear"}, "1:1011": {"terrain": "clear"}})
    loc = "1:1010" if zone == "primary" else "1:1011"
    g.unit("g-tank", "german", "tank", loc, movement=4)
    g.new_turn(1); g.phase_start("barrage"); g.observe(); g.declare("b-1")
    g.scatter("b-1", 1, False)
    rows = (("1:1010", "primary", result if zone == "primary" else "miss"),) + \
        ((("1:1011", "secondary", result),) if zone == "secondary" else ())
    res = g.resolve("b-1", 1, 20, "20", rows)
    sub = g.roll("IM.ART.EFF.DEST.HE.VEH", subroll, "g-tank") if subroll is not None else None
    st = g.status("g-tank", outcome, "b-1") if outcome else None
    return g, res, sub, st


@case
def ec_24_tank_primary_hit_subroll_one():
    return tank_case()[0]          # D/HE, P, H, d6 = 1: destroyed


@case
def ec_24_tank_primary_hit_subroll_two():
    return tank_case(subroll=2, outcome=None)[0]


@case
def ec_24_tank_destroyed_on_subroll_two():
    g, res, sub, st = tank_case(subroll=2, outcome="eliminated")
    g.expect(st, "IM.ART.EFF.DEST.HE.VEH", "mismatch", [sub, st])
    return g


@case
def ec_24_tank_missing_subroll():
    g, res, sub, st = tank_case(subroll=None, outcome="eliminated")
    g.expect(st, "IM.ART.EFF.DEST.HE.VEH", "missing-roll", [res, st])
    return g


@case
def ec_24_tank_secondary_hit_ignored():
    return tank_case(zone="secondary", result="H+2", subroll=None, outcome=None)[0]


# -- the sample table pack (illustrative values) ------------------------------------------------------------
def sample_game(fot_letter_ok=True, bcrt_ok=True):
    g = Game(tables="sample")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")      # BCRT 20, roll 5: miss
    g.new_turn(2); g.phase_start("barrage")
    g.observe(); g.declare("b-2"); g.comm("b-2", 5)
    fot = g.fot("b-2", 2 if fot_letter_ok else 4, 0, granted=True)                 # FOT 0, roll 2: F
    g.scatter("b-2", 3, False)
    res = g.resolve("b-2", 2, 20, "20", (("1:1010", "primary", "H" if bcrt_ok else "miss"),))   # roll 2: H
    g.status("g-1", "eliminated" if bcrt_ok else "pinned", "b-2")
    return g, fot, res


@case
def sample_pack_legal_game():
    return sample_game()[0]


@case
def sample_pack_wrong_bcrt_result():
    g, fot, res = sample_game(bcrt_ok=False)
    g.expect(res, ["IM.ART.BCRT", "IM.ART.FP"], "mismatch", [res - 1, res])
    return g


@case
def sample_pack_refused_fire_order_recorded_granted():
    g, fot, res = sample_game(fot_letter_ok=False)
    g.expect(fot, "IM.ART.FOT", "mismatch", [fot - 1, fot])
    return g


# -- liaison officer -------------------------------------------------------------------------------------------
@case
def lno_observes_both_tests_pass():
    # Liaison officer: an additional LNO-to-FO test; normally both tests must pass.
    g = Game(german_at="1:1010")
    g.unit("b-lno", "british", "liaison-officer", "1:1006", firepower=0, range=0)
    turn_two(g)
    g.observe("1:1010", "b-lno", "liaison-officer"); g.declare("b-2", observer="b-lno")
    g.comm("b-2", 4, link="lno-fo"); g.comm("b-2", 6)
    g.fot("b-2", 1, 0); g.scatter("b-2", 2, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def lno_test_failed_barrage_fires():
    g = Game(german_at="1:1010")
    g.unit("b-lno", "british", "liaison-officer", "1:1006", firepower=0, range=0)
    turn_two(g)
    g.observe("1:1010", "b-lno", "liaison-officer"); g.declare("b-2", observer="b-lno")
    g.comm("b-2", 2, link="lno-fo"); g.comm("b-2", 6)
    seq = g.fot("b-2", 1, 0)
    g.expect(seq, ["IM.ART.LNO", "IM.ART.COMM"], "violation", [seq - 3, seq - 2, seq - 1, seq, seq + 1, seq + 2])
    g.scatter("b-2", 2, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


# -- creeping barrages (chosen before the scenario) ----------------------------------------------------------
def creeping(side, date, mission="simple-creeping", elements=3, afmt="suppression", roll=None, legal=True):
    g = Game(date=date, elements=0, german_at="1:1020", missions={side: afmt})
    for i in range(1, elements + 1):
        g.element(f"{side[0]}c-{i}", side, 20)
    if roll is not None:
        g.roll("IM.ART.MISSION.SCB.ELIG", roll, side, side)
    seq = g.declare("creep", elements=tuple(f"{side[0]}c-{i}" for i in range(1, elements + 1)), target=None,
                    mission=mission, observer=None, side=side)
    if not legal:
        g.expect(seq, ["IM.ART.MISSION.SCB", "IM.ART.MISSION.DCB", "IM.ART.LEGAL"], "violation")
    return g


@case
def ec_19_allied_scb_may_1916():
    return creeping("british", "1916-05", roll=2, legal=False)


@case
def ec_19_allied_scb_june_1916_roll_two():
    return creeping("british", "1916-06", roll=2)


@case
def ec_19_allied_scb_june_1916_roll_four():
    return creeping("british", "1916-06", roll=4, legal=False)


@case
def ec_19_german_scb_two_elements():
    return creeping("german", "1916-04", elements=2, legal=False)


@case
def ec_21_allied_double_creeping():
    return creeping("british", "1917-04", mission="double-creeping", elements=6, legal=False)


@case
def ec_21_german_double_creeping_december_1915():
    return creeping("german", "1915-12", mission="double-creeping", elements=6, legal=False)


@case
def ammo_spent_after_firing():
    # Points are spent before firing.
    g = ammo_game(); g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1"); g.scatter("b-1", 2, False)
    seq = g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 2, "reason": "barrage", "barrage": "b-1"},
                "british")
    g.expect(seq, "IM.ART.AMMOCON", ["violation", "missing-roll"][0], [seq - 1, seq])
    g.resolve("b-1", 5, 20, "20")
    return g


@case
def ammo_smoke_screen_five_points():
    g = Game(options=AMMOCON, points=25, german_at="1:1020", permissions=["smoke"],
             missions={"british": "neutralisation", "german": "destruction"})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", mission="neutralisation", ammo="smoke")
    g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 5, "reason": "smoke", "barrage": "b-1"}, "british")
    g.scatter("b-1", 2, False, element="obm-1")
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    return g


@case
def ammo_gas_costs_nothing():
    g = Game(options=AMMOCON, points=25, german_at="1:1020", permissions=["gas"],
             missions={"british": "gas", "german": "destruction"})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", mission="gas", ammo="gas")
    g.scatter("b-1", 2, False, element="obm-1")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, "british")
    return g


@case
def first_turn_with_optional_steps_recorded():
    # Turn 1 needs no communication test and no FOT; recording them anyway is harmless.
    g = Game(german_at="1:1020"); g.new_turn(1); g.phase_start("barrage")
    g.observe(); g.declare("b-1"); g.comm("b-1", 5); g.fot("b-1", 2, 0)
    g.scatter("b-1", 3, False); g.resolve("b-1", 5, 20, "20")
    return g


@case
def fot_column_as_text():
    g = Game(); turn_two(g)
    g.observe(); g.declare("b-2"); g.comm("b-2", 5)
    g.roll("IM.ART.FOT.ROLL", 2, "b-2")
    g.add("FireOrderChecked", {"barrage": "b-2", "column": "0", "modifiers": [], "granted": True}, "british")
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def auto_own_trench_hex():
    # Automatic observation (2): all hexes of your own side's trenches.
    g = Game(observers=False, german_at="1:1020", hexes={"1:1008": {"terrain": "clear"}})
    g.add("MarkerPlaced", {"marker": "trench-prepared", "location": "1:1008"}, "british")
    g.new_turn(1); g.phase_start("barrage")
    g.observe("1:1008", None, "automatic"); g.declare("b-1", target="1:1008", observer=None)
    g.scatter("b-1", 2, False); g.resolve("b-1", 5, 20, "20", (("1:1008", "primary", "miss"),))
    return g


def ex_im_12(record_rest: bool):
    g = Game(elements=4, german_at="1:1010", hexes={"1:1010": {"terrain": "clear"}, "1:1012": {"terrain": "clear"}})
    g.new_turn(1); g.phase_start("barrage"); g.observe()
    g.declare("b-1", elements=("obm-1", "obm-2", "obm-3", "obm-4"), bat="hurricane")
    g.scatter("b-1", 1, False, kind="HURRICANE")
    g.resolve("b-1", 5, 20, "10", element="obm-1"); g.status("g-1", "pinned", "b-1")
    g.resolve("b-1", 5, 20, "10", element="obm-2")          # pinned again: retreats 2 hexes, stays pinned
    g.status("g-1", "retreated", "b-1")
    g.add("UnitMoved", {"unit": "g-1", "path": ["1:1010", "1:1011", "1:1012"]}, "german")
    if record_rest:                                        # lost on the (now) empty hex
        g.resolve("b-1", 3, 20, "10", element="obm-3"); g.resolve("b-1", 6, 20, "10", element="obm-4")
    return g


@case
def ex_im_12_hurricane_stops_unrecorded():
    return ex_im_12(False)


@case
def ex_im_12_hurricane_stops_recorded_on_empty_hex():
    return ex_im_12(True)


@case
def two_sides_two_turns():
    # Both players fire in their own barrage phases; the German turn-2 barrage on the British FO's
    # hex follows the full procedure from an automatically observed town hex.
    g = Game(german_elements=1, hexes={"1:1010": {"terrain": "clear"}, "1:1107": {"terrain": "town"}})
    g.unit("b-mg", "british", "mg-platoon", "1:1107")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.phase_start("offensive-small-arms-fire"); g.small_arms("a-1", "no-effect")
    g.phase_start("pin-removal", "german"); g.add("UnitStatusChanged", {"unit": "g-1", "status": "unpinned"}, "german")
    g.pinned.clear()
    g.phase_start("barrage", "german")
    g.observe("1:1107", None, "automatic", side="german")
    g.declare("gb-1", elements=("gobm-1",), target="1:1107", observer=None, side="german")
    g.scatter("gb-1", 1, False, side="german")
    g.resolve("gb-1", 5, 20, "20", (("1:1107", "primary", "miss"),), modifiers=[(2, "town")], side="german")
    g.status("b-mg", "pinned", "gb-1", side="german")
    g.new_turn(2); g.phase_start("pin-removal", "british")
    g.add("UnitStatusChanged", {"unit": "b-mg", "status": "unpinned"}, "british")
    g.phase_start("barrage")
    g.observe(); g.declare("b-2"); g.comm("b-2", 4); g.fot("b-2", 3, 1)
    g.scatter("b-2", 4, False); g.resolve("b-2", 2, 20, "20", (("1:1010", "primary", "H"),))
    g.status("g-1", "eliminated", "b-2")
    g.phase_start("barrage", "german")
    g.observe("1:1107", None, "automatic", side="german")
    g.declare("gb-2", elements=("gobm-1",), target="1:1107", observer=None, side="german")
    g.fot("gb-2", 1, 0, side="german")
    g.scatter("gb-2", 2, False, side="german")
    g.resolve("gb-2", 4, 20, "20", (("1:1107", "primary", "miss"),), modifiers=[(2, "town")], side="german")
    g.status("b-mg", "pinned", "gb-2", side="german")
    return g


def resistance_by_gun(column: int):
    # Small arms fire "by units other than artillery": an on-map gun's fire does not count.
    g = Game()
    g.unit("b-gun", "british", "artillery-gun", "1:1006", firepower=10)
    g.unit("b-crew", "british", "crew", "1:1006")
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.phase_start("offensive-small-arms-fire")
    g.roll("IM.SPOT.ROLL", 2, "b-gun", die="d10")
    g.add("Spotted", {"spotter": "b-gun", "target": "1:1010", "spotted": True}, "british")
    g.add("SmallArmsFired", {"attack": "a-g", "firers": ["b-gun"], "target": "1:1010", "firepower": 10, "range": 4},
          "british")
    g.roll("LS.SACRT", 6, "a-g")
    g.add("SmallArmsResolved", {"attack": "a-g", "results": [{"unit": "g-1", "result": "no-effect"}]}, "british")
    g.new_turn(2); g.phase_start("barrage")
    seqs = g.full_fo_barrage_pinning("b-2", column=column)
    return g, seqs


@case
def resistance_gun_fire_does_not_count():
    return resistance_by_gun(0)[0]


@case
def resistance_gun_fire_counted_wrongly():
    g, s = resistance_by_gun(1)
    g.expect(s["fot"], FOT_PREFIXES, "mismatch", [s["fot"] - 1, s["fot"]])
    return g


@case
def resistance_accumulates_over_turns():
    # Turns 1 and 2 each saw small arms fire without elimination or retreat: column 2 on turn 3.
    g = Game()
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1")
    g.phase_start("offensive-small-arms-fire"); g.small_arms("a-1", "no-effect")
    g.new_turn(2); g.phase_start("barrage"); g.full_fo_barrage_pinning("b-2", column=1)
    g.phase_start("offensive-small-arms-fire"); g.small_arms("a-2", "no-effect")
    g.new_turn(3); g.phase_start("barrage"); g.full_fo_barrage_pinning("b-3", column=2)
    return g


@case
def ap_04_scb_cancellation_roll_three():
    g = creeping("german", "1918-08")
    g.new_turn(1); g.phase_start("barrage", "german")
    seq = g.roll("IM.ART.MISSION.SCB.CANCEL", 3, "creep", side="german")
    g.expect(seq, "IM.ART.MISSION.SCB.CANCEL", "ambiguous")
    return g


@case
def scb_cancellation_before_july_1918():
    g = creeping("german", "1918-03")
    g.new_turn(1); g.phase_start("barrage", "german")
    seq = g.roll("IM.ART.MISSION.SCB.CANCEL", 3, "creep", side="german")
    g.expect(seq, "IM.ART.MISSION.SCB.CANCEL", "violation")
    return g


@case
def ap_03_gas_beyond_impact_zone():
    # Gas: a radius-3 area around the final impact hex, or the impact zone of each element?
    g = Game(permissions=["gas"], german_elements=1, missions={"german": "gas", "british": "destruction"},
             hexes={"1:1010": {"terrain": "clear"}, "1:1004": {"terrain": "town"}})
    g.new_turn(1); g.phase_start("barrage"); g.phase_start("barrage", "german")
    g.observe("1:1004", None, "automatic", side="german")
    g.declare("gb-1", elements=("gobm-1",), target="1:1004", mission="gas", ammo="gas", observer=None, side="german")
    g.scatter("gb-1", 2, False, element="gobm-1", side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1004"}, "german")
    seq = g.status("b-inf", "pinned", "gb-1", side="german")     # 1:1007 is 3 hexes from 1:1004
    g.expect(seq, ["IM.ART.MISSION.GAS", "IM.ART.AMMO.GAS", "IM.ART.EFF.GAS"], "ambiguous", [seq - 1, seq])
    return g
