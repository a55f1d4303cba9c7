"""Trench Mortars (mortars.py): each expectation cites the rulebook passage it comes from."""
from __future__ import annotations

from tests.fire_helpers import BRIT, GER, FireLog, verdicts


def mortar_game(kind="light", rof=6, rng=13, phase="offensive-small-arms-fire", hexes=None, **kw) -> FireLog:
    g = FireLog(hexes=hexes, **kw)
    g.unit("m1", BRIT, "mortar", "5:0502", firepower=4, range_=rng, type=kind, rate_of_fire=rof)
    g.unit("b1", BRIT, "infantry-platoon", "5:0503")
    g.unit("g1", GER, "infantry-platoon", "5:0506")
    g.unit("g2", GER, "infantry-platoon", "5:0606")
    g.at(1, phase)
    return g


def shot(g, attack, scatter=2, target="5:0506", results=(("g1", "no-effect"),), mods=(-1,), **kw):
    return g.fire(attack, ["m1"], target, firepower=4, before_sacrt=[("IM.SW.MORTAR.SCATTER", scatter)] if scatter else (),
                  mods=mods, results=results, **kw)


def test_ec32_three_shots_each_with_its_scatter_and_minus_one():
    # EC-32: a light mortar fires 3 shots at a spotted clear hex: 3 scatter rolls [2, 5, 1], 3 SACRT rolls
    # each with -1; shot 2 scatters to an adjacent hex ("On a result of 5 or 6 ... scatters into an adjacent hexagon")
    g = mortar_game()
    _, r1 = shot(g, "m-1", 2)
    _, r2 = shot(g, "m-2", 5, results=(("g2", "no-effect"),), spot=False)
    _, r3 = shot(g, "m-3", 1, spot=False)
    report = g.audit()
    for seq in (r1, r2, r3):
        assert verdicts(report, "IM.SW.MORTAR.SCATTER", seq) == ["ok"]
        assert verdicts(report, "IM.SW.MORTAR.RESOLVE", seq) == ["ok"]


def test_a_shot_that_does_not_scatter_falls_on_its_target():
    g = mortar_game()
    _, resolved = shot(g, "m-1", 3, results=(("g2", "pinned"),))
    assert verdicts(g.audit(), "IM.SW.MORTAR.SCATTER", resolved) == ["mismatch"]
    g = mortar_game()
    _, resolved = shot(g, "m-1", None)
    assert verdicts(g.audit(), "IM.SW.MORTAR.SCATTER", resolved) == ["missing-roll"]


def test_minus_one_against_clear_and_woods_not_towns():
    # "a favourable die modifier of -1 against clear terrain, woods, trenches, stone walls and ditches"
    g = mortar_game()
    _, resolved = shot(g, "m-1", 2, mods=())
    assert verdicts(g.audit(), "IM.SW.MORTAR.RESOLVE", resolved) == ["mismatch"]
    g = mortar_game(hexes={"5:0506": {"terrain": "town"}})
    _, resolved = shot(g, "m-1", 2, mods=())
    assert verdicts(g.audit(), "IM.SW.MORTAR.RESOLVE", resolved) == []


def test_a_mortar_is_never_combined_and_fires_first():
    # "A mortar's small arms fire is never combined with other small arms fire not made by mortars";
    # "Mortar small arms fire is always resolved first, before any other small arms fire against the hexagon"
    g = mortar_game()
    combined, _ = g.fire("a1", ["m1", "b1"], "5:0506", firepower=8,
                         before_sacrt=[("IM.SW.MORTAR.SCATTER", 2)], mods=(-1,), results=(("g1", "no-effect"),))
    assert "violation" in verdicts(g.audit(), "IM.SW.MORTAR.ORDER", combined)
    g = mortar_game()
    g.fire("a1", ["b1"], "5:0506", firepower=4, results=(("g1", "no-effect"),))
    late, _ = shot(g, "m-1", 2)
    assert verdicts(g.audit(), "IM.SW.MORTAR.ORDER", late) == ["ok", "violation"]


def test_one_hex_per_fire_phase_and_the_rate_of_fire():
    # "Each mortar may attack only one hexagon per fire phase"; "up to its printed rate of fire"
    g = mortar_game(rof=2)
    shot(g, "m-1", 2)
    other, _ = shot(g, "m-2", 2, target="5:0606", results=(("g2", "no-effect"),))
    third, _ = shot(g, "m-3", 2, spot=False)
    report = g.audit()
    assert verdicts(report, "IM.SW.MORTAR.ONEHEX", other) == ["violation"]
    assert verdicts(report, "IM.SW.MORTAR.TYPES", third) == ["violation"]


