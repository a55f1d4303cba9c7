"""The vehicle catalogue (vehicles.json): what the text gives of each new vehicle, read as data.

A unit is a catalogue vehicle when its `UnitDeployed.attrs.model` (or `attrs.type` or `attrs.kind`, or a
name that is exactly one of the aliases) names a catalogue entry, compared without case, spaces, dots, hyphens
or brackets. What the text leaves to the counter or the play aid is read from the log
(`attrs.gun`, `attrs.mgs`, `attrs.mg_firepower`, `attrs.breakdown_modifier`, `attrs.blast`) or from
the table pack (`BLAST`: gun -> blast power), never invented: a value that is nowhere is None, and
the check that needs it is `unverifiable`.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Mapping, Optional

from domain.board.hexes import Placement, distance, to_cube
from domain.board.state import UnitState
from domain.rules.engine import closer

FILE = Path(__file__).with_name("vehicles.json")
ARMOURED = ("tank", "armoured-car")
VEHICLE_CLASSES = ("tank", "armoured-car", "light-vehicle", "armoured-train", "boat")
# foot and cavalry: the "light targets" of Main Gun Blast Power, and whom a tank covers (Tanks as Cover)
LIGHT_TARGETS = ("infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon", "crew",
                 "forward-observer", "liaison-officer", "infantry-leader", "support-weapon", "mortar", "artillery-gun")
INFANTRY_AND_CAVALRY = ("infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon")
_CALIBRE = re.compile(r"(\d+(?:\.\d+)?)\s*mm")


def key(text: Any) -> str:
    """A name as the catalogue compares it: lower case, without spaces, dots, hyphens or brackets."""
    return re.sub(r"[\s.\-()_'\"]", "", str(text or "").lower())


@dataclass(frozen=True)
class VehicleSpec:
    """One catalogue entry (vehicles.json)."""

    model: str
    data: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.data.get(name, default)

    @property
    def name(self) -> str:
        return self.data.get("name", self.model)

    @property
    def section(self) -> str:
        return self.data.get("section", "New Vehicles")


@cache
def catalogue() -> dict[str, Any]:
    """vehicles.json, read once."""
    return json.loads(FILE.read_text(encoding="utf-8"))


@cache
def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for model, entry in catalogue()["vehicles"].items():
        out[key(model)] = model
        for alias in entry.get("aliases", ()):
            out.setdefault(key(alias), model)
    return out


@lru_cache(maxsize=4096)
def spec_named(model: str) -> Optional[VehicleSpec]:
    """The catalogue entry a model name names (remembered: a name is compared once, not at every shot)."""
    found = _aliases().get(key(model))
    return VehicleSpec(found, catalogue()["vehicles"][found]) if found else None


def spec_of(unit: Optional[UnitState]) -> Optional[VehicleSpec]:
    """The catalogue entry the unit's counter is, or None (a Landships! vehicle, or not a vehicle)."""
    if unit is None:
        return None
    for named in (unit.attrs.get("model"), unit.attrs.get("type"), unit.attrs.get("kind")):
        if named:
            found = spec_named(str(named))
            if found is not None:
                return found
    return spec_named(unit.name) if unit.name else None


def is_tank(unit: Optional[UnitState]) -> bool:
    """A tank for the rules: class `tank`, or a catalogue tank (the Mk V* and Mk IX "for all purposes")."""
    if unit is None:
        return False
    spec = spec_of(unit)
    return unit.unit_class == "tank" if spec is None else bool(spec.get("tank", unit.unit_class == "tank"))


def is_vehicle(unit: Optional[UnitState]) -> bool:
    return unit is not None and unit.unit_class in VEHICLE_CLASSES


def gun_of(unit: Optional[UnitState]) -> Optional[str]:
    """The vehicle's gun as the log or the catalogue names it ("47mm", "57mm", ...), or None."""
    if unit is None:
        return None
    named = unit.attrs.get("gun")
    if named:
        return str(named)
    spec = spec_of(unit)
    return spec.get("gun") if spec else None


def calibre(gun: Optional[str]) -> Optional[float]:
    """The gun's calibre in mm: the catalogue's, else read from its name ("47mm", "37 mm")."""
    if not gun:
        return None
    entry = catalogue()["guns"].get(gun)
    if entry is not None:
        return float(entry["calibre"])
    found = _CALIBRE.search(str(gun).lower())
    return float(found.group(1)) if found else None


