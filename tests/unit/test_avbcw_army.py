"""Dux Bellorum AVBCW army lists, checked and costed against the text (dux-bellorum-avbcw.txt:
the unit type table, Special Rules, Equipment, Unit Abilities, Army bonuses, the vehicle tables;
game-log-tabletop.md, ArmyListed). Each expectation is the text's number, quoted beside it."""
from __future__ import annotations

import copy

import pytest

from domain.rules.dux_bellorum_avbcw.army import ArmyFormatError, army_report, check_army
from tests.unit.test_avbcw_movement import Game

REGULARS = {"unit": "r-inf", "type": "inf-regulars", "figures": 10,
            "stats": {"MV": "6", "BRV": "8", "MELEE": "4(1)", "SHOOT": "6", "PRO": "5", "COH": "5"},
            "special": [], "pts": 5}
COMMANDER = {"unit": "r-cmd", "type": "commander-foot", "figures": 3,
             "stats": {"MV": "6”", "BRV": "9", "MELEE": "4(1)", "SHOOT": "3", "PRO": "6", "COH": "6"},
             "special": ["AVBCW.AB.INSPIRING"], "pts": 5}


def army(*units: dict, rules: tuple = (), total=None) -> dict:
    units = [copy.deepcopy(u) for u in units]
    listed_rules = [dict(r) for r in rules]
    if total is None:
        total = sum(u["pts"] for u in units) + sum(r["pts"] for r in listed_rules)
    return {"side": "royalist", "units": units, "army_rules": listed_rules, "total": total}


def unit(base: dict, **changes) -> dict:
    return {**copy.deepcopy(base), **changes}


def found(data: dict, **readings) -> list[tuple]:
    return [(e.unit, e.rule, e.verdict) for e in check_army(data, readings)]


def test_the_pages_example_lists_are_legal():
    # game-log-tabletop.md, Examples: "The rest is legal" (Bayonets @ 1, Bombs @ 1, Mounted LMG +1)
    royalist = army(unit(REGULARS, special=["AVBCW.EQ.BAYONETS"], pts=6))
    socialist = {"side": "socialist", "total": 6, "army_rules": [], "units": [
        {"unit": "s-mil", "type": "inf-militia", "figures": 10,
         "stats": {"MV": "6", "BRV": "6", "MELEE": "2", "SHOOT": "4", "PRO": "5", "COH": "4"},
         "special": ["AVBCW.EQ.BOMBS"], "pts": 4},
        {"unit": "s-car", "type": "vehicle:car", "crew": 2, "stats": {"MV": "24", "BRV": "8", "SHOOT": "4", "PRO": "2"},
         "options": ["mounted-lmg"], "weapons": [{"weapon": "s-car/lmg", "shoot": "4", "arcs": ["F", "L", "R", "B"],
                                                  "crewed": True}], "drive": "wheeled", "pts": 2}]}
    assert check_army(royalist) == [] and check_army(socialist) == []
    assert army_report(socialist).costs == {"s-mil": 4, "s-car": 2}


def test_statistics_as_printed():
    # Unit type table: "Regulars 8-10 6” 8 4(1) 6 5 5 5"
    assert found(army(unit(REGULARS, figures=12))) == [("r-inf", "AVBCW.UNIT.STATS", "violation")]
    assert found(army(unit(REGULARS, figures=8))) == []
    wrong = unit(REGULARS, stats={**REGULARS["stats"], "BRV": "9", "SHOOT": "6"})
    [err] = check_army(army(wrong))
    assert (err.unit, err.rule, err.count, err.limit) == ("r-inf", "AVBCW.UNIT.STATS", "9", "8")
    assert "BRV" in err.words and "Regulars" in err.words
    # "8(1): 12”" written without the inch mark or with its spaces is the same printed rating
    flamer = {"unit": "f", "type": "flamethrower", "figures": 2, "special": [], "pts": 3,
              "stats": {"MV": "6", "BRV": "7", "MELEE": "1", "SHOOT": "8(1): 12", "PRO": "4", "COH": "2"}}
    assert found(army(flamer)) == []
    assert found(army(unit(REGULARS, type="inf-grenadiers"))) == [("r-inf", "AVBCW.UNIT.STATS", "violation")]
    # the table's other columns, when a list repeats them, as printed too ("8-10", "5")
    assert found(army(unit(REGULARS, stats={**REGULARS["stats"], "Figs": "8–10", "PTS": "5"}))) == []
    assert found(army(unit(REGULARS, stats={"Morale": "5"}))) == [("r-inf", "AVBCW.UNIT.STATS", "violation")]


