"""Obstacles (IM.OBS): trenches (types, fire out of them, invulnerability, crossing, extra-wide),
roadblocks by barrage, strongpoints and minefields. Every expectation quotes the rulebook's
Obstacles (new) section."""
from __future__ import annotations

from tests.board_helpers import BoardLog, failing, verdicts

# a column of hexes on map 5: 0505 north of 0506 north of 0507 ...; 0605 is north-east of 0505's
# south neighbour line (odd-q): direction 0 = north
N2, N1, T, S1, S2 = "5:0503", "5:0504", "5:0505", "5:0506", "5:0507"
NE = "5:0604"   # adjacent to T, north-east


def trench_game(kind: str, front: int = 0, hexes=None, **kw) -> BoardLog:
    """A german platoon in a `kind` trench at T, its front to the north (the british side)."""
    g = BoardLog(hexes=hexes, **kw)
    g.add("MarkerPlaced", {"marker": kind, "location": T, "front": front})
    g.deploy("g-inf", "german", "infantry-platoon", T, movement=4)
    g.deploy("b-inf", "british", "infantry-platoon", N2, movement=4)
    g.deploy("b-rear", "british", "infantry-platoon", S2, movement=4)
    g.deploy("b-mortar", "british", "mortar", S2, movement=1)
    return g


def fire(g: BoardLog, firers, target, side, attack="a1", result=None) -> int:
    seq = g.add("SmallArmsFired", {"attack": attack, "firers": firers, "target": target}, side=side)["seq"]
    if result is not None:
        return g.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": u, "result": r}
                                                                          for u, r in result]}, side=side)["seq"]
    return seq


def test_communication_trench_units_never_fire_small_arms():
    # Communication trenches: "may also not conduct small arms fire outward in any direction"
    g = trench_game("trench-communication")
    g.at(1, "defensive-small-arms-fire", "german")
    seq = fire(g, ["g-inf"], N2, "german")
    assert verdicts(g.audit(), "IM.OBS.TRENCH.COMM.SAF", seq) == ["violation"]


def test_communication_trench_units_are_invulnerable_except_to_trench_mortars():
    # "completely invulnerable to small arms fire conducted from any direction by units that are not trench mortars"
    g = trench_game("trench-communication")
    g.at(1, "offensive-small-arms-fire", "british")
    hit = fire(g, ["b-inf"], T, "british", "a1", [("g-inf", "pinned")])
    miss = fire(g, ["b-inf"], T, "british", "a2", [("g-inf", "no-effect")])
    mortar = fire(g, ["b-mortar"], T, "british", "a3", [("g-inf", "pinned")])
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.COMM.SAF", hit) == ["violation"]
    assert verdicts(report, "IM.OBS.TRENCH.COMM.SAF", miss) == ["ok"]
    assert verdicts(report, "IM.OBS.TRENCH.COMM.SAF", mortar) == []


def test_prepared_trench_fire_from_the_rear_has_no_effect_but_a_mortar_does():
    # EC-44: "Rifle fire from the rear at a unit in a prepared trench -> no effect (invulnerable).
    # The same fire from a trench mortar -> resolved normally."
    g = trench_game("trench-prepared")
    g.at(1, "offensive-small-arms-fire", "british")
    rear = fire(g, ["b-rear"], T, "british", "a1", [("g-inf", "pinned")])
    mortar = fire(g, ["b-mortar"], T, "british", "a2", [("g-inf", "pinned")])
    front = fire(g, ["b-inf"], T, "british", "a3", [("g-inf", "pinned")])
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.PREP.SAF", rear) == ["violation"]
    assert verdicts(report, "IM.OBS.TRENCH.PREP.SAF", mortar) == []
    assert verdicts(report, "IM.OBS.TRENCH.PREP.SAF", front) == []


def test_prepared_trench_fire_from_the_flank_is_a_named_reading():
    # Catalogue IM.OBS.TRENCH.PREP.SAF: "Fire from the flank is not covered" (front 0: a unit due east)
    east = "5:0905"   # four columns east of T, same row: 90 degrees off north
    g = trench_game("trench-prepared")
    g.deploy("b-east", "british", "infantry-platoon", east, movement=4)
    g.at(1, "offensive-small-arms-fire", "british")
    seq = fire(g, ["b-east"], T, "british", "a1", [("g-inf", "pinned")])
    assert verdicts(g.audit(), "IM.OBS.TRENCH.PREP.SAF", seq) == ["ambiguous"]
    assert verdicts(g.audit(IM__OBS__TRENCH__PREP__FLANK="as-rear"), "IM.OBS.TRENCH.PREP.SAF", seq) == ["violation"]
    assert verdicts(g.audit(IM__OBS__TRENCH__PREP__FLANK="as-front"), "IM.OBS.TRENCH.PREP.SAF", seq) == ["ok"]


