"""The machines of a generated game: each side's vehicle from the catalogue, breakdowns, fascines and
the anti-tank rifle.

- Vehicles (vehicles.json, by nation and year): the British field a tank, the catalogue's Mk V* from
  1918 (a Landships! Mark IV male, which the catalogue does not hold, in 1917), carrying a fascine; the
  Germans an Ehrhardt armoured car of a model of the game's year or before, whose small arms fire is
  its machine guns at 2 each, at most what the text lets it put on one target (IM.TANK.BLAST.SUM).
- Tank Breakdowns (IM.TANK.BREAKDOWN): before a tank moves it rolls the Landships! breakdown d6
  (`LS.BREAKDOWN`, with the catalogue's breakdown modifier when it is not +0); the table is not in
  the text, and the generated games read a modified 1 as a breakdown. A breakdown is followed by the
  second d6: even, the tank stays put through the next turn and is repaired in the one after; odd,
  Landships! 6.16 (not in the text): the generated tank never moves again, which no reading forbids.
- Tanks and Fascines (IM.TANK.FASCINE.*): the scenario names an extra-wide trench across the ground
  in front of the British lines (GameStarted.permissions `extra-wide-trenches`). A tank beside it
  pauses and rolls to drop its fascine (3-6: it drops into the first such hex beside the tank, and a
  `fascine` marker shows the crossing point; 1-2: jammed); a jammed fascine is unjammed the next
  turn instead of moving (1-4), else it stays jammed. Tanks enter the trench only where a fascine
  lies.
- Anti-tank rifles (1918): a German rifle counter forward of its trench fires in the anti-tank
  phases at the nearest British tank it spots: `AntiTankFired`, the ATCRT d10 (the pack's `ATCRT`
  column `atr` when it has one; otherwise a hit on 1-3, a reading the audit reports unverifiable),
  `AntiTankResolved`, and after a hit the critical dice (IM.SW.ATR.CRIT): 2-3 the driver (held for a
  turn; a third die of 1-2 halves the tank), 4-5 the engine (a third die of 1-2 halts it; the games
  never repair it, and read 3-6 as running on: `IM.SW.ATR.ENGINE_THIRD=runs-on`), 6 destroyed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from domain.board.hexes import neighbours
from domain.board.state import UnitState
from domain.rules.infernal_machines.generator.tracked import TrackedRecorder
from domain.rules.infernal_machines.movement_costs import extra_wide
from domain.rules.infernal_machines.spotting import spotting_column
from domain.rules.infernal_machines.vehicles import catalogue, is_tank, spec_named

ATR_READING = "interpretation:IM.SW.ATR.ENGINE_THIRD=runs-on"
WIDE_PERMISSION = "extra-wide-trenches"
ATR_RANGE = 6          # the rifle counter's printed range in the generated games (a counter value the log records)
ATR_HIT = 3            # without the pack's ATCRT: a hit on 1-3 (unverifiable, never presented as the chart)
# Catalogue vehicles the generator plays, per role (the rest have procedures it does not play).
TANKS = ("mk-v-star",)
CARS = ("ehrhardt-1915", "ehrhardt-1917")
LANDSHIPS_TANK = "Mark IV male"   # 1917: a Landships! counter (not a catalogue vehicle)


@dataclass
class Machine:
    """What the generator remembers of one vehicle between phases."""
    unit: str
    fascine: str = "carried"          # carried, jammed, unjammed, dropped, jammed-for-good, none
    fascine_turn: int = 0
    broken_until: Optional[int] = None   # broken down: may not move up to this turn (None: may move)
    held_until: int = 0               # an anti-tank rifle hit the driver: no move up to this turn
    half_speed: bool = False          # the driver was killed
    halted: bool = False              # the engine halted (never repaired here)


def machine(rec: TrackedRecorder, unit: str) -> Machine:
    """What the generator remembers of the vehicle (made on first use)."""
    return rec.machines.setdefault(unit, Machine(unit))


def year_of(date: str) -> int:
    return int(date[:4])


def catalogue_models(nation: str, year: int, models: tuple[str, ...]) -> list[str]:
    """The catalogue's vehicles of `models` for this nation, in service by `year`."""
    entries = catalogue()["vehicles"]
    return [m for m in models if entries[m].get("nation") == nation and (entries[m].get("year") or 0) <= year]


