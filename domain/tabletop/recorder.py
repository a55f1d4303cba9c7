"""Builds a tabletop game's log lines in order (game-log-tabletop.md): seq, turn and phase kept in
step with the events, dice from the seeded `random.Random` the generator hands it. What the two
tabletop rule systems' generators share; it knows no rule."""
from __future__ import annotations

import random
from typing import Any, Optional

Point = tuple[float, float]


def inches(value: float) -> float:
    """A measure as a tape gives it: to 0.1"."""
    return round(value * 10) / 10


class TableRecorder:
    def __init__(self, game: str, rng: random.Random):
        self.game, self.rng = game, rng
        self.lines: list[dict[str, Any]] = []
        self.turn, self.phase = 0, "setup"
        self.attacks = 0

    def emit(self, kind: str, data: dict[str, Any], side: Optional[str] = None) -> dict[str, Any]:
        line = {"v": 1, "game": self.game, "seq": len(self.lines) + 1, "turn": self.turn, "phase": self.phase,
                "side": side, "type": kind, "data": data}
        self.lines.append(line)
        return line

    def start_turn(self, turn: int) -> None:
        self.turn, self.phase = turn, "start"
        self.emit("TurnStarted", {"turn": turn})

    def start_phase(self, phase: str) -> None:
        self.phase = phase
        self.emit("PhaseStarted", {"phase": phase, "active": None})

    def next_attack(self) -> str:
        self.attacks += 1
        return f"a-{self.attacks}"

    def faces(self, count: int, sides: int = 6) -> list[int]:
        return [self.rng.randint(1, sides) for _ in range(count)]

    def roll(self, side: Optional[str], purpose: str, faces: list[int], subject: str, sides: int = 6) -> dict:
        """A DieRolled of `faces` (one die: `d6`; several: `Nd6` with its results)."""
        several = {"results": faces} if len(faces) > 1 else {}
        die = f"{len(faces)}d{sides}" if len(faces) > 1 else f"d{sides}"
        return self.emit("DieRolled", {"purpose": purpose, "die": die, **several, "result": sum(faces),
                                       "subject": subject}, side)

    def deploy(self, side: str, unit: str, at: Point, facing: int, w: float, d: float, **extra: Any) -> dict:
        return self.emit("UnitDeployed", {"unit": unit, "position": {"x": at[0], "y": at[1]}, "facing": facing,
                                          "footprint": {"w": w, "d": d}, **extra}, side)

    def move(self, side: str, unit: str, points: list[Point], mode: Optional[str] = None) -> dict:
        path = [{"x": inches(x), "y": inches(y)} for x, y in points]
        return self.emit("UnitMoved", {"unit": unit, **({"mode": mode} if mode else {}), "path": path}, side)

    def status(self, side: str, unit: str, status: str, cause: Optional[str] = None) -> dict:
        return self.emit("UnitStatusChanged", {"unit": unit, "status": status, **({"cause": cause} if cause else {})},
                         side)
