"""Bulletproof vests, smocks and skis (IM.INF.VEST, IM.INF.SMOCK.*, IM.INF.SKI): each expectation
quotes the rulebook's Additional Equipment for Infantry (new) and Skis, or rule-cases.md."""
from __future__ import annotations

from tests.board_helpers import BoardLog, verdicts
from tests.unit.test_im_infantry import HERE, col, shot


def target_game(n: int, **attrs) -> BoardLog:
    """A british platoon at HERE fires at a german unit `n` hexes east (with `attrs`)."""
    g = BoardLog()
    g.add("UnitDeployed", {"unit": "b", "class": "infantry-platoon", "location": HERE, "firepower": 4, "range": 9,
                           "morale": 4}, side="british")
    g.add("UnitDeployed", {"unit": "g", "class": "infantry-platoon", "location": col(n), "firepower": 4, "range": 6,
                           "morale": 4, "attrs": attrs}, side="german")
    g.at(1, "offensive-small-arms-fire", "british")
    return g


def test_ec_49_a_vest_gives_plus_one_from_afar_and_nothing_close():
    # "in the case of enemy small arms fire directed from a distance of five or more hexagons, of modifying the
    # to-hit die roll on the SACRT by +1"; EC-49: "SAF from 7 hexes at a vested unit -> +1. From 3 hexes -> 0."
    def vest(n, modifiers, **readings):
        g = target_game(n, vest=True)
        seq = shot(g, ["b"], col(n), modifiers=modifiers, side="british")
        return verdicts(g.audit(**readings), "IM.INF.VEST", seq)
    assert vest(7, [1]) == ["ok"]
    assert vest(7, []) == ["mismatch"]
    assert vest(3, []) == []


def test_ap_01_a_vest_at_exactly_five_hexes_is_a_named_reading():
    # AP-01: "'five or more' gets +1; 'within five' gets none"
    g = target_game(5, vest=True)
    fired = shot(g, ["b"], col(5), modifiers=[1], side="british") - 2
    assert verdicts(g.audit(), "IM.INF.VEST", fired) == ["ambiguous"]
    resolved = fired + 2
    assert verdicts(g.audit(IM__INF__VEST__FIVE="five-or-more"), "IM.INF.VEST", resolved) == ["ok"]
    assert verdicts(g.audit(IM__INF__VEST__FIVE="within-five"), "IM.INF.VEST", resolved) == []


def test_ec_49_a_vest_adds_one_on_the_bcrt():
    # "If a barrage attack hits a hexagon containing units equipped with bulletproof vests, also add +1 to the die
    # result on the BCRT" (EC-49: "A barrage hit on its hex -> BCRT +1")
    from tests.artillery_helpers import ArtyLog
    from tests.artillery_helpers import verdicts as arty_verdicts
    for modifiers, verdict in (([1], "ok"), ([], "mismatch")):
        log = ArtyLog(hexes={"1:1010": {"terrain": "clear"}})
        log.element("o1")
        log.add("UnitDeployed", {"unit": "g", "class": "infantry-platoon", "location": "1:1010", "attrs": {"vest": True}},
                side="german")
        log.barrage_phase(1)
        log.declare("b1", ["o1"])
        log.scatter("b1", 2, False)
        log.resolve("b1", 5, 20, "20", [("1:1010", "primary", "miss")], modifiers=modifiers)
        assert arty_verdicts(log.audit(), "IM.ART.FP.TERRAIN") == {verdict}


def smock_spot(spotter_cls: str, n: int, roll, spotted: bool, enemy_at=None):
    """A german smock platoon `n` hexes east of a british `spotter_cls` that tries to spot it."""
    g = BoardLog()
    g.deploy("s", "british", spotter_cls, HERE, movement=4)
    g.deploy("g", "german", "infantry-platoon", col(n), movement=4, smocks=True)
    g.at(1, "offensive-small-arms-fire", "british")
    if roll is not None:
        g.add("DieRolled", {"purpose": "IM.INF.SMOCK.SPOT", "die": "d6", "result": roll, "subject": "g"}, side="british")
    return g, g.add("Spotted", {"spotter": "s", "target": col(n), "spotted": spotted}, side="british")["seq"]


