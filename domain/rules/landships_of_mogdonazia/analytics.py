"""What the cross-game analytics derive from one Landships of Mogdonazia game, one line at a time
(projections/analytics.py keeps the rows; docs/analytics.md shows them).

- `mog-test`: each breakdown, restart and repair roll, with the odds the text gives it (the
  breakdown module's numbers): "Breakdown Roll 1D6 On road 6 Off road 5-6 In rough terrain 4-6"
  (MOG.VEH.BREAKDOWN), restart "On a 4 to 6" (MOG.VEH.BREAKDOWN.RESTART), repair "On a 5 to 6"
  (MOG.VEH.REPAIR).
- `mog-lost`: a turn a vehicle lost: one it began broken down (from its breakdown until the turn
  of its restart, which "will move normally next turn"), or one its crew spent repairing ("cannot
  do anything else for the entire turn").
- `mog-card`: each hit card (MOG.FIRE.CARD) and its outcome; `mog-crit`: each critical hit
  (MOG.FIRE.CRIT, MOG.AIR.CRIT, MOG.CLOCKWORK) with the card that called for it, if one did.

Rulings are not applied: the rows are what the log recorded (as for Infernal Machines).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional

from domain.dispatch import handlers_of
from domain.rules.landships_of_mogdonazia.breakdown import BREAKS_ON, GONE, REPAIRED_ON, RESTARTS_ON

TEST, LOST, CARD, CRIT = "mog-test", "mog-lost", "mog-card", "mog-crit"


def d6_odds(lowest: int) -> float:
    """The chance of a d6 showing `lowest` or more."""
    return float(Fraction(7 - lowest, 6))


def test_odds(test: str, terrain: Optional[str]) -> Optional[float]:
    """The text's odds of a breakdown (by terrain), a restart or a repair succeeding."""
    if test == "breakdown":
        return d6_odds(BREAKS_ON[terrain]) if terrain in BREAKS_ON else None
    return d6_odds(RESTARTS_ON if test == "restart" else REPAIRED_ON)


@dataclass
class MOGTally:
    game: str
    turn: int = 0
    kinds: dict[str, str] = field(default_factory=dict)    # unit -> what it was built as
    broken: list[str] = field(default_factory=list)        # vehicles broken down, not yet restarted
    repairing: list[str] = field(default_factory=list)     # "unit|turn" of repairs counted
    cards: dict[str, list] = field(default_factory=dict)   # target -> [card, attack, outcome]: its critical card

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "turn": self.turn, "kinds": self.kinds, "broken": self.broken,
                "repairing": self.repairing, "cards": self.cards}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "MOGTally":
        return cls(**data)

    def take(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        self.turn = line["turn"]
        handler = handlers_of(MOGTally, "_").get(line["type"])
        return (handler(self, line, line["data"]) or []) if handler else []

    def _row(self, line: dict[str, Any], unit: str, **values: Any) -> dict[str, Any]:
        return {"game": self.game, "seq": line["seq"], "turn": line["turn"], "unit": unit,
                "vehicle": self.kinds.get(unit), **values}

    def _VehicleBuilt(self, line, data):
        self.kinds[data["unit"]] = data["kind"]

    def _TurnStarted(self, line, data):
        return [(LOST, self._row(line, unit, cause="breakdown")) for unit in self.broken]

    def _BreakdownTested(self, line, data):
        unit, test = data["unit"], data["kind"]
        success = bool(data.get("broke_down") if test == "breakdown" else data.get("restarted"))
        if test == "breakdown" and success and unit not in self.broken:
            self.broken.append(unit)
        elif test == "restart" and success and unit in self.broken:
            self.broken.remove(unit)
        return [(TEST, self._row(line, unit, test=test, terrain=data.get("terrain"), system=None, success=success,
                                 odds=test_odds(test, data.get("terrain"))))]

    def _RepairAttempted(self, line, data):
        unit = data["unit"]
        rows = [(TEST, self._row(line, unit, test="repair", terrain=None, system=data.get("system"),
                                 success=bool(data["repaired"]), odds=test_odds("repair", None)))]
        if f"{unit}|{line['turn']}" not in self.repairing and self.kinds.get(unit) != "airship":
            # an airship repeats last turn's move while repairing (MOG.AIR.REPAIR): no turn lost
            self.repairing.append(f"{unit}|{line['turn']}")
            rows.append((LOST, self._row(line, unit, cause="repair")))
        return rows

    def _UnitStatusChanged(self, line, data):
        if data["status"] in GONE and data["unit"] in self.broken:
            self.broken.remove(data["unit"])

    def _HitCardResolved(self, line, data):
        target = data["target"]
        if data["outcome"] in ("critical", "critical-each-turn"):
            self.cards[target] = [data["card"], data["attack"], data["outcome"]]
        return [(CARD, self._row(line, target, attack=data["attack"], weapon_class=data["weapon_class"],
                                 card=data["card"], outcome=data["outcome"]))]

    def _CriticalHit(self, line, data):
        unit = data["unit"]
        card, attack, outcome = self.cards.get(unit) or [None, None, None]
        if outcome != "critical-each-turn":   # a card calling for a critical every turn keeps calling
            self.cards.pop(unit, None)
        return [(CRIT, self._row(line, unit, chart=data["chart"], result=data["result"],
                                 sub_roll=data.get("sub_roll"), effect=data.get("effect"), card=card,
                                 attack=attack))]
