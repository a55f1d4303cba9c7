"""New Support Weapons (support_weapons.py): carriers, limits, firepower and range, BAR, Benet, 37 mm,
grenade-launcher smoke. Each expectation cites the rulebook passage it comes from."""
from __future__ import annotations

from domain.rules.infernal_machines.support_weapons import smg_bonus, weapon_kind
from tests.fire_helpers import BRIT, GER, FireLog, fire_game, rules_at, verdicts


def test_smg_bonus_by_distance():
    # Submachine Guns: "+10 to its firepower up to a distance of two hexagons. At a distance of three
    # hexagons, it may add +5. Submachine guns have no effect on targets more than three hexagons away."
    assert [smg_bonus(d) for d in (1, 2, 3, 4)] == [10, 10, 5, 0]


def smg_shot(firepower: int, target: str, cls: str = "infantry-platoon"):
    g = FireLog()
    g.unit("b1", BRIT, cls, "5:0502", smg=True)
    g.unit("g1", GER, "infantry-platoon", target)
    g.at(1, "offensive-small-arms-fire")
    fired, _ = g.fire("a1", ["b1"], target, firepower=firepower)
    return g.audit(), fired


def test_an_smg_adds_its_bonus_by_distance_and_no_more():
    # EC-34: SMG at 2 hexes +10, at 3 +5, at 4 +0 (printed firepower 4)
    report, fired = smg_shot(14, "5:0504")
    assert verdicts(report, "IM.SW.SMG", fired) == ["ok"]
    report, fired = smg_shot(14, "5:0505")
    assert verdicts(report, "IM.SW.SMG", fired) == ["violation"]
    report, fired = smg_shot(9, "5:0505")
    assert verdicts(report, "IM.SW.SMG", fired) == ["ok"]
    report, fired = smg_shot(5, "5:0506")
    assert verdicts(report, "IM.SW.SMG", fired) == ["violation"]


def carriage(cls: str, **attrs):
    g = FireLog(date=attrs.pop("date", "1917-04"))
    seq = g.unit("b1", BRIT, cls, "5:0502", **attrs)
    return g.audit(), seq


def test_who_may_carry_smg_mmg_lmg_and_grenade_launchers():
    # Submachine Guns: "Neither machine gun platoons nor cavalry units of any kind may carry a submachine gun"
    report, seq = carriage("mg-platoon", smg=True)
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.SMG": ["violation", "ok"]}
    # Medium Machine Guns: "a crew marker so armed (maximum of one per crew counter)"; infantry may not use one
    report, seq = carriage("infantry-platoon", mmg=True)
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.MMG": ["violation", "ok"]}
    report, seq = carriage("crew", mmg=2)
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.MMG": ["ok", "violation"]}
    # Light Machine Guns: "up to four LMG markers"; "Machine gun platoons may not carry light machine guns"
    report, seq = carriage("infantry-platoon", lmg=["lewis", "lewis", "lewis", "lewis"])
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.LMG.CARRY": ["ok", "ok"]}
    report, seq = carriage("mg-platoon", lmg=["lewis"])
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.LMG.CARRY": ["violation", "ok"]}
    # Grenade Launchers: "up to four grenade launcher markers"; EC-34: a fifth -> REJECT
    report, seq = carriage("infantry-platoon", gl=5)
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.GL": ["ok", "violation"]}
    report, seq = carriage("cavalry-platoon", gl=1)
    assert rules_at(report, seq, "IM.SW") == {"IM.SW.GL": ["violation", "ok"]}


def test_a_second_smg_marker_placed_on_a_platoon():
    # "an SMG marker (one at most) on the infantry platoons so armed"
    g = fire_game()
    first = g.add("MarkerPlaced", {"marker": "smg", "unit": "b1", "location": "5:0502"}, side=BRIT)["seq"]
    second = g.add("MarkerPlaced", {"marker": "smg", "unit": "b1", "location": "5:0502"}, side=BRIT)["seq"]
    report = g.audit()
    assert "violation" not in verdicts(report, "IM.SW.SMG", first)
    assert "violation" in verdicts(report, "IM.SW.SMG", second)


def test_the_bar_is_american_from_march_1918():
    # Light Machine Guns: "The BAR is available only to American troops and from March 1918." (EC-34)
    def bar(nation, date):
        g = FireLog(date=date)
        g.lines[0]["data"]["sides"][BRIT]["nation"] = nation
        seq = g.unit("b1", BRIT, "infantry-platoon", "5:0502", lmg=["bar"])
        return verdicts(g.audit(), "IM.SW.LMG.BAR", seq)
    assert bar("american", "1918-03") == ["ok"]
    assert bar("american", "1918-02") == ["violation"]
    assert bar("british", "1918-06") == ["violation"]


def test_an_mmg_gives_a_crew_plus_three_and_range_eight():
    # Medium Machine Guns: "An MMG marker adds +3 to the firepower of the crew and has a firing range of 8"
    g = FireLog()
    g.unit("c1", BRIT, "crew", "5:0502", firepower=1, range_=2, mmg=True)
    g.unit("g1", GER, "infantry-platoon", "5:0509")
    g.at(1, "offensive-small-arms-fire")
    fired, _ = g.fire("a1", ["c1"], "5:0509", firepower=4, rng=7)
    report = g.audit()
    assert verdicts(report, "IM.SW.MMG", fired) == ["ok", "ok"]          # firepower 1 + 3, and range 7 within 8
    assert "IM.CORE.RANGE" not in rules_at(report, fired, "IM.CORE.RANGE.")


