"""Spotting columns: bad weather, buttoned-up and hatch-open vehicles, reinforcements (spotting.py)."""
from __future__ import annotations

from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack
from tests.fire_helpers import BRIT, GER, FireLog, apps, failing

SPOTTING = {"fair": {"3": 9}, "bad": {"3": 6}, "buttoned-up": {"3": 5}, "hatch-open": {"3": 7}}


def spot(roll: int, spotted: bool, weather: str = "fair", cls: str = "infantry-platoon", commander: bool = False,
         columns=SPOTTING):
    g = FireLog(weather=weather)
    g.unit("s1", BRIT, cls, "5:0502")
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    if commander:
        g.unit("fo", BRIT, "forward-observer", "5:0502", firepower=None, range_=None, vehicle="s1")
    g.at(1, "offensive-small-arms-fire")
    g.roll("IM.SPOT.ROLL", roll, "s1", BRIT, die="d10")
    seq = g.add("Spotted", {"spotter": "s1", "target": "5:0505", "spotted": spotted}, side=BRIT)["seq"]
    pack = TablePack("test", tables={"SPOTTING": columns})
    report = audit(g.lines, tables=pack, interpretations=Interpretations())
    found = [a for a in apps(report, "IM.SPOT.ROLL", seq)]
    return found[0].verdict.value, found[0].inputs


def test_bad_weather_reads_the_bad_column():
    # General Weather Rules: "Bad weather reduces visibility (spotting range)"; the Spotting Table's column is
    # the unit's status: "fair or bad weather, hatch open, etc."
    assert spot(7, True) == ("ok", {"column": "fair", "distance": 3, "roll": 7, "modified": 7, "number": 9,
                                    "column_rule": "IM.SPOT.ROLL"})
    verdict, inputs = spot(7, True, weather="bad")
    assert (verdict, inputs["column"], inputs["column_rule"]) == ("mismatch", "bad", "IM.ENV.WEATHER.BAD.SPOT")


def test_a_vehicle_with_a_counter_on_it_spots_hatch_open():
    # Buttoned-Up Hatches: "To indicate that a vehicle is not operating with its hatch buttoned up, place an
    # individual counter of any kind (a forward observer, a replacement leader, etc.) on the vehicle."
    verdict, inputs = spot(6, True, cls="tank")
    assert (verdict, inputs["column"]) == ("mismatch", "buttoned-up")
    verdict, inputs = spot(6, True, cls="tank", commander=True)
    assert (verdict, inputs["column"], inputs["column_rule"]) == ("ok", "hatch-open", "IM.SPOT.BUTTONED.OPEN")
    # a pack without a hatch-open column: the weather's column
    columns = {k: v for k, v in SPOTTING.items() if k != "hatch-open"}
    assert spot(8, True, cls="tank", commander=True, columns=columns)[1]["column"] == "fair"


def test_reinforcement_vehicles_enter_buttoned_up():
    # Buttoned-Up Hatches: "All reinforcement vehicles entering play are considered to have their hatches
    # buttoned up."
    g = FireLog()
    g.at(2, "vehicle-movement")
    seq = g.unit("b-tank", BRIT, "tank", "5:0101", hatch="open")
    assert failing(g.audit(), seq) == {"IM.SPOT.BUTTONED.DEFAULT": "violation"}