def test_the_optional_rate_of_fire_is_twice_a_d6():
    # Optional rule: "roll a six-sided die each turn for light mortars and multiply the result by two"
    g = mortar_game(rof=9, options=["IM.SW.MORTAR.ROF_OPT"])
    g.roll("IM.SW.MORTAR.ROF_OPT", 1, "m1", BRIT)
    shot(g, "m-1", 2)
    shot(g, "m-2", 2, spot=False)
    third, _ = shot(g, "m-3", 2, spot=False)
    assert verdicts(g.audit(), "IM.SW.MORTAR.ROF_OPT", third) == ["violation"]
    g = mortar_game(options=["IM.SW.MORTAR.ROF_OPT"])
    first, _ = shot(g, "m-1", 2)
    assert verdicts(g.audit(), "IM.SW.MORTAR.ROF_OPT", first) == ["missing-roll"]


def test_no_mortar_fire_in_the_barrage_phase_medium_ambiguous():
    # "Mortars may not fire in the barrage phase" (AP-10: the Sturmtruppen note lets medium and heavy fire then)
    g = mortar_game(phase="barrage")
    fired, _ = shot(g, "m-1", 2)
    assert verdicts(g.audit(), "IM.SW.MORTAR.DIRECT", fired) == ["violation"]
    g = mortar_game(kind="medium", rng=10, phase="barrage")
    fired, _ = shot(g, "m-1", 2)
    assert verdicts(g.audit(), "IM.SW.MORTAR.DIRECT", fired) == ["ambiguous"]
    assert verdicts(g.audit(**{"IM__SW__MORTAR__BARRAGE_PHASE": "medium-heavy"}), "IM.SW.MORTAR.DIRECT", fired) == ["ok"]


def test_forward_observers_may_not_observe_for_mortars():
    # "Forward observers may not observe for mortars" (EC-32: an FO "observing" for a mortar -> REJECT)
    g = mortar_game()
    g.unit("fo", BRIT, "forward-observer", "5:0504")
    g.add("HexObserved", {"observer": "fo", "target": "5:0506", "via": "forward-observer"}, side=BRIT)
    fired, _ = shot(g, "m-1", 2, spot=False)
    report = g.audit()
    assert verdicts(report, "IM.SW.MORTAR.DIRECT", fired) == ["ok", "violation"]
    assert verdicts(report, "IM.SPOT.NEEDED", fired) == ["violation"]


def test_medium_and_heavy_mortars_stay_put_and_only_they_fire_smoke():
    # "Once a medium or heavy mortar is placed, it may no longer move"; "Medium and heavy mortars may also
    # fire smoke shells if these are available in the scenario"
    g = mortar_game(kind="medium", rng=10, permissions=["smoke"])
    g.at(1, "second-foot-movement")
    moved = g.move("m1", ["5:0502", "5:0503"])["seq"]
    g.at(1, "offensive-small-arms-fire")
    smoke, _ = shot(g, "m-1", 2, ammunition="smoke")
    report = g.audit()
    assert verdicts(report, "IM.SW.MORTAR.TYPES", moved) == ["violation"]
    assert verdicts(report, "IM.SW.MORTAR.SMOKE", smoke) == ["ok"]
    g = mortar_game(permissions=["smoke"])
    smoke, _ = shot(g, "m-1", 2, ammunition="smoke")
    assert verdicts(g.audit(), "IM.SW.MORTAR.SMOKE", smoke) == ["violation"]


def test_the_texts_ranges_where_the_counter_gives_none():
    # "It had a range of 13 hexagons" (light), "a range of 10 hexagons" (medium)
    g = mortar_game(kind="medium", rng=None)
    g.unit("g9", GER, "infantry-platoon", "5:0513")
    fired, _ = g.fire("m-1", ["m1"], "5:0513", firepower=4, before_sacrt=[("IM.SW.MORTAR.SCATTER", 2)], mods=(-1,),
                      results=(("g9", "no-effect"),))
    assert verdicts(g.audit(), "IM.SW.MORTAR.TYPES", fired) == ["violation", "ok"]   # beyond 10; shot 1 of 6
