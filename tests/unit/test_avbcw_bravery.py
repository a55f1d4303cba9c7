"""Dux Bellorum AVBCW bravery tests and the moves they allow (dux-bellorum-avbcw.txt, Turn sequence,
Suppression, Going prone, Bravery extremes, Banner, Brittle, Inspiring, Assault troops, Tracked
vehicles, Running people over; game-log-tabletop.md, Dux Bellorum, BraveryTested). Each expectation
is worked by hand from the passage it quotes."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import INFANTRY, WHIPPET, Game

CAVALRY = {"type": "cav-regulars", "figures": 6, "stats": {"MV": "12", "BRV": "8", "MELEE": "5", "SHOOT": "1",
                                                          "PRO": "4", "COH": "4"}, "pts": 4}
COMMANDER = {"type": "commander-foot", "figures": 3, "stats": {"MV": "6", "BRV": "9", "MELEE": "4(1)", "SHOOT": "3",
                                                              "PRO": "6", "COH": "6"}, "pts": 5}


def game_of(**royal) -> Game:
    game = Game()
    game.army("royalist", **(royal or {"r-inf": INFANTRY}))
    game.army("socialist", **{"s-inf": INFANTRY})
    for i, unit in enumerate(royal or {"r-inf": INFANTRY}):
        game.deploy("royalist", unit, 8.0 + 10 * i, 8.0)
    game.deploy("socialist", "s-inf", 24.0, 40.0, facing=180)
    return game


def bravery(game: Game, unit: str, faces=(3, 4), brv=8, passed=True, why="move", side="royalist", **extra) -> int:
    game.add("DieRolled", {"purpose": "DB.BRAVERY", "die": "2d6", "results": list(faces), "result": sum(faces),
                           "subject": unit}, side)
    return game.add("BraveryTested", {"unit": unit, "why": why, "brv": brv, "modifiers": [], "passed": passed, **extra},
                    side)


def suppress(game: Game, unit: str, side="socialist") -> int:
    game.add("CohesionLost", {"unit": unit, "points": 2, "cause": "shooting"}, side)
    return game.add("UnitStatusChanged", {"unit": unit, "status": "suppressed", "cause": "AVBCW.SUPP.TRIGGER"}, side)


def test_a_bravery_test_for_each_unit_that_moves():
    # "3. Move units (Only if unit did not shoot: In sequence. Test Bravery for each unit)"
    game = game_of(**{"r-inf": INFANTRY, "r-two": INFANTRY})
    game.start(1)
    bravery(game, "r-inf")
    tested = game.move("royalist", "r-inf", (8.0, 8.0), (8.0, 12.0))
    untested = game.move("royalist", "r-two", (18.0, 8.0), (18.0, 12.0))
    verdicts = game.verdicts("AVBCW.TURN")
    assert verdicts[tested][-1] == "ok" and verdicts[untested][-1] == "violation"
    # a failed test: what the unit may then do is the core Bravery test, not in the text
    game.start(2)
    bravery(game, "r-inf", passed=False)
    after_fail = game.move("royalist", "r-inf", (8.0, 12.0), (8.0, 14.0))
    assert game.verdicts("DB.BRAVERY")[after_fail] == ["unverifiable"]


def test_a_suppressed_unit_cannot_move():
    # "A unit that suffers at least 2 lost Cohesion points from shooting this turn automatically goes
    # (or stays) prone this turn as its move"; "While suppressed a unit; • Remains prone and cannot
    # move"; "remains suppressed until it succeeds a BRV test to move"
    game = game_of()
    game.start(1, "missile-fire")
    suppress(game, "s-inf")
    game.to_phase("move")
    bravery(game, "s-inf", brv=6, side="socialist")
    same_turn = game.move("socialist", "s-inf", (24.0, 40.0), (24.0, 38.0))
    game.start(2)
    bravery(game, "s-inf", brv=6, passed=False, side="socialist")
    failed = game.move("socialist", "s-inf", (24.0, 38.0), (24.0, 36.0))
    early = game.add("UnitStatusChanged", {"unit": "s-inf", "status": "unsuppressed"}, "socialist")
    game.start(3)
    bravery(game, "s-inf", brv=8, side="socialist")       # unsuppressed at seq `early`: BRV 8 again
    freed = game.move("socialist", "s-inf", (24.0, 36.0), (24.0, 34.0))
    verdicts = game.verdicts("AVBCW.SUPP.EFFECTS")
    assert verdicts[same_turn] == ["violation"] and verdicts[failed] == ["violation"]
    assert verdicts[early] == ["violation"]           # no passed test to move since the suppression
    assert freed not in verdicts                      # no longer suppressed
    # the legal way: a passed test to move, then unsuppressed, then the move
    game = game_of()
    game.start(1, "missile-fire")
    suppress(game, "s-inf")
    game.start(2)
    bravery(game, "s-inf", brv=6, side="socialist")
    lifted = game.add("UnitStatusChanged", {"unit": "s-inf", "status": "unsuppressed"}, "socialist")
    moved = game.move("socialist", "s-inf", (24.0, 40.0), (24.0, 36.0))
    verdicts = game.verdicts("AVBCW.SUPP.EFFECTS")
    assert verdicts[lifted] == ["ok"] and moved not in verdicts


def test_suppressed_brv():
    # "While suppressed a unit; ... • Suffers -2 BRV": Infantry Regulars BRV 8 -> 6
    game = game_of()
    game.start(1, "missile-fire")
    suppress(game, "s-inf")
    game.start(2)
    right = bravery(game, "s-inf", brv=6, side="socialist", why="other")
    wrong = bravery(game, "s-inf", brv=8, side="socialist", why="other")
    verdicts = game.verdicts("AVBCW.SUPP.EFFECTS")
    assert verdicts[right] == ["ok"] and verdicts[wrong] == ["mismatch"]


def test_banner_and_brittle():
    # Banner: "The unit gains +1 BRV" (8 + 1 = 9); Brittle: "The unit's Bravery is 6 when taking
    # break tests" (whatever its 8)
    game = game_of(**{"r-inf": INFANTRY | {"special": ["AVBCW.EQ.BANNER"]},
                      "r-two": INFANTRY | {"special": ["AVBCW.AB.BRITTLE"]}})
    game.start(1)
    banner = bravery(game, "r-inf", brv=9, why="other")
    no_banner = bravery(game, "r-inf", brv=8, why="other")
    brittle_break = bravery(game, "r-two", brv=6, why="break")
    brittle_move = bravery(game, "r-two", brv=8)
    in_play = lambda rule: {seq: v for seq, v in game.verdicts(rule).items() if seq > 4}   # not the lists'
    assert in_play("AVBCW.EQ.BANNER") == {banner: ["ok"], no_banner: ["mismatch"]}
    assert in_play("AVBCW.AB.BRITTLE") == {brittle_break: ["ok"]}
    assert game.verdicts("AVBCW.UNIT.STATS")[brittle_move] == ["ok"]


def test_an_inspiring_commander_lends_its_brv():
    # Inspiring: "All friendly units within 12” of the Commander's 'unit leader' figure may use the
    # Commander's Bravery rating" (BRV 9). The commander's leader at (8, 8); r-inf's base at x 18
    # reaches back to 15.5: 7.5”. r-far's base reaches x 25.5: 17.5” away.
    game = game_of(**{"r-cmd": COMMANDER, "r-inf": INFANTRY, "r-far": INFANTRY})
    game.start(1)
    near = bravery(game, "r-inf", brv=9, brv_from="r-cmd", why="other")
    far = bravery(game, "r-far", brv=9, brv_from="r-cmd", why="other")
    not_a_commander = bravery(game, "r-far", brv=8, brv_from="r-inf", why="other")
    verdicts = game.verdicts("AVBCW.AB.INSPIRING")
    assert verdicts[near] == ["ok", "ok"]          # within 12”, and BRV 9 used
    assert verdicts[far][0] == "violation"
    assert verdicts[not_a_commander][0] == "violation"


def test_who_goes_prone():
    # "Instead of moving, a unit (except Mounted Commanders, Cavalry, Mortar, Field gun, or
    # Flamethrower teams) can go prone"; "Units that cannot go prone ... do not go prone"
    game = game_of(**{"r-inf": INFANTRY, "r-cav": CAVALRY})
    game.start(1)
    infantry = game.add("UnitStatusChanged", {"unit": "r-inf", "status": "prone"}, "royalist")
    cavalry = game.add("UnitStatusChanged", {"unit": "r-cav", "status": "prone"}, "royalist")
    suppressed_cavalry = game.add("UnitStatusChanged", {"unit": "r-cav", "status": "prone",
                                                        "cause": "AVBCW.SUPP.TRIGGER"}, "royalist")
    assert game.verdicts("AVBCW.PRONE") == {infantry: ["ok"], cavalry: ["violation"]}
    assert game.verdicts("AVBCW.SUPP.NOPRONE") == {suppressed_cavalry: ["violation"]}


def test_prone_instead_of_moving():
    # "Instead of moving ... can go prone"; "A prone unit can get up and move normally in later turns"
    game = game_of(**{"r-inf": INFANTRY, "r-two": INFANTRY})
    game.start(1)
    bravery(game, "r-inf")
    game.move("royalist", "r-inf", (8.0, 8.0), (8.0, 12.0))
    after_move = game.add("UnitStatusChanged", {"unit": "r-inf", "status": "prone"}, "royalist")
    game.add("UnitStatusChanged", {"unit": "r-two", "status": "prone"}, "royalist")
    bravery(game, "r-two")
    then_moves = game.move("royalist", "r-two", (18.0, 8.0), (18.0, 12.0))
    game.start(2)
    bravery(game, "r-two")
    later = game.move("royalist", "r-two", (18.0, 12.0), (18.0, 16.0))
    verdicts = game.verdicts("AVBCW.PRONE")
    assert verdicts[after_move] == ["violation"] and verdicts[then_moves] == ["violation"]
    assert later not in verdicts


def test_double_one_gives_two_consecutive_moves():
    # "A unit's bravery test that rolls double 1 (before modifiers) allows the unit to move twice;
    # these are two consecutive normal moves"
    game = game_of(**{"r-inf": INFANTRY, "r-two": INFANTRY})
    game.start(1)
    one = bravery(game, "r-inf", faces=(1, 1))
    game.move("royalist", "r-inf", (8.0, 8.0), (8.0, 12.0))
    second = game.move("royalist", "r-inf", (8.0, 12.0), (8.0, 16.0), mode="second")
    bravery(game, "r-two", faces=(2, 1))
    game.move("royalist", "r-two", (18.0, 8.0), (18.0, 12.0))
    no_double = game.move("royalist", "r-two", (18.0, 12.0), (18.0, 16.0), mode="second")
    verdicts = game.verdicts("AVBCW.BRV.EXTREMES")
    assert verdicts[one] == ["ok"] and verdicts[second] == ["ok"] and verdicts[no_double] == ["violation"]
    # not consecutive: another unit moved between the two
    game = game_of(**{"r-inf": INFANTRY, "r-two": INFANTRY})
    game.start(1)
    bravery(game, "r-inf", faces=(1, 1))
    game.move("royalist", "r-inf", (8.0, 8.0), (8.0, 12.0))
    bravery(game, "r-two")
    game.move("royalist", "r-two", (18.0, 8.0), (18.0, 12.0))
    late = game.move("royalist", "r-inf", (8.0, 12.0), (8.0, 16.0), mode="second")
    assert game.verdicts("AVBCW.BRV.EXTREMES")[late] == ["violation"]
    # a missing roll: the extremes cannot be read
    game = game_of()
    game.start(1)
    bare = game.add("BraveryTested", {"unit": "r-inf", "why": "move", "brv": 8, "modifiers": [], "passed": True},
                    "royalist")
    assert game.verdicts("AVBCW.BRV.EXTREMES")[bare] == ["missing-roll"]


def test_double_six_no_move_and_a_cohesion_lost():
    # "A unit that rolls double six (before modifiers) cannot move and loses 1 Cohesion."; a
    # vehicle's "suffers a mechanical mishap; roll on the Vehicle Damage table with 1d6-1"
    game = game_of(**{"r-inf": INFANTRY, "r-two": INFANTRY, "r-tank": WHIPPET})
    game.start(1)
    six = bravery(game, "r-inf", faces=(6, 6), passed=False)
    lost = game.add("CohesionLost", {"unit": "r-inf", "points": 1, "cause": "bravery"}, "royalist")
    moved = game.move("royalist", "r-inf", (8.0, 8.0), (8.0, 10.0))
    unanswered = bravery(game, "r-two", faces=(6, 6), passed=False)
    tank = bravery(game, "r-tank", faces=(6, 6), brv=6, passed=False)
    game.add("DieRolled", {"purpose": "AVBCW.VEH.DAMAGE_TABLE", "die": "d6", "result": 4, "subject": "r-tank"},
             "royalist")
    mishap = game.add("VehicleDamaged", {"vehicle": "r-tank", "cause": "bravery", "result": "traction-wrecked",
                                         "repeat": False}, "royalist")
    stray = game.add("VehicleDamaged", {"vehicle": "r-tank", "cause": "bravery", "result": "crew-shaken",
                                        "repeat": False}, "royalist")
    game.start(2)
    verdicts = game.verdicts("AVBCW.BRV.EXTREMES")
    assert verdicts[six] == ["ok"] and verdicts[lost] == ["ok"] and verdicts[moved] == ["violation"]
    assert verdicts[unanswered] == ["ok", "violation"]      # no COH lost by the turn's end
    assert verdicts[tank] == ["ok"] and verdicts[mishap] == ["ok"] and verdicts[stray] == ["violation"]


def test_assault_troops_need_no_test_to_contact():
    # Assault troops: "it does not need to make a Bravery test for a move that will end in contact
    # with an enemy unit". s-inf's base spans y 39 to 41; r-inf (5” x 2”) moved to y 38 has its
    # front edge at 39: in contact. To y 37.9 it stops 0.1” short.
    game = Game()
    game.army("royalist", **{"r-inf": INFANTRY | {"special": ["AVBCW.AB.ASSAULT"]}, "r-two": INFANTRY})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-inf", 24.0, 33.0)
    game.deploy("royalist", "r-two", 31.0, 33.0)
    game.deploy("socialist", "s-inf", 24.0, 40.0, facing=180)
    game.start(1)
    contact = game.move("royalist", "r-inf", (24.0, 33.0), (24.0, 38.0))
    plain = game.move("royalist", "r-two", (31.0, 33.0), (29.0, 38.0))
    game.start(2)
    game.move("royalist", "r-inf", (24.0, 38.0), (24.0, 33.0))
    game.start(3)
    short = game.move("royalist", "r-inf", (24.0, 33.0), (24.0, 37.9))
    assert game.verdicts("AVBCW.AB.ASSAULT")[contact] == ["ok"]
    turn = game.verdicts("AVBCW.TURN")
    assert turn[plain][-1] == "violation" and turn[short][-1] == "violation"


def test_a_bogged_vehicle_tests_at_minus_two():
    # Tracked vehicles: "The vehicle can attempt to move next turn as normal but suffers -2 BRV"
    # (the Whippet's BRV 6 -> 4)
    game = game_of(**{"r-tank": WHIPPET})
    game.start(1)
    game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
    game.start(2)
    right = bravery(game, "r-tank", brv=4)
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG") == {right: ["ok"]}
    game = game_of(**{"r-tank": WHIPPET})
    game.start(1)
    game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
    game.start(2)
    wrong = bravery(game, "r-tank", brv=6)
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG") == {wrong: ["mismatch"]}


def test_run_over_brv_less_the_vehicles_pro():
    # Running people over: "that unit must test BRV. The units BRV is reduced by the PRO value of
    # the vehicle": the Whippet's PRO 4, Infantry Regulars' BRV 8 -> 4
    game = Game()
    game.army("royalist", **{"r-tank": WHIPPET})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-tank", 24.0, 8.0, w=3.0, d=5.0)
    game.deploy("socialist", "s-inf", 24.0, 20.0, facing=180)
    game.start(1)
    game.move("royalist", "r-tank", (24.0, 8.0), (24.0, 30.0))        # through s-inf
    game.add("UnitRunOver", {"vehicle": "r-tank", "unit": "s-inf"}, "royalist")
    right = bravery(game, "s-inf", brv=4, why="run-over", side="socialist")
    wrong = bravery(game, "s-inf", brv=8, why="run-over", side="socialist")
    verdicts = game.verdicts("AVBCW.VEH.RUNOVER")
    assert verdicts[right] == ["ok"] and verdicts[wrong] == ["mismatch"]


def test_fearless_ignores_suppression():
    # Fearless: "The unit can choose to ignore any suppression result that it suffers"; then it is not
    # held by "While suppressed a unit; • Remains prone and cannot move"
    for special, verdict in ((["AVBCW.AB.FEARLESS"], "ok"), ([], "violation")):
        game = Game()
        game.army("royalist", **{"r-inf": INFANTRY})
        game.army("socialist", **{"s-inf": INFANTRY | {"special": special}})
        game.deploy("royalist", "r-inf", 24.0, 8.0)
        game.deploy("socialist", "s-inf", 24.0, 30.0, facing=180)
        game.start(1, "missile-fire")
        game.add("CohesionLost", {"unit": "s-inf", "points": 2, "cause": "shooting"}, "socialist")
        ignored = game.add("UnitStatusChanged", {"unit": "s-inf", "status": "suppression-ignored"}, "socialist")
        game.start(2)
        bravery(game, "s-inf", side="socialist")
        moved = game.move("socialist", "s-inf", (24.0, 30.0), (24.0, 26.0))
        assert game.verdicts("AVBCW.SUPP.TRIGGER")[ignored] == [verdict]
        assert moved not in game.verdicts("AVBCW.SUPP.EFFECTS")
