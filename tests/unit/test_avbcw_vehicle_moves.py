"""Dux Bellorum AVBCW vehicles and the units around them (dux-bellorum-avbcw.txt, Vehicles: Tracked
vehicles, Embarking and disembarking, Attacking a vehicle, Vehicle Protection, Running people over).
The Whippet's hull 3” x 5”, tracked; a lorry's 3” x 6”, wheeled."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import INFANTRY, WHIPPET, Game
from tests.unit.test_avbcw_shooting import shoot

LORRY = {"type": "vehicle:lorry", "crew": 1, "stats": {"MV": "12", "BRV": "8", "SHOOT": "-", "PRO": "2"},
         "weapons": [{"weapon": "pintle", "shoot": "4", "arcs": ["F", "L", "R", "B"], "crewed": False}],
         "drive": "wheeled", "pts": 1}
HEDGE = {"id": "h-1", "kind": "hedge", "points": [[0.0, 16.0], [48.0, 16.0]]}
WOOD = {"id": "w-1", "kind": "woodland", "points": [[14.0, 20.0], [26.0, 20.0], [26.0, 26.0], [14.0, 26.0]]}
DENSE = WOOD | {"id": "d-1", "kind": "dense-woodland"}


def yard(features=(), royal=None) -> Game:
    game = Game(features)
    game.army("royalist", **(royal or {"r-tank": WHIPPET}))
    game.army("socialist", **{"s-inf": INFANTRY})
    for uid, spec in (royal or {"r-tank": WHIPPET}).items():
        if spec.get("type", "").startswith("vehicle:"):
            game.deploy("royalist", uid, 20.0, 10.0, w=3.0, d=5.0 if uid == "r-tank" else 6.0)
    game.deploy("socialist", "s-inf", 40.0, 40.0, facing=180)
    game.start(1)
    return game


def bog(game: Game, *faces: int) -> None:
    for face in faces:
        game.add("DieRolled", {"purpose": "AVBCW.VEH.TRACKED.BOG", "die": "d6", "result": face, "subject": "r-tank"},
                 "royalist")


def test_bog_rolls():
    # "Halfway across an obstacle, roll 1d6 ... At the midpoint of its current move though area
    # terrain, roll 1d6 ... On a '1' the vehicle become bogged down or stuck and its movement ends"
    game = yard([HEDGE, WOOD])
    move = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))     # the hedge, then the wood
    bog(game, 4, 3)
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[move] == ["ok"]
    game = yard([HEDGE, WOOD])
    short = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))
    bog(game, 4)
    game.to_phase("close-combat")
    # the wood's roll is not in the log: "the procedure needs a roll ... that the log does not have"
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[short] == ["missing-roll"]
    game = yard([HEDGE])
    extra = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))
    bog(game, 4, 3)
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[extra] == ["violation"]      # a roll no obstacle asked for
    # bogged on the hedge: the path must end on it; ending beyond it is moving on
    game = yard([HEDGE, WOOD])
    stuck = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 16.0))
    bog(game, 1)
    game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
    game.to_phase("close-combat")
    verdicts = game.verdicts("AVBCW.VEH.TRACKED.BOG")
    assert verdicts[stuck] == ["ok"] and verdicts[stuck + 1] == ["ok"]      # ends on the hedge; recorded bogged
    game = yard([HEDGE, WOOD])
    unrecorded = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 16.0))
    bog(game, 1)
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[unrecorded + 1] == ["violation"]
    game = yard([HEDGE, WOOD])
    on = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))
    bog(game, 1, 5)
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[on] == ["violation"]
    # "(except dense woodland)"; bogged in a wood: where, the text leaves open
    game = yard([DENSE])
    dense = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))
    bog(game, 3)
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[dense] == ["violation", "ok"]
    game = yard([WOOD])
    in_wood = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 22.0))
    bog(game, 1)
    game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
    game.to_phase("close-combat")
    assert game.verdicts("AVBCW.VEH.TRACKED.BOG")[in_wood] == ["ambiguous"]


def test_a_bogged_vehicle_moves_off_the_obstacle_without_a_roll():
    # AVBCW, Vehicles: "Halfway across an obstacle, roll 1d6 for the vehicle. On a '1' the vehicle
    # become bogged down or stuck and its movement ends. The vehicle can attempt to move next turn as
    # normal but suffers -2 BRV. If the BRV test is successful the vehicle moves off from the obstacle
    # without hindrance."
    game = yard([HEDGE])
    stuck = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, 16.0))      # the centre halfway across
    bog(game, 1)
    game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
    game.start(2)
    off = game.move("royalist", "r-tank", (20.0, 16.0), (20.0, 26.0))
    game.start(3)
    back = game.move("royalist", "r-tank", (20.0, 26.0), (20.0, 14.0))        # a new crossing: a roll is owed
    game.to_phase("close-combat")
    verdicts = game.verdicts("AVBCW.VEH.TRACKED.BOG")
    assert verdicts[stuck] == ["ok"] and off not in verdicts
    assert verdicts[back] == ["missing-roll"]


def test_bogging_in_an_area_by_the_chosen_reading():
    # AVBCW, Vehicles: "At the midpoint of its current move though area terrain, roll 1d6 for the
    # vehicle. On a '1' the vehicle become bogged down or stuck and its movement ends." The wood is
    # y 20 to 26; the tank bogs in it (y 22) or past it (y 33, its hull clear of the wood)
    def bogged(end_y: float, *options: str) -> list[str]:
        game = Game([WOOD], options=("avbcw-arc=quadrant", *options))
        game.army("royalist", **{"r-tank": WHIPPET})
        game.army("socialist", **{"s-inf": INFANTRY})
        game.deploy("royalist", "r-tank", 20.0, 10.0, w=3.0, d=5.0)
        game.deploy("socialist", "s-inf", 40.0, 40.0, facing=180)
        game.start(1)
        move = game.move("royalist", "r-tank", (20.0, 10.0), (20.0, end_y))
        bog(game, 1)
        game.add("UnitStatusChanged", {"unit": "r-tank", "status": "bogged", "cause": "AVBCW.VEH.TRACKED.BOG"}, "royalist")
        game.to_phase("close-combat")
        return game.verdicts("AVBCW.VEH.TRACKED.BOG")[move]
    assert bogged(22.0) == ["ambiguous"] and bogged(33.0) == ["ambiguous"]
    assert bogged(22.0, "avbcw-bog-area=area-midpoint") == ["ok"]
    assert bogged(33.0, "avbcw-bog-area=area-midpoint") == ["violation"]
    assert bogged(22.0, "avbcw-bog-area=move-midpoint") == ["ok"] and bogged(33.0, "avbcw-bog-area=move-midpoint") == ["ok"]


def test_embarking():
    # "provided that vehicle does not move more than 6” during the turn. To embark, at least half
    # the unit must be within 6” of the vehicle". The lorry's hull spans x 18.5 to 21.5, y 7 to 13;
    # figures at x 27 are 5.5” off (bases 1” across: 5.0”), at x 29, 7.0”.
    game = yard(royal={"r-lorry": LORRY, "r-inf": INFANTRY})
    near = [{"x": 27.0, "y": 8.0 + i} for i in range(5)] + [{"x": 29.0, "y": 8.0 + i} for i in range(5)]
    far = [{"x": 29.0, "y": 8.0 + i} for i in range(6)] + [{"x": 27.0, "y": 8.0 + i} for i in range(4)]
    game.add("UnitDeployed", {"unit": "r-inf", "position": {"x": 27.0, "y": 8.0}, "facing": 0,
                              "footprint": {"w": 5.0, "d": 2.0}, "figures": near, "figure_base": 1.0}, "royalist")
    ok = game.add("UnitEmbarked", {"unit": "r-inf", "vehicle": "r-lorry", "at": 0}, "royalist")
    game.move("royalist", "r-lorry", (20.0, 10.0), (20.0, 16.0))
    game.start(2)
    game.move("royalist", "r-lorry", (20.0, 16.0), (20.0, 23.0))              # 7.0”
    off = game.add("UnitDisembarked", {"unit": "r-inf", "vehicle": "r-lorry", "at": 1,
                                       "figures": [{"x": p["x"], "y": p["y"] + 16.0} for p in far]}, "royalist")
    game.start(3)
    verdicts = game.verdicts("AVBCW.VEH.EMBARK")
    assert verdicts[ok] == ["ok", "ok"]                # half within 6”, 6.0” moved that turn
    assert verdicts[off] == ["violation", "violation"]  # 4 of 10 within 6”; 7.0” moved


def test_passengers_fire_uncrewed_weapons():
    # "Passengers on vehicles may use an un-crewed weapon mounted on the vehicle, but cannot
    # otherwise shoot."
    game = yard(royal={"r-lorry": LORRY, "r-inf": INFANTRY})
    game.add("UnitDeployed", {"unit": "r-inf", "position": {"x": 24.0, "y": 10.0}, "facing": 0,
                              "footprint": {"w": 5.0, "d": 2.0}}, "royalist")
    game.add("UnitEmbarked", {"unit": "r-inf", "vehicle": "r-lorry", "at": 0}, "royalist")
    game.start(2, "missile-fire")
    pintle = shoot(game, shooter="r-lorry", target="s-inf", weapon="pintle", dice=4, passengers=["r-inf"])
    rifles = shoot(game, attack="a-2", shooter="r-inf", target="s-inf", dice=6)
    verdicts = game.verdicts("AVBCW.VEH.EMBARK")
    assert verdicts[pintle] == ["ok"] and verdicts[rifles] == ["violation"]


def test_assaulting_a_vehicle():
    # "a unit may assault a vehicle ... if they end within 3” of that vehicle and the vehicle did not
    # move more than 6” during the turn ... If the vehicle is not destroyed, an attacking unit then
    # retreats"; "An attacking unit uses the PRO of the facing attacked by the unit leader"
    game = Game()
    game.army("royalist", **{"r-tank": WHIPPET})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-tank", 20.0, 10.0, w=3.0, d=5.0)
    game.deploy("socialist", "s-inf", 20.0, 15.0, facing=180)     # its base y 14 to 16: 1.5” ahead of the hull
    game.start(1, "close-combat")
    front = game.add("VehicleAssaulted", {"unit": "s-inf", "vehicle": "r-tank", "facing": "F", "rating": "hard"},
                     "socialist")
    side = game.add("VehicleAssaulted", {"unit": "s-inf", "vehicle": "r-tank", "facing": "L", "rating": "soft"},
                    "socialist")
    game.move("socialist", "s-inf", (20.0, 15.0), (20.0, 20.0), mode="retreat")
    game.start(2)
    assert game.verdicts("AVBCW.VEH.ASSAULTED")[front] == ["ok", "ok", "ok"]
    assert game.verdicts("AVBCW.VEH.ASSAULTED")[side] == ["ok", "ok", "violation"]
    assert game.verdicts("AVBCW.VEH.PRO") == {front: ["ok"], side: ["violation"]}


def test_a_unit_run_over_within_3_must_attack():
    # "If it remains within 3”, that enemy unit must attack the vehicle in melee if able to do so"
    game = Game()
    game.army("royalist", **{"r-tank": WHIPPET})
    game.army("socialist", **{"s-inf": INFANTRY})
    game.deploy("royalist", "r-tank", 20.0, 8.0, w=3.0, d=5.0)
    game.deploy("socialist", "s-inf", 20.0, 16.0, facing=180)
    game.start(1)
    game.move("royalist", "r-tank", (20.0, 8.0), (20.0, 21.0))          # through s-inf, its rear 18.5
    run = game.add("UnitRunOver", {"vehicle": "r-tank", "unit": "s-inf"}, "royalist")
    game.start(2)
    assert game.verdicts("AVBCW.VEH.RUNOVER")[run][-1] == "violation"


def test_wrecking_tools_against_a_vehicle():
    # Wrecking tools: "The unit gains +0 (+1) MELEE against tanks, bunkers and so on": Regulars'
    # MELEE 4(1) against the Whippet's hull, hard: 1 + 1 = 2 dice
    wreckers = INFANTRY | {"special": ["AVBCW.EQ.WRECK"]}
    for faces, verdict in ((2, "ok"), (1, "mismatch")):
        game = Game()
        game.army("royalist", **{"r-tank": WHIPPET})
        game.army("socialist", **{"s-inf": wreckers})
        game.deploy("royalist", "r-tank", 20.0, 10.0, w=3.0, d=5.0)
        game.deploy("socialist", "s-inf", 20.0, 15.0, facing=180)
        game.start(1, "close-combat")
        seq = game.add("VehicleAssaulted", {"unit": "s-inf", "vehicle": "r-tank", "facing": "F", "rating": "hard"},
                       "socialist")
        game.add("DieRolled", {"purpose": "DB.MELEE", "die": f"{faces}d6", "results": [4] * faces, "result": 4 * faces,
                               "subject": "s-inf"}, "socialist")
        game.move("socialist", "s-inf", (20.0, 15.0), (20.0, 20.0), mode="retreat")
        game.to_phase("morale-and-victory")
        assert game.verdicts("AVBCW.EQ.WRECK")[seq] == [verdict]
