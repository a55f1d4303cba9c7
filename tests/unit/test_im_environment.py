"""Environmental Conditions (IM.ENV): the weather roll, fair weather, high explosive in mud and deep snow,
skis inherent to Finnish and Russian troops. Each expectation quotes General Weather Rules (new), Terrain
States (changed) or Skis, and EC-40 of rule-cases.md."""
from __future__ import annotations

from domain.rules.engine import audit
from domain.rules.infernal_machines.environment import weather_of
from domain.rules.interpretations import Interpretations
from domain.rules.tables import builtin
from tests.artillery_helpers import ArtyLog, verdicts
from tests.board_helpers import BoardLog, failing
from tests.board_helpers import verdicts as at
from tests.builders import LogBuilder

A, B, C, D = "5:0505", "5:0506", "5:0507", "5:0508"


def weather_game(roll=None, before=None, after=None, turn=0) -> tuple[LogBuilder, dict]:
    """A set-up with the scenario's weather (`before`), a weather d10 (`roll`) and the WeatherSet after it."""
    g = LogBuilder()
    g.add("MapDefined", {"maps": ["5"], "hexes": {}, "hexsides": []})
    seqs = {}
    if before:
        seqs["before"] = g.add("WeatherSet", {"weather": before, "terrain_state": "good"})["seq"]
    if turn:
        g.turn_start(turn)
    if roll is not None:
        seqs["roll"] = g.add("DieRolled", {"purpose": "IM.ENV.WEATHER.ROLL", "die": "d10", "result": roll,
                                           "subject": None})["seq"]
    if after:
        seqs["after"] = g.add("WeatherSet", {"weather": after, "terrain_state": "good"})["seq"]
    return g, seqs


def judged(g: LogBuilder):
    return audit(g.lines, tables=builtin("none"), interpretations=Interpretations())


def test_ec_40_the_weather_d10_bad_on_1_to_5_fair_on_6_to_10():
    # General Weather Rules: "roll a ten-sided die at the start of the game. On a result of 1 to 5 the weather is
    # bad; on 6 to 10 it is fair." EC-40: d10 = 5 -> Bad; d10 = 6 -> Fair.
    assert [weather_of(n) for n in (1, 5, 6, 10)] == ["bad", "bad", "fair", "fair"]
    for roll, weather, verdict in ((5, "bad", "ok"), (6, "fair", "ok"), (5, "fair", "mismatch"), (6, "bad", "mismatch")):
        g, seqs = weather_game(roll=roll, after=weather)
        assert at(judged(g), "IM.ENV.WEATHER.ROLL", seqs["after"]) == [verdict], (roll, weather)
    g, seqs = weather_game(roll=3)                                   # rolled, and no WeatherSet says it
    assert at(judged(g), "IM.ENV.WEATHER.ROLL", seqs["roll"]) == ["violation"]
    g, seqs = weather_game(roll=8, after="fair", turn=2)             # "at the start of the game"
    assert at(judged(g), "IM.ENV.WEATHER.ROLL", seqs["roll"]) == ["violation"]
    g, seqs = weather_game(roll=8, after="fair")
    assert at(judged(g), "IM.ENV.WEATHER.ROLL", seqs["roll"]) == []
    assert "IM.CORE.DICE" in at_rules(judged(weather_game(roll=3, after="bad")[0]))   # a d10, IM.CORE.DICE


def at_rules(report) -> set[str]:
    return {a.rule for a in report.applications}


def test_ec_40_a_roll_that_overrides_the_scenarios_weather_is_refused():
    # "If the scenario does not specify a particular weather condition, roll ..." EC-40: "A scenario that specifies
    # the weather plus a logged weather roll that overrides it -> REJECT".
    g, seqs = weather_game(before="fair", roll=2, after="bad")
    report = judged(g)
    assert at(report, "IM.ENV.WEATHER.ROLL", seqs["roll"]) == ["violation"]
    assert at(report, "IM.ENV.WEATHER.ROLL", seqs["before"]) == []   # the scenario's weather needs no roll


def test_fair_weather_has_no_effect_on_play():
    # "Fair weather has no effect on play. Bad weather ... affects the movement of all vehicles by doubling the cost"
    def tank(weather):
        g = BoardLog(weather=weather)
        g.deploy("t", "british", "tank", A, movement=3)
        g.at(1, "vehicle-movement")
        seq = g.move("t", [A, B, C, D])["seq"]             # 3 clear hexes at 1 MP (the sample pack's clear)
        return g.audit("sample"), seq
    report, seq = tank("fair")
    assert failing(report, seq) == {} and at(report, "IM.ENV.WEATHER.BAD.MOVE", seq) == []
    report, seq = tank("bad")
    assert failing(report, seq) == {"IM.ENV.WEATHER.BAD.MOVE": "violation"}