def test_grenade_launcher_adds_three_within_three_hexes():
    # Grenade Launchers: "adds +3 to the firepower of a unit and has a firing range of 3 hexagons"
    g = FireLog()
    g.unit("b1", BRIT, "infantry-platoon", "5:0502", gl=2)
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    g.at(1, "offensive-small-arms-fire")
    fired, _ = g.fire("a1", ["b1"], "5:0505", firepower=10)
    assert verdicts(g.audit(), "IM.SW.GL", fired) == ["ok"]
    g2 = FireLog()
    g2.unit("b1", BRIT, "infantry-platoon", "5:0502", gl=2)
    g2.unit("g1", GER, "infantry-platoon", "5:0506")
    g2.at(1, "offensive-small-arms-fire")
    fired, _ = g2.fire("a1", ["b1"], "5:0506", firepower=10)
    assert verdicts(g2.audit(), "IM.SW.GL", fired) == ["violation"]


def benet_game(jam: int | None, fire_again: bool = False):
    g = FireLog()
    g.unit("b1", BRIT, "infantry-platoon", "5:0502", lmg=[{"type": "benet", "firepower": 2, "range": 8}])
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    g.at(3, "offensive-small-arms-fire")
    first, _ = g.fire("a1", ["b1"], "5:0505", firepower=6)
    if jam is not None:
        g.roll("IM.SW.LMG.BENET", jam, "b1", BRIT)
    later = None
    if fire_again:
        g.at(4, "offensive-small-arms-fire")
        later, _ = g.fire("a2", ["b1"], "5:0505", firepower=6, weapons=["benet"])
    g.at(5, "pin-removal")
    return g.audit(), first, later


def test_the_benet_jams_on_one_or_two():
    # Light Machine Guns: "each turn during which it is used, roll a die. On a result of 1 or 2, the Benet
    # light machine gun breaks. Remove the counter from play." (EC-30)
    report, first, _ = benet_game(None)
    assert verdicts(report, "IM.SW.LMG.BENET", first) == ["missing-roll"]
    report, _, later = benet_game(2, fire_again=True)
    assert "violation" in verdicts(report, "IM.SW.LMG.BENET", later)
    assert "violation" in verdicts(report, "IM.CORE.FIREPOWER", later)   # its firepower is gone with it
    report, _, later = benet_game(3, fire_again=True)
    assert "violation" not in verdicts(report, "IM.SW.LMG.BENET", later)


def test_the_37mm_moves_one_hex_in_the_second_foot_phase_and_fires_at_blast_power_two():
    # French 37 mm: "may move up to one hexagon per turn during the second foot movement phase";
    # "use this anti-tank gun against enemy infantry or cavalry troops (blast power of 2)"
    g = FireLog()
    g.unit("b37", BRIT, "support-weapon", "5:0502", firepower=2, range_=8, weapon="37mm")
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    g.at(1, "first-foot-movement")
    early = g.move("b37", ["5:0502", "5:0503"])["seq"]
    g.at(1, "second-foot-movement")
    far = g.move("b37", ["5:0503", "5:0504", "5:0505"])["seq"]
    g.at(1, "offensive-small-arms-fire")
    fired, _ = g.fire("a1", ["b37"], "5:0506", firepower=2)
    report = g.audit()
    assert verdicts(report, "IM.SW.37MM", early) == ["violation"]
    assert verdicts(report, "IM.SW.37MM", far) == ["violation"]
    assert verdicts(report, "IM.SW.37MM", fired) == ["ok"]


def test_grenade_launcher_smoke_does_no_damage():
    # Grenade Launchers: smoke grenades "do not damage units in the targeted hexagon"
    g = FireLog(permissions=["smoke"])
    g.unit("b1", BRIT, "infantry-platoon", "5:0502", gl=1)
    g.unit("g1", GER, "infantry-platoon", "5:0504")
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0504", firepower=7, results=[("g1", "pinned")], ammunition="smoke")
    assert verdicts(g.audit(), "IM.SW.GL.SMOKE", resolved) == ["violation"]


def test_weapon_names_a_log_may_use():
    assert [weapon_kind(n) for n in ("SMG", "lewis", "LMG-Benet", "grenade_launcher", "MMG", "37mm", "rifle")] == \
        ["smg", "lmg-lewis", "lmg-benet", "gl", "mmg", "37mm", None]


def test_the_ways_a_deployment_may_list_its_weapons():
    # "Units equipped with an SMG ... are indicated by placing an SMG marker": a log may give the markers as
    # a deployment's attrs, as names, counts or counter values
    from domain.rules.infernal_machines.support_weapons import _listed
    assert list(_listed("weapons", {"smg": 1, "gl": 2})) == [("smg", None, None), ("gl", None, None), ("gl", None, None)]
    assert list(_listed("support_weapons", ["SMG", {"type": "lewis", "firepower": 2}])) == \
        [("smg", None, None), ("lmg-lewis", 2, None)]
    assert list(_listed("lmg", "benet")) == [("lmg-benet", None, None)]
