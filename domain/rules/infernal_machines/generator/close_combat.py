"""Close combat in a generated game: an assault in the foot movement and its combat.

In the first foot movement phase, some unpinned infantry platoons and squads one or two hexes from a
hex held only by enemy foot (platoons, squads, machine-gun platoons) move into it, where the movement rules accept
the step: ending among enemy units is allowed "only to make close combat" (IM.INF.ST.INFILTRATE), and
the close combat follows in the same player turn's close-combat phase (docs/game-log-extensions.md:
`CloseCombatFought`, its `LS.CACRT` d6, `CloseCombatResolved`). Until then nobody fires into or out of
the melee (`TrackedRecorder.in_melee`), so both sides are still there when it is fought.

The Close Assault Combat Resolution Table is the base game's and not in the text: the combat records
no column, and its outcome is a plausible reading of the d6 and the numbers on each side (such
results are never judged against a chart). The loser retreats two hexes toward its own side, or is
eliminated when no way back is free, as a small arms result would have it.
"""
from __future__ import annotations

from domain.board.hexes import neighbours
from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rules.infernal_machines.generator.fighting import apply_result, legal_path
from domain.rules.infernal_machines.generator.tracked import FIRERS, TrackedRecorder

ASSAULTERS = ("infantry-platoon", "infantry-squad")
ASSAULT_SHARE = 0.5   # the share of able units next to an enemy hex that assault it


def _assailable(rec: TrackedRecorder, view: Board, unit: UnitState, loc: str) -> bool:
    enemies = [u for u in rec.board.units_at(loc, side=rec.enemy(unit.side)) if not u.eliminated]
    return (bool(enemies) and all(u.unit_class in FIRERS for u in enemies)
            and not view.multi_storey(loc) and not rec.smoke(loc) and not rec.in_zone(loc))


def close_in(rec: TrackedRecorder, side: str) -> None:
    """Some able foot units of `side` step into a hex held only by enemy foot, one hex away or two
    (through a hex free of the enemy), where the movement rules accept the path."""
    taken: set[str] = set()
    view = rec.terrain()   # the terrain as it stands: the assaults' moves change none of it
    for unit in rec.units(side, ASSAULTERS):
        if (rec.pinned(unit) or unit.location is None or rec.in_zone(unit.location) or rec.smoke(unit.location)
                or rec.in_melee(unit.location)):
            continue
        paths = [p for p in _approaches(rec, view, unit) if p[-1] not in taken]
        if not paths or rec.rng.random() > ASSAULT_SHARE:
            continue
        path = next((p for p in paths if legal_path(rec, unit, p)), None)
        if path is not None:
            rec.emit("UnitMoved", {"unit": unit.unit, "path": path}, side)
            taken.add(path[-1])


def _approaches(rec: TrackedRecorder, view: Board, unit: UnitState) -> list[list[str]]:
    """The paths into an assailable hex: the adjacent ones first, then those two hexes away."""
    start, enemy = unit.location, rec.enemy(unit.side)
    near = [n for n in sorted(neighbours(start)) if rec.exists(n)]
    out = [[start, n] for n in near if _assailable(rec, view, unit, n)]
    for n in near:
        if rec.board.units_at(n, side=enemy) or rec.smoke(n) or rec.in_zone(n):
            continue
        out += [[start, n, m] for m in sorted(neighbours(n)) if m != start and rec.exists(m)
                and rec.distance(start, m) == 2 and _assailable(rec, view, unit, m)]
    return out


def close_combat_phase(rec: TrackedRecorder, side: str) -> None:
    """Every hex `side` assaulted this turn is fought: the combat, its d6, the result."""
    melees = sorted({u.location for u in rec.units(side) if rec.in_melee(u.location)})
    for loc in melees:
        attackers = [u for u in rec.board.units_at(loc, side=side) if not u.eliminated]
        defenders = [u for u in rec.board.units_at(loc, side=rec.enemy(side)) if not u.eliminated]
        combat = f"cc-{rec.next_seq}"
        rec.emit("CloseCombatFought", {"combat": combat, "location": loc, "attackers": [u.unit for u in attackers],
                                       "defenders": [u.unit for u in defenders], "shifts": []}, side)
        roll = rec.rng.randint(1, 6)
        rec.roll(side, "LS.CACRT", "d6", roll, combat)
        losers = defenders if roll + len(attackers) - len(defenders) >= 4 else attackers
        result = "retreated" if roll % 2 == 0 else "eliminated"
        rec.emit("CloseCombatResolved", {"combat": combat, "results": [
            {"unit": u.unit, "result": result if u in losers else "no-effect"} for u in attackers + defenders]}, side)
        for u in losers:
            apply_result(rec, u, result, combat)
