"""Building small logs in tests: envelopes with seq, turn and phase kept right."""
from __future__ import annotations

import json
from typing import Any, Optional

from domain.log import chain


class LogBuilder:
    def __init__(self, game: str = "t-game", date: str = "1917-04", tables: str = "none",
                 options: Optional[list] = None, permissions: Optional[list] = None):
        self.game, self.lines = game, []
        self.turn, self.phase = 0, "setup"
        self.add("GameStarted", {"ruleset": "infernal-machines", "scenario": "test", "date": date,
                                 "sides": {"british": {"nation": "british", "bloc": "allied"},
                                           "german": {"nation": "german", "bloc": "central"}},
                                 "options": options or [], "permissions": permissions or [],
                                 "tables": tables})

    def add(self, type_: str, data: dict[str, Any], side: Optional[str] = None, **extra) -> dict:
        line = {"v": 1, "game": self.game, "seq": len(self.lines) + 1, "turn": self.turn,
                "phase": self.phase, "side": side, "type": type_, "data": data, **extra}
        self.lines.append(line)
        return line

    def turn_start(self, turn: int) -> None:
        self.turn, self.phase = turn, "start"
        self.add("TurnStarted", {"turn": turn})

    def phase_start(self, phase: str, active: Optional[str]) -> None:
        self.phase = phase
        self.add("PhaseStarted", {"phase": phase, "active": active})

    def unit(self, unit: str, side: str, cls: str, location: str, **data) -> None:
        self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location,
                                  "facing": 1, "morale": 4, "firepower": 4, "range": 6,
                                  "movement": 4, "attrs": {}, **data}, side=side)

    def roll(self, purpose: str, result: int, subject: str, side: str, die: str = "d6", **data) -> None:
        self.add("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject, **data},
                 side=side)

    def texts(self) -> list[str]:
        return [json.dumps(l) for l in self.lines]

    def canonical(self) -> list[str]:
        return list(chain(self.lines))
