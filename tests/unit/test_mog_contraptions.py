"""Landships of Mogdonazia's Silly Contraptions, from the text (landships-of-mogdonazia.txt, pp. 3-4;
the headings are scrambled, MOG.Z 1). Each game is the page's example with the rebels r-1 (at
(40, 24), facing 270, 10" x 2") given key figures, or l-1 built as a PA or a Clockwork."""
from __future__ import annotations

import copy

from tests.unit.test_mog_vehicles import SETUP, built, game, judged, line, move, roll, turn


def rebels(*keys, figures=20) -> list[dict]:
    setup = copy.deepcopy(SETUP)
    setup[7]["data"].update(figures=figures, key_figures=[{"figure": f, "carries": c} for f, c in keys])
    return setup


def shot(weapon, dice, rng=10.0, target="l-1", weapon_class="small-arms", **kw):
    return line("ShotFired", {"attack": "a-1", "shooter": "r-1", "weapon": weapon, "target": target,
                              "target_part": "vehicle", "weapon_class": weapon_class, "dice": dice, "range": rng, **kw},
                phase="shooting", side="rebels")


def resolved(d20s, hits, twenties=None):
    data = {"attack": "a-1", "hits": hits}
    if twenties is not None:
        data["twenties"] = twenties
    return [roll("TSATF.FIRE", d20s, subject="a-1", phase="shooting", side="rebels") | {"data": {
        "purpose": "TSATF.FIRE", "die": f"{len(d20s)}d20", "results": d20s, "result": sum(d20s), "subject": "a-1"}},
        line("ShotResolved", data, phase="shooting", side="rebels")]


def verdicts(lines, rule, **kw):
    return [a.verdict.value for a in judged(lines, rule, **kw)]


def closer(x=22.0):
    return line("UnitMoved", {"unit": "r-1", "path": [{"x": 40.0, "y": 24.0}, {"x": x, "y": 24.0}]}, side="rebels")


def test_tesla_rifles_roll_3d20_and_their_20s_explode():
    # "Roll 3D20 as Dervish rifle weapon ... If a 20 is rolled, the Tesla rifle explodes. Remove the figure as a
    # casualty" (EC-MOG-07: [20, 20, 7])
    setup = rebels(("r-1/tesla", "tesla-rifle"))
    casualty = line("CasualtiesTaken", {"unit": "r-1", "killed": 1, "wounded": 0, "cause": "MOG.TESLA"},
                    phase="shooting", side="rebels")
    shaken = line("UnitStatusChanged", {"unit": "l-1", "status": "shaken"}, phase="shooting")
    # "Any additional rolls of 20 will affect one figure each, and must save in the usual TSATF manner (flip a card)"
    save = line("CardDrawn", {"deck": "main", "card": "7H", "for": "TSATF.SAVE", "subject": "r-1"}, phase="shooting",
                side="rebels")
    lines = game(*turn(1), shot("r-1/tesla", 3), *resolved([20, 20, 7], 1, twenties=2), casualty, save, shaken,
                 setup=setup)
    assert verdicts(lines, "MOG.TESLA") == ["ok", "ok", "unverifiable"]
    unsaved = game(*turn(1), shot("r-1/tesla", 3), *resolved([20, 20, 7], 1, twenties=2), casualty, shaken, setup=setup)
    assert verdicts(unsaved, "MOG.TESLA")[-1] == "missing-roll"
    assert verdicts(game(*turn(1), shot("r-1/tesla", 4), setup=setup), "MOG.TESLA") == ["violation"]
    forgot = game(*turn(1), shot("r-1/tesla", 3), *resolved([20, 3, 7], 0, twenties=1), setup=setup)
    assert verdicts(forgot, "MOG.TESLA") == ["ok", "ok", "unverifiable", "violation"]


def test_flame_rifles_hit_on_1_to_6_within_8_inches():
    # "Roll 3D20, looking for 1-6. Range is 8. ... count as small arms against landships."
    setup = rebels(("r-1/flame", "flame-rifle"))
    near = [closer(), shot("r-1/flame", 3, rng=7.0)]
    assert verdicts(game(*turn(1), *near, *resolved([3, 7, 12], 1), line("UnitStatusChanged", {
        "unit": "l-1", "status": "shaken"}), setup=setup), "MOG.FLAME") == ["ok", "ok", "ok", "ok"]
    assert verdicts(game(*turn(1), *near, *resolved([3, 6, 12], 1), setup=setup), "MOG.FLAME")[-2:] == \
        ["mismatch", "violation"]
    assert verdicts(game(*turn(1), shot("r-1/flame", 3, rng=16.0), setup=setup), "MOG.FLAME") == ["ok", "violation",
                                                                                                   "ok"]
    assert verdicts(game(*turn(1), closer(), shot("r-1/flame", 3, rng=7.0, weapon_class="gun"), setup=setup),
                    "MOG.FLAME") == ["ok", "ok", "violation"]


