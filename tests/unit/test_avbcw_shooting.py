"""Dux Bellorum AVBCW shooting, judged on the table in inches (dux-bellorum-avbcw.txt, Shooting,
Suppression, Special rules; game-log-tabletop.md, Dux Bellorum, ShotFired / ShotResolved). Each
expectation is worked by hand from the text's numbers, quoted beside it."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import CAR, INFANTRY, Game

FLAMER = {"type": "flamethrower", "figures": 2, "stats": {"MV": "6", "BRV": "7", "MELEE": "1", "SHOOT": "8(1): 12”",
                                                         "PRO": "4", "COH": "2"}, "pts": 3}


def duel(features=(), shooter=INFANTRY, at=(24.0, 8.0), target_at=(24.0, 22.0), facing=0, options=("avbcw-arc=quadrant",),
         friends=()) -> Game:
    """r-1 (royalist) facing `facing` at `at`, s-1 (socialist) facing it; both 5” x 2” bases."""
    game = Game(features, options=options)
    game.army("royalist", **{"r-1": shooter, **{f"r-friend-{i}": INFANTRY for i, _ in enumerate(friends)}})
    game.army("socialist", **{"s-1": INFANTRY})
    game.deploy("royalist", "r-1", *at, facing=facing)
    for i, (x, y) in enumerate(friends):
        game.deploy("royalist", f"r-friend-{i}", x, y)
    game.deploy("socialist", "s-1", *target_at, facing=180)
    game.start(1, "missile-fire")
    return game


def shoot(game: Game, attack="a-1", shooter="r-1", target="s-1", dice=6, rating="soft", **extra) -> int:
    side = "royalist" if shooter.startswith("r-") else "socialist"
    return game.add("ShotFired", {"attack": attack, "shooter": shooter, "target": target, "rating": rating, "dice": dice,
                                  "range": 13.0, "modifiers": [], **extra}, side)


def resolve(game: Game, faces, hits, attack="a-1", ones=None, side="royalist") -> int:
    game.add("DieRolled", {"purpose": "DB.SHOOT", "die": f"{len(faces)}d6", "results": faces, "result": sum(faces),
                           "subject": attack}, side)
    return game.add("ShotResolved", {"attack": attack, "hits": hits, "ones": faces.count(1) if ones is None else ones},
                    side)


def test_range_limits_and_arc():
    # Flamethrower "8(1): 12”": "Where a distance is listed, this shoot rating has a limited range".
    # From the leader (24, 8) to s-1's closest point (y 22 - 1 = 21): 13.0” at target y 22.
    game = duel(shooter=FLAMER, target_at=(24.0, 21.0))        # 12.0”: within 12
    in_range = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS") == {in_range: ["ok", "ok"]}   # arc, range
    game = duel(shooter=FLAMER, target_at=(24.0, 21.1))        # 12.1”
    seq = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS")[seq] == ["ok", "violation"]
    # `avbcw-range=closest`: base to base, 21.1 - 1 - 9 = 11.1”, within 12
    game = duel(shooter=FLAMER, target_at=(24.0, 21.1))
    seq = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS", "avbcw-range=closest")[seq] == ["ok", "ok"]
    # "A unit's shooting arc is 45° to its front": s-1 behind r-1 is outside it
    game = duel(facing=180)
    seq = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS")[seq][0] == "violation"


def test_how_wide_45_degrees_to_its_front_is():
    # s-1 centred at (34, 22): from the leader (24, 8) its nearest part, the corner (31.5, 23), bears
    # atan(7.5 / 15) = 26.6°: inside 45° either side (`quadrant`), outside 22.5° (`narrow`)
    game = duel(target_at=(34.0, 22.0))
    seq = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS")[seq][0] == "ok"
    game = duel(target_at=(34.0, 22.0), options=("avbcw-arc=narrow",))
    seq = shoot(game)
    assert game.verdicts("AVBCW.SHOOT.RATINGS")[seq][0] == "violation"


def test_mixed_weapons_limit_the_range_to_18():
    # EQ.MIXED: "The unit has its Shooting range limited to 18”" (leader at y 8 to y 26 - 1 = 25: 17.0”)
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.MIXED"]}, target_at=(24.0, 27.0))
    seq = shoot(game)
    assert game.verdicts("AVBCW.EQ.MIXED")[seq] == ["ok"]
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.MIXED"]}, target_at=(24.0, 28.1))   # 19.1”
    seq = shoot(game)
    assert game.verdicts("AVBCW.EQ.MIXED")[seq] == ["violation"]


def test_a_vehicle_weapon_fires_into_its_own_arcs():
    # "Armaments on vehicles have a 45° fire arc from the gun hull location": an LMG (F) does not
    # reach a target straight behind
    car = CAR | {"weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F"], "crewed": True}]}
    game = duel(shooter=car, target_at=(24.0, 22.0), facing=180)
    seq = shoot(game, weapon="lmg", dice=4)
    assert game.verdicts("AVBCW.VEH.SHOOT")[seq] == ["violation"]
    game = duel(shooter=car, target_at=(24.0, 22.0), facing=0)
    seq = shoot(game, weapon="lmg", dice=4)
    assert game.verdicts("AVBCW.VEH.SHOOT")[seq] == ["ok"]


def test_line_of_sight():
    # "This LOS is blocked if this LOS; Passes within 1” of a friendly unit; Meets a linear obstacle
    # or similar terrain (e.g. a hedge); Passes through more than 3” of area terrain"
    hedge = {"id": "h-1", "kind": "hedge", "points": [[10.0, 15.0], [40.0, 15.0]]}
    game = duel([hedge])
    seq = shoot(game)
    assert game.verdicts("AVBCW.LOS")[seq] == ["violation"]
    game = duel(friends=[(24.0, 15.0)])
    seq = shoot(game)
    assert game.verdicts("AVBCW.LOS")[seq] == ["violation"]
    game = duel(friends=[(30.6, 15.0)])     # its base's edge 28.1: 4.1” from the line x 24 at best
    seq = shoot(game)
    assert game.verdicts("AVBCW.LOS")[seq] == ["ok"]
    # a wood 3.0” deep across the whole line is no more than 3”; 3.1” is
    wood = {"id": "w-1", "kind": "woodland", "points": [[0.0, 12.0], [48.0, 12.0], [48.0, 15.0], [0.0, 15.0]]}
    game = duel([wood])
    seq = shoot(game)
    assert game.verdicts("AVBCW.LOS")[seq] == ["ok"]
    deeper = wood | {"points": [[0.0, 12.0], [48.0, 12.0], [48.0, 15.1], [0.0, 15.1]]}
    game = duel([deeper])
    seq = shoot(game)
    assert game.verdicts("AVBCW.LOS")[seq] == ["violation"]


def test_low_on_ammo_from_the_faces():
    # "rolls more '1's' than successful hits becomes 'low on ammo'" (EC-AV-01: [1, 1, 1, 5, 6, 4]
    # with 2 hits: 3 ones > 2 hits -> low)
    game = duel()
    shoot(game)
    resolve(game, [1, 1, 1, 5, 6, 4], hits=2)
    low = game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "AVBCW.AMMO.LOW", "attack": "a-1"},
                   "royalist")
    game.start(2, "missile-fire")
    # "A unit that is low on ammo rolls half its Shooting dice (round down)": SHOOT 6 -> 3
    halved = shoot(game, attack="a-2", dice=3)
    resolve(game, [2, 3, 4], hits=1, attack="a-2")
    game.start(3, "missile-fire")
    not_halved = shoot(game, attack="a-3", dice=6)
    verdicts = game.verdicts("AVBCW.AMMO.LOW")
    assert verdicts[low] == ["ok"] and verdicts[halved] == ["ok"] and verdicts[not_halved] == ["mismatch"]


def test_ones_not_beating_hits_and_unrecorded_lows():
    game = duel()
    shoot(game)
    resolve(game, [1, 1, 5, 6, 4, 3], hits=2)       # 2 ones, 2 hits: not more
    wrongly_low = game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "AVBCW.AMMO.LOW",
                                                "attack": "a-1"}, "royalist")
    assert game.verdicts("AVBCW.AMMO.LOW")[wrongly_low] == ["violation"]
    game = duel()
    shoot(game)
    resolved = resolve(game, [1, 1, 1, 5, 6, 4], hits=2)
    game.to_phase("move")                            # no AmmoStateChanged before the phase ends
    assert game.verdicts("AVBCW.AMMO.LOW")[resolved] == ["violation"]
    game = duel()
    shoot(game)
    miscounted = resolve(game, [1, 1, 1, 5, 6, 4], hits=4, ones=2)   # `ones` from the faces: 3
    # the mismatch, and the resolution itself: 3 ones against 4 hits, not low
    assert game.verdicts("AVBCW.AMMO.LOW")[miscounted] == ["mismatch", "ok"]


def test_a_second_low_result_stops_the_shooting():
    # "A unit that suffers a second 'low on ammo' result can no longer shoot"
    game = duel()
    game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "AVBCW.AMMO.LOW"}, "royalist")
    shoot(game, dice=3)
    resolve(game, [1, 1, 2], hits=1)
    second = game.add("AmmoStateChanged", {"unit": "r-1", "state": "exhausted", "cause": "AVBCW.AMMO.LOW",
                                           "attack": "a-1"}, "royalist")
    game.start(2, "missile-fire")
    again = shoot(game, attack="a-2", dice=3)
    verdicts = game.verdicts("AVBCW.AMMO.LOW")
    assert verdicts[second] == ["ok"] and verdicts[again] == ["violation"]


def test_poorly_and_well_supplied():
    # EQ.POORSUP: "It runs 'low on ammo' if any shooting attack dice rolls a '1'" (1 one, 3 hits)
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.POORSUP"]})
    shoot(game)
    resolved = resolve(game, [1, 5, 6, 5, 2, 2], hits=3)
    game.to_phase("move")
    assert game.verdicts("AVBCW.AMMO.LOW")[resolved] == ["violation"]     # low, and not recorded
    # EQ.WELLSUP: "It only runs 'low on ammo' if all shooting attack dice roll a '1'" ([1, 2, 1]: not low)
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.WELLSUP"]})
    shoot(game, dice=3)
    resolved = resolve(game, [1, 2, 1], hits=0)
    game.to_phase("move")
    assert game.verdicts("AVBCW.AMMO.LOW")[resolved] == ["ok"]


def test_suppression_trigger():
    # "A unit that suffers at least 2 lost Cohesion points from shooting this turn automatically
    # goes (or stays) prone this turn as its move."
    game = duel()
    shoot(game)
    game.add("CohesionLost", {"unit": "s-1", "points": 1, "cause": "shooting", "attack": "a-1"}, "socialist")
    early = game.add("UnitStatusChanged", {"unit": "s-1", "status": "suppressed", "cause": "AVBCW.SUPP.TRIGGER"},
                     "socialist")
    assert game.verdicts("AVBCW.SUPP.TRIGGER") == {early: ["violation"]}       # 1 COH is not 2
    game = duel()
    shoot(game)
    game.add("CohesionLost", {"unit": "s-1", "points": 1, "cause": "shooting", "attack": "a-1"}, "socialist")
    shoot(game, attack="a-2")
    game.add("CohesionLost", {"unit": "s-1", "points": 1, "cause": "shooting", "attack": "a-2"}, "socialist")
    due = game.add("UnitStatusChanged", {"unit": "s-1", "status": "suppressed", "cause": "AVBCW.SUPP.TRIGGER"},
                   "socialist")
    assert game.verdicts("AVBCW.SUPP.TRIGGER") == {due: ["ok"]}
    game = duel()
    shoot(game)
    reached = game.add("CohesionLost", {"unit": "s-1", "points": 2, "cause": "shooting", "attack": "a-1"}, "socialist")
    game.start(2)                                   # the turn ends with no suppression recorded
    assert game.verdicts("AVBCW.SUPP.TRIGGER") == {reached: ["violation"]}


def test_melee_losses_do_not_suppress_and_vehicles_never_are():
    game = duel()
    game.add("CohesionLost", {"unit": "s-1", "points": 2, "cause": "melee"}, "socialist")
    game.start(2)
    assert game.verdicts("AVBCW.SUPP.TRIGGER") == {}
    # "Vehicles are never suppressed by enemy shooting"
    game = duel(shooter=CAR)
    bad = game.add("UnitStatusChanged", {"unit": "r-1", "status": "suppressed", "cause": "AVBCW.SUPP.TRIGGER"},
                   "royalist")
    assert game.verdicts("AVBCW.SUPP.NOPRONE") == {bad: ["violation"]}


MORTAR = {"type": "mortar", "figures": 3, "stats": {"MV": "3", "BRV": "6", "MELEE": "1", "SHOOT": "4(1): ≥12”",
                                                   "PRO": "4", "COH": "2"}, "special": ["AVBCW.EQ.INDIRECT"], "pts": 3}


def test_an_indirect_weapon_has_a_minimum_range():
    # Mortar "4(1): ≥12”"; EQ.INDIRECT: "Weapons with indirect fire have a minimum range and cannot
    # shoot at targets even partly within this range". From the leader (24, 8): 11.0”, 12.0”, 13.0”.
    verdicts = []
    for y in (20.0, 21.0, 22.0):
        game = duel(shooter=MORTAR, target_at=(24.0, y))
        seq = shoot(game, dice=4, indirect=True)
        verdicts += [a.verdict.value for a in game.audit().applications
                     if a.seq == seq and a.rule == "AVBCW.EQ.INDIRECT" and "range" in a.message]
    # exactly 12.0: "≥12”" admits it, "even partly within this range" does not
    assert verdicts == ["violation", "ambiguous", "ok"]
    # an indirect shot "ignores intervening terrain or other sight-blocking conditions"
    assert game.verdicts("AVBCW.LOS")[seq] == ["unverifiable"]


def test_a_low_result_that_names_no_attack():
    # AVBCW, Shooting: "A unit that makes a shooting attack and rolls more '1's' than successful hits
    # becomes 'low on ammo'"; AmmoStateChanged's `attack` is optional (game-log-tabletop.md), so the
    # low result answers the unit's last resolved attack
    game = duel()
    shoot(game)
    resolve(game, [1, 1, 1, 5, 6, 4], hits=2)
    low = game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "AVBCW.AMMO.LOW"}, "royalist")
    assert game.verdicts("AVBCW.AMMO.LOW")[low] == ["ok"]
    game = duel()
    shoot(game)
    resolve(game, [1, 1, 4, 5, 6, 4], hits=2)
    low = game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "AVBCW.AMMO.LOW"}, "royalist")
    assert game.verdicts("AVBCW.AMMO.LOW")[low] == ["violation"]


def test_a_turret_fires_all_round_from_its_centre():
    # AVBCW, Vehicles, Shooting: "Turrets have a 360° fire arc (unless otherwise specified) measured
    # from the turret center"; Blocked line of sight: "from ... the centre of the turret if the weapon
    # is turret mounted". Rolls Royce "LMG (T)": with the narrow reading of "45°" a target 30° off the
    # bow lies in no hull arc, yet the turret bears; its range runs from the hull's centre
    rolls = {"type": "vehicle:rolls-royce", "crew": 3, "stats": {"MV": "24", "BRV": "8", "PRO": "3"},
             "weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F", "R", "B", "L"], "crewed": True}],
             "drive": "wheeled", "pts": 2}
    game = duel(shooter=rolls, target_at=(33.0, 22.0), options=("avbcw-arc=narrow",))
    seq = shoot(game, weapon="lmg", dice=4)
    assert game.verdicts("AVBCW.VEH.SHOOT")[seq] == ["ok"]
    # a hull LMG (F) of the same rating on a car is no turret: out of its narrow front arc
    car = CAR | {"weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F"], "crewed": True}]}
    game = duel(shooter=car, target_at=(33.0, 22.0), options=("avbcw-arc=narrow",))
    seq = shoot(game, weapon="lmg", dice=4)
    assert game.verdicts("AVBCW.VEH.SHOOT")[seq] == ["violation"]


def test_recorded_modifiers_in_their_usual_forms():
    # AVBCW, Shooting: "A unit that is low on ammo rolls half its Shooting dice (round down)": the halving
    # weighs the recorded modifiers, whatever form the log gives them (game-log-tabletop.md gives none)
    from domain.rules.dux_bellorum_avbcw.shooting import modifier_sum
    assert modifier_sum([{"value": -2, "why": "suppressed"}, "-1 prone", 1]) == -2
    assert modifier_sum([{"amount": -2, "why": "suppressed"}]) == -2
    assert modifier_sum([{"why": "suppressed"}]) is None
