"""The ground war of a generated game: pin removal, movement, spotting and small arms fire.

Units move one or two hexes toward the enemy in their own phases (vehicles in vehicle movement,
foot in the foot movement phases), each step one of those that bring them nearest the enemy, up to
the enemy's first row or two hexes from every enemy unit, never into an enemy hex (only an assault
does that: close_combat.py), an impact zone or smoke, and only along paths whose cost the movement
rules accept. Nobody fires into or out of a hex both sides hold, and a unit in a prepared trench
fires out of it only toward its front (IM.OBS.TRENCH.PREP.FIREOUT). Fire is direct: each firer spots its target
(d10 against the Spotting Table) before it fires, and the small arms result follows the pack's
SACRT when it has one, on the roll modified by the trenches and tanks that cover the target
(`defence`). A squad rolls for its machine gun's jam before each SACRT roll (the games read
IM.INF.SQUAD.JAM.NEAR as every attack); jammed, it reaches six hexes for the rest of the game, and
the attack at seven to nine hexes that jammed it is not made. Sturmtruppen platoons fire at their
firepower by distance (IM.INF.ST.FP); armoured cars fire their machine guns. Vehicles move only when
their breakdowns, fascines and wounds let them (machines.py), and tanks enter an extra-wide trench
only where a fascine lies.
"""
from __future__ import annotations

from typing import Optional

from domain.board.hexes import distance, neighbours
from domain.board.state import UnitState
from domain.rules.infernal_machines.generator.defence import defence, fires_out, trench_sector
from domain.rules.infernal_machines.generator.machines import before_move, closed_to, steps_allowed
from domain.rules.infernal_machines.generator.tracked import FIRERS, OBSERVERS, VEHICLES, TrackedRecorder
from domain.rules.infernal_machines.artillery_effects import morale_passed
from domain.rules.infernal_machines.infantry import sturm_firepower
from domain.rules.infernal_machines.obstacles import DEFENDERS
from domain.rules.infernal_machines.movement_costs import Conditions, evaluate_path, mover_for
from domain.rules.interpretations import Interpretations
from domain.rules.infernal_machines.spotting import spotting_column

SMALL_ARMS_TARGETS = set(FIRERS) | set(OBSERVERS)
SHOOTERS = (*FIRERS, "armoured-car")
SQUAD = "infantry-squad"
JAM = "IM.INF.SQUAD.JAM"
JAMMED_RANGE = 6   # "only targets within six hexagons may be attacked" once the squad's machine gun jams


# -- pin removal ----------------------------------------------------------------------------
def remove_pins(rec: TrackedRecorder, side: str) -> None:
    """A side's units pinned in an earlier game turn recover in its pin-removal phase; pins with a
    duration (`turns`) last that many full turns. The enemy's smoke lifts in this phase."""
    for unit in rec.units(side):
        if "pinned" not in unit.status or unit.pinned_at_turn is None:
            continue
        lasts = unit.pinned_turns or 0
        if rec.turn > unit.pinned_at_turn + lasts:
            rec.status(side, unit.unit, "unpinned")
    enemy = rec.enemy(side)
    for marker in [m for m in rec.board.markers if m["marker"] == "smoke" and m.get("side") == enemy]:
        rec.marker(enemy, "smoke", marker["location"], placed=False)


# -- movement -------------------------------------------------------------------------------
def forward(side: str) -> int:
    return -1 if side == "british" else 1


def _row(loc: str) -> int:
    return int(loc.split(":")[1][2:])


def blocked(rec: TrackedRecorder, loc: str, side: str) -> bool:
    """Hexes a generated unit never enters: off the map, enemy-held, smoked or under barrage."""
    return (not rec.exists(loc) or bool(rec.board.units_at(loc, side=rec.enemy(side)))
            or rec.smoke(loc) or rec.in_zone(loc))


def legal_path(rec: TrackedRecorder, unit: UnitState, path: list[str]) -> bool:
    board = rec.terrain()
    mover = mover_for(board, unit, rec.pack)
    cond = Conditions(rec.board.weather, rec.board.terrain_state)
    evaluation = evaluate_path(board, mover, path, cond, rec.pack, Interpretations())
    if evaluation.prohibited or evaluation.stop_broken or evaluation.shell_trigger is not None:
        return False
    allowance = mover.allowance
    return evaluation.total is not None and allowance is not None and evaluation.total <= allowance


