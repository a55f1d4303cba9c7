"""What the analytics projection derives from one game's lines, one line at a time.

A `GameTally` holds the little it must remember of a game between pages of the notification
log (element sides and points spent, declared barrages, observation routes, unit places, and
the resistance tracker); it is saved as JSON beside the results, in the same transaction, so
that the projection can stop and resume anywhere.

The resistance-turn count is the auditor's own fold (domain/rules/infernal_machines/resistance.py,
IM.ART.RESIST.*: turns of small arms fire by non-artillery units without an elimination or
retreat; a success resets to 0; turns without fire and barrages change nothing), fed line by
line, so that `column_computed` is exactly the column the auditor expects. Mortar fire counts
(the default reading of the `mortar-small-arms-resistance` interpretation).

A hex's history is told in stretches: a stretch opens with its first resisted turn and ends when
the guns were granted (a fire order with an "F" on the hex), the count was reset (a small-arms
elimination or retreat), or the position fell (no unit of the side that held it is left there).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from domain.dispatch import handlers_of
from domain.rules.infernal_machines.analytics_machines import MachineTally
from domain.rules.infernal_machines.resistance import HexResistance, ResistanceTracker

GONE = frozenset({"eliminated", "retreated"})

# Row kinds that `GameTally.take` yields, as (kind, dict).
AMMO, FIRE, SCATTER, RESIST = "ammo", "fire", "scatter", "resist"
# History events that end a stretch.
ENDINGS = ("granted", "reset", "position-fell")


def tracker_to_json(tracker: ResistanceTracker) -> dict[str, Any]:
    return {"mortars_count": tracker.mortars_count, "unit_class": tracker.unit_class,
            "attacks": tracker.attacks,
            "hexes": {h: [s.count, sorted(s.counted_turns), sorted(s.reset_turns), s.related]
                      for h, s in tracker.hexes.items()}}


def tracker_from_json(data: dict[str, Any]) -> ResistanceTracker:
    hexes = {h: HexResistance(count, set(counted), set(reset), related)
             for h, (count, counted, reset, related) in data["hexes"].items()}
    return ResistanceTracker(mortars_count=data["mortars_count"], unit_class=data["unit_class"],
                             hexes=hexes, attacks=data["attacks"])


@dataclass
class GameTally:
    game: str
    turn: int = 0
    units: dict[str, list] = field(default_factory=dict)       # unit -> [side, location]
    elements: dict[str, list] = field(default_factory=dict)    # element -> [side, points spent]
    observed: dict[str, str] = field(default_factory=dict)     # "side|hex" -> via of the last HexObserved
    barrages: dict[str, list] = field(default_factory=dict)    # barrage -> [target, via, went to FOT]
    firing: dict[str, Optional[str]] = field(default_factory=dict)  # attack -> firing side
    stretches: dict[str, list] = field(default_factory=dict)   # hex -> [open, side holding it]
    resist: ResistanceTracker = field(default_factory=ResistanceTracker)
    machines: Optional[MachineTally] = None   # breakdowns, fascines, vehicle losses (analytics_machines.py)

    def __post_init__(self):
        if self.machines is None:
            self.machines = MachineTally(self.game)

    def use_tables(self, pack) -> None:
        """Read the charts of this pack (the installation's own) instead of the one the game names."""
        self.machines.tables = pack

    # -- persistence ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "turn": self.turn, "units": self.units, "elements": self.elements,
                "observed": self.observed, "barrages": self.barrages, "firing": self.firing,
                "stretches": self.stretches, "resist": tracker_to_json(self.resist),
                "machines": self.machines.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameTally":
        data = dict(data)
        resist = tracker_from_json(data.pop("resist"))
        machines = data.pop("machines", None)
        return cls(**data, resist=resist,
                   machines=MachineTally.from_json(machines) if machines else MachineTally(data["game"]))

    # -- the fold ------------------------------------------------------------------------------
    def take(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Take one line of the game; return the rows it produces."""
        self.turn = line["turn"]
        handler = handlers_of(GameTally, "_").get(line["type"])
        rows = (handler(self, line, line["data"]) or []) if handler else []
        if line["type"] in ("UnitDeployed", "SmallArmsFired", "SmallArmsResolved", "FireOrderChecked"):
            rows += self._feed_resistance(line)
        return rows + self.machines.take(line)

    def count_at(self, hex_: Optional[str]) -> int:
        """The hex's resistance-turn count now: the FOT column the rules call for."""
        return self.resist.count(hex_)

    def _UnitDeployed(self, line, data):
        self.units[data["unit"]] = [line.get("side"), data.get("location")]

    def _UnitMoved(self, line, data):
        unit = self.units.get(data["unit"])
        if unit is None or not data["path"]:
            return None
        left, unit[1] = unit[1], data["path"][-1]
        return self._fell_check(line, left)

    def _UnitStatusChanged(self, line, data):
        unit = self.units.get(data["unit"])
        if unit is None or data["status"] not in GONE:
            return None
        left, unit[1] = unit[1], None
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
        barrage[2] = True
        return [(FIRE, {"game": self.game, "seq": line["seq"], "barrage": data["barrage"], "turn": line["turn"],
                        "target": barrage[0], "observer_via": barrage[1], "column_recorded": int(data["column"]),
                        "column_computed": self.count_at(barrage[0]), "granted": bool(data["granted"]),
                        "scattered": None})]

    def _ScatterTested(self, line, data):
        barrage = self.barrages.get(data["barrage"])
        if barrage and barrage[2]:
            return [(SCATTER, {"game": self.game, "barrage": data["barrage"], "scattered": bool(data["scattered"])})]
        return None

    def _SmallArmsFired(self, line, data):
        self.firing[data["attack"]] = line.get("side")

    def _SmallArmsResolved(self, line, data):
        target = (self.resist.attacks.get(data["attack"]) or {}).get("target")
        firing_side = self.firing.pop(data["attack"], None)
        if target is None:
            return None
        for result in data["results"]:
            side = (self.units.get(result["unit"]) or [None])[0]
            if side and side != firing_side:
                self.stretches.setdefault(target, [False, None])[1] = side
                break
        return None

    # -- resistance history ------------------------------------------------------------------------
    def _feed_resistance(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        if line["type"] == "FireOrderChecked":
            target = (self.barrages.get(line["data"]["barrage"]) or [None])[0]
            line = {**line, "data": {**line["data"], "_target": target}}
        self.resist.feed(line)
        if line["type"] == "SmallArmsResolved":
            self.resist.attacks.pop(line["data"]["attack"], None)  # resolved: never looked up again
        events, self.resist.history = self.resist.history, []
        return [row for ev in events for row in self._history_row(line, ev["hex"], ev["event"], ev["count"])]

    def _history_row(self, line, hex_: str, event: str, count: int) -> list[tuple[str, dict[str, Any]]]:
        stretch = self.stretches.setdefault(hex_, [False, None])
        if event == "resisted":
            stretch[0] = True
        elif not stretch[0] or event not in (*ENDINGS, "refused"):
            return []  # nothing running on this hex (or a barrage landing): not part of a stretch
        elif event in ENDINGS:
            stretch[0] = False
        return [(RESIST, {"game": self.game, "seq": line["seq"], "hex": hex_, "turn": line["turn"],
                          "event": event, "count": count})]

    def _fell_check(self, line, hex_: Optional[str]):
        """The position fell: no unit of the side that held it is left in a resisting hex."""
        stretch = self.stretches.get(hex_) if hex_ else None
        if not stretch or not stretch[0] or not stretch[1]:
            return None
        if any(u[0] == stretch[1] and u[1] == hex_ for u in self.units.values()):
            return None
        return self._history_row(line, hex_, "position-fell", self.count_at(hex_))
