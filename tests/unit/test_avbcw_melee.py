"""Dux Bellorum AVBCW melee (dux-bellorum-avbcw.txt, Melee: Fall back, Pursuit, Melee modifiers;
Bayonets; SMGs; Vehicles: Melee; game-log-tabletop.md, Dux Bellorum, CloseCombatFought /
CloseCombatResolved). 5” x 2” bases: r-inf faces +y, s-inf faces -y, fronts touching at y 20."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import bravery
from tests.unit.test_avbcw_movement import CAR, INFANTRY, Game

MILITIA = {"type": "inf-militia", "figures": 10, "stats": {"MV": "6", "BRV": "6", "MELEE": "2", "SHOOT": "4",
                                                          "PRO": "5", "COH": "4"}, "pts": 3}


def melee(royal=INFANTRY, social=MILITIA, charge=True, s_at=(24.0, 21.0), s_facing=180, features=()) -> Game:
    """r-inf charges from (24, 13) to (24, 19): its front edge reaches y 20, s-inf's front."""
    game = Game(features)
    game.army("royalist", **{"r-inf": royal})
    game.army("socialist", **{"s-inf": social})
    game.deploy("royalist", "r-inf", 24.0, 13.0 if charge else 19.0)
    game.deploy("socialist", "s-inf", *s_at, facing=s_facing)
    game.start(1)
    if charge:
        bravery(game, "r-inf")
        game.move("royalist", "r-inf", (24.0, 13.0), (24.0, 19.0), mode="charge")
    game.to_phase("close-combat")
    return game


def fight(game: Game, r_charged=True, r_flank=False, s_in_terrain=False, combat="c-1") -> int:
    return game.add("CloseCombatFought", {"combat": combat, "sides": [
        {"units": ["r-inf"], "charged": r_charged, "flank": r_flank, "in_terrain": False},
        {"units": ["s-inf"], "charged": False, "flank": False, "in_terrain": s_in_terrain}]})


def resolve(game: Game, r_dice, s_dice, r_lost=0, s_lost=0, fall_back=(), pursue=(), combat="c-1") -> int:
    for unit, dice in (("r-inf", r_dice), ("s-inf", s_dice)):
        faces = [3] * dice
        game.add("DieRolled", {"purpose": "DB.MELEE", "die": f"{dice}d6", "results": faces, "result": sum(faces),
                               "subject": unit})
    return game.add("CloseCombatResolved", {"combat": combat, "results": [
        {"unit": "r-inf", "dice": r_dice, "modifiers": [], "hits": 0, "coh_lost": r_lost},
        {"unit": "s-inf", "dice": s_dice, "modifiers": [], "hits": 0, "coh_lost": s_lost}],
        "fall_back": list(fall_back), "pursue": list(pursue)})


def test_melee_dice():
    # Regulars MELEE 4(1) "+1 Unit charged into contact this turn": 5; Militia MELEE 2
    game = melee()
    fight(game)
    seq = resolve(game, 5, 2)
    assert game.verdicts("AVBCW.MELEE.MODS")[seq] == ["ok", "ok", "ok", "ok"]   # dice and rolls, each side
    # Bayonets "+1 MELEE", SMGs "+1 MELEE": 4 + 1 + 1 + 1 = 7; forgetting the bayonets is theirs
    game = melee(royal=INFANTRY | {"special": ["AVBCW.EQ.BAYONETS", "AVBCW.EQ.SMG"]})
    fight(game)
    seq = resolve(game, 6, 2)
    assert game.verdicts("AVBCW.EQ.BAYONETS")[seq] == ["mismatch"]
    # "-1 Opponent unit is in terrain, or beyond an obstacle": 4 + 1 - 1 = 4
    game = melee(features=[WOOD])
    fight(game, s_in_terrain=True)
    seq = resolve(game, 4, 2)
    assert game.verdicts("AVBCW.MELEE.MODS")[seq][0] == "ok"


def test_charged_and_flank_from_the_table():
    # no move into contact this turn: "charged" is not so
    game = melee(charge=False)
    seq = fight(game, r_charged=True)
    assert game.verdicts("AVBCW.MELEE.MODS")[seq][0] == "mismatch"
    # "+2 Attacking a unit's flank (anywhere outside its firing arc)": s-inf faces away (0), so r-inf
    # behind it is outside its 45° front arc; facing r-inf (180) it is not
    game = melee(s_facing=0)
    seq = fight(game, r_flank=True)
    assert game.verdicts("AVBCW.MELEE.MODS")[seq] == ["ok"] * 6     # charged, flank, in terrain: each side
    game = melee()
    seq = fight(game, r_flank=True)
    assert game.verdicts("AVBCW.MELEE.MODS")[seq][1] == "mismatch"


