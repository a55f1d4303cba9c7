"""Dux Bellorum AVBCW leadership points (dux-bellorum-avbcw.txt, Turn sequence steps 1 and 5,
Inspiring, Motivating, Suppression; game-log-tabletop.md, Dux Bellorum, LeadershipPointsPlaced /
Used / Returned). Distances are worked by hand from the bases: 5” x 2” footprints unless said."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import COMMANDER
from tests.unit.test_avbcw_movement import INFANTRY, Game

DEMAGOGUE = {"type": "demagogue", "figures": 3, "stats": {"MV": "6", "BRV": "9", "MELEE": "2", "SHOOT": "2",
                                                         "PRO": "5", "COH": "6"}, "pts": 4}


def leaders() -> Game:
    """Royalist (aggressor): r-cmd at (8, 8), r-inf at (20, 8), r-far at (40, 8), r-dem at (8, 14).
    Socialist (repeller): s-cmd at (8, 40), s-inf at (20, 40)."""
    game = Game()
    game.army("royalist", **{"r-cmd": COMMANDER, "r-inf": INFANTRY, "r-far": INFANTRY, "r-dem": DEMAGOGUE})
    game.army("socialist", **{"s-cmd": COMMANDER, "s-inf": INFANTRY})
    for side, unit, x, y in (("royalist", "r-cmd", 8.0, 8.0), ("royalist", "r-inf", 20.0, 8.0),
                             ("royalist", "r-far", 40.0, 8.0), ("royalist", "r-dem", 8.0, 14.0),
                             ("socialist", "s-cmd", 8.0, 40.0), ("socialist", "s-inf", 20.0, 40.0)):
        game.deploy(side, unit, x, y, facing=0 if side == "royalist" else 180)
    game.start(1, "leadership")
    return game


def place(game: Game, giver: str, to: str, points: int) -> int:
    side = "royalist" if giver.startswith("r-") else "socialist"
    return game.add("LeadershipPointsPlaced", {"from": giver, "to": to, "points": points}, side)


def test_alternately_repeller_first():
    # "1. Alternately place LPs (Repeller goes first)": the socialists are the Repeller
    game = leaders()
    wrong_first = place(game, "r-cmd", "r-inf", 1)
    game = leaders()
    first = place(game, "s-cmd", "s-inf", 2)
    second = place(game, "r-cmd", "r-inf", 2)
    again = place(game, "r-cmd", "r-inf", 1)          # the Repeller still has 4 of its 6
    place(game, "s-cmd", "s-inf", 4)                  # its last
    alone = place(game, "r-cmd", "r-inf", 1)          # the Repeller has none left: no alternation
    verdicts = game.verdicts("AVBCW.TURN")
    assert verdicts[first] == ["ok", "ok"] and verdicts[second] == ["ok", "ok"]
    assert verdicts[again] == ["ok", "violation"] and verdicts[alone] == ["ok", "ok"]
    assert leaders_verdict(wrong_first) == ["ok", "violation"]


def leaders_verdict(seq: int) -> list[str]:
    game = leaders()
    place(game, "r-cmd", "r-inf", 1)
    return game.verdicts("AVBCW.TURN")[seq]


def test_how_many_and_how_far():
    # Inspiring: "6 Leadership Points that may be given to any friendly unit under its command within
    # 24”"; Motivating: "2 Leadership Points that may be given to any friendly unit within 12”. ...
    # You can never assign LPs to a Motivating unit." r-cmd's base ends at x 10.5, r-far's starts
    # at 37.5: 27.0”; r-dem's base ends at x 10.5, r-inf's starts at 17.5 (y 13 to 15 and 7 to 9
    # overlap nothing): 7.0” across, 4.0” up: 8.1”.
    game = leaders()
    place(game, "s-cmd", "s-inf", 1)
    near = place(game, "r-cmd", "r-inf", 5)
    place(game, "s-cmd", "s-inf", 1)
    far = place(game, "r-cmd", "r-far", 1)          # the 6th, but 27.0” away
    place(game, "s-cmd", "s-inf", 1)
    seventh = place(game, "r-cmd", "r-inf", 1)
    place(game, "s-cmd", "s-inf", 1)
    motivating = place(game, "r-dem", "r-inf", 2)
    place(game, "s-cmd", "s-inf", 1)
    to_demagogue = place(game, "r-cmd", "r-dem", 0)
    inspiring = game.verdicts("AVBCW.AB.INSPIRING")
    assert inspiring[near] == ["ok", "ok"]
    assert inspiring[far] == ["violation", "ok"] and inspiring[seventh] == ["ok", "violation"]
    assert game.verdicts("AVBCW.AB.MOTIVATING") == {motivating: ["ok", "ok"], to_demagogue: ["violation"]}
    # "The Inspiring unit loses 1 LP for each unit under its command that is destroyed"
    game = leaders()
    game.add("UnitStatusChanged", {"unit": "r-far", "status": "destroyed"}, "royalist")
    place(game, "s-cmd", "s-inf", 1)
    five = place(game, "r-cmd", "r-inf", 5)
    place(game, "s-cmd", "s-inf", 1)
    sixth = place(game, "r-cmd", "r-inf", 1)
    inspiring = game.verdicts("AVBCW.AB.INSPIRING")
    assert inspiring[five] == ["ok", "ok"] and inspiring[sixth] == ["ok", "violation"]


def test_a_suppressed_commander_gives_none():
    # "If the unit is a commander or Demagogue it does not generate or distribute Leadership Points"
    game = leaders()
    game.add("UnitStatusChanged", {"unit": "s-cmd", "status": "suppressed", "cause": "AVBCW.SUPP.TRIGGER"},
             "socialist")
    first = place(game, "r-cmd", "r-inf", 1)          # the Repeller's only giver is suppressed: none to place
    suppressed = place(game, "s-cmd", "s-inf", 1)
    assert game.verdicts("AVBCW.TURN")[first] == ["ok", "ok"]
    assert game.verdicts("AVBCW.SUPP.EFFECTS") == {suppressed: ["violation"]}


def test_unused_points_are_returned():
    # "5. Check morale & victory (Reduce LPs if necessary, and return all unused LPs to players)"
    game = leaders()
    place(game, "s-cmd", "s-inf", 3)
    game.to_phase("missile-fire")
    used = game.add("LeadershipPointsUsed", {"unit": "s-inf", "points": 2, "use": "re-roll", "about": 9}, "socialist")
    over = game.add("LeadershipPointsUsed", {"unit": "s-inf", "points": 2, "use": "re-roll", "about": 9}, "socialist")
    game.to_phase("morale-and-victory")
    returned = game.add("LeadershipPointsReturned", {"side": "socialist", "points": 1}, "socialist")
    game.start(2, "leadership")
    place(game, "s-cmd", "s-inf", 3)
    game.to_phase("morale-and-victory")
    short = game.add("LeadershipPointsReturned", {"side": "socialist", "points": 1}, "socialist")
    verdicts = game.verdicts("AVBCW.TURN")
    assert verdicts[used] == ["ok"] and verdicts[over] == ["violation"]
    assert verdicts[returned] == ["ok", "mismatch"]     # in step 5; 3 placed, 4 used: none unused
    assert verdicts[short] == ["ok", "mismatch"]        # 3 unused, 1 returned


def test_a_motivating_unit_keeps_none_of_its_own():
    # AVBCW, Motivating: "The Motivating unit has 2 Leadership Points that may be given to any friendly
    # unit within 12”. ... You can never assign LPs to a Motivating unit." - not even its own two.
    game = leaders()
    place(game, "s-cmd", "s-inf", 1)
    to_itself = place(game, "r-dem", "r-dem", 1)
    place(game, "s-cmd", "s-inf", 1)
    to_infantry = place(game, "r-dem", "r-inf", 1)
    motivating = game.verdicts("AVBCW.AB.MOTIVATING")
    assert "violation" in motivating[to_itself]
    assert motivating[to_infantry] == ["ok", "ok"]


def test_a_commander_keeps_lps_of_its_own_among_several():
    # AVBCW, Inspiring: "6 Leadership Points that may be given to any friendly unit under its command";
    # a commander is under its own command even where its side has several commanders.
    game = Game()
    game.army("royalist", **{"r-cmd": COMMANDER, "r-cmd2": COMMANDER, "r-inf": INFANTRY})
    game.army("socialist", **{"s-cmd": COMMANDER, "s-inf": INFANTRY})
    for side, unit, x, y in (("royalist", "r-cmd", 8.0, 8.0), ("royalist", "r-cmd2", 30.0, 8.0),
                             ("royalist", "r-inf", 20.0, 8.0), ("socialist", "s-cmd", 8.0, 40.0),
                             ("socialist", "s-inf", 20.0, 40.0)):
        game.deploy(side, unit, x, y, facing=0 if side == "royalist" else 180)
    game.start(1, "leadership")
    place(game, "s-cmd", "s-inf", 1)
    own = place(game, "r-cmd", "r-cmd", 1)
    assert game.verdicts("AVBCW.AB.INSPIRING")[own] == ["ok", "ok"]


def test_a_lost_giver_gives_none():
    # AVBCW, Motivating: "These extra LPs are only lost if the Motivating unit is lost"; a destroyed
    # Inspiring commander has no Leadership Points to give either.
    game = leaders()
    game.add("UnitStatusChanged", {"unit": "s-cmd", "status": "destroyed"}, "socialist")
    game.add("UnitStatusChanged", {"unit": "r-dem", "status": "destroyed"}, "royalist")
    commander = place(game, "s-cmd", "s-inf", 1)
    demagogue = place(game, "r-dem", "r-inf", 1)
    assert "violation" in game.verdicts("AVBCW.AB.INSPIRING")[commander]
    assert "violation" in game.verdicts("AVBCW.AB.MOTIVATING")[demagogue]
