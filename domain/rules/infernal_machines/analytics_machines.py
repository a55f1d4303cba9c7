"""The machines' part of the analytics fold: breakdown checks against the text's odds, fascines and
vehicle losses by cause, one line at a time (GameTally in analytics.py holds one `MachineTally`).

Rows (kind, dict), kept as JSON by the projection and summed by projections/analytics_machines.py:

- `im-breakdown`: `event` `check` (a `LS.BREAKDOWN` roll about a vehicle, with the chance the text
  gives it), `broke` (a vehicle's `UnitStatusChanged` broken-down) and `second` (the tank's second die,
  `IM.TANK.BREAKDOWN`: "If the result is even, the tank in question breaks down for the next turn only").
  The chance of a check is the Landships! breakdown table's (not in the text: the game's table pack,
  table `BREAKDOWN`, read at the roll's die plus the vehicle's breakdown modifier, which the text gives:
  "+0 unless specifically stated otherwise", the catalogue's per type, IM.TANK.BREAKDOWN.MOD_DEFAULT).
  Armoured trains and boats "never suffer breakdowns" (IM.TRAIN.MOVE.LOCO, IM.NAV.MOVE): chance 0.
- `im-fascine`: `carried` (a tank deployed with a fascine), `drop` (IM.TANK.FASCINE.DROP: "On a result of
  3 to 6 ... the fascine drops"), `unjam` (IM.TANK.FASCINE.UNJAM: "On a result of 1 to 4, the crew
  succeeds"), `laid` (a `fascine` marker) and `crossing` (a tank moving over a dropped fascine: what it
  was used for).
- `im-loss`: a vehicle knocked out or removed, once, with its cause (analytics_losses.py).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Optional

from domain.board.hexes import Placement, distance
from domain.rules.infernal_machines.analytics_losses import LossTracker
from domain.rules.infernal_machines.tanks import expected_breakdown_modifier
from domain.rules.infernal_machines.vehicles import VEHICLE_CLASSES, spec_named
from domain.rules.tables import TablePack, resolve

BREAKDOWN, FASCINE = "im-breakdown", "im-fascine"
NEVER_BREAK = {"armoured-train": "IM.TRAIN.MOVE.LOCO: \"Armoured trains never suffer breakdowns\"",
               "boat": "IM.NAV.MOVE: \"Boats never suffer breakdowns\""}
TABLE = "BREAKDOWN"
_DIE = re.compile(r"^(\d*)d(\d+)$")


@lru_cache(maxsize=16)
def game_pack(name: Optional[str]) -> TablePack:
    """The built-in pack a game names in GameStarted.tables (`none` by default), read once."""
    return resolve(name, None, "infernal-machines")


def faces(die: str) -> list[int]:
    """Every equally likely total of a die like d6 or 2d6."""
    found = _DIE.match(die or "")
    if not found:
        return []
    count, sides = int(found.group(1) or 1), int(found.group(2))
    return [sum(roll) for roll in itertools.product(range(1, sides + 1), repeat=count)]


def read_row(row: dict[str, Any], roll: int) -> Any:
    """A table row at a modified roll; a roll beyond the rows given reads the first or last (as the BCRT)."""
    keys = sorted(int(k) for k in row if str(k).lstrip("-").isdigit())
    if not keys:
        return None
    return row.get(str(min(max(roll, keys[0]), keys[-1])))


def breakdown_odds(pack: TablePack, terrain_state: str, die: str, modifier: int) -> tuple[Optional[float], str]:
    """(the chance a check breaks the vehicle down, where it comes from): the pack's BREAKDOWN table, row
    of the terrain state (else `any`), read at every face of the die plus the modifier; None without it."""
    table = pack.get(TABLE)
    if not isinstance(table, dict):
        return None, pack.lacks("Landships! breakdown table (BREAKDOWN)")
    row = table.get(terrain_state) or table.get("any")
    totals = faces(die)
    if not isinstance(row, dict) or not totals:
        return None, f"{pack.label()}'s BREAKDOWN table has no row for {terrain_state} terrain and a {die}"
    read = [read_row(row, total + modifier) for total in totals]
    if None in read:
        return None, f"{pack.label()}'s BREAKDOWN table lacks a roll of the {die}{modifier:+d}"
    return sum(1 for r in read if r == "breakdown") / len(totals), f"{pack.label()}'s BREAKDOWN table ({terrain_state}, modifier {modifier:+d})"


class _Bridges:
    """What tanks.expected_breakdown_modifier asks of an audit context: whether a Bridge Layer has
    dropped its bridge (its `bridge_drops(ctx).dropped(unit)`), here from the fold's own state."""

    def __init__(self, dropped: list[str]):
        self._dropped = dropped

    def shared(self, _name, _factory):
        return self

    def dropped(self, unit: str) -> bool:
        return unit in self._dropped