def test_ec_48_smock_troops_are_spotted_by_observers_and_leaders_on_a_d6():
    # EC-48: "A smock unit 6 hexes from the nearest enemy: any spot attempt -> REJECT. At 4 hexes: an ordinary rifle
    # platoon attempts to spot -> REJECT. At 4 hexes an FO rolls d6 = 1 -> spotted. Adjacent: an ordinary platoon
    # spots on d6 = 1."
    def judged(*args):
        g, seq = smock_spot(*args)
        return verdicts(g.audit(), "IM.INF.SMOCK.SPOT", seq)
    assert judged("forward-observer", 6, 1, True) == ["violation"]
    assert judged("infantry-platoon", 4, 1, True) == ["violation"]
    assert judged("forward-observer", 4, 1, True) == ["ok"]
    assert judged("forward-observer", 4, 2, True) == ["mismatch"]       # 4-5 hexes: only a 1
    assert judged("infantry-leader", 3, 2, True) == ["ok"]              # 2-3 hexes: 1 or 2
    assert judged("forward-observer", 1, 3, True) == ["ok"]             # adjacent: 1 to 3
    assert judged("infantry-platoon", 1, 1, True) == ["ok"]
    assert judged("forward-observer", 4, None, True) == ["missing-roll"]


def test_ec_48_a_smock_spot_needs_its_d6_not_the_spotting_tables_d10():
    # "A forward observer or infantry leader will spot smock-equipped units at a distance of 4 or 5 hexagons on a
    # result of "1" on a six-sided die"; EC-48: "At 4 hexes an FO rolls d6 = 1 -> spotted": no d10 is owed
    g, seq = smock_spot("forward-observer", 4, 1, True)
    assert verdicts(g.audit(), "IM.SPOT.ROLL", seq) == ["ok"]
    assert verdicts(g.audit(), "IM.INF.SMOCK.SPOT", seq) == ["ok"]
    # a hex where an enemy without smocks stands too is spotted on the Spotting Table as ever
    g, _ = smock_spot("forward-observer", 4, 1, True)
    g.deploy("h", "german", "infantry-platoon", col(4), movement=4)
    seq = g.add("Spotted", {"spotter": "s", "target": col(4), "spotted": True}, side="british")["seq"]
    assert verdicts(g.audit(), "IM.SPOT.ROLL", seq) == ["missing-roll"]


def test_ec_48_spotted_smock_troops_take_area_fire_and_revealed_ones_normal_fire():
    # "If they are spotted, smock-equipped troops may only be attacked using area small arms fire ... a +3 modifier on
    # the SACRT, and the other terrain modifiers are not cumulative" (4-5 hexes; +2 at 2-3); EC-48: "A smock unit
    # fires from 4 hexes -> automatically spotted, and later fire at it uses no area modifier."
    g, _ = smock_spot("forward-observer", 4, 1, True)
    g.deploy("b", "british", "infantry-platoon", HERE, movement=4)
    area = shot(g, ["b"], col(4), modifiers=[3], side="british", attack="a1")
    assert verdicts(g.audit(), "IM.INF.SMOCK.AREA", area) == ["ok"]
    g = target_game(4, smocks=True)
    unseen = shot(g, ["b"], col(4), side="british", attack="a1") - 2
    assert verdicts(g.audit(), "IM.INF.SMOCK.SPOT", unseen) == ["violation"]
    g = target_game(4, smocks=True)
    g.at(1, "defensive-small-arms-fire", "german")
    shot(g, ["g"], HERE, side="german", attack="a0")
    g.at(1, "offensive-small-arms-fire", "british")
    revealed = shot(g, ["b"], col(4), side="british", attack="a1")
    report = g.audit()
    assert verdicts(report, "IM.INF.SMOCK.REVEAL", revealed - 2) == ["ok"]
    assert verdicts(report, "IM.INF.SMOCK.AREA", revealed) == []


