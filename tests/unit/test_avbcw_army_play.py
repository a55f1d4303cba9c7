"""Dux Bellorum AVBCW army rules in play (dux-bellorum-avbcw.txt, Subterfuge: "Before either army
deploys, select an enemy unit ... Roll 1d6-1; the targeted unit reduces its Cohesion by this much
... If its Cohesion is reduced to zero, the unit does not arrive ... Commander and Loyal units cannot
be targeted"; Taunts and Insults: "Once per battle at the start of any turn and after LPs have been
placed choose one of your units. All enemy units within 12” of this unit become Impetuous")."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import COMMANDER
from tests.unit.test_avbcw_movement import INFANTRY, Game

MILITIA = {"type": "inf-militia", "figures": 10, "stats": {"MV": "6", "BRV": "6", "MELEE": "2", "SHOOT": "4",
                                                          "PRO": "5", "COH": "4"}, "pts": 3}


def lists(rule: str, pts: int) -> Game:
    game = Game()
    game.add("ArmyListed", {"side": "royalist", "units": [{"unit": "r-inf", "special": [], **INFANTRY}],
                            "army_rules": [{"rule": rule, "pts": pts}], "total": 5 + pts}, "royalist")
    game.army("socialist", **{"s-mil": MILITIA, "s-cmd": COMMANDER, "s-far": INFANTRY})
    return game


def plot(game: Game, target: str, face: int) -> int:
    seq = game.add("ArmyRuleUsed", {"rule": "AVBCW.ARMY.SUBTERFUGE", "target": target}, "royalist")
    game.add("DieRolled", {"purpose": "AVBCW.ARMY.SUBTERFUGE", "die": "d6", "result": face, "subject": target},
             "royalist")
    return seq


def test_subterfuge():
    # a 5: 5 - 1 = 4 COH off the Militia's 4: it "does not arrive for the battle and cannot be deployed"
    game = lists("AVBCW.ARMY.SUBTERFUGE", 4)
    used = plot(game, "s-mil", 5)
    lost = game.add("CohesionLost", {"unit": "s-mil", "points": 4, "cause": "subterfuge"}, "socialist")
    gone = game.add("UnitStatusChanged", {"unit": "s-mil", "status": "not-arrived",
                                          "cause": "AVBCW.ARMY.SUBTERFUGE"}, "socialist")
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    deployed = game.add("UnitDeployed", {"unit": "s-mil", "position": {"x": 24.0, "y": 40.0}, "facing": 180,
                                         "footprint": {"w": 5.0, "d": 2.0}}, "socialist")
    verdicts = game.verdicts("AVBCW.ARMY.SUBTERFUGE")
    assert verdicts[used] == ["ok", "ok", "ok"] and verdicts[lost] == ["ok"] and verdicts[gone] == ["ok"]
    assert verdicts[deployed] == ["violation"]
    # a Commander target, a wrong loss, and a use after deployment
    game = lists("AVBCW.ARMY.SUBTERFUGE", 4)
    commander = plot(game, "s-cmd", 3)
    wrong = game.add("CohesionLost", {"unit": "s-cmd", "points": 3, "cause": "subterfuge"}, "socialist")
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    late = plot(game, "s-far", 2)
    verdicts = game.verdicts("AVBCW.ARMY.SUBTERFUGE")
    assert verdicts[commander] == ["ok", "ok", "violation"] and verdicts[wrong] == ["mismatch"]
    assert verdicts[late][1] == "violation"


def test_taunts():
    # r-inf at (24, 8): s-mil's base 10.0” away is made Impetuous, s-far's 25.0” away is not
    game = lists("AVBCW.ARMY.TAUNTS", 3)
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    game.deploy("socialist", "s-mil", 24.0, 20.0, facing=180)
    game.deploy("socialist", "s-cmd", 4.0, 40.0, facing=180)
    game.deploy("socialist", "s-far", 24.0, 35.0, facing=180)
    game.start(1, "leadership")
    taunt = game.add("ArmyRuleUsed", {"rule": "AVBCW.ARMY.TAUNTS", "unit": "r-inf"}, "royalist")
    near = game.add("UnitStatusChanged", {"unit": "s-mil", "status": "impetuous", "cause": "AVBCW.ARMY.TAUNTS"},
                    "socialist")
    far = game.add("UnitStatusChanged", {"unit": "s-far", "status": "impetuous", "cause": "AVBCW.ARMY.TAUNTS"},
                   "socialist")
    game.start(2, "move")
    again = game.add("ArmyRuleUsed", {"rule": "AVBCW.ARMY.TAUNTS", "unit": "r-inf"}, "royalist")
    verdicts = game.verdicts("AVBCW.ARMY.TAUNTS")
    assert verdicts[taunt] == ["ok", "ok", "ok"] and verdicts[near] == ["ok"] and verdicts[far] == ["violation"]
    assert verdicts[again].count("violation") == 3      # twice; in the move phase; s-mil not made Impetuous


def test_subterfuge_targets_an_enemy_unit():
    # AVBCW, Subterfuge: "Before either army deploys, select an enemy unit to target with subterfuge."
    game = lists("AVBCW.ARMY.SUBTERFUGE", 4)
    own = plot(game, "r-inf", 2)
    verdicts = game.verdicts("AVBCW.ARMY.SUBTERFUGE")
    assert "violation" in verdicts[own]
    game = lists("AVBCW.ARMY.SUBTERFUGE", 4)
    enemy = plot(game, "s-far", 1)      # 1d6-1 = 0: no Cohesion lost
    assert game.verdicts("AVBCW.ARMY.SUBTERFUGE")[enemy] == ["ok", "ok", "ok"]


def test_taunts_come_after_the_lps_are_placed():
    # AVBCW, Taunts and Insults: "Once per battle at the start of any turn and after LPs have been
    # placed choose one of your units": a taunt followed by LPs placed that turn came too early.
    game = lists("AVBCW.ARMY.TAUNTS", 3)
    game.deploy("royalist", "r-inf", 24.0, 8.0)
    game.deploy("socialist", "s-mil", 24.0, 40.0, facing=180)
    game.deploy("socialist", "s-cmd", 4.0, 40.0, facing=180)
    game.deploy("socialist", "s-far", 34.0, 40.0, facing=180)
    game.start(1, "leadership")
    taunt = game.add("ArmyRuleUsed", {"rule": "AVBCW.ARMY.TAUNTS", "unit": "r-inf"}, "royalist")
    game.add("LeadershipPointsPlaced", {"from": "s-cmd", "to": "s-mil", "points": 2}, "socialist")
    game.add("LeadershipPointsPlaced", {"from": "s-cmd", "to": "s-far", "points": 2}, "socialist")
    assert game.verdicts("AVBCW.ARMY.TAUNTS")[taunt].count("violation") == 1