def test_prepared_trench_units_fire_out_only_toward_the_front():
    # "Units may only fire outward from prepared trenches toward the front (the direction of the enemy front)."
    g = trench_game("trench-prepared")
    g.at(1, "defensive-small-arms-fire", "german")
    front = fire(g, ["g-inf"], N2, "german", "a1")
    rear = fire(g, ["g-inf"], S2, "german", "a2")
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.PREP.FIREOUT", front) == ["ok"]
    assert verdicts(report, "IM.OBS.TRENCH.PREP.FIREOUT", rear) == ["violation"]


def test_without_a_recorded_front_the_front_faces_the_enemys_set_up():
    # "Units may only fire outward from prepared trenches toward the front (the direction of the enemy front)":
    # a trench marker without `front` faces the centre of the enemy's units as set up (here: south)
    g = BoardLog()
    g.marker("trench-prepared", T)
    g.deploy("g-inf", "german", "infantry-platoon", T, movement=4)
    g.deploy("b-inf", "british", "infantry-platoon", "5:0509", movement=4)
    g.at(1, "defensive-small-arms-fire", "german")
    south = fire(g, ["g-inf"], S2, "german", "a1")
    north = fire(g, ["g-inf"], N2, "german", "a2")
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.PREP.FIREOUT", south) == ["ok"]
    assert verdicts(report, "IM.OBS.TRENCH.PREP.FIREOUT", north) == ["violation"]


def test_no_fire_into_an_adjacent_connected_trench_hex():
    # "Units in prepared trenches may not conduct small arms fire toward adjacent hexagons connected to other
    # prepared or communication trenches. Units must instead engage in close combat to clear such hexagons."
    g = trench_game("trench-prepared", hexsides=[{"between": [T, N1], "feature": "trench"}])
    g.marker("trench-prepared", N1)
    g.at(1, "defensive-small-arms-fire", "german")
    seq = fire(g, ["g-inf"], N1, "german")
    assert verdicts(g.audit(), "IM.OBS.TRENCH.PREP.ADJ", seq) == ["violation"]


def test_whether_an_adjacent_trench_hex_is_connected_is_a_named_reading():
    # the log records trench hexes, not the printed trench lines that connect them
    g = trench_game("trench-prepared")
    g.marker("trench-communication", N1)
    g.at(1, "defensive-small-arms-fire", "german")
    seq = fire(g, ["g-inf"], N1, "german")
    assert verdicts(g.audit(), "IM.OBS.TRENCH.PREP.ADJ", seq) == ["ambiguous"]
    assert verdicts(g.audit(IM__OBS__TRENCH__CONNECTED="adjacent"), "IM.OBS.TRENCH.PREP.ADJ", seq) == ["violation"]
    assert verdicts(g.audit(IM__OBS__TRENCH__CONNECTED="recorded"), "IM.OBS.TRENCH.PREP.ADJ", seq) == ["ok"]


def test_hasty_trench_units_fire_in_any_direction_even_at_an_adjacent_hasty_trench():
    # EC-44: "A unit in a hasty trench firing at an adjacent hasty-trench hex -> ACCEPT"
    g = trench_game("trench-hasty")
    g.marker("trench-hasty", N1)
    g.at(1, "defensive-small-arms-fire", "german")
    adjacent = fire(g, ["g-inf"], N1, "german", "a1")
    rear = fire(g, ["g-inf"], S2, "german", "a2")
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.HASTY.FIRE", adjacent) == ["ok"]
    assert verdicts(report, "IM.OBS.TRENCH.HASTY.FIRE", rear) == ["ok"]
    assert not [r for r in failing(report) if r.startswith("IM.OBS")]


def test_a_trench_without_a_type_cannot_be_judged():
    # "there are now three types of trench ... Each scenario states the status of trenches"
    g = BoardLog(hexes={T: {"terrain": "clear", "features": ["trench"]}})
    g.marker("trench-hasty", N1)
    report = g.audit()
    assert verdicts(report, "IM.OBS.TRENCH.TYPES") == ["unverifiable"]


