"""Dux Bellorum AVBCW's end phase (dux-bellorum-avbcw.txt, First Aid, Supply, Smoke bombs;
game-log-tabletop.md: "The 'end phase' of First Aid and Supply, and smoke's 'end of each turn', are
`morale-and-victory`"). 5” x 2” bases."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import INFANTRY, Game

MEDICAL = {"type": "medical", "figures": 3, "stats": {"MV": "6", "BRV": "9", "MELEE": "1", "SHOOT": "-", "PRO": "4",
                                                     "COH": "4"}, "special": ["AVBCW.AB.FIRSTAID"], "pts": 3}
SUPPLY = MEDICAL | {"type": "supply", "special": ["AVBCW.AB.SUPPLY"]}
SMOKERS = INFANTRY | {"special": ["AVBCW.EQ.SMOKE"]}


def camp(helper=MEDICAL, enemy_y=40.0, wind=None) -> Game:
    """r-help at (8, 8), r-inf at (18, 8) (its base 5.0” from r-help's), r-far at (40, 8); s-inf at (24, enemy_y)."""
    game = Game()
    if wind is not None:
        game.lines[1]["data"]["wind"] = wind
    game.army("royalist", **{"r-help": helper, "r-inf": SMOKERS, "r-far": INFANTRY, "r-two": INFANTRY})
    game.army("socialist", **{"s-inf": INFANTRY})
    for uid, x in (("r-help", 8.0), ("r-inf", 18.0), ("r-far", 40.0), ("r-two", 12.0)):
        game.deploy("royalist", uid, x, 8.0 if uid != "r-two" else 2.0)
    game.deploy("socialist", "s-inf", 24.0, enemy_y, facing=180)
    game.start(1, "move")
    return game


def test_first_aid():
    # "Any friendly Commander, Infantry, Cavalry, or Support unit with 12” of a Medical unit and not
    # within 12” of an enemy unit can restore 1 Cohesion point during the end phase provided they
    # did not lose any Cohesion this turn. Only a single unit can gain this benefit"
    game = camp()
    game.to_phase("morale-and-victory")
    healed = game.add("CohesionRestored", {"unit": "r-inf", "points": 1, "by": "r-help"}, "royalist")
    second = game.add("CohesionRestored", {"unit": "r-two", "points": 1, "by": "r-help"}, "royalist")
    game.start(2)
    game.to_phase("morale-and-victory")
    far = game.add("CohesionRestored", {"unit": "r-far", "points": 1, "by": "r-help"}, "royalist")
    verdicts = game.verdicts("AVBCW.AB.FIRSTAID")
    assert verdicts[healed] == ["ok"] * 5
    assert "violation" in verdicts[second] and verdicts[far].count("violation") == 1
    # within 12” of an enemy (s-inf's base at y 17 to 19: 8.0” from r-inf's), or hurt this turn,
    # or outside the end phase
    game = camp(enemy_y=18.0)
    game.add("CohesionLost", {"unit": "r-two", "points": 1, "cause": "shooting"}, "royalist")
    early = game.add("CohesionRestored", {"unit": "r-two", "points": 1, "by": "r-help"}, "royalist")
    game.start(2)
    game.to_phase("morale-and-victory")
    close = game.add("CohesionRestored", {"unit": "r-inf", "points": 1, "by": "r-help"}, "royalist")
    verdicts = game.verdicts("AVBCW.AB.FIRSTAID")
    assert verdicts[early].count("violation") == 2           # the move phase; lost COH this turn
    assert verdicts[close].count("violation") == 1           # s-inf within 12”


def test_supply():
    # "Any friendly Commander, Infantry, Cavalry, or Support unit with 12” of a Supply unit can
    # remove all 'out of ammo' counters during the end phase. Only a single unit ..."
    game = camp(helper=SUPPLY)
    game.to_phase("morale-and-victory")
    resupplied = game.add("AmmoStateChanged", {"unit": "r-inf", "state": "normal", "by": "r-help"}, "royalist")
    too_far = game.add("AmmoStateChanged", {"unit": "r-far", "state": "normal", "by": "r-help"}, "royalist")
    nobody = game.add("AmmoStateChanged", {"unit": "r-two", "state": "normal", "cause": "rest"}, "royalist")
    verdicts = game.verdicts("AVBCW.AB.SUPPLY")
    assert verdicts[resupplied] == ["ok", "ok"]
    assert verdicts[too_far] == ["ok", "violation", "violation"]     # 27.0” away; a second unit this turn
    assert verdicts[nobody] == ["violation"]


def smoke(game: Game, x: float, y: float, unit="r-inf") -> int:
    return game.add("MarkerPlaced", {"marker": "smoke", "id": "sm-1", "position": {"x": x, "y": y}, "radius": 2.0,
                                     "unit": unit}, "royalist")


def test_placing_smoke():
    # "Other units can place one anywhere within 6”. The unit has enough smoke bombs/shells for one
    # shot." r-inf's base ends at y 9: a marker at (18, 15) is 6.0” off, at (18, 15.1) 6.1”
    game = camp()
    placed = smoke(game, 18.0, 15.0)
    game.start(2)
    again = game.add("MarkerPlaced", {"marker": "smoke", "id": "sm-2", "position": {"x": 18.0, "y": 12.0},
                                      "radius": 2.0, "unit": "r-inf"}, "royalist")
    verdicts = game.verdicts("AVBCW.EQ.SMOKE")
    assert verdicts[placed] == ["ok", "ok", "violation"]       # placed; and no drift at the end of turn 1
    assert "violation" in verdicts[again]
    game = camp()
    far = smoke(game, 18.0, 15.1)
    no_smoke = smoke(game, 40.0, 12.0, unit="r-far")
    verdicts = game.verdicts("AVBCW.EQ.SMOKE")
    assert verdicts[far] == ["ok", "violation"] and verdicts[no_smoke][0] == "violation"


def test_smoke_drifts():
    # "at the end of each turn, the smoke drifts in the direction of the wind by 1d6-1” (it
    # dissipates on a modified result of '1' or less)"; the wind blows toward 90° (+x)
    game = camp(wind=90)
    smoke(game, 18.0, 12.0)
    game.to_phase("morale-and-victory")
    game.add("DieRolled", {"purpose": "AVBCW.EQ.SMOKE", "die": "d6", "result": 4, "subject": "sm-1"}, "royalist")
    drift = game.add("MarkerMoved", {"id": "sm-1", "from": {"x": 18.0, "y": 12.0}, "to": {"x": 21.0, "y": 12.0}},
                     "royalist")
    game.start(2)
    game.to_phase("morale-and-victory")
    game.add("DieRolled", {"purpose": "AVBCW.EQ.SMOKE", "die": "d6", "result": 5, "subject": "sm-1"}, "royalist")
    wrong = game.add("MarkerMoved", {"id": "sm-1", "from": {"x": 21.0, "y": 12.0}, "to": {"x": 21.0, "y": 16.0}},
                     "royalist")
    game.start(3)
    game.to_phase("morale-and-victory")
    game.add("DieRolled", {"purpose": "AVBCW.EQ.SMOKE", "die": "d6", "result": 2, "subject": "sm-1"}, "royalist")
    gone = game.add("MarkerRemoved", {"id": "sm-1"}, "royalist")
    verdicts = game.verdicts("AVBCW.EQ.SMOKE")
    assert verdicts[drift] == ["ok", "ok"]                   # 4 - 1 = 3”, toward 90°
    assert verdicts[wrong] == ["ok", "violation"]            # 4” toward 0°, on a 5: 4” right, the bearing wrong
    assert verdicts[gone] == ["ok"]                          # 2 - 1 = 1: "dissipates"
    # a smoke left where it is at a turn's end
    game = camp(wind=90)
    placed = smoke(game, 18.0, 12.0)
    game.start(2)
    assert game.verdicts("AVBCW.EQ.SMOKE")[placed] == ["ok", "ok", "violation"]


def test_off_table_smoke():
    # Off table support: "1 point per two shots = Smoke bomb": the marker a Commander calls is the
    # army rule's, not a unit's Smoke bombs
    from tests.unit.test_avbcw_bravery import COMMANDER
    game = Game()
    game.add("ArmyListed", {"side": "royalist", "units": [{"unit": "r-cmd", "special": [], **COMMANDER}],
                            "army_rules": [{"rule": "AVBCW.ARMY.OTS", "pts": 1, "shots": 2}], "total": 6}, "royalist")
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-cmd", 24.0, 8.0)
    game.deploy("socialist", "s-inf", 24.0, 30.0, facing=180)
    game.start(1, "missile-fire")
    game.add("ShotFired", {"attack": "a-1", "shooter": "r-cmd", "target": "s-inf", "rating": "soft", "dice": 0,
                           "range": 21.0, "modifiers": [], "off_table": "smoke"}, "royalist")
    placed = game.add("MarkerPlaced", {"marker": "smoke", "id": "sm-1", "position": {"x": 24.0, "y": 26.0},
                                       "radius": 2.0}, "royalist")
    assert game.verdicts("AVBCW.ARMY.OTS")[placed] == ["ok"]
    assert placed not in game.verdicts("AVBCW.EQ.SMOKE")


MORTAR = {"type": "mortar", "figures": 3, "stats": {"MV": "3", "BRV": "6", "MELEE": "1", "SHOOT": "4(1): ≥12”",
                                                   "PRO": "4", "COH": "2"}, "special": ["AVBCW.EQ.SMOKE"], "pts": 4}


def test_a_mortars_smoke_in_its_range():
    # AVBCW, Smoke bombs: "Mortar and Field gun units can place a smoke marker anywhere in range";
    # Mortar "4(1): ≥12”", Indirect: "Weapons with indirect fire have a minimum range". r-help (the
    # mortar) at (8, 8): its base ends at y 9; a marker at (8, 21) is 12.0” off, at (8, 20.9) 11.9”.
    game = camp(helper=MORTAR)
    at_12 = smoke(game, 8.0, 21.0, unit="r-help")
    assert game.verdicts("AVBCW.EQ.SMOKE")[at_12] == ["ok", "ok"]
    game = camp(helper=MORTAR)
    inside = smoke(game, 8.0, 20.9, unit="r-help")
    assert game.verdicts("AVBCW.EQ.SMOKE")[inside] == ["ok", "violation"]
