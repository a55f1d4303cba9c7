"""Infantry squads, infantry leaders and Sturmtruppen (IM.INF): each expectation quotes the rulebook's
Infantry squads (new), Infantry leaders (new) and Sturmtruppen (changed) sections, or rule-cases.md."""
from __future__ import annotations

from tests.board_helpers import BoardLog, failing, verdicts

HERE = "5:0510"


def col(n: int) -> str:
    """The hex `n` columns east of HERE along row 10 (n hexes away)."""
    return f"5:{5 + n:02d}10"


def shot(g: BoardLog, firers, target, *, firepower=None, attack="a1", jam=None, sacrt=True, modifiers=(),
         results=(), side="german") -> int:
    """A spot, the fire, an optional squad jam roll, the SACRT roll and the results; the seq of the results."""
    g.add("Spotted", {"spotter": firers[0], "target": target, "spotted": True}, side=side)
    data = {"attack": attack, "firers": list(firers), "target": target}
    if firepower is not None:
        data["firepower"] = firepower
    g.add("SmallArmsFired", data, side=side)
    if jam is not None:
        g.add("DieRolled", {"purpose": "IM.INF.SQUAD.JAM", "die": "d6", "result": jam, "subject": firers[0]}, side=side)
    if sacrt:
        g.add("DieRolled", {"purpose": "LS.SACRT", "die": "d6", "result": 4, "subject": attack,
                            "modifiers": [{"value": m, "why": "test"} for m in modifiers]}, side=side)
    return g.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": u, "result": r} for u, r in results]},
                 side=side)["seq"]


def range_game(n: int, cls="infantry-squad", firepower=1, **attrs) -> BoardLog:
    g = BoardLog()
    g.add("UnitDeployed", {"unit": "g", "class": cls, "location": HERE, "firepower": firepower, "range": 9,
                           "morale": 4, "attrs": attrs}, side="german")
    g.deploy("b", "british", "infantry-platoon", col(n), movement=4)
    g.at(1, "offensive-small-arms-fire", "german")
    return g


def test_a_squad_fires_at_one_and_never_more():
    # "This firepower of 1 is standard and may not exceed 1 when firing"; "Squads may not benefit from the machine
    # gun bonus" (EC-31: "An unjammed ordinary squad declaring FP 2 at any range -> REJECT")
    g = range_game(3)
    seq = shot(g, ["g"], col(3), firepower=2, jam=4)
    g2 = range_game(3)
    ok = shot(g2, ["g"], col(3), firepower=1, jam=4)
    assert "violation" in verdicts(g.audit(), "IM.INF.SQUAD.STATS", seq - 3)
    assert set(verdicts(g2.audit(), "IM.INF.SQUAD.STATS", ok - 3)) == {"ok"}


def test_ec_31_the_jammed_machine_gun_limits_the_squad_to_six_hexes():
    # EC-31: "Squad fires at a target 8 hexes away. Pre-roll d6 = 1 -> jammed permanently. The 8-hex attack cannot
    # be made ... Later attack at 7 -> REJECT. Later attack at 6 -> ACCEPT with FP 1."
    g = range_game(8)
    g.deploy("b7", "british", "infantry-platoon", col(7), movement=4)
    g.deploy("b6", "british", "infantry-platoon", col(6), movement=4)
    made = shot(g, ["g"], col(8), firepower=1, jam=1, attack="a1")
    later7 = shot(g, ["g"], col(7), firepower=1, attack="a2", sacrt=True) - 2
    later6 = shot(g, ["g"], col(6), firepower=1, attack="a3") - 2
    report = g.audit()
    assert verdicts(report, "IM.INF.SQUAD.JAM", made) == ["violation"]      # a SACRT roll was made all the same
    assert verdicts(report, "IM.INF.SQUAD.JAM", later7) == ["violation"]    # out of its range of 6
    assert failing(report, later6) == {}