def car_firepower(model: str) -> int:
    """An armoured car's small arms at one target: its machine guns, 2 each unless the text says
    otherwise, at most the text's limit (the 1915 Ehrhardt's two guns on one target)."""
    spec = spec_named(model)
    each = spec.get("mg_firepower", catalogue()["defaults"]["mg_firepower"])
    most = spec.get("max_mgs_at_one_target") or spec.get("mgs")
    return int(min(spec.get("mgs"), most) * each)


def log_name(model: str) -> str:
    """The name a log gives the catalogue vehicle (its first alias: the auditor reads the model by it)."""
    return catalogue()["vehicles"][model]["aliases"][0].title()


def vehicle_units(side: str, nation: str, date: str, rng) -> list[tuple]:
    """The side's machines as set-up rows: (suffix, class, morale, firepower, range, movement, row
    offset from the trench, attrs)."""
    year = year_of(date)
    if side == "british":
        tanks = catalogue_models(nation, year, TANKS)
        model = log_name(tanks[0]) if tanks else LANDSHIPS_TANK
        return [("tank", "tank", 4, 6, 8, 2, 2, {"model": model, "fascine": True})]
    cars = catalogue_models(nation, year, CARS)
    model = rng.choice(cars)
    rows = [("car", "armoured-car", 4, car_firepower(model), 8, 2, 2, {"model": log_name(model)})]
    if year >= 1918:
        rows.append(("atr", "support-weapon", 4, 0, ATR_RANGE, 1, -2, {"weapon": "atr"}))
    return rows


def extra_wide_row(rec: TrackedRecorder, board: str, row: int, cols: tuple[int, int]) -> None:
    """The scenario's extra-wide trench: every clear hex of `row` (markers, placed at set-up)."""
    for col in range(cols[0], cols[1] + 1):
        loc = f"{board}:{col:02d}{row:02d}"
        if rec.board.hexes.get(loc, {}).get("terrain") == "clear":
            rec.marker(None, "trench-extra-wide", loc)


# -- vehicle movement ---------------------------------------------------------------------------------
def may_move(rec: TrackedRecorder, unit: UnitState) -> bool:
    m = rec.machines.get(unit.unit)
    if m is None:
        return True
    return m.broken_until is None and not m.halted and rec.turn > m.held_until


def steps_allowed(rec: TrackedRecorder, unit: UnitState, steps: int) -> int:
    m = rec.machines.get(unit.unit)
    return 1 if m is not None and m.half_speed else steps


def closed_to(rec: TrackedRecorder, unit: UnitState, loc: str) -> bool:
    """A tank enters an extra-wide trench hex only where a fascine lies."""
    return is_tank(unit) and extra_wide(rec.terrain(), loc) and not rec.board.markers_at(loc, "fascine")


def before_move(rec: TrackedRecorder, unit: UnitState) -> bool:
    """A tank's vehicle-movement phase before it moves: repair, fascine, breakdown. True when it may
    still move this phase."""
    if not is_tank(unit):
        return may_move(rec, unit)
    m = machine(rec, unit.unit)
    if m.broken_until is not None:
        if m.broken_until >= 0 and rec.turn > m.broken_until:
            rec.status(unit.side, unit.unit, "repaired")   # even second die: automatically repaired
            m.broken_until = None
        return False
    if not may_move(rec, unit) or fascine_action(rec, unit, m):
        return False
    return not breakdown(rec, unit, m)


def breakdown(rec: TrackedRecorder, unit: UnitState, m: Machine) -> bool:
    """The Landships! breakdown roll and, on a breakdown, the second die (IM.TANK.BREAKDOWN)."""
    spec = spec_named(str(unit.attrs.get("model", "")))
    modifier = spec.get("breakdown_modifier", 0) if spec is not None else 0
    roll = rec.rng.randint(1, 6)
    rec.roll(unit.side, "LS.BREAKDOWN", "d6", roll, unit.unit,
             [(modifier, "breakdown modifier")] if modifier else ())
    if roll - modifier > 1:
        return False
    rec.status(unit.side, unit.unit, "broken-down", "LS.BREAKDOWN")
    second = rec.rng.randint(1, 6)
    rec.roll(unit.side, "IM.TANK.BREAKDOWN", "d6", second, unit.unit)
    m.broken_until = rec.turn + 1 if second % 2 == 0 else -1
    return True


