"""Dux Bellorum AVBCW target priority (dux-bellorum-avbcw.txt, Target priority: "A unit must shoot at
the closest enemy unit within 12” (or choose where two or more are equally close). Otherwise a unit
may shoot at any visible enemy target within arc and range. A unit may not shoot at Medical or
Supply team units if it has another enemy unit as a viable target"; Sniper; Sneaky; Vehicles:
Shooting). Ranges from the leader (`avbcw-range=from-leader`) to the target's closest point; all
bases 5” x 2”, the shooter r-1 at (24, 8) facing +y."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import CAR, INFANTRY, Game
from tests.unit.test_avbcw_shooting import shoot

SNIPER = {"type": "sniper", "figures": 2, "stats": {"MV": "6", "BRV": "9", "MELEE": "1", "SHOOT": "4", "PRO": "6",
                                                   "COH": "2"}, "pts": 5}
MEDICAL = {"type": "medical", "figures": 3, "stats": {"MV": "6", "BRV": "9", "MELEE": "1", "SHOOT": "-", "PRO": "4",
                                                     "COH": "4"}, "pts": 3}


def field(shooter=INFANTRY, **enemies) -> Game:
    """r-1 at (24, 8); each enemy `name=(spec, x, y)` facing r-1."""
    game = Game()
    game.army("royalist", **{"r-1": shooter})
    game.army("socialist", **{uid: spec for uid, (spec, _, _) in enemies.items()})
    game.deploy("royalist", "r-1", 24.0, 8.0)
    for uid, (_, x, y) in enemies.items():
        game.deploy("socialist", uid, x, y, facing=180)
    game.start(1, "missile-fire")
    return game


def test_the_closest_within_12():
    # s-near at (20, 18): its corner (22.5, 17) 9.1” away; s-far at (30, 24): 15.4”. s-near it must be
    game = field(**{"s-near": (INFANTRY, 20.0, 18.0), "s-far": (INFANTRY, 30.0, 24.0)})
    right = shoot(game, target="s-near")
    wrong = shoot(game, attack="a-2", target="s-far")
    verdicts = game.verdicts("AVBCW.SHOOT.PRIORITY")
    assert verdicts[right] == ["ok"] and verdicts[wrong] == ["violation"]
    # "(or choose where two or more are equally close)": both corners 1.5” aside and 9” ahead, 9.1”
    game = field(**{"s-a": (INFANTRY, 20.0, 18.0), "s-b": (INFANTRY, 28.0, 18.0)})
    seq = shoot(game, target="s-b")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok"]
    # none within 12” (13.0” and 15.0”): "Otherwise a unit may shoot at any visible enemy target"
    game = field(**{"s-a": (INFANTRY, 20.0, 22.0), "s-b": (INFANTRY, 30.0, 24.0)})
    seq = shoot(game, target="s-b")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok"]
    # a closer enemy behind a hedge is no viable target (its sight is blocked)
    hedge = {"id": "h-1", "kind": "hedge", "points": [[14.0, 14.0], [22.0, 14.0]]}
    game = field(**{"s-near": (INFANTRY, 16.0, 18.0), "s-far": (INFANTRY, 30.0, 24.0)})
    game.lines[1]["data"]["features"] = [hedge]
    seq = shoot(game, target="s-far")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok"]


def test_medical_and_supply_last():
    # s-med at 9.0” is the closest, yet s-inf (15.0”) is another viable target
    game = field(**{"s-med": (MEDICAL, 20.0, 18.0), "s-inf": (INFANTRY, 30.0, 24.0)})
    seq = shoot(game, target="s-med")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok", "violation"]
    game = field(**{"s-med": (MEDICAL, 20.0, 18.0)})
    seq = shoot(game, target="s-med")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok", "ok"]


def test_a_farther_team_past_a_closer_medical_team():
    # AVBCW, Shooting: "A unit may not shoot at Medical or Supply team units if it has another enemy
    # unit as a viable target" (rule-cases EC-AV-08): s-med at 8.0” cannot be shot while s-inf at
    # 10.0” is viable, so s-inf is the closest target the shooter may take within 12”
    game = field(**{"s-med": (MEDICAL, 24.0, 17.0), "s-inf": (INFANTRY, 30.0, 19.0)})
    seq = shoot(game, target="s-inf")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok"]
    game = field(**{"s-med": (MEDICAL, 24.0, 17.0), "s-inf": (INFANTRY, 30.0, 19.0)})
    seq = shoot(game, target="s-med")
    assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == ["ok", "violation"]


def test_a_sniper_is_not_compelled():
    # Sniper: "he is not compelled to shoot at the closest within 12”"
    game = field(shooter=SNIPER, **{"s-near": (INFANTRY, 20.0, 18.0), "s-far": (INFANTRY, 30.0, 24.0)})
    seq = shoot(game, target="s-far", dice=4)
    assert game.verdicts("AVBCW.AB.SNIPER")[seq] == ["ok"]
    assert seq not in game.verdicts("AVBCW.SHOOT.PRIORITY")


def test_a_sneaky_unit_beyond_18():
    # Sneaky: "cannot be seen or shot at beyond 18”, except by a sniper or an indirect weapon";
    # s-1 at y 28: its front at 27, 19.0” from the leader; at y 26, 17.0”
    sneaky = INFANTRY | {"special": ["AVBCW.AB.SNEAKY"]}
    for shooter, y, dice, verdict in ((INFANTRY, 28.0, 6, "violation"), (INFANTRY, 26.0, 6, "ok"),
                                      (SNIPER, 28.0, 4, "ok")):
        game = field(shooter=shooter, **{"s-1": (sneaky, 24.0, y)})
        seq = shoot(game, target="s-1", dice=dice)
        assert game.verdicts("AVBCW.AB.SNEAKY")[seq] == [verdict]


def test_vehicles_may_take_the_closest_vehicle():
    # "It may choose to ignore closer infantry to target the closest visible enemy vehicle, or clear
    # anti-vehicle threat": the car at 15.0” past infantry at 9.0”
    car = CAR | {"weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F", "L", "R", "B"], "crewed": True}]}
    game = field(shooter=car, **{"s-inf": (INFANTRY, 20.0, 18.0), "s-car": (CAR, 30.0, 24.0),
                                 "s-two": (INFANTRY, 36.0, 26.0)})
    vehicle = shoot(game, target="s-car", weapon="lmg", dice=4)
    other = shoot(game, attack="a-2", target="s-two", weapon="lmg", dice=4)
    verdicts = game.verdicts("AVBCW.SHOOT.PRIORITY")
    assert verdicts[vehicle] == ["ok"] and verdicts[other] == ["ambiguous"]


def test_the_12_inches_measured_as_rounded():
    # s-edge's near edge 12.04” ahead of r-1's leader is 12.0” measured: within 12”, it binds the
    # shot past it; at 12.06” it is 12.1”, and an enemy 21” off is weighed (from its box) as beyond
    for ahead, verdict in ((12.04, "violation"), (12.06, "ok")):
        game = field(**{"s-edge": (INFANTRY, 24.0, 9.0 + ahead), "s-far": (INFANTRY, 30.0, 24.0),
                        "s-away": (INFANTRY, 24.0, 30.0)})
        seq = shoot(game, target="s-far")
        assert game.verdicts("AVBCW.SHOOT.PRIORITY")[seq] == [verdict]
