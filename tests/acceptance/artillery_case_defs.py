"""The artillery acceptance cases (see artillery_cases.py). Each function builds one game and
states, with the rulebook passage, the findings it must give; a legal game states none."""
from __future__ import annotations

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