def trench_beside(rec: TrackedRecorder, unit: UnitState) -> Optional[str]:
    """The hex a fascine drops into: the first extra-wide hex beside the tank (as the audit takes it)."""
    view = rec.terrain()
    beside = sorted(n for n in neighbours(unit.location) if rec.exists(n) and extra_wide(view, n))
    return beside[0] if beside else None


def fascine_action(rec: TrackedRecorder, unit: UnitState, m: Machine) -> bool:
    """Drop or unjam the fascine instead of moving; True when the tank spent its phase on it."""
    if m.fascine == "jammed" and rec.turn > m.fascine_turn:
        roll = rec.rng.randint(1, 6)
        rec.roll(unit.side, "IM.TANK.FASCINE.UNJAM", "d6", roll, unit.unit)
        m.fascine, m.fascine_turn = ("unjammed" if roll <= 4 else "jammed-for-good"), rec.turn
        return True
    ready = m.fascine == "carried" or (m.fascine == "unjammed" and rec.turn > m.fascine_turn)
    if not ready or extra_wide(rec.terrain(), unit.location):
        return False
    trench = trench_beside(rec, unit)
    if trench is None or any(rec.board.markers_at(n, "fascine") for n in neighbours(unit.location)):
        return False
    roll = rec.rng.randint(1, 6)
    rec.roll(unit.side, "IM.TANK.FASCINE.DROP", "d6", roll, unit.unit)
    m.fascine_turn = rec.turn
    if roll >= 3:
        m.fascine = "dropped"
        rec.marker(unit.side, "fascine", trench)
    else:
        m.fascine = "jammed"
    return True


# -- anti-tank rifles ---------------------------------------------------------------------------------
def anti_tank_phase(rec: TrackedRecorder, side: str, spot) -> None:
    """Each able anti-tank rifle of `side` fires at the nearest enemy tank it reaches and spots."""
    for rifle in rec.units(side, ("support-weapon",)):
        if rifle.attrs.get("weapon") != "atr" or rec.pinned(rifle) or rec.smoke(rifle.location):
            continue
        tanks = sorted((t for t in rec.units(rec.enemy(side), ("tank",)) if t.location
                        and 0 < rec.distance(rifle.location, t.location) <= (rifle.range or 0)
                        and rec.open_line(rifle.location, t.location) and not rec.smoke(t.location)),
                       key=lambda t: (rec.distance(rifle.location, t.location), t.unit))
        if tanks and spot(rec, side, rifle, tanks[0].location):
            rifle_shot(rec, side, rifle, tanks[0])


def rifle_shot(rec: TrackedRecorder, side: str, rifle: UnitState, tank: UnitState) -> None:
    attack = f"at-{rec.next_seq}"
    rec.emit("AntiTankFired", {"attack": attack, "firers": [rifle.unit], "target": tank.location,
                               "target_unit": tank.unit, "weapon": "atr",
                               "range": rec.distance(rifle.location, tank.location), "column": "atr"}, side)
    roll = rec.rng.randint(1, 10)
    rec.roll(side, "LS.ATCRT", "d10", roll, attack)
    cell = rec.pack.get("ATCRT", "atr", roll)
    hit = roll <= ATR_HIT if cell is None else str(cell).lower() not in ("miss", "-", "no-effect", "none")
    rec.emit("AntiTankResolved", {"attack": attack, "results": [{"unit": tank.unit,
                                                                  "result": "hit" if hit else "miss"}]}, side)
    if hit:
        critical(rec, side, attack, tank)


def critical(rec: TrackedRecorder, side: str, attack: str, tank: UnitState) -> None:
    """Anti-Tank Rifles (changed): the second die and, for the driver or the engine, the third."""
    m = machine(rec, tank.unit)
    second = rec.rng.randint(1, 6)
    rec.roll(side, "IM.SW.ATR.CRIT", "d6", second, attack)
    if second == 6:
        rec.status(tank.side, tank.unit, "eliminated", attack)
        return
    if second == 1:
        return
    third = rec.rng.randint(1, 6)
    rec.roll(side, "IM.SW.ATR.CRIT", "d6", third, attack)
    if second <= 3:
        m.held_until = max(m.held_until, rec.turn + 1)
        m.half_speed = m.half_speed or third <= 2
    elif third <= 2:
        m.halted = True