def advance(rec: TrackedRecorder, side: str, classes: tuple[str, ...], steps: int, share: float) -> None:
    """Some of the side's units of these classes step toward the enemy."""
    # up to the enemy's first row, or next to an enemy unit beyond it (close_combat.py assaults from there)
    enemies = [u.location for u in rec.units(rec.enemy(side)) if u.location]
    front_rows = {_row(loc) for loc in enemies}
    first_row = (max if forward(side) < 0 else min)(front_rows) if front_rows else None
    for unit in rec.units(side, classes):
        if rec.pinned(unit) or rec.in_zone(unit.location) or rec.in_melee(unit.location) or rec.rng.random() > share:
            continue
        if unit.unit_class in VEHICLES and not before_move(rec, unit):
            continue
        path = [unit.location]
        for _ in range(steps_allowed(rec, unit, steps)):
            options = [n for n in neighbours(path[-1]) if not blocked(rec, n, side) and n not in path
                       and (_row(n) - _row(path[-1])) * forward(side) >= 0
                       and _short_of(n, first_row, side, enemies)
                       and not closed_to(rec, unit, n)]
            options = _closing(path[-1], sorted(options), enemies)
            if not options:
                break
            path.append(rec.rng.choice(options))
        if len(path) > 1 and legal_path(rec, unit, path):
            rec.emit("UnitMoved", {"unit": unit.unit, "path": path}, side)


def _closing(here: str, options: list[str], enemies: list[str]) -> list[str]:
    """The options that bring the unit nearest the enemy, if any brings it nearer than it stands (a
    unit that can come no closer stays where it is); all of them when the enemy has no unit left."""
    if not enemies:
        return options
    nearest = {n: min(distance(n, e) for e in enemies) for n in options}
    best = min(nearest.values(), default=None)
    if best is None or best >= min(distance(here, e) for e in enemies):
        return []
    return [n for n in options if nearest[n] == best]


def _short_of(loc: str, first_row: Optional[int], side: str, enemies: list[str]) -> bool:
    """Short of the enemy's first row, or in it but two hexes or more from every enemy unit."""
    if first_row is None or (first_row - _row(loc)) * forward(side) > 0:
        return True
    return all(distance(loc, e) >= 2 for e in enemies)


def retreat_path(rec: TrackedRecorder, unit: UnitState) -> Optional[list[str]]:
    """Two hexes back toward the unit's own side, through hexes free of the enemy."""
    back = -forward(unit.side)
    start = unit.location
    for first in sorted(neighbours(start), key=lambda n: -(_row(n) - _row(start)) * back):
        if not rec.exists(first) or rec.board.units_at(first, side=rec.enemy(unit.side)):
            continue
        for second in sorted(neighbours(first), key=lambda n: -(_row(n) - _row(start)) * back):
            if second in (start, first) or not rec.exists(second):
                continue
            if rec.distance(start, second) == 2 and not rec.board.units_at(second, side=rec.enemy(unit.side)):
                return [start, first, second]
    return None


# -- spotting and small arms ----------------------------------------------------------------
def spot(rec: TrackedRecorder, side: str, unit: UnitState, target: str) -> bool:
    roll = rec.rng.randint(1, 10)
    rec.roll(side, "IM.SPOT.ROLL", "d10", roll, unit.unit)
    dist = rec.distance(unit.location, target)
    limit = rec.pack.get("SPOTTING", spotting_column(rec.terrain(), unit), dist)
    spotted = roll <= (limit if limit is not None else max(1, 10 - dist))
    rec.emit("Spotted", {"spotter": unit.unit, "target": target, "spotted": spotted}, side)
    return spotted


def sacrt(rec: TrackedRecorder, firepower: float, roll: int) -> str:
    """The small arms result: the pack's SACRT when it has the column, else a plausible reading
    (the chart is not in the text; such results audit as unverifiable)."""
    column = rec.pack.get("SACRT", str(int(firepower)))
    if isinstance(column, dict) and str(roll) in column:
        return str(column[str(roll)])
    edge = roll - (1 if firepower >= 6 else 0)
    return {0: "eliminated", 1: "retreated", 2: "hit", 3: "pinned"}.get(edge, "no-effect")


def can_fire(rec: TrackedRecorder, unit: UnitState) -> bool:
    return (not rec.pinned(unit) and not rec.smoke(unit.location) and unit.location is not None
            and rec.suppressed.get(unit.unit, -1) < rec.turn and not rec.in_melee(unit.location))


def reach(rec: TrackedRecorder, unit: UnitState) -> int:
    """The firer's range: its printed range, six for a squad whose machine gun jammed."""
    if unit.unit_class == SQUAD and unit.unit in rec.jammed:
        return min(JAMMED_RANGE, unit.range or 0)
    return unit.range or 0


