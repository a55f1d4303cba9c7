"""A recorder that keeps the board beside the lines it writes, so the player reads what the
auditor will read: the board fold, the terrain view with its active impact zones, and the
resistance turns of every hex (the auditor's own trackers)."""
from __future__ import annotations

import random
from typing import Any, Optional

from domain.board.hexes import distance, lines as hex_lines
from domain.board.state import BoardState, UnitState, apply
from domain.board.terrain import Board, Extras
from domain.rules.infernal_machines.generator.recorder import Recorder
from domain.rules.infernal_machines.obstacles import EnemyFronts
from domain.rules.infernal_machines.resistance import ResistanceTracker
from domain.rules.tables import TablePack

OBSERVERS = ("forward-observer", "liaison-officer")
FIRERS = ("infantry-platoon", "infantry-squad", "mg-platoon")
VEHICLES = ("tank", "armoured-car", "light-vehicle")
# Terrain that blocks a line of sight between two hexes (Landships! 8.23 is not in the text: the
# generator keeps its observers and firers to lines that cross open, level ground only).
OPEN = ("clear",)


class TrackedRecorder(Recorder):
    def __init__(self, game: str, rng: random.Random, pack: TablePack):
        super().__init__(game)
        self.rng = rng
        self.pack = pack
        self.board = BoardState()
        self.extras = Extras()
        self.resistance = ResistanceTracker()
        self.fronts = EnemyFronts()              # each side's enemy front, as the trench checks take it
        self.jammed: set[str] = set()            # squads whose machine gun jammed (for the rest of the game)
        self.machines: dict[str, Any] = {}       # vehicle -> its breakdown, fascine and wounds (machines.py)
        self.extent: tuple[int, int, int, int] = (0, 99, 0, 99)
        self.suppressed: dict[str, int] = {}     # unit -> last turn it may not fire
        self.last_turn_barrages: dict[str, list[dict[str, Any]]] = {}
        self.this_turn_barrages: dict[str, list[dict[str, Any]]] = {}

    def emit(self, kind: str, data: dict[str, Any], side: Optional[str] = None) -> dict[str, Any]:
        line = super().emit(kind, data, side)
        self.extras.update(line, self.board)
        apply(self.board, line)
        self.resistance.feed(line)
        self.fronts.update(line, self.board)
        return line

    # -- views ----------------------------------------------------------------------------
    def terrain(self) -> Board:
        return Board(self.board, self.extras)

    def units(self, side: Optional[str] = None, classes: tuple[str, ...] = ()) -> list[UnitState]:
        return [u for u in sorted(self.board.units.values(), key=lambda u: u.unit)
                if not u.eliminated and (side is None or u.side == side)
                and (not classes or u.unit_class in classes)]

    def enemy(self, side: str) -> str:
        return next(s for s in sorted(self.board.sides) if s != side)

    def pinned(self, unit: UnitState) -> bool:
        return "pinned" in unit.status

    def smoke(self, loc: str) -> bool:
        return bool(self.board.markers_at(loc, "smoke"))

    def exists(self, loc: str) -> bool:
        return loc in self.board.hexes

    def open_line(self, a: str, b: str) -> bool:
        """Every hex between a and b (on every line the hexsides allow) is open, level and
        unsmoked, and no ridgeline or wall lies across the way."""
        if a == b:
            return False
        for path in hex_lines(a, b):
            for loc in path[1:-1]:
                spec = self.board.hexes.get(loc, {"terrain": "clear", "elevation": 0})
                if spec.get("terrain") not in OPEN or spec.get("elevation", 0) or self.smoke(loc):
                    return False
            for u, v in zip(path, path[1:]):
                if any(set(h["between"]) == {u, v} for h in self.board.hexsides):
                    return False
        ends = [self.board.hexes.get(x, {}) for x in (a, b)]
        return all(e.get("elevation", 0) == 0 for e in ends)

    def in_melee(self, loc: Optional[str]) -> bool:
        """A hex holding units of both sides: an assault not yet fought (close_combat.py)."""
        if loc is None:
            return False
        return len({u.side for u in self.board.units_at(loc) if not u.eliminated}) > 1

    def in_zone(self, loc: str) -> bool:
        return bool(self.terrain().zones(loc))

    def distance(self, a: str, b: str) -> int:
        return distance(a, b)