WOOD = {"id": "w-1", "kind": "woodland", "points": [[20.0, 20.0], [28.0, 20.0], [28.0, 26.0], [20.0, 26.0]]}
HEDGE = {"id": "h-1", "kind": "hedge", "points": [[10.0, 20.0], [40.0, 20.0]]}


def test_in_terrain_from_the_table():
    # AVBCW, Melee modifiers: "-1 Opponent unit is in terrain, or beyond an obstacle". s-inf's base (y 20
    # to 22) stands in the wood (y 20 to 26); r-inf's (y 18 to 20) only touches it, from outside
    game = melee(features=[WOOD])
    fought = fight(game, s_in_terrain=True)
    assert game.verdicts("AVBCW.MELEE.MODS")[fought][4:] == ["ok", "ok"]
    game = melee(features=[WOOD])
    fought = fight(game, s_in_terrain=False)
    assert game.verdicts("AVBCW.MELEE.MODS")[fought][5] == "mismatch"
    # in the open, neither side is in terrain
    game = melee()
    fought = fight(game, s_in_terrain=True)
    assert game.verdicts("AVBCW.MELEE.MODS")[fought][5] == "mismatch"
    # a hedge between them: "beyond an obstacle" is not said to be one side's or both, either record stands
    for recorded in (True, False):
        game = melee(features=[HEDGE])
        fought = fight(game, s_in_terrain=recorded)
        assert game.verdicts("AVBCW.MELEE.MODS")[fought] == ["ok"] * 4


def test_falling_back():
    # "Any unit that suffers more COH loss than all opponents it fought against falls back ... It
    # retreats the minimum distance to be more than 6” from all enemy units": s-inf loses 2 to 1;
    # its base (y 20 to 22) moved to y 27.1 starts at 26.1, 6.1” from r-inf's front (y 20)
    game = melee()
    fight(game)
    resolved = resolve(game, 5, 2, r_lost=1, s_lost=2, fall_back=["s-inf"])
    right = game.move("socialist", "s-inf", (24.0, 21.0), (24.0, 27.1), mode="fall-back")
    verdicts = game.verdicts("AVBCW.MELEE.FALLBACK")
    assert verdicts[resolved] == ["ok"] and verdicts[right] == ["ok"]
    for y, why in ((27.0, "6.0” is not more than 6”"), (28.0, "0.2” earlier it was 6.8”")):
        game = melee()
        fight(game)
        resolve(game, 5, 2, r_lost=1, s_lost=2, fall_back=["s-inf"])
        seq = game.move("socialist", "s-inf", (24.0, 21.0), (24.0, y), mode="fall-back")
        assert game.verdicts("AVBCW.MELEE.FALLBACK")[seq] == ["violation"], why
    # the wrong unit named, and a fall back never moved
    game = melee()
    fight(game)
    wrong = resolve(game, 5, 2, r_lost=2, s_lost=2, fall_back=["s-inf"])
    game.start(2)
    assert game.verdicts("AVBCW.MELEE.FALLBACK")[wrong] == ["violation", "violation"]


def test_pursuit():
    # "Any unit that won a melee may choose to pursue a retreating enemy. It moves into contact with
    # that enemy unit"; next turn "+1 ... or pursued into contact last turn"
    game = melee()
    fight(game)
    resolved = resolve(game, 5, 2, r_lost=0, s_lost=2, fall_back=["s-inf"], pursue=["r-inf"])
    game.move("socialist", "s-inf", (24.0, 21.0), (24.0, 27.1), mode="fall-back")
    pursuit = game.move("royalist", "r-inf", (24.0, 19.0), (24.0, 25.1), mode="pursue")
    game.start(2)
    game.to_phase("close-combat")
    again = fight(game, r_charged=True, combat="c-2")
    verdicts = game.verdicts("AVBCW.MELEE.PURSUE")
    assert verdicts[resolved] == ["ok"] and verdicts[pursuit] == ["ok"]
    assert game.verdicts("AVBCW.MELEE.MODS")[again][0] == "ok"
    # the loser may not pursue
    game = melee()
    fight(game)
    wrong = resolve(game, 5, 2, r_lost=0, s_lost=2, fall_back=["s-inf"], pursue=["s-inf"])
    assert game.verdicts("AVBCW.MELEE.PURSUE")[wrong] == ["violation"]


def test_vehicles_never_melee():
    # "Vehicles never enter melee and are never locked in melee"
    game = melee(social=CAR)
    seq = fight(game)
    assert game.verdicts("AVBCW.VEH.NOMELEE") == {seq: ["violation"]}