def test_congreve_rockets_do_not_fire_after_moving():
    # "The figure cannot fire if he moved during the movement phase. Roll 6D20 ... count as artillery"
    setup = rebels(("r-1/rockets", "congreve"))
    still = game(*turn(1), shot("r-1/rockets", 6, weapon_class="artillery"), setup=setup)
    assert verdicts(still, "MOG.CONGREVE") == ["ok", "ok"]
    moved = game(*turn(1), closer(30.0), shot("r-1/rockets", 6, weapon_class="artillery"), setup=setup)
    assert verdicts(moved, "MOG.CONGREVE") == ["ok", "ok", "violation"]


def test_jump_troops_are_half_platoons():
    # "Jump pack troops are organised in half platoons of one officer, one NCO and eight soldiers."
    assert verdicts(game(setup=rebels(("r-1/all", "jump-pack"), figures=10)), "MOG.JUMP") == ["ok"]
    assert verdicts(game(setup=rebels(("r-1/all", "jump-pack"), figures=12)), "MOG.JUMP") == ["violation"]


def jump(dice, *points, chart=None):
    lines = [roll("MOG.JUMP", dice, subject="r-1", side="rebels"),
             line("UnitMoved", {"unit": "r-1", "mode": "jump-pack", "path": [{"x": x, "y": y} for x, y in points]},
                  side="rebels")]
    if chart is not None:
        lines += [roll("MOG.JUMP.CHART", [chart], subject="r-1", side="rebels"),
                  line("JumpPackTested", {"unit": "r-1", "figure": "r-1/all", "result": chart}, side="rebels")]
    return lines


def test_jump_packs_move_5_dice_or_4_over_a_tall_obstacle():
    # "Movement for jump packs is 5 dice, 4 dice if the figure has to cross a tall obstacle."
    setup = rebels(("r-1/all", "jump-pack"), figures=10)
    assert verdicts(game(*turn(1), *jump([3] * 5, (40, 24), (30, 24), chart=1), setup=setup), "MOG.JUMP") == \
        ["ok", "ok", "ok"]
    assert verdicts(game(*turn(1), *jump([3] * 4, (40, 24), (30, 24), chart=1), setup=setup), "MOG.JUMP")[1] == \
        "violation"
    walled = copy.deepcopy(setup)
    walled[1]["data"]["features"].append({"id": "w-1", "kind": "wall", "tall": True, "points": [[35.0, 10.0],
                                                                                                [35.0, 40.0]]})
    assert verdicts(game(*turn(1), *jump([3] * 4, (40, 24), (30, 24), chart=2), setup=walled), "MOG.JUMP") == \
        ["ok", "ok", "ok"]


def test_the_jump_pack_chart_follows_the_move():
    # "After moving the figure, refer to the jump pack chart"; "6 Explodes as it takes off" (mog-jump-6)
    setup = rebels(("r-1/all", "jump-pack"), figures=10)
    assert verdicts(game(*turn(1), *jump([3] * 5, (40, 24), (30, 24)), setup=setup), "MOG.JUMP") == \
        ["ok", "ok", "missing-roll"]
    casualty = line("CasualtiesTaken", {"unit": "r-1", "killed": 1, "wounded": 0, "cause": "MOG.JUMP"}, side="rebels")
    assert verdicts(game(*turn(1), *jump([3] * 5, (40, 24), (30, 24), chart=6), casualty, setup=setup),
                    "MOG.JUMP") == ["ok", "ok", "ok", "ambiguous"]


