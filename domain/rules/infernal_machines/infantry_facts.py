"""What the infantry rules need to remember of a game, folded once per audit (shared by the checks
of `infantry.py` and its direct-fire terms): jammed squad machine guns, smock troops revealed by
their own fire or spotted by a forward observer or leader, units on skis.

Smocks: "When smock-equipped troops conduct small arms fire while located 5 hexagons or less from
an enemy unit, the firing unit is automatically spotted ... If smock-equipped units that have been
spotted move 6 hexagons or more away from the nearest enemy unit, they automatically become
unspotted again." Infantry squads: "Once the machine gun jams, it remains jammed for the rest of
the game."
"""
from __future__ import annotations

from typing import Any, Optional

from domain.board.hexes import distance
from domain.board.state import BoardState, UnitState
from domain.board.terrain import Board

SPOTTERS = ("forward-observer", "infantry-leader")
ORDINARY = ("infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon")
AIRBORNE = ("aircraft", "balloon")
JAM = "IM.INF.SQUAD.JAM"


def nearest_enemy(board: BoardState, unit: UnitState, view: Board) -> Optional[int]:
    """Hexes to the nearest enemy ground unit (None: none on the board)."""
    if unit.location is None:
        return None
    found = [distance(unit.location, u.location, view.placement) for u in board.units.values()
             if u.location and u.side and u.side != unit.side and not u.eliminated and u.unit_class not in AIRBORNE]
    return min(found) if found else None


def smocks(unit: Optional[UnitState]) -> bool:
    return unit is not None and bool(unit.attrs.get("smocks") or unit.attrs.get("smock"))


class InfantryFacts:
    """A fold of the game so far (the audit feeds it each line after the board takes it)."""

    reads = frozenset({"DieRolled", "SmallArmsFired", "UnitMoved", "Spotted", "MarkerPlaced", "MarkerRemoved"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self):
        self.jammed: dict[str, int] = {}          # squad -> seq of the roll that jammed it
        self.revealed: dict[str, int] = {}        # smock unit -> seq of the fire that revealed it
        self.spotted: dict[str, tuple[int, int]] = {}   # smock unit -> (turn, seq) spotted by an FO or leader
        self.skis: dict[str, int] = {}            # unit -> seq its skis were put on (marker or a ski move)

    def jam_of(self, unit: UnitState) -> Optional[int]:
        """The seq of the roll that jammed the squad's machine gun (0: jammed before the log starts)."""
        return 0 if unit.attrs.get("lmg_jammed") else self.jammed.get(unit.unit)

    def seen(self, unit: UnitState, turn: int) -> bool:
        """Revealed by its own fire, or spotted by a forward observer or leader this turn."""
        spot = self.spotted.get(unit.unit)
        return unit.unit in self.revealed or (spot is not None and spot[0] == turn)

    def on_skis(self, unit: UnitState) -> bool:
        return unit.unit in self.skis

    def update(self, line: dict[str, Any], board: BoardState) -> None:
        kind, d = line["type"], line["data"]
        if kind == "DieRolled" and d.get("purpose") == JAM and d.get("result") == 1 and d.get("subject"):
            self.jammed.setdefault(d["subject"], line["seq"])
        elif kind == "SmallArmsFired":
            self._fired(line, board)
        elif kind == "UnitMoved":
            self._moved(line, board)
        elif kind == "Spotted" and d.get("spotted"):
            self._spotted(line, board)
        elif kind in ("MarkerPlaced", "MarkerRemoved") and d.get("marker") == "skis" and d.get("unit"):
            if kind == "MarkerPlaced":
                self.skis[d["unit"]] = line["seq"]
            else:
                self.skis.pop(d["unit"], None)

    def _fired(self, line: dict[str, Any], board: BoardState) -> None:
        for firer in line["data"].get("firers") or ():
            unit = board.units.get(firer)
            near = nearest_enemy(board, unit, Board(board)) if smocks(unit) else None
            if near is not None and near <= 5:
                self.revealed.setdefault(firer, line["seq"])

    def _moved(self, line: dict[str, Any], board: BoardState) -> None:
        d = line["data"]
        unit = board.units.get(d["unit"])
        if unit is None:
            return
        if d.get("mode") == "ski":
            self.skis.setdefault(unit.unit, line["seq"])
        if unit.unit in self.revealed:
            near = nearest_enemy(board, unit, Board(board))
            if near is None or near >= 6:
                del self.revealed[unit.unit]

    def _spotted(self, line: dict[str, Any], board: BoardState) -> None:
        """A forward observer's or leader's spot, or an adjacent infantry or cavalry unit's ("Normal
        infantry and cavalry units may spot them on a result of 1")."""
        spotter = board.units.get(line["data"].get("spotter", ""))
        target = line["data"].get("target", "")
        if spotter is None or spotter.location is None or not any(smocks(u) for u in board.units_at(target)):
            return
        if spotter.unit_class not in SPOTTERS and not (
                spotter.unit_class in ORDINARY and distance(spotter.location, target, Board(board).placement) == 1):
            return
        for unit in board.units_at(target):
            if smocks(unit) and unit.side != spotter.side:
                self.spotted[unit.unit] = (line["turn"], line["seq"])


def infantry_facts(ctx) -> InfantryFacts:
    return ctx.shared("im-infantry", InfantryFacts)