def test_smock_troops_moving_six_hexes_away_are_unspotted_again():
    # "If smock-equipped units that have been spotted move 6 hexagons or more away from the nearest enemy unit, they
    # automatically become unspotted again."
    g = target_game(4, smocks=True)
    g.at(1, "defensive-small-arms-fire", "german")
    shot(g, ["g"], HERE, side="german", attack="a0")
    g.at(2, "first-foot-movement", "german")
    g.move("g", [col(4), col(5), col(6)], side="german")
    g.at(2, "offensive-small-arms-fire", "british")
    later = g.add("SmallArmsFired", {"attack": "a1", "firers": ["b"], "target": col(6)}, side="british")["seq"]
    assert verdicts(g.audit(), "IM.INF.SMOCK.SPOT", later) == ["violation"]


def test_unspotted_smock_troops_close_in_with_surprise():
    # "Smock-equipped units may conduct close combat with complete surprise by becoming adjacent ... while remaining
    # unspotted by forward observers or infantry leaders. If this occurs, apply a -2 modifier to their die roll on
    # the CACRT"
    for modifiers, verdict in (([-2], "ok"), ([], "mismatch")):
        g = target_game(1, smocks=True)
        g.at(1, "close-combat", "german")
        g.add("CloseCombatFought", {"combat": "c1", "location": HERE, "attackers": ["g"], "defenders": ["b"]},
              side="german")
        g.add("DieRolled", {"purpose": "LS.CACRT", "die": "d6", "result": 3, "subject": "c1",
                            "modifiers": [{"value": m, "why": "surprise"} for m in modifiers]}, side="german")
        seq = g.add("CloseCombatResolved", {"combat": "c1", "results": []}, side="german")["seq"]
        assert verdicts(g.audit(), "IM.INF.SMOCK.SURPRISE", seq) == [verdict]


def test_skis_no_fire_on_skis_on_and_off_at_the_start_of_a_foot_phase_and_off_when_pinned():
    # "Units are unable to conduct small arms fire while on skis"; "At the start of either friendly foot movement phase,
    # non-pinned units may put on or take off their skis"; "When units on skis are the target of fire and are hit, if
    # they are pinned they must remove their ski counter"; "No cavalry platoon, crew or vehicle may do so."
    g = BoardLog()
    g.deploy("b", "british", "infantry-platoon", HERE, movement=4)
    g.deploy("c", "british", "cavalry-platoon", HERE, movement=4)
    g.deploy("g", "german", "infantry-platoon", col(3), movement=4)
    g.at(1, "first-foot-movement", "british")
    on = g.add("MarkerPlaced", {"marker": "skis", "location": HERE, "unit": "b"}, side="british")["seq"]
    cav = g.add("MarkerPlaced", {"marker": "skis", "location": HERE, "unit": "c"}, side="british")["seq"]
    g.move("b", [HERE, "5:0511"], mode="ski")
    late = g.add("MarkerRemoved", {"marker": "skis", "location": HERE, "unit": "b"}, side="british")["seq"]
    g.add("MarkerPlaced", {"marker": "skis", "location": "5:0511", "unit": "b"}, side="british")
    g.at(1, "offensive-small-arms-fire", "british")
    fire = g.add("SmallArmsFired", {"attack": "a1", "firers": ["b"], "target": col(3)}, side="british")["seq"]
    g.at(1, "defensive-small-arms-fire", "german")
    pinned = g.add("UnitStatusChanged", {"unit": "b", "status": "pinned"}, side="british")["seq"]
    g.at(2, "pin-removal", "british")                  # the turn ends with the skis still on
    report = g.audit("sample")
    assert verdicts(report, "IM.INF.SKI", on) == ["ok"]
    assert verdicts(report, "IM.INF.SKI", cav) == ["violation"]
    assert verdicts(report, "IM.INF.SKI", late) == ["violation"]
    assert verdicts(report, "IM.INF.SKI", fire) == ["violation"]
    assert verdicts(report, "IM.INF.SKI", pinned) == ["violation"]