def test_finnish_and_russian_troops_have_skis_in_snow():
    # Skis: "In scenarios with snow, deep snow or ice involving Finnish or Russian troops, it is assumed that skis are
    # always available ... (treat them as inherent to the units)"; "Units on skis may move at a speed of three
    # hexagons per foot movement phase".
    def skier(nation, state):
        g = BoardLog(state=state)
        g.lines[0]["data"]["sides"]["british"]["nation"] = nation
        g.deploy("p", "british", "infantry-platoon", A, movement=2)
        g.at(1, "first-foot-movement")
        seq = g.move("p", [A, B, C, D], mode="ski")["seq"]
        return failing(g.audit("sample"), seq)
    assert skier("russian", "snow") == {}
    assert skier("finnish", "deep-snow") == {}
    assert skier("british", "snow") == {"IM.INF.SKI": "violation"}
    assert skier("russian", "good") == {"IM.INF.SKI": "violation"}


def barrage(terrain_state, mods, ammo="he", terrain="clear", unit="infantry-platoon"):
    log = ArtyLog(hexes={"1:1010": {"terrain": terrain}}, terrain_state=terrain_state)
    log.unit("g", "german", unit, "1:1010")
    log.element("o1")
    log.barrage_phase(1)
    log.declare("b1", ["o1"], ammo=ammo)
    log.scatter("b1", 2, False)
    log.roll("IM.ART.BCRT.REVISED", 5, "b1", "british", modifiers=[{"value": v, "why": w} for v, w in mods])
    log.add("BarrageResolved", {"barrage": "b1", "firepower": 20, "column": "20",
                                "results": [{"location": "1:1010", "zone": "primary", "result": "miss"}]}, side="british")
    return log.audit()


def test_high_explosive_in_mud_takes_plus_one_on_the_bcrt():
    # Terrain States: "High-explosive artillery ammunition is slightly less effective in muddy conditions (+1 on the
    # Barrage Combat Results Table (BCRT))".
    assert verdicts(barrage("mud", [(1, "mud")]), "IM.ENV.MUD.HE") == {"ok"}
    # clear ground and infantry: the text gives every modifier, so the sum short of the +1 is this rule's
    assert verdicts(barrage("mud", []), "IM.ENV.MUD.HE") == {"mismatch"}
    assert verdicts(barrage("mud", []), "IM.ART.FP.TERRAIN") == set()
    # a wood hex (the chart's modifier): the +1 is found by its name
    assert verdicts(barrage("mud", [(1, "wood")], terrain="wood"), "IM.ENV.MUD.HE") == {"mismatch"}
    assert verdicts(barrage("mud", [(1, "wood"), (1, "mud")], terrain="wood"), "IM.ENV.MUD.HE") == {"ok"}
    assert verdicts(barrage("mud", [(2, "mud")], terrain="wood"), "IM.ENV.MUD.HE") == {"mismatch"}
    # a +1 that names no cause may be the mud's: not judged as a fault
    assert verdicts(barrage("mud", [(1, "terrain")], terrain="wood"), "IM.ENV.MUD.HE") == {"unverifiable"}
    # only high explosive, and only in mud (or deep snow)
    assert verdicts(barrage("mud", [(1, "mud")], ammo="shrapnel", terrain="wood"), "IM.ENV.MUD.HE") == {"mismatch"}
    assert verdicts(barrage("good", [(1, "mud")], terrain="wood"), "IM.ENV.MUD.HE") == {"mismatch"}
    assert verdicts(barrage("good", [], terrain="wood"), "IM.ENV") == set()


def test_high_explosive_in_deep_snow_takes_plus_one_on_the_bcrt():
    # Deep snow: "High-explosive artillery ammunition is slightly less effective in deep snow (+1 on the BCRT)".
    assert verdicts(barrage("deep-snow", [(1, "deep snow")]), "IM.ENV.DEEPSNOW.HE") == {"ok"}
    assert verdicts(barrage("deep-snow", []), "IM.ENV.DEEPSNOW.HE") == {"mismatch"}
    assert verdicts(barrage("deep-snow", [], unit="tank"), "IM.ENV.DEEPSNOW.HE") == {"mismatch"}
    assert verdicts(barrage("snow", [], unit="tank"), "IM.ENV") == set()       # plain snow: no +1 in the text