def test_extra_wide_trenches_stop_poor_crossers_but_not_the_mk_v():
    # "Extra wide trenches completely prevent crossing by tanks with poor trench-crossing capability (the =
    # indicator)"; catalogue IM.OBS.TRENCH.EXTRAWIDE: "The British Mk V and Mk VIII are exempt"
    def tank_move(**attrs):
        g = BoardLog(permissions=["extra-wide-trenches"])
        g.marker("trench-extra-wide", S1)
        g.deploy("t", "british", "tank", T, movement=4, **attrs)
        g.at(1, "vehicle-movement", "british")
        seq = g.move("t", [T, S1, S2])["seq"]
        report = g.audit("sample")
        return ({r: v for r, v in failing(report, seq).items() if r.startswith("IM.OBS")},
                verdicts(report, "IM.OBS.TRENCH.EXTRAWIDE", seq))
    assert tank_move(trench_crossing="=")[0] == {"IM.OBS.TRENCH.EXTRAWIDE": "violation"}
    assert tank_move(trench_crossing="=", model="Mk V") == ({}, ["ok"])
    assert tank_move() == ({}, ["ok"])    # (without a fascine: IM.TANK.FASCINE.EXEMPT's to judge)


def test_extra_wide_trenches_are_an_optional_rule_of_the_scenario():
    # "prepared trenches may also be designated as 'extra wide' for a scenario" (OPTIONAL RULE)
    g = BoardLog()
    g.marker("trench-extra-wide", S1)
    assert verdicts(g.audit(), "IM.OBS.TRENCH.EXTRAWIDE") == ["violation"]
    g = BoardLog(permissions=["extra-wide-trenches"])
    g.marker("trench-extra-wide", S1)
    assert verdicts(g.audit(), "IM.OBS.TRENCH.EXTRAWIDE") == ["ok"]


def test_poor_trench_crossers_take_no_penalty_in_hasty_and_communication_trenches():
    # Hasty trenches: "Vehicles with poor trench-crossing capability do not suffer this penalty"; Communication
    # trenches: "Vehicles with poor trench-crossing capability do not suffer a penalty"
    for kind, rule in (("trench-hasty", "IM.OBS.TRENCH.HASTY.CROSS"), ("trench-communication", "IM.OBS.TRENCH.COMM.CROSS")):
        g = BoardLog()
        g.marker(kind, S1)
        g.deploy("t", "british", "tank", T, movement=2, trench_crossing="poor")
        g.at(1, "vehicle-movement", "british")
        seq = g.move("t", [T, S1, S2])["seq"]
        report = g.audit("sample")
        assert verdicts(report, rule, seq) == ["ok"] and failing(report, seq) == {}


def barrage_on(marker=None, terrain="clear", modifiers=(), options=None, hexsides=None, firepower=20,
               result="miss", **kw):
    """A british D/HE drumfire on 1:1010 holding a german platoon (and `marker`); its BCRT modifiers."""
    from tests.artillery_helpers import ArtyLog
    log = ArtyLog(hexes={"1:1010": {"terrain": terrain}}, options=options, **kw)
    if hexsides:
        log.add("MapDefined", {"maps": ["1"], "hexes": {}, "hexsides": hexsides})
    log.element("o1", firepower=firepower)
    log.unit("g", "german", "infantry-platoon", "1:1010")
    if marker:
        log.add("MarkerPlaced", {"marker": marker, "location": "1:1010"})
    log.barrage_phase(1)
    log.declare("b1", ["o1"])
    log.scatter("b1", 2, False)
    log.resolve("b1", 5, firepower, str(firepower), [("1:1010", "primary", result)], modifiers=list(modifiers))
    return log


def terrain_verdicts(log, *readings) -> set[str]:
    from tests.artillery_helpers import verdicts as arty_verdicts
    return arty_verdicts(log.audit(interpretations=readings), "IM.ART.FP.TERRAIN")


def test_trenches_modify_indirect_barrages():
    # Hasty trenches: "+1 die modifier against indirect barrages"; Prepared and Communication trenches: "+2 die
    # modifier against all indirect barrages (this becomes +3 if you are playing with optional Landships! rule 16.24)"
    assert terrain_verdicts(barrage_on("trench-hasty", modifiers=[1])) == {"ok"}
    assert terrain_verdicts(barrage_on("trench-hasty", modifiers=[2])) == {"mismatch"}
    assert terrain_verdicts(barrage_on("trench-prepared", modifiers=[2])) == {"ok"}
    assert terrain_verdicts(barrage_on("trench-communication", modifiers=[2])) == {"ok"}
    assert terrain_verdicts(barrage_on("trench-communication", modifiers=[])) == {"mismatch"}
    assert terrain_verdicts(barrage_on("trench-prepared", modifiers=[3], options=["16.24"])) == {"ok"}


