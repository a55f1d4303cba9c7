"""The Dux Bellorum AVBCW turn (dux-bellorum-avbcw.txt, Turn sequence, Movement sequence;
game-log-tabletop.md, Dux Bellorum, Phases). Each expectation quotes the passage it comes from."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import bravery
from tests.unit.test_avbcw_movement import CAR, INFANTRY, Game

CAVALRY = {"type": "cav-regulars", "figures": 6, "stats": {"MV": "12", "BRV": "8", "MELEE": "5", "SHOOT": "1",
                                                          "PRO": "4", "COH": "4"}, "pts": 4}
HMG = {"type": "hmg", "figures": 3, "stats": {"MV": "3", "BRV": "6", "MELEE": "1", "SHOOT": "5(1)", "PRO": "4",
                                             "COH": "3"}, "pts": 3}


def test_the_steps_come_in_order():
    # "Each proceeds as follows. 1. Alternately place LPs ... 2. Missile fire ... 3. Move units ...
    # 4. Close combat ... 5. Check morale & victory"
    game = Game()
    game.start(1, "move")
    game.to_phase("close-combat")
    combat = len(game.lines)
    game.to_phase("missile-fire")
    back = len(game.lines)
    verdicts = game.verdicts("AVBCW.TURN")
    assert [verdicts[s] for s in sorted(verdicts)] == [["ok"], ["ok"], ["ok"], ["ok"], ["violation"]]
    assert verdicts[combat] == ["ok"] and verdicts[back] == ["violation"]
    # a new turn starts again at step 1
    game.start(2, "leadership")
    assert game.verdicts("AVBCW.TURN")[len(game.lines)] == ["ok"]


def test_each_act_in_its_step():
    # "2. Missile fire", "3. Move units": a shot in the move phase is out of its step
    game = Game()
    game.army("royalist", **{"r-inf": INFANTRY})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    game.deploy("socialist", "s-inf", 24.0, 30.0, facing=180)
    game.start(1, "move")
    shot = game.add("ShotFired", {"attack": "a-1", "shooter": "r-inf", "target": "s-inf", "rating": "soft",
                                  "dice": 6, "range": 21.0, "modifiers": []}, "royalist")
    bravery(game, "s-inf", side="socialist")
    moved = game.move("socialist", "s-inf", (24.0, 30.0), (24.0, 26.0))
    game.to_phase("close-combat")
    fall_back = game.move("socialist", "s-inf", (24.0, 26.0), (24.0, 34.0), mode="fall-back")
    verdicts = game.verdicts("AVBCW.TURN")
    assert verdicts[shot] == ["violation"] and verdicts[moved] == ["ok", "ok"]   # in step 3, tested
    assert fall_back not in verdicts          # "It retreats": a move the combat commands, in its step


def test_units_move_in_the_eight_steps():
    # "1. Aggressor's Vehicles ... 2. Repeller's Vehicles ... 3. Aggressor's Cavalry ... 4. Repeller's
    # Cavalry ... 5. Aggressor's Infantry ... 6. Repeller's Infantry ... 7. Aggressor's Teams
    # 8. Repeller's Teams" (royalist is the aggressor)
    game = Game()
    game.army("royalist", **{"r-car": CAR, "r-cav": CAVALRY, "r-hmg": HMG})
    game.army("socialist", **{"s-car": CAR, "s-inf": INFANTRY})
    for i, (side, unit) in enumerate((("royalist", "r-car"), ("royalist", "r-cav"), ("royalist", "r-hmg"),
                                      ("socialist", "s-car"), ("socialist", "s-inf"))):
        game.deploy(side, unit, 4.0 + 8 * i, 8.0 if side == "royalist" else 40.0, w=2.0, d=2.0)
    game.start(1)
    steps = [game.move("royalist", "r-car", (4.0, 8.0), (4.0, 10.0)),           # 1
             game.move("socialist", "s-car", (28.0, 40.0), (28.0, 38.0)),       # 2
             game.move("royalist", "r-cav", (12.0, 8.0), (12.0, 12.0)),         # 3
             game.move("socialist", "s-inf", (36.0, 40.0), (36.0, 36.0))]       # 6
    late = game.move("royalist", "r-hmg", (20.0, 8.0), (20.0, 10.0))            # 7
    game.start(2)
    first_inf = game.move("socialist", "s-inf", (36.0, 36.0), (36.0, 32.0))     # 6
    too_late = game.move("royalist", "r-car", (4.0, 10.0), (4.0, 12.0))         # 1 after 6
    verdicts = game.verdicts("AVBCW.MOVE.ORDER")
    assert all(verdicts[s] == ["ok"] for s in steps + [late, first_inf])
    assert verdicts[too_late] == ["violation"]


def test_a_bravery_test_to_move_is_step_3s():
    # AVBCW, Turn sequence: "3. Move units (Only if unit did not shoot: In sequence. Test Bravery for
    # each unit)": a test to move in the missile-fire step is out of its step; a break test is not one.
    game = Game()
    game.army("royalist", **{"r-inf": INFANTRY})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    game.deploy("socialist", "s-inf", 24.0, 30.0, facing=180)
    game.start(1, "missile-fire")
    early = bravery(game, "r-inf")
    game.to_phase("move")
    in_step = bravery(game, "s-inf", side="socialist")
    game.to_phase("morale-and-victory")
    breaking = bravery(game, "s-inf", side="socialist", why="break")
    verdicts = game.verdicts("AVBCW.TURN")
    assert verdicts[early] == ["violation"] and verdicts[in_step] == ["ok"]
    assert breaking not in verdicts
