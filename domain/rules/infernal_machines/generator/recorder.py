"""Builds the lines of a game log in order: seq, turn and phase kept in step with the events.

The recorder writes what it is told; it never rolls dice. The generator feeds it seeded rolls, the
hand-written fixtures feed it dice chosen by hand. `text()` gives the canonical, hash-chained JSONL.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from domain.log import chain

PHASE_ORDER = (
    "pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
    "second-foot-movement", "defensive-anti-tank-fire", "defensive-small-arms-fire",
    "offensive-anti-tank-fire", "offensive-small-arms-fire", "close-combat", "end",
)


class Recorder:
    def __init__(self, game: str):
        self.game = game
        self.lines: list[dict[str, Any]] = []
        self.turn = 0
        self.phase = "setup"
        self.active: Optional[str] = None

    # -- the envelope ----------------------------------------------------------------------
    @property
    def next_seq(self) -> int:
        return len(self.lines) + 1

    def emit(self, kind: str, data: dict[str, Any], side: Optional[str] = None) -> dict[str, Any]:
        line = {"v": 1, "game": self.game, "seq": self.next_seq, "turn": self.turn,
                "phase": self.phase, "side": side, "type": kind, "data": data}
        self.lines.append(line)
        return line

    def text(self) -> str:
        return "".join(t + "\n" for t in chain(self.lines))

    # -- turn structure --------------------------------------------------------------------
    def start_turn(self, turn: int) -> None:
        self.turn, self.phase, self.active = turn, "start", None
        self.emit("TurnStarted", {"turn": turn})

    def start_phase(self, phase: str, active: Optional[str]) -> None:
        self.phase, self.active = phase, active
        self.emit("PhaseStarted", {"phase": phase, "active": active})

    # -- set-up ----------------------------------------------------------------------------
    def game_started(self, *, scenario: str, date: str, sides: dict[str, dict[str, str]],
                     options: Iterable[str] = (), permissions: Iterable[str] = (), tables: str = "none"):
        return self.emit("GameStarted", {"ruleset": "infernal-machines", "scenario": scenario, "date": date,
                                         "sides": sides, "options": list(options),
                                         "permissions": list(permissions), "tables": tables})

    def deploy(self, side: str, unit: str, cls: str, location: str, *, name: str, morale: int,
               firepower: float, range_: int, movement: float, facing: int = 1, **attrs: Any):
        return self.emit("UnitDeployed", {"unit": unit, "class": cls, "name": name, "location": location,
                                          "facing": facing, "morale": morale, "firepower": firepower,
                                          "range": range_, "movement": movement, "attrs": attrs}, side)

    def element(self, side: str, element: str, firepower: int, points: Optional[int] = None):
        data = {"element": element, "side": side, "firepower": firepower}
        if points is not None:
            data["artillery_points"] = points
        return self.emit("ArtilleryElementAssigned", data, side)

    # -- dice and procedure steps ----------------------------------------------------------
    def roll(self, side: Optional[str], purpose: str, die: str, result: int, subject: Optional[str],
             modifiers: Iterable[tuple[int, str]] = (), note: Optional[str] = None):
        data: dict[str, Any] = {"purpose": purpose, "die": die, "result": result, "subject": subject}
        mods = [{"value": v, "why": why} for v, why in modifiers]
        if mods:
            data["modifiers"] = mods
        if note:
            data["note"] = note
        return self.emit("DieRolled", data, side)

    def status(self, side: Optional[str], unit: str, status: str, cause: Optional[str] = None,
               turns: Optional[int] = None):
        data: dict[str, Any] = {"unit": unit, "status": status}
        if cause is not None:
            data["cause"] = cause
        if turns is not None:
            data["turns"] = turns
        return self.emit("UnitStatusChanged", data, side)

    def marker(self, side: Optional[str], marker: str, location: str, *, placed: bool = True,
               turns: Optional[int] = None, unit: Optional[str] = None):
        data: dict[str, Any] = {"marker": marker, "location": location}
        if turns is not None:
            data["turns"] = turns
        if unit is not None:
            data["unit"] = unit
        return self.emit("MarkerPlaced" if placed else "MarkerRemoved", data, side)