def test_stone_walls_give_no_benefit_against_barrages():
    # Stone walls: "Stone walls provide no defensive benefit against artillery barrages or aerial bombing."
    wall = [{"between": ["1:1010", "1:1009"], "feature": "stone-wall"}]
    assert terrain_verdicts(barrage_on(hexsides=wall, modifiers=[])) == {"ok"}
    assert terrain_verdicts(barrage_on(hexsides=wall, modifiers=[2])) == {"mismatch"}


def test_a_roadblock_removed_by_an_asterisk_result_is_a_named_reading():
    # Roadblocks: "Roadblocks may also be destroyed in the same way as barbed wire, by a successful artillery
    # barrage (an 'asterisk' result on the bombardment table)" against the destruction mission's "final firepower
    # of a barrage is 31+ ... on a natural result of '1'" (AP-11: FP 20, result "*")
    from tests.artillery_helpers import verdicts as arty_verdicts
    log = barrage_on("roadblock", result="H*")
    log.add("MarkerRemoved", {"marker": "roadblock", "location": "1:1010"}, side="british")
    assert arty_verdicts(log.audit(), "IM.ART.EFF.DEST.HE.OBST") == {"ambiguous"}
    assert arty_verdicts(log.audit(interpretations=["im-obstacle-removal=asterisk"]), "IM.ART.EFF.DEST.HE.OBST") == {"ok"}


def test_strongpoints_and_minefields_keep_the_landships_rules():
    # Strongpoints / Minefields: "continue to use all the original Landships! rules": the barrage modifier of a
    # strongpoint is the base chart's (not judged from the text), a run may not cross a minefield (Running:
    # "They may not pass through ... barbed wire or minefield hexagons") and no one goes prone in a strongpoint
    assert terrain_verdicts(barrage_on("strongpoint", modifiers=[4])) == set()
    g = BoardLog(options=["IM.OPTMOVE.RUN.ELIG"])
    g.marker("minefield", S1)
    g.marker("strongpoint", N1)
    g.deploy("b", "british", "infantry-platoon", T, movement=4)
    g.deploy("s", "british", "infantry-platoon", N1, movement=4)
    g.at(1, "first-foot-movement", "british")
    run = g.move("b", [T, S1, S2], mode="run")["seq"]
    prone = g.add("UnitStatusChanged", {"unit": "s", "status": "prone"}, side="british")["seq"]
    report = g.audit("sample")
    assert failing(report, run) == {"IM.OPTMOVE.RUN.TERRAIN": "violation"}
    assert failing(report, prone)["IM.OPTMOVE.PRONE.ELIG"] == "violation"


def test_trenches_modify_small_arms_fire_at_the_units_in_them():
    # Hasty trenches: "a +1 modifier against small arms fire conducted from any direction"; Prepared trenches:
    # "Defenders receive a +2 die modifier against small arms fire if the enemy fire comes from the front"
    def sacrt(kind, firer, modifiers):
        g = trench_game(kind)
        g.at(1, "offensive-small-arms-fire", "british")
        g.add("Spotted", {"spotter": firer, "target": T, "spotted": True}, side="british")
        g.add("SmallArmsFired", {"attack": "a1", "firers": [firer], "target": T}, side="british")
        g.add("DieRolled", {"purpose": "LS.SACRT", "die": "d6", "result": 3, "subject": "a1",
                            "modifiers": [{"value": m, "why": "trench"} for m in modifiers]}, side="british")
        seq = g.add("SmallArmsResolved", {"attack": "a1", "results": [{"unit": "g-inf", "result": "no-effect"}]},
                    side="british")["seq"]
        report = g.audit()
        return (verdicts(report, "IM.OBS.TRENCH.HASTY.DEF", seq) + verdicts(report, "IM.OBS.TRENCH.PREP.SAF", seq))
    assert sacrt("trench-hasty", "b-rear", [1]) == ["ok"]
    assert sacrt("trench-hasty", "b-inf", []) == ["mismatch"]
    assert sacrt("trench-prepared", "b-inf", [2]) == ["ok"]
    assert sacrt("trench-prepared", "b-inf", []) == ["mismatch"]
    assert sacrt("trench-prepared", "b-rear", []) == ["ok"]        # from the rear: invulnerable, no +2
