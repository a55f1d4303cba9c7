"""What the cross-game analytics derive from one Dux Bellorum AVBCW game, one line at a time
(projections/analytics.py keeps the rows; docs/analytics.md shows them).

- `avbcw-shot`: each resolved shooting attack, with whether the text makes the shooter low on
  ammunition: "A unit that makes a shooting attack and rolls more '1's' than successful hits
  becomes 'low on ammo'" (AVBCW.AMMO.LOW), Poorly supplied "if any shooting attack dice rolls a
  '1'" (AVBCW.EQ.POORSUP), Well supplied "only ... if all" (AVBCW.EQ.WELLSUP). The verdict is the
  auditor's own (`shooting.low_result`), over the faces of the attack's DB.SHOOT roll.
- `avbcw-ammo`: each AmmoStateChanged (low, exhausted, or normal again by a Supply unit,
  AVBCW.AB.SUPPLY), with how many attacks the unit (a vehicle: the weapon) had made by then.
- `avbcw-lp`: leadership points placed, used (by their `use`) and returned (AVBCW.TURN).
- `avbcw-supp`: a unit suppressed (AVBCW.SUPP.TRIGGER), unsuppressed (AVBCW.SUPP.EFFECTS) or gone
  while suppressed; the projection's query makes stretches of them.

Rulings are not applied: the rows are what the log recorded (as for Infernal Machines).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from domain.dispatch import handlers_of
from domain.rules.dux_bellorum_avbcw.events import ListedUnit
from domain.rules.dux_bellorum_avbcw.facts import GONE
from domain.rules.dux_bellorum_avbcw.shooting import low_result

SHOT, AMMO, LP, SUPP = "avbcw-shot", "avbcw-ammo", "avbcw-lp", "avbcw-supp"
SUPPRESSION = ("suppressed", "unsuppressed", "suppression-ignored")


def supply_of(listed: Optional[dict[str, Any]]) -> str:
    """The unit's supply for its 1s: poor (EQ.POORSUP), well (EQ.WELLSUP) or normal."""
    special = (listed or {}).get("special") or ()
    poor, well = "AVBCW.EQ.POORSUP" in special, "AVBCW.EQ.WELLSUP" in special
    return "poor and well" if poor and well else "poor" if poor else "well" if well else "normal"


@dataclass
class AVBCWTally:
    game: str
    listed: dict[str, dict] = field(default_factory=dict)      # unit -> its ArmyListed entry
    types: dict[str, str] = field(default_factory=dict)        # unit -> unit-table row
    shots: dict[str, list] = field(default_factory=dict)       # attack -> [shooter, weapon, dice, faces]
    fired: dict[str, int] = field(default_factory=dict)        # "unit|weapon" -> attacks resolved
    lows: dict[str, int] = field(default_factory=dict)         # "unit|weapon" -> low results recorded
    suppressed: list[str] = field(default_factory=list)        # units suppressed now

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "listed": self.listed, "types": self.types, "shots": self.shots,
                "fired": self.fired, "lows": self.lows, "suppressed": self.suppressed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "AVBCWTally":
        return cls(**data)

    def take(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        handler = handlers_of(AVBCWTally, "_").get(line["type"])
        return (handler(self, line, line["data"]) or []) if handler else []

    def _row(self, line: dict[str, Any], **values: Any) -> dict[str, Any]:
        return {"game": self.game, "seq": line["seq"], "turn": line["turn"], **values}

    def _weapon(self, unit: str, weapon: Optional[str]) -> Optional[str]:
        """The weapon named, else a lone listed weapon; None: the unit's own SHOOT rating."""
        weapons = (self.listed.get(unit) or {}).get("weapons") or []
        return weapon or (weapons[0]["weapon"] if len(weapons) == 1 else None)

    # -- the units ------------------------------------------------------------------------------
    def _ArmyListed(self, line, data):
        for unit in data["units"]:
            self.listed[unit["unit"]] = unit
            self.types[unit["unit"]] = unit["type"]

    def _UnitDeployed(self, line, data):
        if data.get("type") and data["unit"] not in self.types:
            self.types[data["unit"]] = data["type"]

    # -- shooting and ammunition ------------------------------------------------------------------
    def _ShotFired(self, line, data):
        self.shots[data["attack"]] = [data["shooter"], self._weapon(data["shooter"], data.get("weapon")),
                                      data["dice"], None]

    def _DieRolled(self, line, data):
        shot = self.shots.get(data.get("subject"))
        if shot is not None and data.get("purpose") == "DB.SHOOT":
            shot[3] = data.get("results") or [data["result"]]

    def _ShotResolved(self, line, data):
        shot = self.shots.pop(data["attack"], None)
        if shot is None:
            return None
        unit, weapon, dice, faces = shot
        key = f"{unit}|{weapon or ''}"
        self.fired[key] = self.fired.get(key, 0) + 1
        listed = self.listed.get(unit)
        low = None
        if faces is not None:
            entry = ListedUnit.model_validate(listed) if listed else None
            low, _ = low_result(entry, faces, faces.count(1), data["hits"])
        return [(SHOT, self._row(line, attack=data["attack"], unit=unit, type=self.types.get(unit), weapon=weapon,
                                 dice=dice, hits=data["hits"], ones=data.get("ones"), supply=supply_of(listed),
                                 low_by_text=low))]

    def _AmmoStateChanged(self, line, data):
        unit = data["unit"]
        weapon = self._weapon(unit, data.get("weapon"))
        key = f"{unit}|{weapon or ''}"
        first = data["state"] in ("low", "exhausted") and not self.lows.get(key)
        if data["state"] != "normal":
            self.lows[key] = self.lows.get(key, 0) + 1
        return [(AMMO, self._row(line, unit=unit, type=self.types.get(unit), weapon=weapon, state=data["state"],
                                 cause=data.get("cause"), attack=data.get("attack"), by=data.get("by"),
                                 attacks=self.fired.get(key, 0), first=first))]

    # -- leadership -----------------------------------------------------------------------------
    def _LeadershipPointsPlaced(self, line, data):
        return [(LP, self._row(line, side=line.get("side"), event="placed", unit=data["to"], by=data["from"],
                               points=data["points"], use=None))]

    def _LeadershipPointsUsed(self, line, data):
        return [(LP, self._row(line, side=line.get("side"), event="used", unit=data["unit"], by=None,
                               points=data["points"], use=data.get("use")))]

    def _LeadershipPointsReturned(self, line, data):
        return [(LP, self._row(line, side=data.get("side") or line.get("side"), event="returned", unit=None,
                               by=None, points=data["points"], use=None))]

    # -- suppression ----------------------------------------------------------------------------
    def _UnitStatusChanged(self, line, data):
        unit, status = data["unit"], data["status"]
        if status == "suppressed" and unit not in self.suppressed:
            self.suppressed.append(unit)
        elif status in SUPPRESSION[1:] or status in GONE:
            if unit not in self.suppressed:
                return None
            self.suppressed.remove(unit)
        else:
            return None
        return [(SUPP, self._row(line, unit=unit, type=self.types.get(unit), status=status,
                                 cause=data.get("cause")))]