def test_ec_31_the_attack_a_jam_leaves_beyond_six_hexes_is_not_made_and_needs_no_sacrt_roll():
    # EC-31: "Squad fires at a target 8 hexes away. Pre-roll d6 = 1 -> jammed permanently. The 8-hex attack cannot
    # be made": the fire has its jam roll and no SACRT roll, and harms no one
    g = range_game(8)
    seq = shot(g, ["g"], col(8), firepower=1, jam=1, sacrt=False, results=[("b", "no-effect")])
    report = g.audit()
    assert verdicts(report, "IM.INF.SQUAD.JAM", seq) == ["ok"]
    assert failing(report, seq) == {}
    # unjammed (roll 4), the same attack without its SACRT roll is a missing roll
    g2 = range_game(8)
    unjammed = shot(g2, ["g"], col(8), firepower=1, jam=4, sacrt=False, results=[("b", "no-effect")])
    assert verdicts(g2.audit(), "LS.SACRT", unjammed) == ["missing-roll"]


def test_the_jam_roll_comes_before_a_shot_beyond_six_and_is_a_reading_within():
    # "Before rolling the die on the SACRT, roll a six-sided die" (catalogue IM.INF.SQUAD.JAM: "The text does not say
    # whether the jam roll is needed when the target is within 6 hexes")
    g = range_game(8)
    far = shot(g, ["g"], col(8), firepower=1)
    assert verdicts(g.audit(), "IM.INF.SQUAD.JAM", far) == ["missing-roll"]
    g = range_game(4)
    near = shot(g, ["g"], col(4), firepower=1)
    assert verdicts(g.audit(), "IM.INF.SQUAD.JAM", near) == ["ambiguous"]
    assert verdicts(g.audit(IM__INF__SQUAD__JAM__NEAR="every-attack"), "IM.INF.SQUAD.JAM", near) == ["missing-roll"]
    assert verdicts(g.audit(IM__INF__SQUAD__JAM__NEAR="beyond-six"), "IM.INF.SQUAD.JAM", near) == ["ok"]


def test_ex_im_20_sturmtruppen_firepower_by_distance():
    # EX-IM-20: printed 4 -> {1: 12, 2: 8, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 1}
    for hexes, fp in {1: 12, 2: 8, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 1}.items():
        g = range_game(hexes, cls="infantry-platoon", firepower=4, sturmtruppen=True)
        good = shot(g, ["g"], col(hexes), firepower=fp) - 2
        assert verdicts(g.audit(), "IM.INF.ST.FP", good) == ["ok"], hexes
        g = range_game(hexes, cls="infantry-platoon", firepower=4, sturmtruppen=True)
        bad = shot(g, ["g"], col(hexes), firepower=fp + 1) - 2
        assert verdicts(g.audit(), "IM.INF.ST.FP", bad) == ["violation"], hexes


def test_ap_15_a_sturmtruppen_squad_adjacent_fires_at_three_or_one():
    # AP-15: "Sturmtruppen squad firing at an adjacent hex: FP 3 (x3) or 1 (squad cap)?"
    g = range_game(1, sturmtruppen=True)
    seq = shot(g, ["g"], col(1), firepower=3, jam=5) - 3
    assert "ambiguous" in verdicts(g.audit(), "IM.INF.ST.BREAKUP", seq)   # (the firepower check: unverifiable)
    assert verdicts(g.audit(IM__INF__ST__SQUAD__FP="sturm-powers"), "IM.INF.ST.FP", seq) == ["ok"]
    assert "violation" in verdicts(g.audit(IM__INF__ST__SQUAD__FP="squad-cap"), "IM.INF.SQUAD.STATS", seq)


def test_a_leader_gives_minus_one_to_fire_from_its_hex_only():
    # "any small arms fire conducted by units stacked with an infantry leader receives a die modifier of -1 ... If
    # friendly units located in other hexagons join the fire, the bonus for small arms fire is lost"
    g = range_game(3, cls="infantry-platoon", firepower=4)
    g.deploy("g-ldr", "german", "infantry-leader", HERE, movement=4)
    g.deploy("g-2", "german", "infantry-platoon", "5:0511", movement=4)
    with_leader = shot(g, ["g"], col(3), modifiers=[-1], attack="a1")
    without = shot(g, ["g"], col(3), modifiers=[], attack="a2")
    joined = shot(g, ["g", "g-2"], col(3), modifiers=[], attack="a3")
    report = g.audit()
    assert verdicts(report, "IM.INF.LEADER.SAF", with_leader) == ["ok"]
    assert verdicts(report, "IM.INF.LEADER.SAF", without) == ["mismatch"]
    assert verdicts(report, "IM.INF.LEADER.SAF", joined) == []


