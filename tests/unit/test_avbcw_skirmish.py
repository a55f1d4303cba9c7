"""Dux Bellorum AVBCW units passing through each other (dux-bellorum-avbcw.txt, Movement: "All units
count as skirmishers. Vehicles can interpenetrate any friendly and enemy unit ... Figures from
different units must not 'intermix' at the end of any move"; Running people over). 5” x 2” bases
unless said; the Whippet's hull 3” x 5”."""
from __future__ import annotations

from tests.unit.test_avbcw_bravery import bravery
from tests.unit.test_avbcw_movement import INFANTRY, WHIPPET, Game


def table(**royal) -> Game:
    game = Game()
    game.army("royalist", **royal)
    game.army("socialist", **{"s-inf": INFANTRY})
    for i, unit in enumerate(royal):
        game.deploy("royalist", unit, 8.0 + 10 * i, 8.0, w=3.0 if unit == "r-tank" else 5.0,
                    d=5.0 if unit == "r-tank" else 2.0)
    game.deploy("socialist", "s-inf", 24.0, 20.0, facing=180)
    game.start(1)
    return game


def test_no_unit_ends_intermixed():
    # r-inf to (24, 19) overlaps s-inf's base (y 19 to 21); to (24, 17) its front edge (y 18) is
    # 1.0” short; to (24, 18) the bases touch: in contact, not intermixed
    game = table(**{"r-inf": INFANTRY, "r-two": INFANTRY})
    mixed = game.move("royalist", "r-inf", (8.0, 8.0), (24.0, 19.0))
    game.start(2)
    touching = game.move("royalist", "r-two", (18.0, 8.0), (30.0, 18.0))
    verdicts = game.verdicts("AVBCW.MOVE.SKIRMISH")
    assert verdicts[mixed][0] == "violation" and verdicts[touching][0] == "ok"


def test_vehicles_pass_through():
    # "Vehicles can interpenetrate any friendly and enemy unit"; an infantry unit passing through
    # one is the core skirmisher rule: unverifiable
    game = table(**{"r-tank": WHIPPET, "r-inf": INFANTRY})
    tank = game.move("royalist", "r-tank", (8.0, 8.0), (8.0, 30.0))          # through nothing
    game.start(2)
    through = game.move("royalist", "r-inf", (18.0, 8.0), (24.0, 30.0))     # through s-inf
    verdicts = game.verdicts("AVBCW.MOVE.SKIRMISH")
    assert verdicts[tank] == ["ok"] and verdicts[through] == ["ok", "unverifiable"]


def test_an_enemy_driven_through_is_run_over():
    # "If a vehicle drives through (interpenetrates) an enemy unit during its move, that unit must
    # test BRV ... If the BRV test is failed, the unit loses 2 COH (which can be cancelled with LPs)"
    game = table(**{"r-tank": WHIPPET})
    game.move("royalist", "r-tank", (8.0, 8.0), (24.0, 12.0), (24.0, 30.0))
    recorded = game.add("UnitRunOver", {"vehicle": "r-tank", "unit": "s-inf"}, "royalist")
    bravery(game, "s-inf", brv=4, passed=False, why="run-over", side="socialist")
    lost = game.add("CohesionLost", {"unit": "s-inf", "points": 2, "cause": "run-over"}, "socialist")
    verdicts = game.verdicts("AVBCW.VEH.RUNOVER")
    assert verdicts[recorded] == ["ok"] and verdicts[lost] == ["ok"]
    assert all(v == ["ok"] for v in verdicts.values())
    # no UnitRunOver recorded; and one for a unit the vehicle did not drive through
    game = table(**{"r-tank": WHIPPET})
    silent = game.move("royalist", "r-tank", (8.0, 8.0), (24.0, 12.0), (24.0, 30.0))
    game.start(2)
    stray = game.add("UnitRunOver", {"vehicle": "r-tank", "unit": "s-inf"}, "royalist")
    verdicts = game.verdicts("AVBCW.VEH.RUNOVER")
    assert verdicts[silent] == ["violation"] and verdicts[stray] == ["violation"]
    # a failed test with neither the 2 COH nor LPs
    game = table(**{"r-tank": WHIPPET})
    game.move("royalist", "r-tank", (8.0, 8.0), (24.0, 12.0), (24.0, 30.0))
    game.add("UnitRunOver", {"vehicle": "r-tank", "unit": "s-inf"}, "royalist")
    failed = bravery(game, "s-inf", brv=4, passed=False, why="run-over", side="socialist")
    game.start(2)
    assert game.verdicts("AVBCW.VEH.RUNOVER")[failed] == ["ok", "violation"]   # BRV 8 - 4 right; no loss