def armament_known(unit: UnitState) -> bool:
    """Whether the log or the catalogue says what the vehicle carries (its gun, if any, and its MGs): a
    catalogue vehicle that is "like" a Landships! one (the Tadpole, the Mk V*) has its counter's arms."""
    spec = spec_of(unit)
    return "mgs" in unit.attrs or "gun" in unit.attrs or (spec is not None and "mgs" in spec.data)


def mg_count(unit: UnitState) -> Optional[int]:
    if isinstance(unit.attrs.get("mgs"), int):
        return unit.attrs["mgs"]
    spec = spec_of(unit)
    if spec is not None and "mgs" in spec.data:
        return int(spec.get("mgs") or 0)
    return 0 if "gun" in unit.attrs else None


def mg_firepower(unit: UnitState) -> float:
    """Each machine gun's firepower: the log's, else the catalogue's, else 2 ("Unless specifically stated
    otherwise below, each machine gun mounted on a tank has a firepower of 2")."""
    given = unit.attrs.get("mg_firepower")
    if isinstance(given, (int, float)):
        return float(given)
    spec = spec_of(unit)
    return float((spec.get("mg_firepower") if spec else None) or catalogue()["defaults"]["mg_firepower"])


def gun_blast(gun: str, tables) -> Optional[float]:
    """A gun's blast power: the text's (vehicles.json), else the table pack's BLAST; None when nowhere."""
    entry = catalogue()["guns"].get(gun) or {}
    if isinstance(entry.get("blast"), (int, float)):
        return float(entry["blast"])
    value = tables.get("BLAST", gun)
    return float(value) if isinstance(value, (int, float)) else None


def blast_power(unit: UnitState, tables) -> tuple[Optional[float], str]:
    """(the gun's blast power, where it comes from): the log's `attrs.blast`, the text's (47 mm = 3, the
    Vickers Mk IA's 1), else the table pack's BLAST (the play aid); (None, why) when nowhere."""
    gun = gun_of(unit)
    if isinstance(unit.attrs.get("blast"), (int, float)):
        return float(unit.attrs["blast"]), "the counter (attrs.blast)"
    if gun is None:
        return None, "the log names no gun"
    entry = catalogue()["guns"].get(gun) or {}
    if isinstance(entry.get("blast"), (int, float)):
        return float(entry["blast"]), entry["text"]
    value = tables.get("BLAST", gun)
    if isinstance(value, (int, float)):
        return float(value), f"the {tables.name} pack's BLAST table"
    return None, tables.lacks("BLAST (the play aid's blast powers)") + f" for the {gun} gun"


def has_atfa(unit: UnitState) -> Optional[bool]:
    """Anti-Tank Capabilities (changed): a 20 mm or larger gun; None when the armament is unknown."""
    spec = spec_of(unit)
    if spec is not None and spec.get("atfa") is False:
        return False
    gun = gun_of(unit)
    if gun is None:
        return False if armament_known(unit) else None
    size = calibre(gun)
    return None if size is None else size >= 20


def mg_vulnerable(unit: Optional[UnitState]) -> bool:
    """The "!" indicator (vulnerable to machine gun fire): the log's, or the catalogue's (the C-L Mk VI)."""
    if unit is None:
        return False
    if unit.attrs.get("mg_vulnerable") or unit.attrs.get("!"):
        return True
    spec = spec_of(unit)
    return bool(spec and spec.get("mg_vulnerable"))


class PhaseEnd:
    """A rule module that judges what a phase owed when the phase is over: at the next phase, the next
    turn or the end of the log it calls `close(seq)` (seq: the line that ends the phase). Its `close`
    judges only what its module was told and clears it (a `closer`: skipped when nothing was told);
    a module whose close also judges the phase itself overrides these two without the mark."""

    def close(self, seq: int) -> list:
        return []

    @closer
    def on_PhaseStarted(self, line):
        return self.close(line["seq"])

    @closer
    def on_TurnStarted(self, line):
        return self.close(line["seq"])

    def finish(self):
        return self.close(len(self.ctx.lines))


