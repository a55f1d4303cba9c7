"""Small logs for the board, movement, sight, observation and spotting tests."""
from __future__ import annotations

from typing import Any, Optional

from domain.board.state import BoardState, fold
from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import builtin
from tests.builders import LogBuilder


class BoardLog(LogBuilder):
    """A game on map 5 (by default) with set-up helpers and a move helper that keeps phases right."""

    def __init__(self, hexes: Optional[dict] = None, hexsides: Optional[list] = None, maps: Optional[list] = None,
                 weather: str = "fair", state: str = "good", **kw):
        super().__init__(**kw)
        self.add("MapDefined", {"maps": maps or ["5"], "hexes": hexes or {}, "hexsides": hexsides or []})
        self.add("WeatherSet", {"weather": weather, "terrain_state": state})

    def deploy(self, unit: str, side: str, cls: str, location: Optional[str], movement: Optional[float] = None,
               **attrs: Any) -> "BoardLog":
        self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location,
                                  "movement": movement, "attrs": attrs}, side=side)
        return self

    def marker(self, marker: str, location: str, **data) -> "BoardLog":
        self.add("MarkerPlaced", {"marker": marker, "location": location, **data})
        return self

    def status(self, unit: str, status: str, side: Optional[str] = None, **data) -> "BoardLog":
        self.add("UnitStatusChanged", {"unit": unit, "status": status, **data}, side=side)
        return self

    def at(self, turn: int, phase: str, active: Optional[str] = "british") -> "BoardLog":
        if turn != self.turn:
            self.turn_start(turn)
        self.phase_start(phase, active)
        return self

    def move(self, unit: str, path: list[str], side: str = "british", mode: Optional[str] = None,
             **data) -> dict:
        payload = {"unit": unit, "path": path, **data}
        if mode:
            payload["mode"] = mode
        return self.add("UnitMoved", payload, side=side)

    def board(self, upto: Optional[int] = None) -> BoardState:
        return fold(self.lines, upto=upto)

    def audit(self, tables: str = "none", **readings: str):
        interp = Interpretations()
        for name, reading in readings.items():
            interp.choose(name.replace("__", "."), reading)
        return audit(self.lines, tables=builtin(tables), interpretations=interp)


def apps(report, rule: Optional[str] = None, seq: Optional[int] = None) -> list:
    return [a for a in report.applications if (rule is None or a.rule == rule) and (seq is None or a.seq == seq)]


def verdicts(report, rule: str, seq: Optional[int] = None) -> list[str]:
    return [a.verdict.value for a in apps(report, rule, seq)]


def failing(report, seq: Optional[int] = None) -> dict[str, str]:
    """{rule: verdict} of every application that is not ok (at one seq)."""
    return {a.rule: a.verdict.value for a in report.applications
            if a.verdict.value != "ok" and (seq is None or a.seq == seq)}
