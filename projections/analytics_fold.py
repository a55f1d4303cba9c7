"""What the analytics projection derives from one game's lines, one line at a time.

A `GameTally` holds the little it must remember of a game between pages of the notification
log (element sides and points spent, declared barrages, observation routes, unit classes and
places, and each hex's resistance-turn count); it is saved as JSON beside the results, in the
same transaction, so that the projection can stop and resume anywhere.

The resistance-turn count follows the catalogue (Infernal Machines, *Indirect Barrage Fire
Procedure*, "Finally, before resolving the barrage ..." and its example):
- IM.ART.RESIST.COUNT: per hex, the number of turns with small arms fire on it by units other
  than artillery and no elimination or retreat; a turn counts once however many attacks.
- IM.ART.RESIST.PINNED_COUNTS: a "pinned" (or "hit") result does not stop the count.
- IM.ART.RESIST.RESET: an elimination or retreat by small arms fire erases the count, that
  turn's fire included; the next Fire Order Table roll uses column 0.
- IM.ART.RESIST.NO_SAF_TURN: a turn without small arms fire on the hex changes nothing, and
  barrages never count.
- IM.ART.RESIST.ARTY_EXCLUDED: fire by on-map guns (class artillery-gun) does not count. The
  text leaves mortars open; the catalogue notes they are treated as small arms elsewhere, and
  that is the reading taken here (MORTAR_FIRE_COUNTS).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

# The reading of IM.ART.RESIST.ARTY_EXCLUDED for mortars: their small arms fire counts.
MORTAR_FIRE_COUNTS = True
ARTILLERY_CLASSES = frozenset({"artillery-gun"} | (set() if MORTAR_FIRE_COUNTS else {"mortar"}))
SUCCESS = frozenset({"eliminated", "retreated"})
GONE = frozenset({"eliminated", "retreated"})

# Row kinds that `GameTally.take` yields, as (kind, dict).
AMMO, FIRE, SCATTER, RESIST = "ammo", "fire", "scatter", "resist"


@dataclass
class HexCount:
    """One hex's resistance-turn count and the open stretch of its history."""

    count: int = 0
    counted_turn: Optional[int] = None   # the turn already counted (a turn counts once)
    reset_turn: Optional[int] = None     # a turn whose fire was erased by a success
    open: bool = False                   # a history stretch is running (resisted, not yet ended)
    defender: Optional[str] = None       # the side holding the hex under fire

    def to_json(self) -> list:
        return [self.count, self.counted_turn, self.reset_turn, self.open, self.defender]

    @classmethod
    def from_json(cls, data: list) -> "HexCount":
        return cls(*data)