def test_points_of_equipment_and_abilities():
    # "Bayonets @ 1 point", "Squad LMG @ 1 point", "Mixed weapons @ -1 point", "Ambush @ 2 points"
    legal = unit(REGULARS, special=["AVBCW.EQ.BAYONETS", "AVBCW.EQ.SQUADLMG", "AVBCW.EQ.MIXED"], pts=6)
    assert check_army(army(legal)) == []
    [err] = check_army(army(unit(legal, pts=7)))
    assert (err.rule, err.count, err.limit) == ("AVBCW.UNIT.STATS", 7, 6)
    assert "AVBCW.EQ.MIXED -1" in err.message
    assert check_army(army(unit(REGULARS, special=["AVBCW.AB.AMBUSH"], pts=7))) == []
    # the row's own Notes cost nothing: the commander's "Inspiring", the mortar's "Indirect"
    assert check_army(army(COMMANDER)) == []


def test_who_may_take_what():
    # "Bombs @ 1 point (Foot Commander, or any Infantry units only)"
    cavalry = {"unit": "c", "type": "cav-regulars", "figures": 6, "special": ["AVBCW.EQ.BOMBS"], "pts": 5,
               "stats": {"MV": "12", "BRV": "8", "MELEE": "5", "SHOOT": "1", "PRO": "4", "COH": "4"}}
    [err] = check_army(army(cavalry))
    assert (err.unit, err.rule, err.verdict, err.count) == ("c", "AVBCW.EQ.BOMBS", "violation", "cav-regulars")
    assert err.words == "Bombs @ 1 point (Foot Commander, or any Infantry units only)"
    # "Brittle @ -1 point (any unit with Bravery 7 or more)": militia are BRV 6
    militia = {"unit": "m", "type": "inf-militia", "figures": 10, "special": ["AVBCW.AB.BRITTLE"], "pts": 2,
               "stats": {"BRV": "6"}}
    assert found(army(militia)) == [("m", "AVBCW.AB.BRITTLE", "violation")]
    # "Inspiring @ 0 points (Commander units only)"
    assert found(army(unit(REGULARS, special=["AVBCW.AB.INSPIRING"]))) == [("r-inf", "AVBCW.AB.INSPIRING", "violation")]
    # a Demagogue, under "Commanders" in the table but described apart from them, with Bayonets
    demagogue = {"unit": "d", "type": "demagogue", "figures": 2, "special": ["AVBCW.EQ.BAYONETS"], "pts": 5,
                 "stats": {}}
    assert found(army(demagogue)) == [("d", "AVBCW.EQ.BAYONETS", "ambiguous")]


def test_the_cap_of_2_to_7_points():
    # "A unit cannot be given special rules that will reduce its cost below 2 points, or that will
    # increase its cost above 7 points."
    militia = {"unit": "m", "type": "inf-militia", "figures": 10, "stats": {}, "pts": 1,
               "special": ["AVBCW.EQ.MIXED", "AVBCW.EQ.POORSUP"]}         # 3 - 1 - 1 = 1
    [err] = check_army(army(militia))
    assert (err.rule, err.count, err.limit) == ("AVBCW.SR.CAP", 1, "2-7")
    sniper = {"unit": "s", "type": "sniper", "figures": 2, "stats": {}, "pts": 8,
              "special": ["AVBCW.AB.FEARLESS", "AVBCW.AB.AMBUSH"]}       # 5 + 1 + 2 = 8
    assert found(army(sniper)) == [("s", "AVBCW.SR.CAP", "violation")]
    assert found(army(unit(sniper, special=["AVBCW.AB.AMBUSH"], pts=7))) == []   # 7 is within