def test_leaders_never_check_morale_and_are_immune_to_hits():
    # "They have no firepower value or firing range of their own and never need to take a morale check. They are
    # immune to 'Hits' on the SACRT or BCRT."
    g = range_game(2, cls="infantry-platoon", firepower=4)
    g.add("UnitDeployed", {"unit": "b-ldr", "class": "infantry-leader", "location": col(2)}, side="british")
    hit = shot(g, ["g"], col(2), results=[("b-ldr", "pinned")])
    check = g.add("MoraleChecked", {"units": ["b-ldr"], "morale": 4, "passed": True}, side="british")["seq"]
    report = g.audit()
    assert verdicts(report, "IM.INF.LEADER.IMMUNE", hit) == ["violation"]
    assert verdicts(report, "IM.INF.LEADER.IMMUNE", check) == ["violation"]


def test_a_leader_dies_only_alone_in_a_hex_the_enemy_occupies():
    # "They may be eliminated only by being alone in a hexagon that is then occupied by enemy infantry or cavalry"
    g = BoardLog()
    g.deploy("b-ldr", "british", "infantry-leader", "5:0505", movement=4)
    g.deploy("g", "german", "infantry-platoon", "5:0507", movement=4)
    g.at(1, "first-foot-movement", "german")
    g.move("g", ["5:0507", "5:0506", "5:0505"], side="german")
    g.at(1, "second-foot-movement", "german")      # the leader is still on the board: a violation here
    lone = g.lines[-1]["seq"]
    dead = g.add("UnitStatusChanged", {"unit": "b-ldr", "status": "eliminated"}, side="british")["seq"]
    report = g.audit("sample")
    assert verdicts(report, "IM.INF.LEADER.IMMUNE", lone) == ["violation"]
    assert verdicts(report, "IM.INF.LEADER.IMMUNE", dead) == ["ok"]
    g = BoardLog()
    g.deploy("b-ldr", "british", "infantry-leader", "5:0505", movement=4)
    g.deploy("b", "british", "infantry-platoon", "5:0505", movement=4)
    seq = g.add("UnitStatusChanged", {"unit": "b-ldr", "status": "eliminated"}, side="british")["seq"]
    assert verdicts(g.audit(), "IM.INF.LEADER.IMMUNE", seq) == ["violation"]


def test_ec_47_morale_values_of_sturmtruppen_squads_and_leaders():
    # EC-47 "The printed morale 3 counts as 5"; "Squads have a standard morale value of 4"; "units stacked with an
    # infantry leader have their morale value increased by +1 if they must take a morale check"
    def check(cls, morale, used, leader=False, **attrs):
        g = BoardLog()
        g.add("UnitDeployed", {"unit": "u", "class": cls, "location": HERE, "morale": morale, "attrs": attrs},
              side="german")
        if leader:
            g.deploy("ldr", "german", "infantry-leader", HERE)
        seq = g.add("MoraleChecked", {"units": ["u"], "morale": used, "passed": True}, side="german")["seq"]
        return {a.rule: a.verdict.value for a in g.audit().applications if a.seq == seq and a.rule.startswith("IM.INF")}
    assert check("infantry-platoon", 3, 5, sturmtruppen=True) == {"IM.INF.ST.MORALE": "ok"}
    assert check("infantry-platoon", 3, 3, sturmtruppen=True) == {"IM.INF.ST.MORALE": "mismatch"}
    assert check("infantry-squad", 6, 4) == {"IM.INF.SQUAD.STATS": "ok"}
    assert check("infantry-squad", 6, 6) == {"IM.INF.SQUAD.STATS": "mismatch"}
    assert check("infantry-platoon", 4, 5, leader=True) == {"IM.INF.LEADER.MORALE": "ok"}
    assert check("infantry-platoon", 4, 4, leader=True) == {"IM.INF.LEADER.MORALE": "mismatch"}


def broken_up() -> BoardLog:
    g = BoardLog()
    g.deploy("st", "german", "infantry-platoon", "5:0505", movement=4, sturmtruppen=True)
    g.at(1, "first-foot-movement", "german")
    g.add("PlatoonBrokenUp", {"platoon": "st", "squads": ["s1", "s2", "s3", "s4"]}, side="german")
    return g


