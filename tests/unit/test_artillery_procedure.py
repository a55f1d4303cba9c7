"""The off-map barrage procedure (Infernal Machines, Indirect Barrage Fire Procedure; Aircraft;
Balloons; Automatic observation; First-turn barrages): which steps each barrage needs."""
from domain.rules.tables import TablePack
from tests.artillery_procedure_helpers import TOWN, Game, at, failing, found, run


def turn_two_fo_barrage(game: Game, comm_roll: int = 5) -> Game:
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.comm("b-2", comm_roll)
    return game


def test_ex_im_06_is_accepted():
    # EX-IM-06: turn 1 FO barrage (no comm, no FOT), SAF without result; turn 2 aircraft observes,
    # no comm test, FOT column 1 with -1; turn 3 FO, comm passes, FOT column 1.
    game = Game()
    game.unit("b-air", "british", "aircraft", "1:1008")
    game.barrage_phase(1).observe()
    game.declare("b-1")
    game.fire("b-1")
    game.fire_phase().small_arms("a-1")
    game.barrage_phase(2).observe(via="aircraft", observer="aircraft:b-air")
    game.declare("b-2", observer="aircraft:b-air")
    game.fot("b-2", 3, column=1, modifiers=[{"value": -1, "why": "aircraft"}])
    game.fire("b-2")
    game.barrage_phase(3).observe()
    game.declare("b-3")
    game.comm("b-3", 4)
    game.fot("b-3", 2, column=1)
    game.fire("b-3")
    report = run(game, aircraft_barrage_timing="same-turn")
    assert failing(report) == []


def test_first_turn_skips_comm_and_fot():
    # IM, First-turn barrages: "without testing whether the forward observer ... is in communication,
    # and without making a die roll on the Fire Order Table" (EC-11 first bullet).
    game = Game()
    game.barrage_phase(1).observe()
    game.declare("b-1")
    game.fire("b-1", scatter=2)
    assert failing(run(game)) == []


def test_turn_two_without_comm_is_missing_roll():
    # EC-11 third bullet: "the same hex on turn 2 (not sustained fire) without a comm test or FOT -> REJECT".
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    resolved = game.fire("b-2", scatter_test=False)
    report = run(game)
    assert (at(resolved), "IM.ART.COMM.TEST", "missing-roll") in found(report, "IM.ART.COMM")
    assert (at(resolved), "IM.ART.FOT.ROLL", "missing-roll") in found(report, "IM.ART.FOT")


def test_automatic_needs_fot_not_comm():
    # EX-IM-22: a town hex is observed automatically; turn 1: no observer, comm or FOT; turn 2: the FOT
    # is REQUIRED ("the player must always still use the Fire Order Table"), still no comm test.
    game = Game()
    game.barrage_phase(1).observe(TOWN, via="automatic", observer=None)
    game.declare("b-1", TOWN, observer=None)
    game.fire("b-1", TOWN, scatter=6)
    game.barrage_phase(2).observe(TOWN, via="automatic", observer=None)
    game.declare("b-2", TOWN, observer=None)
    game.roll("IM.ART.SCATTER.DRUMFIRE", 3, "b-2", "british")
    scatter = game.add("ScatterTested", {"barrage": "b-2", "scattered": False}, side="british")
    report = run(game)
    assert found(report, "IM.ART.FOT.ROLL") == [(at(scatter), "IM.ART.FOT.ROLL", "missing-roll")]
    assert found(report, "IM.ART.COMM") == []


def test_automatic_with_fot_is_accepted():
    game = Game()
    game.barrage_phase(2).observe(TOWN, via="automatic", observer=None)
    game.declare("b-2", TOWN, observer=None)
    game.fot("b-2", 2, column=0)
    game.fire("b-2", TOWN)
    assert failing(run(game)) == []