def test_first_aid_and_supply_take_no_further_rules_and_loyal_is_single():
    # "Units with the Supply ability cannot be given any further special rules."
    supply = {"unit": "sup", "type": "supply", "figures": 4, "stats": {}, "pts": 4, "special": ["AVBCW.AB.FEARLESS"]}
    assert found(army(supply)) == [("sup", "AVBCW.AB.SUPPLY", "violation")]
    # yet "Bicycles @ 1 point (Foot Commander, any Infantry, Supply or Medical units only)"
    assert found(army(unit(supply, special=["AVBCW.EQ.BICYCLES"]))) == [("sup", "AVBCW.AB.SUPPLY", "ambiguous")]
    # "Loyal @ 1 point ... Choose any single non-vehicle unit."
    a = unit(REGULARS, special=["AVBCW.AB.LOYAL"], pts=6)
    b = unit(a, unit="r-inf-2")
    [err] = check_army(army(a, b))
    assert (err.unit, err.rule, err.count, err.limit) == (None, "AVBCW.AB.LOYAL", 2, 1)


def test_spot_and_radios():
    # "Spot @ 0 points (Spotter unit only), or @ +1 point (for Commander units), and +1 point for radios."
    spotter = {"unit": "sp", "type": "spotter", "figures": 2, "stats": {}, "pts": 4, "special": [], "options": ["radios"]}
    assert check_army(army(spotter)) == []                                  # 3 + 0 + 1
    assert check_army(army(unit(COMMANDER, special=["AVBCW.AB.SPOT"], pts=6))) == []   # 5 + 1
    assert found(army(unit(REGULARS, options=["radios"], pts=6))) == [("r-inf", "AVBCW.AB.SPOT", "violation")]
    # a Spotter's radios are a Spot purchase: the list's check of Spot looks at them
    assert ("sp", "AVBCW.AB.SPOT") in army_report(army(spotter)).judged


def test_army_rules_and_the_total():
    # "Subterfuge @ 4 points (army rule)", "Off table support @ 1, 2, 3, or 4 points (army rule)"
    assert check_army(army(REGULARS, rules=({"rule": "AVBCW.ARMY.SUBTERFUGE", "pts": 4},))) == []
    assert found(army(REGULARS, rules=({"rule": "AVBCW.ARMY.SUBTERFUGE", "pts": 3},))) == \
        [(None, "AVBCW.ARMY.SUBTERFUGE", "violation")]
    assert found(army(REGULARS, rules=({"rule": "AVBCW.ARMY.OTS", "pts": 6, "shots": 3},))) == \
        [(None, "AVBCW.ARMY.OTS", "ambiguous")]                          # AVBCW.Z 7
    [err] = check_army(army(REGULARS, total=9))
    assert (err.rule, err.count, err.limit) == ("AVBCW.SR.CAP", 9, 5)


def test_heavy_mortar_points_follow_the_named_interpretation():
    # AVBCW.Z 1: 'Heavy mortar PTS is printed "3 4"'
    heavy = {"unit": "hm", "type": "mortar-heavy", "figures": 5, "stats": {"SHOOT": "5(1): ≥12”"}, "special": [],
             "pts": 4}
    assert found(army(heavy)) == [("hm", "AVBCW.UNIT.STATS", "ambiguous")]
    assert found(army(heavy), **{"avbcw-heavy-mortar-pts": "4"}) == []
    assert found(army(heavy), **{"avbcw-heavy-mortar-pts": "3"}) == [("hm", "AVBCW.UNIT.STATS", "violation")]