def test_ec_47_broken_up_squads_stay_within_two_hexes_of_a_sibling():
    # "must always end their movement within a maximum distance of two hexagons of another Sturmtruppen squad
    # belonging to the same platoon" (EC-47: "squad D ends 3 hexes from every sibling -> REJECT")
    g = broken_up()
    near = g.move("s1", ["5:0505", "5:0506"], side="german", mode=None)["seq"]
    far = g.move("s4", ["5:0505", "5:0504", "5:0503"], side="german")["seq"]
    g.move("s4", ["5:0503", "5:0502"], side="german")
    last = g.lines[-1]["seq"]
    g.at(1, "second-foot-movement", "german")
    report = g.audit()
    assert verdicts(report, "IM.INF.ST.BREAKUP", near) == ["ok"]
    assert verdicts(report, "IM.INF.ST.BREAKUP", far) == []           # its last move of the phase is judged
    assert verdicts(report, "IM.INF.ST.BREAKUP", last) == ["violation"]


def test_ec_47_re_forming_needs_four_unpinned_squads_in_one_hex_at_the_start_of_a_foot_phase():
    # "To be reconstituted as a platoon, the four Sturmtruppen squads must be non-pinned and be in the same hexagon
    # at the start of the friendly foot movement phase" (EC-47: "Re-forming with one squad pinned -> REJECT")
    g = broken_up()
    g.at(1, "second-foot-movement", "german")
    ok = g.add("PlatoonReformed", {"platoon": "st", "squads": ["s1", "s2", "s3", "s4"]}, side="german")["seq"]
    assert verdicts(g.audit(), "IM.INF.ST.BREAKUP", ok) == ["ok"]
    g = broken_up()
    g.add("UnitStatusChanged", {"unit": "s3", "status": "pinned"}, side="german")
    g.at(1, "second-foot-movement", "german")
    pinned = g.add("PlatoonReformed", {"platoon": "st", "squads": ["s1", "s2", "s3", "s4"]}, side="german")["seq"]
    assert verdicts(g.audit(), "IM.INF.ST.BREAKUP", pinned) == ["violation"]


def test_sturmtruppen_are_infantry_platoons_designated_by_the_scenario():
    # "There is no specific counter for Sturmtruppen units in the game. Instead, ordinary infantry platoons are used"
    g = BoardLog()
    g.deploy("st", "german", "infantry-platoon", HERE, sturmtruppen=True)
    g.deploy("t", "german", "tank", HERE, sturmtruppen=True)
    assert [a.verdict.value for a in g.audit().applications if a.rule == "IM.INF.ST.ID"] == ["ok", "violation"]


def test_close_combat_leaders_shift_one_column_and_three_squads_count_as_a_platoon():
    # "infantry leaders provide a one-column shift on the CACRT in favour of the side that possesses one in the
    # hexagon, but may not themselves be eliminated to satisfy a result on the CACRT"; "Count three Sturmtruppen
    # squads as one platoon for the purposes of close combat" (EC-47)
    g = broken_up()
    g.deploy("b", "british", "infantry-platoon", "5:0506")
    g.deploy("b-ldr", "british", "infantry-leader", "5:0506")
    g.at(1, "close-combat", "german")
    good = g.add("CloseCombatFought", {"combat": "c1", "location": "5:0506", "attackers": ["s1", "s2", "s3"],
                                       "defenders": ["b"], "shifts": [{"value": -1, "why": "british leader"}],
                                       "strength": {"attackers": 1, "defenders": 1}}, side="german")["seq"]
    bad = g.add("CloseCombatFought", {"combat": "c2", "location": "5:0506", "attackers": ["s1", "s2", "s3"],
                                      "defenders": ["b"], "shifts": [], "strength": {"attackers": 3}},
                side="german")["seq"]
    lost = g.add("CloseCombatResolved", {"combat": "c2", "results": [{"unit": "b-ldr", "result": "eliminated"}]},
                 side="german")["seq"]
    report = g.audit()
    assert verdicts(report, "IM.INF.LEADER.CC", good) == ["ok"]
    assert verdicts(report, "IM.INF.ST.CC_COUNT", good) == ["ok"]
    assert verdicts(report, "IM.INF.LEADER.CC", bad) == ["mismatch"]
    assert verdicts(report, "IM.INF.ST.CC_COUNT", bad) == ["mismatch"]
    assert verdicts(report, "IM.INF.LEADER.CC", lost) == ["violation"]