def test_the_jump_pack_chart_result_is_applied():
    # MOG, Silly Contraptions (printed under "C. Flame Rifles"): "After moving the figure, refer to the jump pack
    # chart and apply the result to the movement. Jump pack chart 1, 2 No effect on movement 3, 4 Scatter D6 away
    # 5 Crashes, pilot casualty 6 Explodes as it takes off"
    setup = rebels(("r-1/all", "jump-pack"), figures=10)
    flight = jump([3] * 5, (40, 24), (30, 24), chart=5)
    casualty = line("CasualtiesTaken", {"unit": "r-1", "killed": 1, "wounded": 0, "cause": "MOG.JUMP"}, side="rebels")
    assert verdicts(game(*turn(1), *flight, casualty, setup=setup), "MOG.JUMP") == ["ok", "ok", "ok"]
    assert verdicts(game(*turn(1), *flight, setup=setup), "MOG.JUMP")[-1] == "violation"
    scatter = jump([3] * 5, (40, 24), (30, 24), chart=4)
    def scattered(face, to):
        return [roll("MOG.JUMP.SCATTER", [face], subject="r-1", side="rebels"),
                line("UnitMoved", {"unit": "r-1", "mode": "scatter", "path": [{"x": 30.0, "y": 24.0},
                                                                             {"x": 30.0, "y": to}]}, side="rebels")]
    assert verdicts(game(*turn(1), *scatter, *scattered(3, 27.0), setup=setup), "MOG.JUMP") == ["ok", "ok", "ok", "ok"]
    assert verdicts(game(*turn(1), *scatter, *scattered(3, 29.0), setup=setup), "MOG.JUMP")[-1] == "violation"
    assert verdicts(game(*turn(1), *scatter, setup=setup), "MOG.JUMP")[-1] == "violation"
    assert verdicts(game(*turn(1), *jump([3] * 5, (40, 24), (30, 24), chart=2), setup=setup), "MOG.JUMP") == \
        ["ok", "ok", "ok"]


def test_powered_armour_fires_one_weapon_a_turn_and_moves_1d6_wounded():
    # E.: "a maximum of two weapons (but can fire only one per turn) ... they can only move 1D6"
    pa = built(kind="powered-armour", crew=1, weapons=[
        {"weapon": "l-1/mg", "type": "machine-gun", "mount": "forward", "crew": 1},
        {"weapon": "l-1/flame", "type": "flame-rifle", "mount": "forward", "crew": 1}])
    def fires(weapon):
        return line("ShotFired", {"attack": f"p-{weapon}", "shooter": "l-1", "weapon": weapon, "target": "r-1",
                                  "target_part": "vehicle", "weapon_class": "machine-gun", "dice": 2, "range": 20.0},
                    phase="shooting")
    assert verdicts(game(*turn(1), fires("l-1/mg"), fires("l-1/flame"), setup=pa), "MOG.PA")[-1] == "violation"
    wounded = line("UnitStatusChanged", {"unit": "l-1", "status": "wounded"})
    walk = [roll("MOG.PA", [4]), move((10.0, 24.0), (13.0, 24.0))]
    assert verdicts(game(*turn(1), wounded, *walk, setup=pa), "MOG.PA")[-1] == "ok"
    far = [roll("MOG.PA", [2]), move((10.0, 24.0), (13.0, 24.0))]
    assert verdicts(game(*turn(1), wounded, *far, setup=pa), "MOG.PA")[-1] == "violation"


def test_a_clockwork_refers_to_its_chart_every_turn():
    # F.: "a face card will cause the Clockwork to refer to the Clockwork Critical chart every turn";
    # "3 Does not move, shoot, or fire"
    cw = built(kind="clockwork", operator="op-1")
    face = line("HitCardResolved", {"attack": "a-1", "target": "l-1", "weapon_class": "small-arms", "card": "KS",
                                    "outcome": "critical-each-turn"}, phase="shooting", side="rebels")
    chart = [roll("MOG.CLOCKWORK", [3], turn=2), line("CriticalHit", {"unit": "l-1", "chart": "clockwork", "result": 3,
                                                                     "effect": "stands still"}, turn=2)]
    stands = game(*turn(1), face, *turn(2), *chart, setup=cw)
    assert verdicts(stands, "MOG.CLOCKWORK") == ["ok", "ok"]
    forgot = game(*turn(1), face, *turn(2), setup=cw)
    assert verdicts(forgot, "MOG.CLOCKWORK") == ["ok", "missing-roll"]
    walks = game(*turn(1), face, *turn(2), *chart, move((10.0, 24.0), (12.0, 24.0), n=2), setup=cw)
    assert "violation" in verdicts(walks, "MOG.CLOCKWORK")