def fire_phase(rec: TrackedRecorder, side: str, share: float) -> None:
    """Each able firer of `side` may spot and fire at the nearest enemy hex in range (never along the
    line of a prepared trench, whose flank is a reading the generated games leave open)."""
    for unit in rec.units(side, SHOOTERS):
        if not can_fire(rec, unit) or rec.rng.random() > share:
            continue
        toward = fires_out(rec, unit)
        targets = sorted({e.location for e in rec.units(rec.enemy(side), tuple(SMALL_ARMS_TARGETS))
                          if e.location and 0 < rec.distance(unit.location, e.location) <= reach(rec, unit)
                          and not rec.smoke(e.location) and not rec.in_melee(e.location)
                          and rec.open_line(unit.location, e.location)
                          and trench_sector(rec, unit, e.location) != "flank" and toward(e.location)},
                         key=lambda loc: (rec.distance(unit.location, loc), loc))
        if not targets:
            continue
        target = targets[0]
        if not spot(rec, side, unit, target):
            continue
        small_arms(rec, side, unit, target)


def small_arms(rec: TrackedRecorder, side: str, unit: UnitState, target: str) -> None:
    attack = f"a-{rec.next_seq}"
    hexes = rec.distance(unit.location, target)
    firepower = unit.firepower or 0
    if unit.attrs.get("sturmtruppen") and unit.unit_class == "infantry-platoon":
        firepower = sturm_firepower(float(firepower), hexes)   # IM.INF.ST.FP: by distance
    cover = defence(rec, unit, target)
    rec.emit("SmallArmsFired", {"attack": attack, "firers": [unit.unit], "target": target,
                                "firepower": firepower, "range": hexes}, side)
    victims = [u for u in rec.board.units_at(target) if u.side != side]
    if unit.unit_class == SQUAD and not jam_roll(rec, side, unit, hexes):
        rec.emit("SmallArmsResolved", {"attack": attack, "results": [
            {"unit": v.unit, "result": "no-effect"} for v in victims]}, side)
        return
    roll = rec.rng.randint(1, 6)
    rec.roll(side, "LS.SACRT", "d6", roll, attack, cover.modifiers)
    result = sacrt(rec, firepower, roll + sum(value for value, _ in cover.modifiers))
    results = [{"unit": v.unit, "result": "no-effect" if v.unit_class in VEHICLES or shielded(v, cover) else result}
               for v in victims]
    rec.emit("SmallArmsResolved", {"attack": attack, "results": results}, side)
    for v, r in zip(victims, results):
        apply_result(rec, v, r["result"], attack)


def jam_roll(rec: TrackedRecorder, side: str, squad: UnitState, hexes: int) -> bool:
    """The squad's jam d6 before its SACRT roll (1: jammed for the rest of the game); False when the
    jam leaves the target beyond six hexes, so the attack is not made."""
    roll = rec.rng.randint(1, 6)
    rec.roll(side, JAM, "d6", roll, squad.unit)
    if roll == 1:
        rec.jammed.add(squad.unit)
    return roll != 1 or hexes <= JAMMED_RANGE


def shielded(unit: UnitState, cover) -> bool:
    """Infantry fired on from the rear of its prepared trench is invulnerable to small arms."""
    return cover.invulnerable and unit.unit_class in DEFENDERS


def morale_check(rec: TrackedRecorder, unit: UnitState, cause: str) -> None:
    """A small arms "hit": "the normal morale check to see whether it is pinned or eliminated" (IM.CORE.MORALE):
    the d6 (`LS.MORALE`) at most the unit's morale passes and pins it, more eliminates it."""
    roll = rec.rng.randint(1, 6)
    rec.roll(unit.side, "LS.MORALE", "d6", roll, unit.unit)
    passed = morale_passed(roll, (), unit.morale or 0)
    rec.emit("MoraleChecked", {"units": [unit.unit], "morale": unit.morale, "passed": passed}, unit.side)
    rec.status(unit.side, unit.unit, "pinned" if passed else "eliminated", cause)


def apply_result(rec: TrackedRecorder, unit: UnitState, result: str, cause: str) -> None:
    """The status a result gives; a retreat that finds no way back eliminates the unit."""
    if result == "hit":
        morale_check(rec, unit, cause)
    elif result in ("pinned", "eliminated"):
        rec.status(unit.side, unit.unit, result, cause)
    elif result == "retreated":
        path = retreat_path(rec, unit)
        if path is None:
            rec.status(unit.side, unit.unit, "eliminated", cause)
            return
        rec.status(unit.side, unit.unit, "retreated", cause)
        rec.emit("UnitMoved", {"unit": unit.unit, "path": path}, unit.side)