@dataclass
class MachineTally:
    game: str
    pack_name: Optional[str] = None
    terrain_state: str = "good"
    maps: list = field(default_factory=list)
    nations: dict[str, str] = field(default_factory=dict)         # side -> nation
    wide_agreed: bool = False                                     # the scenario has extra-wide trenches
    vehicles: dict[str, dict] = field(default_factory=dict)       # unit -> what the rows say of it
    checks: dict[str, list] = field(default_factory=dict)         # unit -> [seq, turn, phase] of its last check
    bridges: list[str] = field(default_factory=list)              # Bridge Layers that dropped their bridge
    extra_wide: list[str] = field(default_factory=list)           # extra-wide trench hexes
    fascines: dict[str, list] = field(default_factory=dict)       # hex -> [seq of the drop, the dropper]
    dropping: list = field(default_factory=list)                  # [tank, turn, phase] of a drop not yet placed
    losses: LossTracker = field(default_factory=LossTracker)
    tables: Optional[TablePack] = None                            # a pack given outright (else the game's)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "pack_name": self.pack_name, "terrain_state": self.terrain_state,
                "maps": self.maps, "nations": self.nations, "wide_agreed": self.wide_agreed, "vehicles": self.vehicles, "checks": self.checks,
                "bridges": self.bridges, "extra_wide": self.extra_wide, "fascines": self.fascines,
                "dropping": self.dropping,
                "losses": self.losses.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "MachineTally":
        data = dict(data)
        losses = LossTracker.from_json(data.pop("losses", {}))
        return cls(**data, losses=losses)

    @property
    def pack(self) -> TablePack:
        return self.tables if self.tables is not None else game_pack(self.pack_name)

    def take(self, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        handler = HANDLERS.get(line["type"])
        rows = (handler(self, line, line["data"]) or []) if handler is not None else []
        lost = self.losses.take(line, self.vehicles)
        return rows + lost if lost else rows

    def _row(self, line: dict[str, Any], unit: str, event: str, **extra: Any) -> dict[str, Any]:
        v = self.vehicles.get(unit) or {}
        return {"game": self.game, "seq": line["seq"], "turn": line["turn"], "event": event, "unit": unit,
                "side": v.get("side"), "type": v.get("type"), "class": v.get("class"), **extra}

    # -- the game and its vehicles ------------------------------------------------------------------
    def _GameStarted(self, line, data):
        self.pack_name = data.get("tables")
        self.nations = {side: str((info or {}).get("nation", "")).lower() for side, info in (data.get("sides") or {}).items()}
        self.wide_agreed = "extra-wide-trenches" in (data.get("permissions") or ()) or any(
            "extra-wide" in str(o).lower() or "EXTRAWIDE" in str(o).upper() for o in data.get("options") or ())

    def _WeatherSet(self, line, data):
        self.terrain_state = data.get("terrain_state") or self.terrain_state

    def _MapDefined(self, line, data):
        self.maps = list(data.get("maps") or [])
        self.extra_wide = sorted({h for h, spec in (data.get("hexes") or {}).items()
                                  if "trench-extra-wide" in (spec or {}).get("features", ())})

    def _UnitDeployed(self, line, data):
        attrs = data.get("attrs") or {}
        model = attrs.get("model") or attrs.get("type") or attrs.get("kind")
        # as vehicles.spec_of reads a counter: its model (or type, kind), else a name that is a catalogue alias
        spec = (spec_named(str(model)) if model else None) or (spec_named(data["name"]) if data.get("name") else None)
        if data["class"] not in VEHICLE_CLASSES and spec is None:
            return None
        tank = bool(spec.get("tank", data["class"] == "tank")) if spec else data["class"] == "tank"
        carries = attrs.get("fascine", self.nations.get(line.get("side") or "") in ("british", "britain", "uk"))
        self.vehicles[data["unit"]] = {
            "side": line.get("side"), "class": data["class"], "type": spec.name if spec else (model or data["class"]),
            "model": spec.model if spec else None, "attrs": {k: attrs[k] for k in ("breakdown_modifier",) if k in attrs},
            "tank": tank, "location": data.get("location")}
        if tank and carries:
            # "This rule applies only if the scenario states that certain trenches are extra wide" (IM.TANK.FASCINE.SCOPE)
            scope = self.wide_agreed or bool(self.extra_wide)
            return [(FASCINE, self._row(line, data["unit"], "carried", in_scope=scope))]
        return None

    def _UnitMoved(self, line, data):
        v = self.vehicles.get(data["unit"])
        if v is None or not data.get("path"):
            return None
        v["location"] = data["path"][-1]
        if not v["tank"]:
            return None
        crossed = [h for h in data["path"][1:] if h in self.fascines]
        return [(FASCINE, {**self._row(line, self.fascines[h][1], "crossing"), "hex": h, "by": data["unit"]})
                for h in crossed]

    def _MarkerPlaced(self, line, data):
        marker, loc = data.get("marker"), data.get("location")
        if marker == "bridge" and line["turn"] > 0 and data.get("vehicle"):
            self.bridges.append(str(data["vehicle"]))
        if marker == "trench-extra-wide" and loc and loc not in self.extra_wide:
            self.extra_wide.append(loc)
        if marker != "fascine" or data.get("unit") or not loc or line["turn"] == 0:
            return None
        known = self.fascines.get(loc)
        placing = self.dropping[0] if self.dropping[1:] == [line["turn"], line["phase"]] else None
        dropper = known[1] if known else placing
        self.fascines.setdefault(loc, [line["seq"], dropper])
        return [(FASCINE, {**self._row(line, dropper, "laid"), "hex": loc})]

    def _UnitStatusChanged(self, line, data):
        unit, status = data["unit"], data["status"]
        if unit not in self.vehicles or status != "broken-down":
            return None
        check = self.checks.pop(unit, None)
        from_check = check is not None and check[1:] == [line["turn"], line["phase"]]
        return [(BREAKDOWN, self._row(line, unit, "broke", check_seq=check[0] if from_check else None))]

    # -- the dice -------------------------------------------------------------------------------------
    def _DieRolled(self, line, data):
        purpose, unit = data.get("purpose") or "", data.get("subject") or ""
        if unit not in self.vehicles:
            return None
        if purpose == "LS.BREAKDOWN":
            return [(BREAKDOWN, self._check(line, unit, data))]
        if purpose == "IM.TANK.BREAKDOWN":
            return [(BREAKDOWN, self._row(line, unit, "second", result=data["result"], even=data["result"] % 2 == 0))]
        if purpose == "IM.TANK.FASCINE.DROP":
            return [(FASCINE, self._drop(line, unit, data["result"]))]
        if purpose == "IM.TANK.FASCINE.UNJAM":
            return [(FASCINE, self._row(line, unit, "unjam", result=data["result"], unjammed=data["result"] <= 4))]
        return None

    def _check(self, line, unit: str, data: dict[str, Any]) -> dict[str, Any]:
        self.checks[unit] = [line["seq"], line["turn"], line["phase"]]
        v = self.vehicles[unit]
        modifier, modifier_from = self._modifier(unit, v, data)
        if v["class"] in NEVER_BREAK:
            odds, odds_from = 0.0, NEVER_BREAK[v["class"]]
        elif modifier is None:
            odds, odds_from = None, modifier_from
        else:
            odds, odds_from = breakdown_odds(self.pack, self.terrain_state, data["die"], modifier)
        return self._row(line, unit, "check", die=data["die"], result=data["result"], modifier=modifier,
                         modifier_from=modifier_from, terrain_state=self.terrain_state,
                         odds=odds, odds_from=odds_from)

    def _modifier(self, unit_id: str, v: dict[str, Any], data: dict[str, Any]) -> tuple[Optional[int], str]:
        """The vehicle's breakdown modifier: the text's for a catalogue vehicle (tanks.py reads it), else
        its counter's (`attrs.breakdown_modifier`, or the roll's modifier the players named so)."""
        if v["model"] is not None:
            unit = SimpleNamespace(unit=unit_id, attrs=v["attrs"])
            return expected_breakdown_modifier(unit, spec_named(v["model"]), _Bridges(self.bridges))
        if isinstance(v["attrs"].get("breakdown_modifier"), int):
            return v["attrs"]["breakdown_modifier"], "the counter (attrs.breakdown_modifier)"
        named = [m.get("value") for m in data.get("modifiers") or [] if "breakdown" in str(m.get("why") or "").lower()]
        if len(named) == 1 and isinstance(named[0], int):
            return named[0], "the counter, as the roll names it (\"breakdown modifier\")"
        return None, "a Landships! counter's breakdown modifier, which the log does not give"

    def _drop(self, line, unit: str, result: int) -> dict[str, Any]:
        trench = self._trench_beside(self.vehicles[unit].get("location"))
        if result >= 3 and trench is not None:
            self.fascines.setdefault(trench, [line["seq"], unit])
        if result >= 3:
            self.dropping = [unit, line["turn"], line["phase"]]
        return self._row(line, unit, "drop", result=result, dropped=result >= 3, hex=trench)

    def _trench_beside(self, loc: Optional[str]) -> Optional[str]:
        """The extra-wide trench hex a tank in `loc` drops its fascine into: its own, else one beside it."""
        if loc is None or loc in self.extra_wide:
            return loc
        placement = Placement.tolerant(self.maps)
        return next((h for h in sorted(self.extra_wide) if distance(loc, h, placement) == 1), None)


HANDLERS = {name[1:]: fn for name, fn in vars(MachineTally).items()
            if name.startswith("_") and name[1:2].isupper() and callable(fn)}