def test_automatic_observation_kinds():
    # IM, Automatic observation: bridges, towns, road junctions and your own trenches are observed;
    # a clear hex far from any trench is not.
    game = Game(hexes={"1:1501": {"terrain": "clear", "features": ["bridge"]},
                       "1:1503": {"terrain": "clear", "features": ["road-junction"]},
                       "1:1801": {"terrain": "clear"}})
    game.add("MarkerPlaced", {"marker": "trench-prepared", "location": "1:0303"}, side="british")
    game.barrage_phase(1)
    ok = [game.observe(loc, via="automatic", observer=None) for loc in ("1:1501", "1:1503", TOWN, "1:0303")]
    bad = game.observe("1:1801", via="automatic", observer=None)
    near_trench = game.observe("1:0304", via="automatic", observer=None)
    report = run(game)
    assert found(report, "IM.ART.AUTOOBS.HEXES") == [
        (at(bad), "IM.ART.AUTOOBS.HEXES", "violation"), (at(near_trench), "IM.ART.AUTOOBS.HEXES", "unverifiable")]
    assert all(found(report, "IM.ART.AUTOOBS.HEXES", "violation")[0][0] != at(line) for line in ok)


def test_target_not_observed_is_violation():
    # IM: "only hexagons that were previously targeted by an aircraft or a forward observer may be attacked".
    game = Game()
    game.barrage_phase(1)
    declared = game.declare("b-1", "1:1801")
    report = run(game)
    assert found(report, "IM.ART.FOT.PRIOR_OBS") == [(at(declared), "IM.ART.FOT.PRIOR_OBS", "violation")]


def test_observation_from_an_earlier_turn_does_not_serve():
    game = Game()
    game.barrage_phase(1).observe()
    game.barrage_phase(2)
    declared = game.declare("b-2")
    assert found(run(game), "IM.ART.FOT.PRIOR_OBS") == [(at(declared), "IM.ART.FOT.PRIOR_OBS", "violation")]


def test_observer_must_match_observation():
    # IM, Use of the forward observer: the FO that observes the hex names the OBMs and ammunition.
    game = Game()
    game.unit("b-fo2", "british", "forward-observer", "1:1004")
    game.barrage_phase(1).observe()
    declared = game.declare("b-1", observer="b-fo2")
    assert found(run(game), "IM.ART.FO.REQUIRED") == [(at(declared), "IM.ART.FO.REQUIRED", "violation")]


def test_observer_kind_must_match_via():
    game = Game()
    game.barrage_phase(1)
    line = game.observe(via="liaison-officer", observer="b-fo")
    assert found(run(game), "IM.ART.FO.REQUIRED") == [(at(line), "IM.ART.FO.REQUIRED", "violation")]


def test_comm_failure_stops_barrage():
    # IM: "On a result of 1 to 3 ... The indirect barrage mentioned does not take place".
    game = turn_two_fo_barrage(Game(), comm_roll=3)
    game.roll("IM.ART.SCATTER.DRUMFIRE", 2, "b-2", "british")
    scatter = game.add("ScatterTested", {"barrage": "b-2", "scattered": False}, side="british")
    report = run(game)
    assert (at(scatter), "IM.ART.COMM.TEST", "violation") in found(report, "IM.ART.COMM.TEST")


def test_comm_failure_cancelled_is_accepted():
    game = turn_two_fo_barrage(Game(), comm_roll=2)
    game.cancel("b-2", "no-communication")
    assert failing(run(game)) == []


def test_cancelled_for_wrong_reason_is_mismatch():
    game = turn_two_fo_barrage(Game(), comm_roll=2)
    cancel = game.cancel("b-2", "fire-order-refused")
    assert found(run(game), "IM.ART.FOT.FAIL") == [(at(cancel), "IM.ART.FOT.FAIL", "mismatch")]


def test_comm_outcome_must_follow_roll():
    # IM: "On a result of 1 to 3, the forward observer is not 'in communication'".
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    tested = game.comm("b-2", 3, in_comm=True)
    assert found(run(game), "IM.ART.COMM.TEST") == [(at(tested), "IM.ART.COMM.TEST", "mismatch")]


def test_comm_without_roll_is_missing_roll():
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    tested = game.add("CommunicationTested", {"barrage": "b-2", "link": "fo-artillery", "in_communication": True},
                      side="british")
    assert found(run(game), "IM.ART.COMM.TEST") == [(at(tested), "IM.ART.COMM.TEST", "missing-roll")]


def test_comm_test_once_per_turn_per_hex():
    # IM: "For each hexagon it targets, a forward observer ... may, once per turn, attempt to establish communication".
    game = turn_two_fo_barrage(Game(), comm_roll=2)
    game.cancel("b-2", "no-communication")
    game.declare("b-3", elements=["obm-2"])
    again = game.comm("b-3", 5)
    report = run(game)
    assert (at(again), "IM.ART.COMM.TEST.ONCE", "violation") in found(report, "IM.ART.COMM")