def test_a_lone_flame_rifle_figure_fires_its_flame_rifle_without_naming_it():
    # MOG, Silly Contraptions B.: "A figure carrying flame rifle is considered a key figure when in a unit. Roll
    # 3D20, looking for 1-6. Range is 8." A unit of that one figure has nothing else to fire: a shot that names
    # no `weapon` is the flame rifle's.
    setup = rebels(("r-1/flame", "flame-rifle"), figures=1)
    unnamed = line("ShotFired", {"attack": "a-1", "shooter": "r-1", "target": "l-1", "target_part": "vehicle",
                                 "weapon_class": "small-arms", "dice": 3, "range": 7.0}, phase="shooting", side="rebels")
    lines = game(*turn(1), closer(), unnamed, *resolved([7, 9, 12], 1), line("UnitStatusChanged", {
        "unit": "l-1", "status": "shaken"}), setup=setup)
    assert verdicts(lines, "MOG.FLAME")[-1] == "mismatch"   # a 7, a 9 and a 12 are no 1-6: no hit
    # a unit of twenty with one flame rifle: an unnamed shot is the unit's own rifles, not judged as the flame's
    crowd = rebels(("r-1/flame", "flame-rifle"))
    assert verdicts(game(*turn(1), closer(), unnamed, *resolved([7, 9, 12], 1), setup=crowd), "MOG.FLAME") == []


def test_a_repaired_clockwork_is_no_longer_broken_down():
    # MOG, F. Clockwork Men: "needs to roll for breakdown just like a landship (save that a broken down Clockwork
    # cannot shoot or fire), requires an operator to repair it ... If the Clockwork breaks down, the operator must be
    # within 2 in order to repair it"; B. 2: "On a 5 to 6, the system is repaired."
    from tests.unit.test_mog_vehicles import breakdown, failing
    cw = built(kind="clockwork", operator="op-1")
    broke = [*breakdown(6, broke=True), line("UnitStatusChanged", {"unit": "l-1", "status": "broken-down"})]
    def after(face):
        fix = [roll("MOG.VEH.REPAIR", [face], turn=2),
               line("RepairAttempted", {"unit": "l-1", "system": "engine", "repaired": face >= 5, "operator": "op-1"},
                    turn=2)]
        return game(*turn(1), *broke, *turn(2), *fix, *turn(3), *breakdown(2, n=3),
                    line("ShotFired", {"attack": "a-1", "shooter": "l-1", "weapon": "l-1/gun", "target": "r-1",
                                       "target_part": "vehicle", "weapon_class": "gun", "dice": 1, "range": 20.0},
                         turn=3, phase="shooting"), setup=cw)
    assert [f for f in failing(after(5)) if f[1] in ("MOG.CLOCKWORK", "MOG.VEH.BREAKDOWN")
            and f[2] != "unverifiable"] == []   # the operator op-1 has no position: "within 2" unmeasured
    assert ("MOG.CLOCKWORK", "violation") in [f[1:] for f in failing(after(3))]


def test_a_hit_card_wounds_or_shuts_down_without_a_status_line():
    # MOG, E.: "When hit, a face card counts as a wound ... When wounded ... they can only move 1D6"; F.: "an ace
    # will shut it down permanently": the HitCardResolved says so, a status line or not
    pa = built(kind="powered-armour", crew=1, weapons=[{"weapon": "l-1/mg", "type": "machine-gun", "mount": "forward",
                                                        "crew": 1}])
    face = line("HitCardResolved", {"attack": "a-1", "target": "l-1", "weapon_class": "small-arms", "card": "QS",
                                    "outcome": "wound"}, phase="shooting", side="rebels")
    far = [*turn(2), roll("MOG.PA", [2], turn=2), move((10.0, 24.0), (13.0, 24.0), n=2)]
    assert verdicts(game(*turn(1), face, *far, setup=pa), "MOG.PA")[-1] == "violation"   # 3" on a 1D6 of 2
    cw = built(kind="clockwork", operator="op-1")
    ace = line("HitCardResolved", {"attack": "a-1", "target": "l-1", "weapon_class": "small-arms", "card": "AS",
                                   "outcome": "shut-down"}, phase="shooting", side="rebels")
    walks = game(*turn(1), ace, *turn(2), move((10.0, 24.0), (12.0, 24.0), n=2), setup=cw)
    assert "violation" in verdicts(walks, "MOG.CLOCKWORK")