@dataclass
class GameTally:
    game: str
    turn: int = 0
    units: dict[str, list] = field(default_factory=dict)       # unit -> [class, side, location]
    elements: dict[str, list] = field(default_factory=dict)    # element -> [side, points spent]
    observed: dict[str, str] = field(default_factory=dict)     # "side|hex" -> via of the last HexObserved
    barrages: dict[str, list] = field(default_factory=dict)    # barrage -> [target, via, went to FOT]
    attacks: dict[str, list] = field(default_factory=dict)     # attack -> [target, counts, firing side]
    hexes: dict[str, HexCount] = field(default_factory=dict)

    # -- persistence ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "turn": self.turn, "units": self.units, "elements": self.elements,
                "observed": self.observed, "barrages": self.barrages, "attacks": self.attacks,
                "hexes": {h: c.to_json() for h, c in self.hexes.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameTally":
        hexes = {h: HexCount.from_json(c) for h, c in data.pop("hexes").items()}
        return cls(**data, hexes=hexes)

    # -- the fold ------------------------------------------------------------------------------
    def take(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Take one line of the game; return the rows it produces."""
        self.turn = line["turn"]
        handler = getattr(self, "_" + line["type"], None)
        if handler is None:
            return []
        return handler(line, line["data"]) or []

    def count_at(self, hex_: Optional[str]) -> int:
        """The hex's resistance-turn count now: the FOT column the rules call for."""
        held = self.hexes.get(hex_) if hex_ else None
        return held.count if held else 0

    def _UnitDeployed(self, line, data):
        self.units[data["unit"]] = [data["class"], line.get("side"), data.get("location")]

    def _UnitMoved(self, line, data):
        unit = self.units.get(data["unit"])
        if unit is None:
            return None
        left = unit[2]
        unit[2] = data["path"][-1] if data["path"] else left
        return self._fell_check(line, left)

    def _UnitStatusChanged(self, line, data):
        unit = self.units.get(data["unit"])
        if unit is None or data["status"] not in GONE:
            return None
        left, unit[2] = unit[2], None
        return self._fell_check(line, left)

    def _ArtilleryElementAssigned(self, line, data):
        self.elements[data["element"]] = [data["side"], 0]

    def _ArtilleryPointsSpent(self, line, data):
        element = self.elements.setdefault(data["element"], [line.get("side"), 0])
        element[1] += data["points"]
        return [(AMMO, {"game": self.game, "seq": line["seq"], "element": data["element"], "side": element[0],
                        "turn": line["turn"], "points": data["points"], "cumulative": element[1],
                        "reason": data.get("reason"), "barrage": data.get("barrage")})]

    def _HexObserved(self, line, data):
        self.observed[f"{line.get('side')}|{data['target']}"] = data["via"]

    def _BarrageDeclared(self, line, data):
        target = data.get("target")
        via = self.observed.get(f"{data['side']}|{target}") if target else None
        self.barrages[data["barrage"]] = [target, via, False]

    def _FireOrderChecked(self, line, data):
        barrage = self.barrages.setdefault(data["barrage"], [None, None, False])
        target = barrage[0]
        barrage[2] = True
        rows = [(FIRE, {"game": self.game, "seq": line["seq"], "barrage": data["barrage"], "turn": line["turn"],
                        "target": target, "observer_via": barrage[1], "column_recorded": data["column"],
                        "column_computed": self.count_at(target), "granted": bool(data["granted"]),
                        "scattered": None})]
        held = self.hexes.get(target) if target else None
        if data["granted"] and held and held.open:
            held.open = False
            rows.append(self._resist_row(line, target, held, "granted"))
        return rows

    def _ScatterTested(self, line, data):
        barrage = self.barrages.get(data["barrage"])
        if barrage and barrage[2]:
            return [(SCATTER, {"game": self.game, "barrage": data["barrage"], "scattered": bool(data["scattered"])})]
        return None

    def _SmallArmsFired(self, line, data):
        classes = [self.units.get(u, [None])[0] for u in data["firers"]]
        counts = any(c not in ARTILLERY_CLASSES for c in classes)
        self.attacks[data["attack"]] = [data["target"], counts, line.get("side")]

    def _SmallArmsResolved(self, line, data):
        attack = self.attacks.pop(data["attack"], None)
        if attack is None or not attack[1]:
            return None
        target, _, firing_side = attack
        held = self.hexes.setdefault(target, HexCount())
        held.defender = self._defender(data["results"], firing_side) or held.defender
        if any(r["result"] in SUCCESS for r in data["results"]):
            return self._reset(line, target, held)
        if line["turn"] in (held.counted_turn, held.reset_turn):
            return None
        held.count += 1
        held.counted_turn = line["turn"]
        held.open = True
        return [self._resist_row(line, target, held, "resisted")]

    def _reset(self, line, target: str, held: HexCount):
        was_open = held.open
        held.count, held.counted_turn, held.reset_turn, held.open = 0, None, line["turn"], False
        return [self._resist_row(line, target, held, "reset")] if was_open else None

    def _defender(self, results: list[dict[str, Any]], firing_side: Optional[str]) -> Optional[str]:
        for result in results:
            side = self.units.get(result["unit"], [None, None])[1]
            if side and side != firing_side:
                return side
        return None

    def _fell_check(self, line, hex_: Optional[str]):
        """The position fell: no unit of the side that held it is left in a resisting hex."""
        held = self.hexes.get(hex_) if hex_ else None
        if not held or not held.open or not held.defender:
            return None
        if any(u[1] == held.defender and u[2] == hex_ for u in self.units.values()):
            return None
        held.open = False
        return [self._resist_row(line, hex_, held, "fell")]

    def _resist_row(self, line, hex_: str, held: HexCount, event: str) -> tuple[str, dict[str, Any]]:
        return (RESIST, {"game": self.game, "seq": line["seq"], "hex": hex_, "turn": line["turn"],
                         "event": event, "count": held.count})