def test_comm_d10_is_ambiguous():
    # AP-08: the die of the communication test is not named; a d10 showing 4 is ambiguous.
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.comm("b-2", 4, die="d10")
    assert [v for _, _, v in found(run(game), "IM.ART.COMM.TEST")] == ["ambiguous"]
    assert found(run(game, communication_die="any"), "IM.ART.COMM.TEST") == []


def test_failed_comm_elements_lost_for_turn():
    # IM: "All of the potential of the off-map artillery allocated to attacking that hexagon is lost
    # for the rest of the turn".
    game = turn_two_fo_barrage(Game(), comm_roll=1)
    game.cancel("b-2", "no-communication")
    game.observe(TOWN, via="automatic", observer=None)
    again = game.declare("b-3", TOWN, observer=None)
    assert found(run(game), "IM.ART.COMM.TEST.LOST") == [(at(again), "IM.ART.COMM.TEST.LOST", "violation")]


def test_fot_column_must_be_resistance():
    # IM: the FOT column is "the number of turns for which the hexagon has resisted" (0 here).
    game = turn_two_fo_barrage(Game())
    checked = game.fot("b-2", 4, column=1)
    assert found(run(game), "IM.ART.FOT.ROLL", "mismatch") == [(at(checked), "IM.ART.FOT.ROLL", "mismatch")]


def test_fot_without_roll_is_missing_roll():
    game = turn_two_fo_barrage(Game())
    checked = game.add("FireOrderChecked", {"barrage": "b-2", "column": 0, "granted": True}, side="british")
    assert (at(checked), "IM.ART.FOT.ROLL", "missing-roll") in found(run(game), "IM.ART.FOT.ROLL")


def test_refused_fire_order_wastes_elements():
    # EX-IM-10: without an "F" the OBMs assigned to H may not fire at another hex this turn.
    game = turn_two_fo_barrage(Game())
    game.fot("b-2", 6, column=0, granted=False)
    game.cancel("b-2", "fire-order-refused")
    game.observe(TOWN, via="automatic", observer=None)
    other = game.declare("b-3", TOWN, observer=None)
    game.declare("b-4", TOWN, observer=None, elements=["obm-2"])  # other elements: allowed
    report = run(game)
    assert found(report, "IM.ART.FOT.FAIL") == [(at(other), "IM.ART.FOT.FAIL", "violation")]


def test_refused_fire_order_then_fire_is_violation():
    game = turn_two_fo_barrage(Game())
    game.fot("b-2", 6, column=0, granted=False)
    resolved = game.fire("b-2", scatter_test=False)
    assert found(run(game), "IM.ART.FOT.FAIL") == [(at(resolved), "IM.ART.FOT.FAIL", "violation")]


def test_fot_letter_checked_against_pack():
    # The FOT letters are table data: checked only when the pack holds the FOT.
    pack = TablePack("test-fot", illustrative=True, tables={"FOT": {"0": {str(r): "F" if r <= 4 else "-"
                                                                          for r in range(1, 7)}}})
    game = turn_two_fo_barrage(Game())
    checked = game.fot("b-2", 5, column=0, granted=True)
    report = run(game, tables=pack)
    assert found(report, "IM.ART.FOT.ROLL") == [(at(checked), "IM.ART.FOT.ROLL", "mismatch")]
    assert [v for _, _, v in found(run(game), "IM.ART.FOT.ROLL")] == ["unverifiable"]


def test_aircraft_fot_needs_minus_one():
    # IM, example: column "1" "with a -1 die modifier for using an aircraft".
    game = Game()
    game.unit("b-air", "british", "aircraft", "1:1008")
    game.barrage_phase(2).observe(via="aircraft", observer="aircraft:b-air")
    game.declare("b-2", observer="aircraft:b-air")
    checked = game.fot("b-2", 3, column=0)
    report = run(game, aircraft_barrage_timing="same-turn")
    assert found(report, "IM.ART.FOT.MOD") == [(at(checked), "IM.ART.FOT.MOD", "mismatch")]
    assert found(run(game, aircraft_barrage_timing="same-turn", fot_aircraft_modifier="plus-one"),
                 "IM.ART.FOT.MOD") == [(at(checked), "IM.ART.FOT.MOD", "mismatch")]