class Facings:
    """Where each unit faces, in degrees clockwise from north: its `UnitDeployed.facing` (a hex direction,
    0 = north, 60 degrees apart), then the facing a `UnitMoved` gives (beside the schema's), else the
    direction of its last step (a vehicle faces where it drives). A fold: one per audit."""

    reads = frozenset({"UnitDeployed", "UnitMoved"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self):
        self.degrees: dict[str, float] = {}
        self._placement: tuple[int, Any] = (-1, None)

    def placement(self, board):
        """The maps' placement, made again only when a map is added (not once per move)."""
        if self._placement[0] != len(board.maps):
            self._placement = (len(board.maps), Placement.tolerant(board.maps))
        return self._placement[1]

    def of(self, unit: str) -> Optional[float]:
        return self.degrees.get(unit)

    def update(self, line: dict[str, Any], board) -> None:
        kind, d = line["type"], line["data"]
        if kind == "UnitDeployed" and isinstance(d.get("facing"), int):
            self.degrees[d["unit"]] = 60.0 * (d["facing"] % 6)
        elif kind == "UnitMoved":
            if isinstance(d.get("facing"), int):
                self.degrees[d["unit"]] = 60.0 * (d["facing"] % 6)
            elif len(d.get("path", ())) >= 2:
                placement = self.placement(board)
                a, b = to_cube(d["path"][-2], placement), to_cube(d["path"][-1], placement)
                angle = _bearing(a, b)
                if angle is not None:
                    self.degrees[d["unit"]] = (round(angle / 60) * 60.0) % 360


def facings(ctx) -> Facings:
    return ctx.shared("im-facings", Facings)


def _bearing(a, b) -> Optional[float]:
    dx, dz = b[0] - a[0], b[2] - a[2]
    if abs(dx) < 1e-9 and abs(dz) < 1e-9:
        return None
    px, py = 1.5 * dx, math.sqrt(3) * (dz + dx / 2)   # flat-topped hexes, y grows southward
    return math.degrees(math.atan2(px, -py)) % 360


def bearing(ctx, frm: Optional[str], to: str) -> Optional[float]:
    """The direction from hex `frm` to hex `to`, degrees clockwise from north (None: the same hex)."""
    if frm is None:
        return None
    placement = facings(ctx).placement(ctx.board)
    return _bearing(to_cube(frm, placement), to_cube(to, placement))


def off_facing(ctx, unit: UnitState, target: str) -> Optional[float]:
    """Degrees between where the unit faces and the line to `target` (0 ahead, 180 behind); None unknown."""
    facing = facings(ctx).of(unit.unit)
    angle = bearing(ctx, unit.location, target) if facing is not None else None
    if angle is None:
        return None
    diff = abs(angle - facing) % 360
    return min(diff, 360 - diff)


def in_arc(arc: str, off: Optional[float]) -> str:
    """"yes", "no" or "maybe": whether a weapon of this arc (vehicles.json `arcs`) bears at `off` degrees
    off the facing. Only what the text fixes is "yes" or "no"; the rest is the counter's diagram."""
    if arc == "all":
        return "yes"
    if off is None or arc == "counter":
        return "maybe"
    eps = 1e-6
    if arc == "8.12":
        return "yes" if off <= 30 + eps else "maybe" if off < 90 - eps else "no"
    if arc == "8.12-rear":
        return "yes" if off >= 150 - eps else "maybe" if off > 90 + eps else "no"
    if arc == "8.12-axis":
        return "yes" if off <= 30 + eps or off >= 150 - eps else "no" if abs(off - 90) < eps else "maybe"
    return "maybe"


class BridgeDrops:
    """The Bridge Layer's bridge: carried until a `bridge` marker is placed by it ("Once placed, the bridge
    cannot be picked up or reused"). The marker names its layer as `vehicle` (a field beside the
    schema's), else it is the side's bridge layer in or next to the hex. A fold: one per audit."""

    reads = frozenset({"MarkerPlaced"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self):
        self.drops: dict[str, int] = {}      # bridge layer -> seq of the marker

    def dropped(self, unit: str) -> bool:
        return unit in self.drops

    def layer_of(self, line: dict[str, Any], board) -> Optional[str]:
        named = line["data"].get("vehicle")
        if named:
            return str(named)
        loc, side = line["data"].get("location"), line.get("side")
        placement = Placement.tolerant(board.maps)
        for u in board.units.values():
            spec = spec_of(u)
            if spec is not None and spec.get("while_carrying_bridge") and u.location and loc and not u.eliminated \
                    and u.unit not in self.drops and (side is None or u.side == side) \
                    and distance(u.location, loc, placement) <= 1:
                return u.unit
        return None

    def update(self, line: dict[str, Any], board) -> None:
        if line["type"] == "MarkerPlaced" and line["data"].get("marker") == "bridge" and line["turn"] > 0:
            layer = self.layer_of(line, board)
            if layer is not None:
                self.drops.setdefault(layer, line["seq"])


def bridge_drops(ctx) -> BridgeDrops:
    return ctx.shared("im-bridge-drops", BridgeDrops)
