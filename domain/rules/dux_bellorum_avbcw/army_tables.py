"""The army-list data of Dux Bellorum AVBCW, read from `army.json` beside this module: the unit
type table, the soft and hard vehicle tables and the soft vehicles' options as printed, the cost
of every equipment, unit ability and army rule with who may take it, and the 2-7 point cap
(dux-bellorum-avbcw.txt). This module only reads the rows and their printed cells; judging a
list against them is army.py's."""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Mapping, Optional

DATA = Path(__file__).with_name("army.json")
VEHICLE = "vehicle:"
ARCS = ("F", "R", "B", "L")


def slug(printed: str) -> str:
    """Names and weapons: "lower-case, every run of characters other than a-z0-9 (spaces, dots,
    brackets, straight or curly quotes) turned into one -, with no - at either end"."""
    return re.sub(r"[^a-z0-9]+", "-", printed.lower()).strip("-")


def folded_slug(printed: str) -> str:
    """The same name with its accents dropped ("Putilov Kégress" -> `putilov-kegress`), which
    the page's rule would turn into `putilov-k-gress`: both name the row."""
    return slug(unicodedata.normalize("NFKD", printed).encode("ascii", "ignore").decode())


def printed_form(cell: Optional[str]) -> str:
    """A statistic compared as printed: spaces and inch marks dropped, `>=` read as `≥`
    ("6”" and "6" are one MV; "8 (1) (12”)" is "8(1)(12)")."""
    text = re.sub(r"\s+", "", str(cell or "")).replace("–", "-")
    return re.sub(r"[\"”″“]", "", text.replace(">=", "≥"))


def number(cell: Optional[str]) -> Optional[int]:
    found = re.match(r"^\s*([+-]?\d+)", str(cell or "").replace("−", "-"))
    return int(found[1]) if found else None


def span(cell: str) -> tuple[int, int]:
    """A Figs cell: "8-10" or "2"."""
    low, _, high = cell.partition("-")
    return int(low), int(high or low)


def seats(cell: str) -> int:
    """A passengers cell: "1+4" seats 5, "30" 30, "-" none."""
    return sum(int(part) for part in re.findall(r"\d+", cell))


def pro_faces(cell: str) -> Optional[tuple[int, int, int]]:
    """PRO as Front / Sides / Rear: "A vehicle with a single PRO value uses that protection
    value all round"."""
    found = [int(n) for n in re.findall(r"\d+", printed_form(cell))]
    if len(found) == 1:
        return (found[0],) * 3
    return tuple(found) if len(found) == 3 else None


def weapon_arcs(printed: str) -> tuple[frozenset[str], bool]:
    """The arcs a vehicle weapon "can attack into (F = front, L = left, R =right, B = back (rear),
    T = turret (all round))"; 'LMG (TH)*' "operate like a turret". And whether it mounts a
    coaxial MG (+Co)."""
    inside = re.findall(r"\(([^)]*)\)", printed)
    letters = {part.strip() for group in inside for part in group.replace("+", ",").split(",")}
    arcs = set(ARCS) if letters & {"T", "TH"} else letters & set(ARCS)
    return frozenset(arcs), "Co" in letters


@dataclass(frozen=True)
class UnitRow:
    """A row of the unit type table."""
    type: str
    row: Mapping[str, Any]

    @property
    def classes(self) -> frozenset[str]:
        return frozenset(self.row["classes"])

    @property
    def name(self) -> str:
        return f"{self.row['group']}: {self.row['row']}"


@dataclass(frozen=True)
class VehicleRow:
    """A row of the soft or hard vehicle table."""
    type: str
    row: Mapping[str, Any]
    hard: bool

    @property
    def name(self) -> str:
        return f"{'Hard' if self.hard else 'Soft'} vehicles, {self.row['group']}: {self.row['row']}"


class ArmyTables:
    """The rows and costs of army.json, by the names a list uses."""

    def __init__(self, data: Mapping[str, Any]):
        self.data = data
        self.units: dict[str, UnitRow] = {}
        for row in data["units"]:
            for name in (row["type"], *row.get("aliases", ())):
                self.units[name] = UnitRow(row["type"], row)
        self.vehicles: dict[str, VehicleRow] = {}
        for hard, rows in ((False, data["soft_vehicles"]), (True, data["hard_vehicles"])):
            for row in rows:
                name = VEHICLE + slug(row["row"])
                for alias in {name, VEHICLE + folded_slug(row["row"])}:
                    self.vehicles[alias] = VehicleRow(name, row, hard)
        self.options = {slug(row["row"]): row for row in data["soft_options"]}
        self.special: Mapping[str, Mapping[str, Any]] = data["special"]
        self.army_rules: Mapping[str, Mapping[str, Any]] = data["army_rules"]
        self.row_notes: Mapping[str, str] = data["row_notes"]
        self.cap: Mapping[str, Any] = data["cap"]

    def unit(self, kind: str) -> Optional[UnitRow]:
        return self.units.get(kind)

    def vehicle(self, kind: str) -> Optional[VehicleRow]:
        return self.vehicles.get(kind)

    def included(self, notes: str) -> set[str]:
        """The special rules a row's Notes give it ("Inspiring", "Spot", "Indirect, Open, Tow")."""
        return {self.row_notes[n.strip()] for n in notes.split(",") if n.strip() in self.row_notes}


@cache
def tables() -> ArmyTables:
    return ArmyTables(json.loads(DATA.read_text(encoding="utf-8")))
