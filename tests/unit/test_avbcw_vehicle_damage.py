"""Dux Bellorum AVBCW vehicle damage (dux-bellorum-avbcw.txt, Cohesion, Vehicle Damage Table: "1 or
less Traction damage ... 2 Traction wrecked ... 3 Weapon damaged ... 4 Crew shaken ... 5 Wrecked ...
6 or more Brews up! ... Each result only applies once ... Soft vehicles roll 1d6+1 for any Vehicle
Damage rolled in response to a hit. All vehicles roll 1d6-1 ... double 6"; Vehicles ramming each
other). The Whippet (hard, PRO 4) and a car (soft, PRO 2)."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import CAR, INFANTRY, WHIPPET, Game
from tests.unit.test_avbcw_shooting import shoot

AT_RIFLE = {"type": "at-rifle", "figures": 2, "stats": {"MV": "3", "BRV": "7", "MELEE": "1", "SHOOT": "1(2)", "PRO": "5",
                                                       "COH": "3"}, "pts": 3}


def garage(shooter=INFANTRY) -> Game:
    game = Game()
    game.army("royalist", **{"r-tank": WHIPPET, "r-car": CAR})
    game.army("socialist", **{"s-1": shooter})
    game.deploy("royalist", "r-tank", 20.0, 8.0, w=3.0, d=5.0)
    game.deploy("royalist", "r-car", 30.0, 8.0, w=2.0, d=4.0)
    game.deploy("socialist", "s-1", 24.0, 30.0, facing=180)
    game.start(1, "missile-fire")
    return game


def damaged(game: Game, vehicle: str, face: int, result: str, cause="hit", repeat=False, **extra) -> int:
    game.add("DieRolled", {"purpose": "AVBCW.VEH.DAMAGE_TABLE", "die": "d6", "result": face, "subject": vehicle},
             "royalist")
    return game.add("VehicleDamaged", {"vehicle": vehicle, "cause": cause, "result": result, "repeat": repeat, **extra},
                    "royalist")


def test_the_table_and_its_modifiers():
    game = garage(AT_RIFLE)
    shoot(game, shooter="s-1", target="r-tank", rating="hard", dice=2)
    hard = damaged(game, "r-tank", 3, "weapon-damaged")                 # 3: Weapon damaged
    shoot(game, attack="a-2", shooter="s-1", target="r-car", rating="hard", dice=2)
    soft = damaged(game, "r-car", 3, "crew-shaken")                     # 3 + 1 = 4: Crew shaken
    wrong = damaged(game, "r-car", 4, "crew-shaken")                    # 4 + 1 = 5: Wrecked
    mishap = damaged(game, "r-tank", 2, "traction-damage", cause="bravery")   # 2 - 1 = 1
    game2 = garage()
    bare = game2.add("VehicleDamaged", {"vehicle": "r-car", "cause": "hit", "result": "wrecked", "repeat": False},
                     "royalist")
    verdicts = game.verdicts("AVBCW.VEH.DAMAGE_TABLE")
    assert verdicts[hard] == ["ok", "ok"] and verdicts[soft] == ["ok", "ok"] and verdicts[mishap][0] == "ok"
    assert verdicts[wrong][0] == "mismatch"
    assert game2.verdicts("AVBCW.VEH.DAMAGE_TABLE")[bare][0] == "missing-roll"


def test_each_result_once():
    # "Each result only applies once. Subsequent repeat results are ignored."
    game = garage()
    first = damaged(game, "r-tank", 1, "traction-damage")
    again = damaged(game, "r-tank", 1, "traction-damage", repeat=True)
    unmarked = damaged(game, "r-tank", 1, "traction-damage")
    verdicts = game.verdicts("AVBCW.VEH.DAMAGE_TABLE")
    assert verdicts[first][1] == "ok" and verdicts[again][1] == "ok" and verdicts[unmarked][1] == "mismatch"


def test_vehicles_have_no_cohesion():
    # "Vehicles do not have cohesion"; "Hard vehicles can only be harmed by weapons with an
    # anti-tank rating. Small arms do no damage to them."
    game = garage()
    lost = game.add("CohesionLost", {"unit": "r-tank", "points": 1, "cause": "shooting"}, "royalist")
    shoot(game, shooter="s-1", target="r-tank", rating="soft", dice=6)
    small_arms = damaged(game, "r-tank", 3, "weapon-damaged")
    verdicts = game.verdicts("AVBCW.VEH.DAMAGE_SOURCE")
    assert verdicts[lost] == ["violation"] and verdicts[small_arms] == ["violation"]


def test_what_the_results_forbid():
    # "Crew shaken: ... The vehicle cannot move this turn or shoot next turn"; "Weapon damaged: One
    # random weapon stops working for the rest of the battle"
    game = garage()
    damaged(game, "r-car", 3, "crew-shaken")                           # 3 + 1 = 4 (a hit on a soft car)
    damaged(game, "r-car", 2, "weapon-damaged", weapon="lmg")          # 2 + 1 = 3
    game.to_phase("move")
    moved = game.move("royalist", "r-car", (30.0, 8.0), (30.0, 10.0))
    game.start(2, "missile-fire")
    shot = shoot(game, attack="a-9", shooter="r-car", target="s-1", weapon="lmg", dice=4)
    verdicts = game.verdicts("AVBCW.VEH.DAMAGE_TABLE")
    assert all(v[0] == "ok" for s, v in verdicts.items() if s < moved)   # both results read right
    assert verdicts[moved] == ["violation"] and verdicts[shot] == ["violation", "violation"]


def test_a_brew_up():
    # "Vehicle explodes killing crew/passengers and inflicting 1 COH loss on all units within 2d6”":
    # 2d6 = 5; r-inf's base (x 23.5) is 2.0” from the tank's hull (x 21.5), s-1's (y 29) 18.5”
    game = Game()
    game.army("royalist", **{"r-tank": WHIPPET, "r-inf": INFANTRY})
    game.army("socialist", **{"s-1": INFANTRY})
    game.deploy("royalist", "r-tank", 20.0, 8.0, w=3.0, d=5.0)
    game.deploy("royalist", "r-inf", 26.0, 8.0)
    game.deploy("socialist", "s-1", 24.0, 30.0, facing=180)
    game.start(1, "missile-fire")
    boom = damaged(game, "r-tank", 6, "brews-up")
    game.add("DieRolled", {"purpose": "AVBCW.VEH.DAMAGE_TABLE", "die": "2d6", "results": [2, 3], "result": 5,
                           "subject": "r-tank"}, "royalist")
    near = game.add("CohesionLost", {"unit": "r-inf", "points": 1, "cause": "brew-up"}, "royalist")
    far = game.add("CohesionLost", {"unit": "s-1", "points": 1, "cause": "brew-up"}, "socialist")
    verdicts = game.verdicts("AVBCW.VEH.DAMAGE_TABLE")
    assert verdicts[near] == ["ok"] and verdicts[far] == ["violation"] and verdicts[boom] == ["ok", "ok"]
    # a unit within it that loses nothing
    game.lines = game.lines[:near - 1]
    game.start(2)
    assert game.verdicts("AVBCW.VEH.DAMAGE_TABLE")[boom] == ["ok", "ok", "violation"]


def test_a_ram():
    # "both inflict damage on each other equal to their Protection rating ... If a soft vehicle is
    # involved in a ram with a hard vehicle it counts its PRO as 1 lower": the car's 2 - 1 = 1 on
    # the Whippet, the Whippet's 4 on the car
    game = garage()
    game.to_phase("move")
    ram = game.add("VehicleRammed", {"vehicles": ["r-car", "r-tank"], "pro": [1, 4]}, "royalist")
    for _ in range(4):
        damaged(game, "r-car", 1, "traction-damage", cause="ram", repeat=_ > 0)
    damaged(game, "r-tank", 1, "traction-damage", cause="ram")
    game.start(2)
    assert game.verdicts("AVBCW.VEH.RAM")[ram] == ["ok", "ok", "ok"]
    game = garage()
    game.to_phase("move")
    short = game.add("VehicleRammed", {"vehicles": ["r-car", "r-tank"], "pro": 2}, "royalist")
    damaged(game, "r-tank", 1, "traction-damage", cause="ram")
    game.start(2)
    assert game.verdicts("AVBCW.VEH.RAM")[short] == ["mismatch", "mismatch", "ok"]