def test_aircraft_comm_failure_is_violation():
    # EC-14: "An aircraft-observed barrage logged with a comm roll of 2 treated as a failure -> REJECT".
    game = Game()
    game.unit("b-air", "british", "aircraft", "1:1008")
    game.barrage_phase(2).observe(via="aircraft", observer="aircraft:b-air")
    game.declare("b-2", observer="aircraft:b-air")
    tested = game.comm("b-2", 2)
    cancel = game.cancel("b-2", "no-communication")
    report = run(game, aircraft_barrage_timing="same-turn")
    assert found(report, "IM.ART.AIR.FO", "violation") == [(at(tested), "IM.ART.AIR.FO", "violation"),
                                                           (at(cancel), "IM.ART.AIR.FO", "violation")]


def test_aircraft_without_fot_is_missing_roll():
    game = Game()
    game.unit("b-air", "british", "aircraft", "1:1008")
    game.barrage_phase(2).observe(via="aircraft", observer="aircraft:b-air")
    game.declare("b-2", observer="aircraft:b-air")
    resolved = game.fire("b-2", scatter_test=False)
    report = run(game, aircraft_barrage_timing="same-turn")
    assert found(report, "IM.ART.FOT") == [(at(resolved), "IM.ART.FOT.ROLL", "missing-roll")]
    assert found(report, "IM.ART.COMM") == []


def test_aircraft_same_turn_is_ambiguous():
    # AP-18: resolved in the same turn or the next? The rule and the FOT example disagree.
    game = Game()
    game.unit("b-air", "british", "aircraft", "1:1008")
    game.barrage_phase(2).observe(via="aircraft", observer="aircraft:b-air")
    declared = game.declare("b-2", observer="aircraft:b-air")
    assert found(run(game), "IM.ART.AIR.FO") == [(at(declared), "IM.ART.AIR.FO", "ambiguous")]
    assert found(run(game, aircraft_barrage_timing="next-turn"), "IM.ART.AIR.FO") == [
        (at(declared), "IM.ART.AIR.FO", "violation")]


def test_balloon_fot_needs_modifier():
    # IM, Balloons: "The Fire Order Table is nevertheless always used, but with the indicated unfavourable
    # die modifier" (its value is on the chart).
    game = Game()
    game.unit("b-bal", "british", "balloon", "1:0101")
    game.barrage_phase(2).observe(via="balloon", observer="balloon:b-bal")
    game.declare("b-2", observer="balloon:b-bal")
    checked = game.fot("b-2", 3, column=0)
    game.fire("b-2")
    report = run(game)
    assert found(report, "IM.ART.FOT.MOD") == [(at(checked), "IM.ART.FOT.MOD", "mismatch")]
    assert found(report, "IM.ART.COMM") == []


def test_lno_link_failure_stops_barrage():
    # IM, Liaison officer: "an additional communication test is required (a result of 1 to 3 is always a failure)".
    game = Game()
    game.barrage_phase(2).observe(via="liaison-officer", observer="b-lno")
    game.declare("b-2", observer="b-lno")
    game.comm("b-2", 2, link="lno-fo")
    game.comm("b-2", 5)
    checked = game.fot("b-2", 4, column=0)
    report = run(game)
    assert (at(checked), "IM.ART.COMM.TEST", "violation") in found(report, "IM.ART.COMM")


def test_lno_without_lno_link_is_ambiguous():
    # IM.ART.LNO.COMM ⚠: "Normally" both tests must pass; when is the LNO link mandatory?
    game = Game()
    game.barrage_phase(2).observe(via="liaison-officer", observer="b-lno")
    game.declare("b-2", observer="b-lno")
    game.comm("b-2", 5)
    game.fot("b-2", 4, column=0)
    resolved = game.fire("b-2")
    report = run(game)
    assert found(report, "IM.ART.LNO.COMM") == [(at(resolved) - 2, "IM.ART.LNO.COMM", "ambiguous")]
    assert found(run(game, lno_chain="both"), "IM.ART.LNO.COMM") == [
        (at(resolved) - 2, "IM.ART.LNO.COMM", "missing-roll")]


