"""What protects the units of a target hex from a generated small arms attack, read with the rule
system's own pure functions (the auditor's trench fronts, sectors and tank test), so the SACRT roll
carries the modifiers the audit requires without auditing the game per shot.

- Hasty trench: +1 against small arms from any direction (IM.OBS.TRENCH.HASTY.DEF).
- Prepared trench: +2 against fire from the front (IM.OBS.TRENCH.PREP.SAF); fire from the rear does
  nothing to the units in it (they are invulnerable to small arms that are not trench mortars); the
  flank is a reading (IM.OBS.TRENCH.PREP.FLANK) the generated games do not name, so their firers
  never shoot along a prepared trench line.
- Tanks as cover: infantry or cavalry in the hex of their own tank get +1 (IM.TANK.COVER).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from domain.board.state import UnitState
from domain.rules.infernal_machines.generator.tracked import TrackedRecorder
from domain.rules.infernal_machines.obstacles import DEFENDERS, sector, trench_front
from domain.rules.infernal_machines.vehicles import INFANTRY_AND_CAVALRY, is_tank


@dataclass
class Defence:
    modifiers: list[tuple[int, str]] = field(default_factory=list)   # (value, rule id) on the SACRT roll
    invulnerable: bool = False      # fired on from the rear of a prepared trench: no effect
    flank: bool = False             # fired on along a prepared trench line (a reading the games leave open)


def trench_sector(rec: TrackedRecorder, firer: UnitState, target: str) -> Optional[str]:
    """The side of the prepared trench at `target` the firer is on (None: no prepared trench with
    defenders of the enemy there)."""
    view = rec.terrain()
    defenders = [u for u in rec.board.units_at(target) if u.unit_class in DEFENDERS and u.side != firer.side]
    if not defenders or view.trench(target) != "trench-prepared" or firer.location is None:
        return None
    front = trench_front(view, target, rec.fronts.of(defenders[0].side))
    return sector(front, target, firer.location, view)


def fires_out(rec: TrackedRecorder, firer: UnitState) -> Callable[[str], bool]:
    """Whether the firer may fire at a target hex from where it stands: out of a prepared trench
    only toward its front (IM.OBS.TRENCH.PREP.FIREOUT); from anywhere else, yes. Made once per
    firer (its trench's front found once), asked of each target."""
    if firer.location is None or firer.unit_class not in DEFENDERS:
        return lambda target: True
    view = rec.terrain()
    if view.trench(firer.location) != "trench-prepared":
        return lambda target: True
    front = trench_front(view, firer.location, rec.fronts.of(firer.side))
    return lambda target: sector(front, firer.location, target, view) == "front"


def defence(rec: TrackedRecorder, firer: UnitState, target: str) -> Defence:
    """The trench and tank-cover terms of `firer`'s small arms attack on `target`."""
    found = Defence()
    units = [u for u in rec.board.units_at(target) if u.side != firer.side]
    if any(u.unit_class in DEFENDERS for u in units) and rec.terrain().trench(target) == "trench-hasty":
        found.modifiers.append((1, "IM.OBS.TRENCH.HASTY.DEF"))
    where = trench_sector(rec, firer, target)
    if where == "front":
        found.modifiers.append((2, "IM.OBS.TRENCH.PREP.SAF"))
    found.invulnerable, found.flank = where == "rear", where == "flank"
    covered = [u for u in units if u.unit_class in INFANTRY_AND_CAVALRY]
    if any(is_tank(u) and any(c.side == u.side for c in covered) for u in units):
        found.modifiers.append((1, "IM.TANK.COVER"))
    return found
