"""Small hand-built logs for the analytics tests (written with the corpus's LogWriter)."""
from __future__ import annotations

from typing import Any

from bench.corpus import LogWriter

H = "1:1010"      # the German position under fire
H2 = "1:1210"     # a second German position


def setup(game: str) -> LogWriter:
    w = LogWriter(game)
    w.map([H, H2, "1:1005", "1:1007"])
    w.deploy("german", "g-1", "infantry-platoon", H)
    w.deploy("german", "g-2", "infantry-platoon", H)
    w.deploy("german", "g-3", "infantry-platoon", H2)
    w.deploy("british", "b-fo", "forward-observer", "1:1005")
    w.deploy("british", "b-inf", "infantry-platoon", "1:1007")
    w.deploy("british", "b-inf2", "infantry-platoon", "1:1007")
    w.deploy("british", "b-gun", "artillery-gun", "1:1005")
    w.element("british", "obm-1")
    w.element("british", "obm-2", firepower=10)
    return w


def barrage(w: LogWriter, barrage: str, target: str, *, column: int, granted: bool, spend: dict[str, int],
            scatter_roll: int = 2, via: str = "forward-observer") -> None:
    """Observation, declaration, points spent, communication (passes), FOT, then scatter and
    resolution when granted or a cancellation when refused."""
    w.observe("british", "b-fo" if via == "forward-observer" else None, target, via=via)
    w.declare("british", barrage, target, list(spend), observer="b-fo")
    for element, points in spend.items():
        w.spend("british", element, points, barrage)
    w.communication("british", barrage, 5)
    w.fire_order("british", barrage, column, 3, granted)
    if granted:
        w.scatter("british", barrage, scatter_roll)
        w.resolve("british", barrage, target, 4)
    else:
        w.cancel("british", barrage, "fire-order-refused")


def turn(w: LogWriter) -> None:
    w.turn_start()
    w.phase_start("barrage")


def small_arms_phase(w: LogWriter) -> None:
    w.phase_start("offensive-small-arms-fire")


def resistance_game(game: str = "stretches") -> list[dict[str, Any]]:
    """A hex H that resists two turns (two attacks in turn 2 count once), has a fire order refused,
    then granted; a second hex H2 that resists, then its defender is eliminated (reset); H
    resists again after the grant and then its defenders leave (the position fell)."""
    w = setup(game)
    turn(w)                                                   # turn 1: first-turn barrage without FOT
    small_arms_phase(w)
    w.small_arms("british", "a-1", ["b-inf"], H, [("g-1", "no-effect")])
    w.small_arms("british", "a-2", ["b-inf"], H2, [("g-3", "pinned")])
    turn(w)                                                   # turn 2
    barrage(w, "br-1", H, column=1, granted=False, spend={"obm-1": 2})
    small_arms_phase(w)
    w.small_arms("british", "a-3", ["b-inf"], H, [("g-1", "no-effect")])
    w.small_arms("british", "a-4", ["b-inf2"], H, [("g-2", "pinned")])
    w.small_arms("british", "a-5", ["b-inf"], H2, [("g-3", "eliminated")])
    turn(w)                                                   # turn 3
    barrage(w, "br-2", H, column=2, granted=True, spend={"obm-1": 1, "obm-2": 3}, scatter_roll=6)
    barrage(w, "br-3", H2, column=1, granted=True, spend={"obm-2": 2})
    small_arms_phase(w)
    w.small_arms("british", "a-6", ["b-gun"], H, [("g-1", "no-effect")])
    w.small_arms("british", "a-7", ["b-inf"], H, [("g-1", "no-effect")])
    w.phase_start("first-foot-movement", "german")
    w.move("german", "g-1", [H, H2])
    w.move("german", "g-2", [H, H2])
    return w.lines
