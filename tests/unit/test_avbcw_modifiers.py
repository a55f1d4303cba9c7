"""Dux Bellorum AVBCW shooting dice (dux-bellorum-avbcw.txt, Shooting modifiers: "-1* Target unit is
prone, in terrain, behind a 'soft' obstacle (fence, hedge, etc.), or obscurement (e.g. smoke); -2
Target unit is behind a 'hard' obstacle (wall etc.), or fortified (in a trench, house, or similar).
*Does not apply against Indirect fire"; Bombs, SMGs, Squad LMG, Suppression, Trench rats). r-1
(Infantry Regulars, SHOOT 6) at (24, 8) facing s-1 at (24, 22), whose base spans y 21 to 23."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import INFANTRY
from tests.unit.test_avbcw_shooting import duel, shoot

MORTAR = {"type": "mortar", "figures": 3, "stats": {"MV": "3", "BRV": "6", "MELEE": "1", "SHOOT": "4(1): ≥12”",
                                                   "PRO": "4", "COH": "2"}, "special": ["AVBCW.EQ.INDIRECT"], "pts": 3}
WOOD = {"id": "w-1", "kind": "woodland", "points": [[18.0, 20.0], [30.0, 20.0], [30.0, 26.0], [18.0, 26.0]]}
HEDGE = {"id": "h-1", "kind": "hedge", "points": [[18.0, 21.0], [30.0, 21.0]]}
WALL = HEDGE | {"id": "wl-1", "kind": "wall"}
HOUSE = {"id": "b-1", "kind": "building", "points": [[20.0, 20.5], [28.0, 20.5], [28.0, 24.0], [20.0, 24.0]]}


def dice_verdict(features=(), dice=6, rule="AVBCW.SHOOT.MODS", shooter=INFANTRY, target_status=None, **shot):
    game = duel(features, shooter=shooter)
    if target_status:
        game.add("UnitStatusChanged", {"unit": "s-1", "status": target_status}, "socialist")
    seq = shoot(game, dice=dice, **shot)
    return game.verdicts(rule).get(seq)


def test_cover_on_the_table():
    assert dice_verdict() == ["ok"]                                  # in the open: 6
    assert dice_verdict([WOOD], dice=5) == ["ok"]                    # in terrain: 6 - 1
    assert dice_verdict([WOOD], dice=6) == ["mismatch"]
    assert dice_verdict([HEDGE], dice=5) == ["ok"]                   # behind a hedge it touches
    assert dice_verdict([WALL], dice=4) == ["ok"]                    # behind a wall: 6 - 2
    assert dice_verdict([HOUSE], dice=4) == ["ok"]                   # fortified in a house
    assert dice_verdict(dice=5, target_status="prone", rule="AVBCW.SHOOT.MODS") == ["ok"]   # prone in the open
    assert dice_verdict([WOOD], dice=5, target_status="prone") == ["ok"]   # one -1, not two
    # a soft and a hard cover at once: -3 or -2, the rows do not say
    assert dice_verdict([HEDGE, HOUSE], dice=3) == ["ambiguous"]
    assert dice_verdict([HEDGE, HOUSE], dice=2) == ["mismatch"]
    # Trench rats: "If this unit is benefitting from soft or hard obstacle cover a shooting unit loses
    # an additional -1"
    game = duel([HEDGE])
    listed = next(l for l in game.lines if l["type"] == "ArmyListed" and l["side"] == "socialist")
    listed["data"]["units"][0]["special"] = ["AVBCW.AB.TRENCHRATS"]
    seq = shoot(game, dice=4)
    assert game.verdicts("AVBCW.AB.TRENCHRATS")[seq] == ["ok"]


def test_not_against_indirect_fire():
    # "*Does not apply against Indirect fire": a mortar's 4 into the wood stays 4; a house's -2 stays
    assert dice_verdict([WOOD], dice=4, shooter=MORTAR, indirect=True) == ["ok"]
    assert dice_verdict([WOOD], dice=3, shooter=MORTAR, indirect=True) == ["mismatch"]
    assert dice_verdict([HOUSE], dice=2, shooter=MORTAR, indirect=True) == ["ok"]


def test_equipment_that_adds_dice():
    # s-1 at y 19: its front at 18, 10.0” away, within 12”. Bombs "+1(+1) SHOOT within 12”"; SMGs
    # "+1 SHOOT (12”)"; Squad LMG "+1 SHOOT"
    def near(special, dice, rule, rating="soft"):
        game = duel(shooter=INFANTRY | {"special": special}, target_at=(24.0, 19.0))
        seq = shoot(game, dice=dice, rating=rating)
        return game.verdicts(rule).get(seq)
    assert near(["AVBCW.EQ.BOMBS"], 7, "AVBCW.EQ.BOMBS") == ["ok"]
    assert near(["AVBCW.EQ.BOMBS"], 6, "AVBCW.EQ.BOMBS") == ["mismatch"]
    assert near(["AVBCW.EQ.SMG", "AVBCW.EQ.SQUADLMG"], 8, "AVBCW.EQ.SMG") == ["ok"]
    assert near(["AVBCW.EQ.SQUADLMG"], 7, "AVBCW.EQ.SQUADLMG") == ["ok"]
    # beyond 12” (s-1 at y 22: 13.0”) the Bombs give nothing
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.BOMBS"]})
    seq = shoot(game, dice=6)
    assert game.verdicts("AVBCW.SHOOT.MODS")[seq] == ["ok"]
    # "While suppressed a unit; ... • Suffers -2 SHOOT"
    game = duel()
    game.add("UnitStatusChanged", {"unit": "r-1", "status": "suppressed"}, "royalist")
    seq = shoot(game, dice=4)
    assert game.verdicts("AVBCW.SUPP.EFFECTS")[seq] == ["ok"]


def test_equipment_counted_where_it_does_not_apply():
    # AVBCW, Equipment, Bombs: "The unit gains +1(+1) SHOOT within 12”": at 13.0” the Bombs' die
    # counted anyway is the Bombs' mismatch
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.BOMBS"]})
    seq = shoot(game, dice=7)
    assert game.verdicts("AVBCW.EQ.BOMBS")[seq] == ["mismatch"]
    # AVBCW, Equipment, SMGs: "+1 SHOOT (12”). This bonus is permanently lost once the unit becomes
    # 'low on ammo'": a low unit whose recorded modifiers still count the +1
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.SMG"]}, target_at=(24.0, 19.0))
    game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "other"}, "royalist")
    seq = shoot(game, dice=3, modifiers=[{"value": 1, "why": "SMGs"}])
    assert game.verdicts("AVBCW.EQ.SMG")[seq] == ["mismatch"]
    game = duel(shooter=INFANTRY | {"special": ["AVBCW.EQ.SMG"]}, target_at=(24.0, 19.0))
    game.add("AmmoStateChanged", {"unit": "r-1", "state": "low", "cause": "other"}, "royalist")
    seq = shoot(game, dice=3, modifiers=[])
    assert game.verdicts("AVBCW.SHOOT.MODS")[seq] == ["ok"]


def test_mad_minute():
    # Mad minute: "The unit gains +2 SHOOT and automatically suffers 'out of ammo' as a result"
    mad = INFANTRY | {"special": ["AVBCW.AB.MADMINUTE"]}
    game = duel(shooter=mad)
    fired = shoot(game, dice=8)
    game.add("AmmoStateChanged", {"unit": "r-1", "state": "exhausted", "cause": "AVBCW.AB.MADMINUTE"}, "royalist")
    out = len(game.lines)
    verdicts = game.verdicts("AVBCW.AB.MADMINUTE")
    assert verdicts[fired][-1] == "ok" and verdicts[out] == ["ambiguous"]            # low or exhausted: no default
    assert game.verdicts("AVBCW.AB.MADMINUTE", "avbcw-mad-minute=exhausted")[out] == ["ok"]
    game = duel(shooter=mad)
    fired = shoot(game, dice=8)
    game.to_phase("move")
    assert game.verdicts("AVBCW.AB.MADMINUTE")[fired][-1] == "violation"             # no ammunition change
    game = duel(shooter=mad)
    plain = shoot(game, dice=6)                                                      # without it: 6
    assert game.verdicts("AVBCW.SHOOT.MODS")[plain] == ["ok"]


def test_off_table_tiers():
    # Off table support: "2 points per shot = SHOOT 5 (1) Indirect"; the -1 of a wood "Does not
    # apply against Indirect fire"
    game = duel([WOOD])
    right = shoot(game, dice=5, off_table=2)
    wrong = shoot(game, attack="a-2", dice=4, off_table=2)
    verdicts = game.verdicts("AVBCW.SHOOT.MODS")
    assert verdicts[right] == ["ok"] and verdicts[wrong] == ["mismatch"]


def test_half_a_rating_at_a_soft_vehicle():
    # Cohesion: "Soft vehicles can be affected by anti-tank attack ratings, or normal attack ratings
    # (at half that value (rounded down)": which rating is halved the unclosed bracket leaves open
    from tests.unit.test_avbcw_movement import CAR, Game
    def at_car(dice):
        game = Game()
        game.army("royalist", **{"r-1": INFANTRY})
        game.army("socialist", **{"s-car": CAR})
        game.deploy("royalist", "r-1", 24.0, 8.0)
        game.deploy("socialist", "s-car", 24.0, 22.0, facing=180, w=2.0, d=4.0)
        game.start(1, "missile-fire")
        seq = shoot(game, target="s-car", dice=dice)
        return game.verdicts("AVBCW.VEH.DAMAGE_SOURCE").get(seq), game.verdicts("AVBCW.SHOOT.MODS").get(seq)
    assert at_car(3) == (["ambiguous"], None)        # 6 // 2
    assert at_car(6) == (None, ["ok"])
    assert at_car(2) == (None, ["mismatch"])


def test_a_vehicle_weapon_low_on_ammo_leaves_the_other_weapons_whole():
    # AVBCW, Vehicles, Shooting: "A vehicle weapon that makes a shooting attack and rolls more '1's'
    # than successful hits becomes 'low on ammo' for that weapon. A vehicle's weapon that is low on
    # ammo rolls half its Shooting dice (round down)": the other LMG still rolls its full 4
    from tests.unit.test_avbcw_movement import CAR
    car = CAR | {"weapons": [{"weapon": "lmg-1", "shoot": "4", "arcs": ["F"], "crewed": True},
                             {"weapon": "lmg-2", "shoot": "4", "arcs": ["F"], "crewed": True}]}
    game = duel(shooter=car)
    game.add("AmmoStateChanged", {"unit": "r-1", "weapon": "lmg-1", "state": "low", "cause": "other"}, "royalist")
    halved = shoot(game, weapon="lmg-2", dice=2)
    whole = shoot(game, attack="a-2", weapon="lmg-2", dice=4)
    verdicts = game.verdicts("AVBCW.SHOOT.MODS")
    assert verdicts[halved] == ["mismatch"] and verdicts[whole] == ["ok"]


def test_bombs_give_a_hard_rating_within_12():
    # AVBCW, Equipment, Bombs: "The unit gains +1(+1) SHOOT within 12”": Regulars (SHOOT 6, no
    # bracket) with Bombs roll 1 hard die at 10.0”; at 13.0” they have no hard rating
    bombs = INFANTRY | {"special": ["AVBCW.EQ.BOMBS"]}
    game = duel(shooter=bombs, target_at=(24.0, 19.0))
    seq = shoot(game, dice=1, rating="hard")
    assert game.verdicts("AVBCW.EQ.BOMBS")[seq] == ["ok"]
    game = duel(shooter=bombs)
    seq = shoot(game, dice=1, rating="hard")
    assert game.verdicts("AVBCW.SHOOT.MODS")[seq] == ["violation"]


def test_a_prone_unit_that_gets_up_is_in_the_open_again():
    # AVBCW, Going prone: "A prone unit can get up and move normally in later turns": once it has
    # moved (or stood up) the -1 for "Target unit is prone" no longer applies
    game = duel()
    game.add("UnitStatusChanged", {"unit": "s-1", "status": "prone"}, "socialist")
    prone = shoot(game, dice=5)
    game.add("UnitMoved", {"unit": "s-1", "path": [{"x": 24.0, "y": 22.0}, {"x": 24.0, "y": 24.0}]}, "socialist")
    up = shoot(game, attack="a-2", dice=6)
    game.add("UnitStatusChanged", {"unit": "s-1", "status": "prone"}, "socialist")
    game.add("UnitStatusChanged", {"unit": "s-1", "status": "standing"}, "socialist")
    stood = shoot(game, attack="a-3", dice=6)
    verdicts = game.verdicts("AVBCW.SHOOT.MODS")
    assert verdicts[prone] == ["ok"] and verdicts[up] == ["ok"] and verdicts[stood] == ["ok"]