def test_smoke_ignores_fot():
    # IM, Smoke: "must observe the targeted hexagon and check communications ... but ignores the rules
    # concerning the Fire Order Table".
    game = Game(permissions=["smoke"])
    game.barrage_phase(2).observe()
    game.declare("b-2", mission="suppression", ammunition="smoke")
    game.comm("b-2", 4)
    game.roll("IM.ART.SCATTER.DRUMFIRE", 2, "b-2", "british")
    game.add("ScatterTested", {"barrage": "b-2", "element": "obm-1", "scattered": False}, side="british")
    assert found(run(game), "IM.ART.FOT") == []


def test_declaration_change_in_later_step_is_violation():
    # EC-07: declare {N, drumfire, HE}, comm roll 5, "amend ammo: smoke" -> REJECT.
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.roll("IM.ART.COMM.TEST", 5, "b-2", "british")
    amended = game.add("CommunicationTested", {"barrage": "b-2", "link": "fo-artillery", "in_communication": True,
                                               "ammunition": "smoke"}, side="british")
    assert found(run(game), "IM.ART.DECLARE") == [(at(amended), "IM.ART.DECLARE.STEPS", "violation")]



def test_declaration_is_immutable():
    # IM: "Once declared, these choices may not be changed during the same barrage" (EC-07).
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2", mission="neutralisation")
    game.roll("IM.ART.COMM.TEST", 5, "b-2", "british")
    again = game.declare("b-2", mission="neutralisation", ammunition="smoke")
    report = run(game)
    assert found(report, "IM.ART.DECLARE") == [(at(again), "IM.ART.DECLARE", "violation")]
    violation = [a for a in report.findings if a.rule == "IM.ART.DECLARE"][0]
    assert (violation.expected, violation.recorded) == ({"ammunition": "he"}, {"ammunition": "smoke"})


def test_barrage_outside_barrage_phase():
    # IM, Who may fire: "All indirect barrage fire must take place during this phase".
    game = Game()
    game.barrage_phase(2).observe()
    game.fire_phase()
    late = game.declare("b-2")
    game.phase_start("barrage", "german")
    other_side = game.declare("b-3", elements=["obm-2"])
    report = run(game)
    assert found(report, "IM.ART.GEN.PHASE") == [(at(late), "IM.ART.GEN.PHASE", "violation"),
                                                 (at(other_side), "IM.ART.GEN.PHASE", "violation")]


def test_one_barrage_type_per_hex():
    # IM, Types of Artillery Barrage: one barrage type per turn against a given hexagon.
    game = Game()
    game.barrage_phase(2).observe()
    game.declare("b-2")
    second = game.declare("b-3", elements=["obm-2"], barrage_type="hurricane")
    assert found(run(game), "IM.ART.BAT.ONE_PER_HEX") == [(at(second), "IM.ART.BAT.ONE_PER_HEX", "violation")]


def test_lno_link_roll_recorded_under_either_purpose():
    # The log format pairs a CommunicationTested with its roll, "purpose IM.ART.COMM.TEST or IM.ART.LNO.COMM".
    game = Game()
    game.barrage_phase(2).observe(via="liaison-officer", observer="b-lno")
    game.declare("b-2", observer="b-lno")
    game.roll("IM.ART.COMM.TEST", 5, "b-2", "british")
    game.add("CommunicationTested", {"barrage": "b-2", "link": "lno-fo", "in_communication": True}, side="british")
    game.comm("b-2", 6)
    game.fot("b-2", 4, column=0)
    game.fire("b-2")
    assert failing(run(game)) == []


def test_without_observers_only_automatic_hexes():
    # IM, Restrictions on indirect fire: "If all forward observers or liaison officers of a side are lost,
    # indirect barrages may only be directed against the hexagons indicated in rule 5.15 (automatic observation)".
    game = Game(lno=False)
    game.turn_start(1)
    game.phase_start("offensive-small-arms-fire", "german")
    game.add("UnitStatusChanged", {"unit": "b-fo", "status": "eliminated"}, side="german")
    game.barrage_phase(2)
    unobserved = game.declare("b-2", observer=None)
    game.declare("b-3", TOWN, observer=None, elements=["obm-2"])
    assert found(run(game), "IM.ART.FOT.PRIOR_OBS") == [(at(unobserved), "IM.ART.FOT.PRIOR_OBS", "violation")]
