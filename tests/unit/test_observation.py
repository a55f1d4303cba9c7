"""Observation for indirect fire (HexObserved): range, sight, smoke, creeping barrages, observer state."""
from __future__ import annotations

from tests.board_helpers import BoardLog, failing, verdicts


def observed(target: str, via: str = "forward-observer", observer: str = "fo", at: str = "5:0501",
             cls: str = "forward-observer", setup=None, tables: str = "none", **readings):
    g = BoardLog()
    g.deploy(observer, "british", cls, at)
    if setup:
        setup(g)
    g.at(1, "barrage")
    seq = g.add("HexObserved", {"observer": observer, "target": target, "via": via}, side="british")["seq"]
    return g.audit(tables, **readings), seq


def test_an_fo_observes_up_to_10_hexes_not_11():
    # Use of the forward observer: any hexagon within a radius of 10 (its own hexagon excluded)
    report, seq = observed("5:0511")
    assert verdicts(report, "IM.ART.FO.RANGE", seq) == ["ok"] and failing(report, seq) == {}
    report, seq = observed("5:0512")
    assert failing(report, seq) == {"IM.ART.FO.RANGE": "violation"}


def test_an_fo_may_not_observe_through_smoke():
    # Use of the forward observer: not through a hexagon affected by smoke
    report, seq = observed("5:0506", setup=lambda g: g.marker("smoke", "5:0503"))
    assert failing(report, seq) == {"IM.ART.FO.SMOKE": "violation"}


def test_ridgelines_block_observation_unless_the_fo_stands_on_a_hill():
    # Ridgelines: units at ground level may not observe over a non-adjacent ridgeline
    ridge = lambda g: g.lines[1]["data"]["hexsides"].append({"between": ["5:0503", "5:0504"], "feature": "ridgeline"})
    report, seq = observed("5:0506", setup=ridge)
    assert failing(report, seq) == {"IM.TER.RIDGE.LOS": "violation"}

    def ridge_and_hill(g):
        ridge(g)
        g.lines[1]["data"]["hexes"]["5:0501"] = {"terrain": "hill", "elevation": 1}
    report, seq = observed("5:0506", setup=ridge_and_hill)
    assert failing(report, seq) == {}


def test_a_pinned_or_eliminated_fo_observes_nothing():
    # Restrictions on indirect fire: a pinned FO or LNO may not observe any hexagon
    report, seq = observed("5:0505", setup=lambda g: g.status("fo", "pinned", side="german", turns=1))
    assert failing(report, seq) == {"IM.ART.RESTRICT.PINNED_OBS": "violation"}
    report, seq = observed("5:0505", via="liaison-officer", cls="liaison-officer",
                           setup=lambda g: g.status("fo", "pinned", side="german", turns=1))
    assert failing(report, seq) == {"IM.ART.RESTRICT.PINNED_OBS": "violation"}
    report, seq = observed("5:0505", setup=lambda g: g.status("fo", "eliminated", side="german"))
    assert failing(report, seq) == {"IM.ART.RESTRICT.NO_OBSERVERS": "violation"}


def creeping(g):
    """A german simple creeping barrage whose primary row runs through row 08."""
    g.add("BarrageDeclared", {"barrage": "c1", "side": "german", "target": "5:0508", "elements": ["e1"],
                              "mission": "simple-creeping", "barrage_type": "drumfire", "ammunition": "he"},
          side="german")
    g.add("BarrageResolved", {"barrage": "c1", "firepower": 10, "column": "10",
                              "results": [{"location": f"5:{c:02d}08", "zone": "primary", "result": "miss"}
                                          for c in range(1, 11)]}, side="german")


def test_an_fo_sees_at_most_5_hexes_beyond_a_creeping_barrage():
    # Use of the forward observer: not more than 5 hexagons behind the line of a creeping barrage
    report, seq = observed("5:0513", setup=creeping)
    assert verdicts(report, "IM.ART.FO.CREEP", seq) == ["ok"]
    report, seq = observed("5:0514", at="5:0505", setup=creeping)
    assert failing(report, seq) == {"IM.ART.FO.CREEP": "violation"}


def test_aircraft_observe_at_two_hexes():
    # Aircraft: "any hexagon at a distance of two hexagons"; exactly 2 or up to 2 is a named reading
    report, seq = observed("5:0503", via="aircraft", observer="a1", cls="aircraft")
    assert failing(report, seq) == {}
    report, seq = observed("5:0504", via="aircraft", observer="a1", cls="aircraft")
    assert failing(report, seq) == {"IM.ART.AIR.FO": "violation"}
    report, seq = observed("5:0502", via="aircraft", observer="a1", cls="aircraft")
    assert failing(report, seq) == {"IM.ART.AIR.FO": "ambiguous"}
    report, seq = observed("5:0502", via="aircraft", observer="a1", cls="aircraft",
                           IM__ART__AIR__FO__DISTANCE="up-to-2")
    assert failing(report, seq) == {}


def test_balloons_observe_every_hex_and_aircraft_ignore_sight():
    # Balloons: they observe all hexagons on the map; "no annoying line-of-sight problem"
    report, seq = observed("5:0530", via="balloon", observer="balloon:b1", cls="balloon")
    assert verdicts(report, "IM.ART.BALLOON.FO", seq) == ["ok"] and failing(report, seq) == {}
    report, seq = observed("5:0503", via="aircraft", observer="a1", cls="aircraft",
                           setup=lambda g: g.marker("smoke", "5:0502"))
    assert failing(report, seq) == {}


def test_observing_is_not_spotting():
    # NOTE: "observe" (indirect barrage) and "spot" (direct fire) are different concepts
    g = BoardLog()
    g.deploy("fo", "british", "forward-observer", "5:0501").deploy("inf", "british", "infantry-platoon", "5:0502")
    g.deploy("g1", "german", "infantry-platoon", "5:0505")
    g.at(1, "barrage")
    g.add("HexObserved", {"observer": "fo", "target": "5:0505", "via": "forward-observer"}, side="british")
    g.at(1, "offensive-small-arms-fire")
    seq = g.add("SmallArmsFired", {"attack": "a1", "firers": ["inf"], "target": "5:0505"}, side="british")["seq"]
    assert failing(g.audit(), seq).get("IM.SPOT.NEEDED") == "violation"
