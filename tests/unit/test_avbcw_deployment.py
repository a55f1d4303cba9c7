"""Dux Bellorum AVBCW deployment and basing, judged on the table in inches (dux-bellorum-avbcw.txt,
Deployment: "each side alternately deploys 3 units (of any type) at a time"; Basing: "All
figures in a unit must remain within 3” of this central figure. Figures from different units
must not ‘intermix’"; Ambush: "on your first turn, as its move, the unit is deployed anywhere in
play but no closer than 12” to any enemy unit")."""
from __future__ import annotations

from tests.unit.test_avbcw_movement import INFANTRY, Game

AMBUSHERS = INFANTRY | {"special": ["AVBCW.AB.AMBUSH"], "pts": 7}


def listed(game: Game, side: str, *units: str, **special: dict) -> None:
    game.army(side, **{u: special.get(u.replace("-", "_"), INFANTRY) for u in units})


def test_sides_deploy_three_at_a_time():
    game = Game()
    listed(game, "royalist", "r-1", "r-2", "r-3", "r-4")
    listed(game, "socialist", "s-1", "s-2", "s-3", "s-4", "s-5")
    seqs = {}
    for i, (side, unit) in enumerate([("royalist", "r-1"), ("royalist", "r-2"), ("royalist", "r-3"),
                                      ("socialist", "s-1"), ("socialist", "s-2"),      # 2 of 3, then...
                                      ("royalist", "r-4"),                             # out of turn
                                      ("socialist", "s-3"), ("socialist", "s-4"), ("socialist", "s-5")]):
        seqs[unit] = game.deploy(side, unit, 4.0 + 5 * i, 8.0 if side == "royalist" else 40.0) or len(game.lines)
    verdicts = game.verdicts("AVBCW.DEPLOY")
    assert [verdicts[seqs[u]] for u in ("r-1", "r-2", "r-3", "s-1", "s-2")] == [["ok"]] * 5
    assert verdicts[seqs["r-4"]] == ["violation"]   # socialist had placed 2 of its 3, with 3 to go
    # the royalists have none left: "alternately" cannot hold, the socialists deploy the rest
    assert [verdicts[seqs[u]] for u in ("s-3", "s-4", "s-5")] == [["ok"]] * 3


def test_a_fourth_unit_in_a_row_while_the_other_side_waits():
    game = Game()
    listed(game, "royalist", "r-1", "r-2", "r-3", "r-4")
    listed(game, "socialist", "s-1")
    for i, unit in enumerate(("r-1", "r-2", "r-3", "r-4")):
        game.deploy("royalist", unit, 4.0 + 6 * i, 8.0)
    fourth = len(game.lines)
    assert game.verdicts("AVBCW.DEPLOY")[fourth] == ["violation"]


def test_every_unit_deploys_at_the_start():
    game = Game()
    listed(game, "royalist", "r-1", "r-amb", r_amb=AMBUSHERS)
    listed(game, "socialist", "s-1", "s-late")
    game.deploy("royalist", "r-1", 10.0, 8.0)
    game.deploy("socialist", "s-1", 10.0, 40.0, facing=180)
    game.start(1)
    start = next(l["seq"] for l in game.lines if l["type"] == "TurnStarted")
    late = game.add("UnitDeployed", {"unit": "s-late", "position": {"x": 30.0, "y": 40.0}, "facing": 180,
                                     "footprint": {"w": 5.0, "d": 2.0}}, "socialist")
    verdicts = game.verdicts("AVBCW.DEPLOY")
    assert verdicts[start] == ["violation"]          # s-late missing; r-amb waits for its ambush
    assert verdicts[late] == ["violation"]


def test_ambush():
    game = Game()
    listed(game, "royalist", "r-1", "r-amb", "r-amb2", r_amb=AMBUSHERS, r_amb2=AMBUSHERS)
    listed(game, "socialist", "s-1")
    game.deploy("royalist", "r-1", 10.0, 8.0)
    game.deploy("socialist", "s-1", 24.0, 30.0, facing=180)     # footprint 5 x 2: y 29 to 31
    game.start(1)
    far = game.add("UnitDeployed", {"unit": "r-amb", "position": {"x": 24.0, "y": 16.0}, "facing": 0,
                                    "footprint": {"w": 5.0, "d": 2.0}, "attrs": {"ambush": True}}, "royalist")
    near = game.add("UnitDeployed", {"unit": "r-amb2", "position": {"x": 24.0, "y": 17.2}, "facing": 0,
                                     "footprint": {"w": 5.0, "d": 2.0}, "attrs": {"ambush": True}}, "royalist")
    moved = game.move("royalist", "r-amb", (24.0, 16.0), (24.0, 15.0))
    verdicts = game.verdicts("AVBCW.AB.AMBUSH")
    assert verdicts[far] == ["ok"]             # 29 - 17 = 12.0": "no closer than 12”"
    assert verdicts[near] == ["violation"]     # 29 - 18.2 = 10.8"
    assert verdicts[moved] == ["violation"]    # "as its move"
    early = Game()
    listed(early, "royalist", "r-amb", r_amb=AMBUSHERS)
    early.deploy("royalist", "r-amb", 10.0, 8.0)
    assert early.verdicts("AVBCW.AB.AMBUSH")[len(early.lines)] == ["violation"]   # "not deployed as normal"


def test_figures_within_3_of_the_leader():
    game = Game()
    listed(game, "royalist", "r-1", "r-2", "r-3", "r-4")
    wide = game.deploy("royalist", "r-1", 10.0, 8.0, w=8.0) or len(game.lines)      # corners 4.1" away
    game.add("UnitDeployed", {"unit": "r-2", "position": {"x": 30.0, "y": 8.0}, "facing": 0,
                              "footprint": {"w": 6.0, "d": 1.0}, "figure_base": 1.0,
                              "figures": [{"x": 30.0, "y": 8.0}, {"x": 33.5, "y": 8.0}, {"x": 26.0, "y": 8.0}]},
             "royalist")
    placed = len(game.lines)
    game.add("UnitDeployed", {"unit": "r-3", "position": {"x": 40.0, "y": 20.0}, "facing": 0,
                              "footprint": {"w": 6.0, "d": 1.0}, "figure_base": 1.0,
                              "figures": [{"x": 40.0, "y": 20.0}, {"x": 44.5, "y": 20.0}]}, "royalist")
    strayed = len(game.lines)
    corners = game.deploy("royalist", "r-4", 20.0, 20.0, w=6.0) or len(game.lines)   # 3.0" across, 3.2" at corners
    base = game.verdicts("AVBCW.BASE")
    assert base[wide][0] == "violation"          # 8" across: 4.0" either side of the leader
    assert base[corners][0] == "unverifiable"
    # 3.5" and 4.0" centre to centre, 1" bases: 2.5" and 3.0" edge to edge (`measure=closest`)
    assert base[placed][0] == "ok"
    assert base[strayed][0] == "violation"     # 4.5 - 1.0 = 3.5"
    assert game.verdicts("AVBCW.BASE", "measure=centre")[placed][0] == "violation"   # 4.0" centre to centre


def test_units_do_not_intermix():
    game = Game()
    listed(game, "royalist", "r-1", "r-2", "r-3")
    game.deploy("royalist", "r-1", 10.0, 8.0)
    touching = game.deploy("royalist", "r-2", 15.0, 8.0) or len(game.lines)       # edges at x 12.5
    game.deploy("royalist", "r-3", 13.0, 9.0)
    mixed = len(game.lines)
    base = game.verdicts("AVBCW.BASE")
    assert base[touching] == ["ok", "ok"]
    assert base[mixed][1] == "violation"
