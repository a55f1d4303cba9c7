"""Dux Bellorum AVBCW indirect fire, spotters and off-table support (dux-bellorum-avbcw.txt, Indirect:
"The unit can shoot at any enemy unit it can see. Alternately, it can shoot at any enemy unit that a
friendly unit with the 'Spot' special unit ability can see, provided there is a clear line of
communication ... blocked if it must deviate to avoid impassable terrain, enemy units"; Spot; Off
table support: "Instead of shooting, a Commander unit or Spotter unit can call in the off table
support"). The mortar r-1 at (24, 8) facing +y; s-1 at (24, 22)."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import COMMANDER
from tests.unit.test_avbcw_movement import INFANTRY, Game
from tests.unit.test_avbcw_shooting import shoot

MORTAR = {"type": "mortar", "figures": 3, "stats": {"MV": "3", "BRV": "6", "MELEE": "1", "SHOOT": "4(1): ≥12”",
                                                   "PRO": "4", "COH": "2"}, "special": ["AVBCW.EQ.INDIRECT"], "pts": 3}
SPOTTER = {"type": "spotter", "figures": 2, "stats": {"MV": "6", "BRV": "9", "MELEE": "1", "SHOOT": "1", "PRO": "5",
                                                     "COH": "2"}, "special": ["AVBCW.AB.SPOT"], "pts": 3}
WOOD = {"id": "w-1", "kind": "woodland", "points": [[14.0, 12.0], [34.0, 12.0], [34.0, 18.0], [14.0, 18.0]]}
CLIFF = {"id": "x-1", "kind": "impassable", "points": [[30.0, 4.0], [34.0, 4.0], [34.0, 12.0], [30.0, 12.0]]}


def battery(features=(), spotter_at=(40.0, 8.0), royal_rules=(), spotter=SPOTTER, caller=None) -> Game:
    game = Game(features)
    units = {"r-1": MORTAR, "r-spot": spotter}
    if caller:
        units["r-cmd"] = caller
    game.add("ArmyListed", {"side": "royalist", "units": [{"unit": u, "special": [], **s} for u, s in units.items()],
                            "army_rules": list(royal_rules), "total": 0}, "royalist")
    game.army("socialist", **{"s-1": INFANTRY})
    game.deploy("royalist", "r-1", 24.0, 8.0)
    game.deploy("royalist", "r-spot", *spotter_at)
    if caller:
        game.deploy("royalist", "r-cmd", 8.0, 8.0)
    game.deploy("socialist", "s-1", 24.0, 22.0, facing=180)
    game.start(1, "missile-fire")
    return game


def test_an_indirect_shot_seen_by_the_shooter():
    # "any enemy unit it can see": 6” of wood between blocks its sight
    game = battery()
    seen = shoot(game, dice=4, indirect=True)
    assert game.verdicts("AVBCW.EQ.INDIRECT")[seen] == ["ok", "ok", "ok"]    # 13.0” > 12; a mortar; in sight
    game = battery([WOOD])
    unseen = shoot(game, dice=4, indirect=True)
    assert sorted(game.verdicts("AVBCW.EQ.INDIRECT")[unseen]) == ["ok", "ok", "violation"]   # range; a mortar; unseen
    # "Indirect @ 0 points (Mortar units only)": infantry shooting indirectly
    game = Game()
    game.army("royalist", **{"r-1": INFANTRY})
    game.army("socialist", **{"s-1": INFANTRY})
    game.deploy("royalist", "r-1", 24.0, 8.0)
    game.deploy("socialist", "s-1", 24.0, 22.0, facing=180)
    game.start(1, "missile-fire")
    seq = shoot(game, indirect=True)
    assert game.verdicts("AVBCW.EQ.INDIRECT")[seq][0] == "violation"


def test_a_spotter_and_the_line_of_communication():
    # the wood hides s-1 from the mortar, not from the spotter at (40, 24) beside it; the line of
    # communication from (40, 24) to (24, 8) is clear, from (40, 8) with the cliff between it is not
    game = battery([WOOD], spotter_at=(40.0, 24.0))
    seq = shoot(game, dice=4, indirect=True, spotter="r-spot")
    assert game.verdicts("AVBCW.AB.SPOT")[seq] == ["ok", "ok"]               # has Spot; sees s-1
    assert game.verdicts("AVBCW.EQ.INDIRECT")[seq] == ["ok", "ok", "ok"]     # range; a mortar; communication
    game = battery([WOOD, CLIFF], spotter_at=(40.0, 8.0))
    seq = shoot(game, dice=4, indirect=True, spotter="r-spot")
    assert "violation" in game.verdicts("AVBCW.EQ.INDIRECT")[seq]
    # radios: "will always have a mutual line of communication"
    game = battery([WOOD, CLIFF], spotter_at=(40.0, 8.0), spotter=SPOTTER | {"options": ["radios"]})
    seq = shoot(game, dice=4, indirect=True, spotter="r-spot")
    assert game.verdicts("AVBCW.AB.SPOT")[seq][-1] == "ok" and "violation" not in game.verdicts("AVBCW.EQ.INDIRECT")[seq]
    # a spotter with no Spot
    game = battery(spotter_at=(40.0, 24.0), spotter=INFANTRY)
    seq = shoot(game, dice=4, indirect=True, spotter="r-spot")
    assert game.verdicts("AVBCW.AB.SPOT")[seq][0] == "violation"


def test_off_table_support():
    # a Commander calls; "Instead of shooting"; no more shots than bought
    rules = [{"rule": "AVBCW.ARMY.OTS", "pts": 2, "shots": 1}]
    game = battery(royal_rules=rules, caller=COMMANDER)
    called = shoot(game, shooter="r-cmd", dice=5, off_table=2)
    again = shoot(game, attack="a-2", shooter="r-cmd", dice=5, off_table=2)
    verdicts = game.verdicts("AVBCW.ARMY.OTS")
    assert verdicts[called][:3] == ["ok", "ok", "ok"]                   # a commander; 1 of 1; in sight
    assert "violation" in verdicts[again]                              # 2 of 1
    game = battery(royal_rules=rules, caller=COMMANDER)
    shoot(game, shooter="r-cmd", attack="a-0", dice=3)
    both = shoot(game, shooter="r-cmd", dice=5, off_table=2)
    infantry_call = shoot(game, attack="a-3", shooter="r-1", dice=5, off_table=2)
    verdicts = game.verdicts("AVBCW.ARMY.OTS")
    assert "violation" in verdicts[both] and verdicts[infantry_call][0] == "violation"


def test_an_off_table_call_spends_no_ammunition_of_the_caller():
    # AVBCW, Off table support: "Instead of shooting, a Commander unit or Spotter unit can call in the
    # off table support"; Low on ammo: "A unit that makes a shooting attack and rolls more '1's' than
    # successful hits": the caller makes no shooting attack, so three 1s leave it supplied
    from tests.unit.test_avbcw_shooting import resolve
    rules = [{"rule": "AVBCW.ARMY.OTS", "pts": 2, "shots": 1}]
    game = battery(royal_rules=rules, caller=COMMANDER)
    shoot(game, shooter="r-cmd", dice=5, off_table=2)
    resolved = resolve(game, [1, 1, 1, 4, 5], hits=1)
    game.to_phase("move")
    assert game.verdicts("AVBCW.AMMO.LOW").get(resolved) is None