def test_vehicles_as_printed_with_options_and_tank_commanders():
    # "Lorry 1 2+20 12” 8 - 2 1 Tow"; "Mounted field gun +3 -3 -2” - 6(2) - +2"; "Armour plate ... +1/+1/+1 +1"
    lorry = {"unit": "l", "type": "vehicle:lorry", "crew": 4, "stats": {"MV": "10", "BRV": "8", "SHOOT": "6(2)",
             "PRO": "3/3/3"}, "options": ["mounted-field-gun", "armour-plate"], "special": [], "pts": 4,
             "weapons": [{"weapon": "gun", "shoot": "6(2)", "arcs": ["F"], "crewed": True}]}
    assert check_army(army(lorry)) == []
    assert found(army(unit(lorry, crew=7))) == [("l", "AVBCW.VEH.STATS", "violation")]
    assert found(army(unit(lorry, options=["mounted-tesla-coil"], pts=1))) != []
    # "Tank Commander: Any Hard Vehicle can be designated a Commander unit for +3 points."
    whippet = {"unit": "w", "type": "vehicle:mk-a-whippet", "crew": 3, "commander": True, "special": [], "pts": 7,
               "stats": {"MV": "12", "BRV": "6", "SHOOT": "4", "PRO": "4"},
               "weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["F", "R", "B", "L"], "crewed": True}]}
    assert check_army(army(whippet)) == []
    assert found(army(unit(lorry, commander=True))) == [("l", "AVBCW.VEH.TANKCMDR", "violation")]
    # "Austin ... LMG (F,R,B) 4 / LMG (F,L,B) 4": no weapon of it fires into both L and R
    austin = {"unit": "a", "type": "vehicle:austin", "crew": 4, "special": [], "pts": 3,
              "stats": {"MV": "24", "BRV": "8", "PRO": "3"},
              "weapons": [{"weapon": "lmg", "shoot": "4", "arcs": ["L", "R"], "crewed": True}]}
    assert found(army(austin)) == [("a", "AVBCW.VEH.STATS", "violation")]
    # "Putilov Kégress" is `vehicle:putilov-k-gress` by the page's rule, `putilov-kegress` folded
    kegress = unit(austin, type="vehicle:putilov-kegress", stats={"MV": "12"}, weapons=[])
    assert check_army(army(kegress)) == []


def test_no_more_weapons_than_the_row_prints():
    # AVBCW, Vehicles: "Some vehicles mount multiple weapons. Each weapon that can shoot independently
    # is listed with the firing arc it can attack into"; "Rolls Royce ... LMG (T) 4" is one LMG,
    # "Mk.V Female ... 2x LMG (L) 2x 4" two, "Austin ... LMG (F,R,B) 4 / LMG (F,L,B) 4" one of each.
    def lmg(name, arcs):
        return {"weapon": name, "shoot": "4", "arcs": arcs, "crewed": True}
    rolls = {"unit": "rr", "type": "vehicle:rolls-royce", "crew": 3, "special": [], "pts": 2,
             "stats": {"MV": "24", "BRV": "8", "PRO": "3"}, "weapons": [lmg("a", ["F", "R", "B", "L"])]}
    assert check_army(army(rolls)) == []
    assert found(army(unit(rolls, weapons=[lmg("a", ["F"]), lmg("b", ["B"])]))) == [("rr", "AVBCW.VEH.STATS", "violation")]
    female = {"unit": "f", "type": "vehicle:mk-v-female", "crew": 8, "special": [], "pts": 7,
              "stats": {"MV": "6", "BRV": "6", "PRO": "4/3/4"},
              "weapons": [lmg("f", ["F"]), lmg("b", ["B"]), lmg("l1", ["L"]), lmg("l2", ["L"]), lmg("r1", ["R"]),
                          lmg("r2", ["R"])]}
    assert check_army(army(female)) == []
    assert found(army(unit(female, weapons=female["weapons"] + [lmg("l3", ["L"])]))) == \
        [("f", "AVBCW.VEH.STATS", "violation")]
    austin = {"unit": "a", "type": "vehicle:austin", "crew": 4, "special": [], "pts": 3,
              "stats": {"MV": "24", "BRV": "8", "PRO": "3"}, "weapons": [lmg("x", ["F", "B"]), lmg("y", ["F", "R", "B"])]}
    assert check_army(army(austin)) == []          # the first may be either; the matching gives it the left one


def test_not_an_army_list():
    with pytest.raises(ArmyFormatError) as err:
        check_army({"side": "royalist", "units": [{"unit": "x", "type": "inf-regulars", "stats": {}, "pts": 5}],
                    "army_rules": [], "total": 5})
    assert "figures" in str(err.value)
    with pytest.raises(ArmyFormatError):
        check_army([1, 2])


def test_the_audit_judges_army_listed():
    # game-log-tabletop.md, ArmyListed: "UNIT.STATS, VEH.STATS, ... SR.CAP ... each EQ.* and AB.* cost"
    game = Game()
    game.add("ArmyListed", army(unit(REGULARS, special=["AVBCW.EQ.BOMBS"], pts=5)), "royalist")
    game.add("ArmyListed", {**army(COMMANDER), "side": "socialist"}, "socialist")
    verdicts = {(a.seq, a.rule): a.verdict.value for a in game.audit().applications}
    assert verdicts[(3, "AVBCW.UNIT.STATS")] == "violation"       # 5 + 1 listed as 5
    assert verdicts[(3, "AVBCW.EQ.BOMBS")] == "ok"
    assert verdicts[(4, "AVBCW.AB.INSPIRING")] == "ok" and verdicts[(4, "AVBCW.UNIT.STATS")] == "ok"


# Unit type table: Figs (the fewest) and PTS of each row used below
ROWS = {"commander-foot": (1, 5), "commander-mounted": (1, 5), "demagogue": (1, 4), "inf-regulars": (8, 5),
        "inf-irregulars": (8, 4), "inf-militia": (8, 3), "cav-regulars": (5, 4), "cav-irregulars": (5, 3),
        "lmg": (2, 3), "hmg": (2, 3), "at-rifle": (2, 3), "spotter": (1, 3), "sniper": (1, 5), "mortar": (3, 3),
        "field-gun": (3, 3), "supply": (3, 3), "medical": (1, 3)}
# Equipment and Unit Abilities, as printed: (id, points, a unit that may take it, one that may not)
PRICES = [
    ("AVBCW.EQ.ARMOUR", 2, "inf-militia", None),            # "Armour @ 2 points"
    ("AVBCW.EQ.BANNER", 1, "cav-irregulars", "lmg"),        # "@ 1 point (any Commander, Infantry or Cavalry units only)"
    ("AVBCW.EQ.BAYONETS", 1, "commander-mounted", "hmg"),   # "@ 1 point (any Commander, Infantry or Cavalry units only)"
    ("AVBCW.EQ.BOMBS", 1, "commander-foot", "commander-mounted"),   # "(Foot Commander, or any Infantry units only)"
    ("AVBCW.EQ.BICYCLES", 1, "inf-irregulars", "cav-regulars"),     # "(Foot Commander, any Infantry, Supply or Medical ...)"
    ("AVBCW.EQ.INDIRECT", 0, "mortar", "field-gun"),        # "@ 0 points (Mortar units only)"
    ("AVBCW.EQ.MIXED", -1, "inf-regulars", "sniper"),       # "@ -1 point (any Commander, Infantry or Cavalry units only)"
    ("AVBCW.EQ.POORSUP", -1, "hmg", None),                  # "Poorly supplied @ -1 points"
    ("AVBCW.EQ.SMG", 1, "cav-regulars", "spotter"),         # "@ 1 point (any Commander, Infantry, or Cavalry units only)"
    ("AVBCW.EQ.SMOKE", 1, "field-gun", "lmg"),              # "(any Commander, Infantry, Mortar, or Field gun units only)"
    ("AVBCW.EQ.SQUADLMG", 1, "inf-militia", "cav-regulars"),  # "(any Foot Commander or Infantry units only)"
    ("AVBCW.EQ.WELLSUP", 1, "at-rifle", None),              # "Well supplied @ +1 points"
    ("AVBCW.EQ.WRECK", 1, "inf-regulars", "cav-regulars"),  # "(and Foot Commander or Infantry units only)", AVBCW.Z 4
    ("AVBCW.AB.AMBUSH", 2, "sniper", "cav-regulars"),       # "@ 2 points (any Foot Commander, Infantry or Support Team ...)"
    ("AVBCW.AB.ASSAULT", 1, "inf-militia", None),           # "Assault troops @ 1 point"
    ("AVBCW.AB.BRITTLE", -1, "inf-regulars", "inf-militia"),  # "@ -1 point (any unit with Bravery 7 or more)"
    ("AVBCW.AB.FEARLESS", 1, "lmg", None),                  # "Fearless @ 1 point"
    ("AVBCW.AB.FIRSTAID", 0, "medical", "inf-regulars"),    # "@ 0 points (Medical units only)"
    ("AVBCW.AB.INSPIRING", 0, "commander-mounted", "inf-regulars"),  # "@ 0 points (Commander units only)"
    ("AVBCW.AB.LOYAL", 1, "inf-regulars", "vehicle:car"),   # "Choose any single non-vehicle unit"
    ("AVBCW.AB.MADMINUTE", 1, "inf-irregulars", "lmg"),     # "@ 1 point (any Infantry unit only)"
    ("AVBCW.AB.MOTIVATING", 0, "demagogue", "commander-foot"),  # "@ 0 points (Demagogue units only)"
    ("AVBCW.AB.SNEAKY", 1, "inf-militia", "cav-irregulars"),  # "@ 1 point (any Infantry units only)"
    ("AVBCW.AB.SNIPER", 0, "sniper", "spotter"),            # "@ 0 points (Sniper unit only)"
    ("AVBCW.AB.SPOT", 0, "spotter", "inf-regulars"),        # "@ 0 points (Spotter unit only), or @ +1 point (for Commander ...)"
    ("AVBCW.AB.SUPPLY", 0, "supply", "medical"),            # "@ 0 points (Supply units only)"
    ("AVBCW.AB.TRENCHRATS", 1, "hmg", "cav-regulars"),      # "@ 1 point (any Foot Commander, Infantry or Support Team ...)"
]


def with_rule(kind: str, rule: str, cost: int) -> dict:
    if kind == "vehicle:car":
        return {"unit": "u", "type": kind, "stats": {}, "special": [rule], "pts": 1 + cost}
    figures, pts = ROWS[kind]
    return {"unit": "u", "type": kind, "figures": figures, "stats": {}, "special": [rule], "pts": pts + cost}


@pytest.mark.parametrize("rule, cost, may, may_not", PRICES, ids=[p[0] for p in PRICES])
def test_every_special_rule_at_its_printed_price_for_whom_it_names(rule, cost, may, may_not):
    assert check_army(army(with_rule(may, rule, cost))) == []
    [err] = check_army(army(with_rule(may, rule, cost + 1)))        # a point more than printed
    assert err.rule == "AVBCW.UNIT.STATS" and err.limit == ROWS[may][1] + cost
    if may_not is not None:
        assert (rule, "violation") in {(e.rule, e.verdict) for e in check_army(army(with_rule(may_not, rule, cost)))}
