"""The barrage phase of a generated game: observers pick targets, and each barrage runs the whole
procedure of the Indirect Barrage Fire Procedure in the order of the log format: observation,
declaration, artillery points (the consumption option), the LNO and FO communication tests, the
Fire Order Table in the column of the hex's resistance turns, scatter, the BCRT, and effects.

Chart values (FOT, BCRT, scatter diagram) come from the game's table pack when it holds them,
so the auditor checks them; otherwise the generator records a plausible reading.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from domain.board.state import UnitState
from domain.rules.infernal_machines.generator.fighting import retreat_path
from domain.rules.infernal_machines.generator.tracked import OBSERVERS, VEHICLES, TrackedRecorder
from domain.rules.infernal_machines.ammunition import points_cost
from domain.board.hexes import Placement, from_cube, parse_loc, to_cube
from domain.rules.infernal_machines.artillery_effects import barrage_effect, morale_passed, target_class
from domain.rules.infernal_machines.artillery_resolution import (
    bcrt_column, hit_bonus, scatter_destination, scatter_outcome, text_bcrt_modifiers)

FO_RANGE = 10          # IM.ART.FO.RANGE: any hex within 10


@dataclass
class Plan:
    target: str
    observer: Optional[str]
    via: str
    elements: list[str]
    mission: str
    kind: str
    ammunition: str
    sustained: bool = False
    id: str = ""
    fell: bool = False
    scattered: bool = False
    full: bool = False
    notes: dict[str, Any] = field(default_factory=dict)


def barrage_phase(rec: TrackedRecorder, side: str) -> None:
    rec.this_turn_barrages[side] = []
    used: set[str] = set()
    plans = _sustained_plans(rec, side, used)
    while len(plans) < 2:
        plan = _new_plan(rec, side, used, {p.target for p in plans})
        if plan is None:
            break
        plans.append(plan)
    for plan in plans:
        fire(rec, side, plan)
        rec.this_turn_barrages[side].append(plan)


# -- choosing ---------------------------------------------------------------------------------
def _points_ok(rec: TrackedRecorder, element: str, ammunition: str) -> bool:
    e = rec.board.elements[element]
    cost = points_cost("neutralisation" if ammunition == "smoke" else "destruction", ammunition)
    return not e.eliminated and (e.points_left is None or e.points_left >= cost)


def _free_elements(rec: TrackedRecorder, side: str, used: set[str], ammunition: str) -> list[str]:
    return [e for e in sorted(rec.board.elements) if rec.board.elements[e].side == side
            and e not in used and _points_ok(rec, e, ammunition)]


def observer_ok(rec: TrackedRecorder, unit: Optional[UnitState], target: str) -> bool:
    return (unit is not None and not unit.eliminated and not rec.pinned(unit) and unit.location is not None
            and not rec.smoke(unit.location) and not rec.smoke(target)
            and 0 < rec.distance(unit.location, target) <= FO_RANGE and rec.open_line(unit.location, target))


def _enemy_hexes(rec: TrackedRecorder, side: str) -> list[str]:
    return sorted({u.location for u in rec.units(rec.enemy(side)) if u.location
                   and u.unit_class not in VEHICLES and not rec.smoke(u.location)})


def _safe(rec: TrackedRecorder, side: str, target: str) -> bool:
    """Keep the side's own units out of reach of a scatter (two hexes for a hurricane)."""
    return all(rec.distance(u.location, target) > 3 for u in rec.units(side) if u.location)


def _sustained_plans(rec: TrackedRecorder, side: str, used: set[str]) -> list[Plan]:
    out = []
    for prev in rec.last_turn_barrages.get(side, []):
        unit = rec.board.units.get(prev.observer or "")
        if not (prev.full and prev.fell and not prev.scattered and prev.ammunition != "smoke"):
            continue
        if not observer_ok(rec, unit, prev.target) or not rec.board.units_at(prev.target, side=rec.enemy(side)):
            continue
        if any(e in used or not _points_ok(rec, e, prev.ammunition) for e in prev.elements):
            continue
        if rec.rng.random() < 0.75:
            used.update(prev.elements)
            out.append(Plan(prev.target, prev.observer, prev.via, list(prev.elements), prev.mission, prev.kind,
                            prev.ammunition, sustained=True))
    return out


def _new_plan(rec: TrackedRecorder, side: str, used: set[str], taken: set[str]) -> Optional[Plan]:
    """A new target: one barrage per hex a turn (one ammunition, one barrage type, one
    communication test per observer and hex), away from the other targets' scatter."""
    rng = rec.rng
    options: list[tuple[str, Optional[str], str]] = []
    for target in _enemy_hexes(rec, side):
        if any(rec.distance(target, t) <= 4 for t in taken) or not _safe(rec, side, target):
            continue
        # Hexes that resisted small arms fire are the ones the guns are asked for; the forward
        # observer's own line is tried before the liaison officer's longer chain.
        weight = 1 + 2 * rec.resistance.count(target)
        if rec.board.hexes.get(target, {}).get("terrain") == "town":
            options += [(target, None, "automatic")] * weight
        for unit in rec.units(side, OBSERVERS):
            if observer_ok(rec, unit, target):
                options += [(target, unit.unit, unit.unit_class)] * (weight * (2 if unit.unit_class == "forward-observer" else 1))
    if not options:
        return None
    target, observer, via = rng.choice(options)
    mission, kind, ammunition = _choose_fire(rec, side, target)
    free = _free_elements(rec, side, used, ammunition)
    if not free or (kind == "hurricane" and len(free) < 2):
        return None
    count = 1 if ammunition == "smoke" else rng.randint(2 if kind == "hurricane" else 1, min(3, len(free)))
    elements = sorted(rng.sample(free, count))
    used.update(elements)
    return Plan(target, observer, via, elements, mission, kind, ammunition)


def _choose_fire(rec: TrackedRecorder, side: str, target: str) -> tuple[str, str, str]:
    """A legal mission, barrage type and ammunition (IM.ART.LEGAL.MATRIX): destruction with HE,
    drumfire or (if the side drew it) hurricane; suppression with HE; smoke on a machine gun."""
    rng = rec.rng
    mission = rec.board.missions.get(side)
    types = rec.board.barrage_types.get(side, ["drumfire"])
    choices = [("destruction", "drumfire", "he")]
    if "hurricane" in types:
        choices.append(("destruction", "hurricane", "he"))
    if mission == "suppression":
        choices += [("suppression", "drumfire", "he")] * 2
    mg_there = any(u.unit_class == "mg-platoon" for u in rec.board.units_at(target))
    if "smoke" in rec.board.permissions and mission in ("suppression", "neutralisation") and mg_there:
        choices.append((mission, "drumfire", "smoke"))
    return rng.choice(choices)


# -- the procedure ----------------------------------------------------------------------------
def fire(rec: TrackedRecorder, side: str, plan: Plan) -> None:
    rng = rec.rng
    plan.id = f"{side[0]}b-{rec.next_seq}"
    rec.emit("HexObserved", {"observer": plan.observer, "target": plan.target, "via": plan.via}, side)
    rec.emit("BarrageDeclared", {"barrage": plan.id, "side": side, "target": plan.target,
                                 "elements": plan.elements, "mission": plan.mission, "barrage_type": plan.kind,
                                 "ammunition": plan.ammunition, "observer": plan.observer,
                                 "sustained": plan.sustained}, side)
    cost = points_cost(plan.mission, plan.ammunition)   # IM.ART.AMMOCON.COST, per element
    for element in plan.elements:
        rec.emit("ArtilleryPointsSpent", {"element": element, "points": cost,
                                          "reason": f"{plan.mission} {plan.kind} {plan.ammunition}",
                                          "barrage": plan.id}, side)
    first_turn = rec.turn == 1
    if plan.sustained:
        roll = rng.randint(1, 6)
        rec.roll(side, "IM.ART.SUSTAINED", "d6", roll, plan.id)
        if roll == 6:
            rec.emit("BarrageCancelled", {"barrage": plan.id, "reason": "sustained-ended"}, side)
            return
        plan.full = True
    elif not first_turn and plan.via != "automatic":
        if plan.via == "liaison-officer" and not _communicate(rec, side, plan, "lno-fo", "IM.ART.LNO.COMM"):
            return
        if not _communicate(rec, side, plan, "fo-artillery", "IM.ART.COMM.TEST"):
            return
    if not plan.sustained and not first_turn and plan.ammunition != "smoke":
        if not fire_order(rec, side, plan):
            return
        plan.full = plan.via != "automatic"
    if plan.ammunition == "smoke":
        _smoke(rec, side, plan)
        return
    centre = _scatter(rec, side, plan)
    plan.fell = True
    _resolve(rec, side, plan, centre)


def _communicate(rec: TrackedRecorder, side: str, plan: Plan, link: str, purpose: str) -> bool:
    roll = rec.rng.randint(1, 6)
    rec.roll(side, purpose, "d6", roll, plan.id)
    ok = roll >= 4   # IM.ART.COMM.TEST / IM.ART.LNO.COMM: 1-3 is a failure
    rec.emit("CommunicationTested", {"barrage": plan.id, "link": link, "in_communication": ok}, side)
    if not ok:
        rec.emit("BarrageCancelled", {"barrage": plan.id, "reason": "no-communication"}, side)
    return ok


def fot_granted(rec: TrackedRecorder, column: int, roll: int) -> bool:
    """The FOT cell (a count beyond the chart's last column reads the last column); without the
    table, a plausible reading: the more turns the hex resisted, the likelier the guns agree."""
    table = rec.pack.get("FOT")
    if isinstance(table, dict) and table:
        last = max(int(k) for k in table)
        cell = rec.pack.get("FOT", str(min(column, last)), str(roll))
        if cell is not None:
            return str(cell).upper() == "F"
    return roll <= 3 + min(column, 3)


def fire_order(rec: TrackedRecorder, side: str, plan: Plan) -> bool:
    column = rec.resistance.count(plan.target)
    roll = rec.rng.randint(1, 6)
    rec.roll(side, "IM.ART.FOT.ROLL", "d6", roll, plan.id)
    granted = fot_granted(rec, column, roll)
    rec.emit("FireOrderChecked", {"barrage": plan.id, "column": column, "modifiers": [], "granted": granted}, side)
    if not granted:
        rec.emit("BarrageCancelled", {"barrage": plan.id, "reason": "fire-order-refused"}, side)
    return granted


def _direction(rec: TrackedRecorder, roll: int) -> int:
    index = rec.pack.get("SCATTER", str(roll))
    return int(index) if index is not None else roll - 1


def _scatter(rec: TrackedRecorder, side: str, plan: Plan, element: Optional[str] = None) -> str:
    purpose = "IM.ART.SCATTER." + ("HURRICANE" if plan.kind == "hurricane" else "DRUMFIRE")
    roll = rec.rng.randint(1, 6)
    rec.roll(side, purpose, "d6", roll, plan.id)
    scattered, hexes = scatter_outcome(plan.kind, plan.ammunition, plan.mission, roll)
    data: dict[str, Any] = {"barrage": plan.id, "scattered": bool(scattered)}
    if element:
        data = {"barrage": plan.id, "element": element, "scattered": bool(scattered)}
    centre = plan.target
    if scattered:
        way = rec.rng.randint(1, 6)
        rec.roll(side, purpose, "d6", way, plan.id, note="direction")
        centre = scatter_destination(plan.target, _direction(rec, way), hexes) or plan.target
        data["new_target"] = centre
        plan.scattered = True
    rec.emit("ScatterTested", data, side)
    return centre


def _smoke(rec: TrackedRecorder, side: str, plan: Plan) -> None:
    """IM.ART.AMMO.SMOKE.PROC: one scatter test per element, no BCRT roll, a smoke marker on the
    centre of each element's zone."""
    for element in plan.elements:
        centre = _scatter(rec, side, plan, element)
        rec.marker(side, "smoke", centre)
    plan.fell = True


def _bcrt(rec: TrackedRecorder, column: str, modified: int) -> Optional[str]:
    table = rec.pack.get("BCRT", column)
    if not isinstance(table, dict) or not table:
        return None
    keys = sorted(int(k) for k in table)
    return str(table[str(min(max(modified, keys[0]), keys[-1]))])


def _modifiers(rec: TrackedRecorder, plan: Plan, loc: str) -> list[tuple[int, str]]:
    spec = rec.board.hexes.get(loc, {})
    mods = text_bcrt_modifiers(spec.get("terrain", "clear"), [m["marker"] for m in rec.board.markers_at(loc)],
                               rec.board.units_at(loc), plan.ammunition, rec.board.terrain_state,
                               rec.board.options, False, spec.get("features", []))
    return [(value, why) for why, value in sorted((mods or {}).items())]


def zone_hexes(rec: TrackedRecorder, plan: Plan, centre: str) -> list[tuple[str, str]]:
    """(hex, zone) of the impact zone around `centre`: the pack's template for the mission and
    barrage type (IMPACT_ZONES), else the centre hex alone."""
    zone = rec.pack.get("IMPACT_ZONES", plan.mission)
    if isinstance(zone, dict) and plan.kind in zone:
        zone = zone[plan.kind]
    if not isinstance(zone, dict):
        return [(centre, "primary")]
    c = to_cube(centre)
    board = parse_loc(centre)[0]
    out = []
    for name in ("primary", "secondary"):
        for off in zone.get(name) or []:
            loc = from_cube((c[0] + off[0], c[1] + off[1], c[2] + off[2]), Placement(), board)
            if loc is not None and (loc == centre or rec.exists(loc)) and loc not in [x for x, _ in out]:
                out.append((loc, name))
    return out or [(centre, "primary")]


def _resolve(rec: TrackedRecorder, side: str, plan: Plan, centre: str) -> None:
    """One BCRT roll for a drumfire barrage, one per element for a hurricane (column 10), each
    read for every hex of the impact zone with that hex's modifiers, then applied."""
    firepowers = [rec.board.elements[e].firepower for e in plan.elements]
    attacks = [(e, 10) for e in plan.elements] if plan.kind == "hurricane" else [(None, sum(firepowers))]
    hexes = zone_hexes(rec, plan, centre)
    for element, firepower in attacks:
        centre_mods = _modifiers(rec, plan, centre)
        roll = rec.rng.randint(1, 6)
        rec.roll(side, "IM.ART.BCRT.REVISED", "d6", roll, plan.id, centre_mods)
        column = bcrt_column(firepower, plan.kind, rec.pack.get("BCRT_COLUMNS")) or str(firepower)
        rows = []
        for loc, zone in hexes:
            mods = _modifiers(rec, plan, loc)
            result = _bcrt(rec, column, roll + sum(v for v, _ in mods)) or ("H" if roll <= 2 else "miss")
            row = {"location": loc, "zone": zone, "result": result}
            if len(hexes) > 1:
                row["modifiers"] = [{"value": v, "why": why} for v, why in mods]
            rows.append(row)
        data: dict[str, Any] = {"barrage": plan.id, "firepower": firepower, "column": column, "results": rows}
        if element:
            data = {"barrage": plan.id, "element": element, **{k: v for k, v in data.items() if k != "barrage"}}
        rec.emit("BarrageResolved", data, side)
        # Who is in each hex when the shells land: a unit that retreats into another hex of the
        # zone is not attacked twice by the same fire.
        occupants = {row["location"]: list(rec.board.units_at(row["location"])) for row in rows}
        for row in rows:
            _effects(rec, side, plan, row, [u for u in occupants[row["location"]] if not u.eliminated])
        if not any(rec.board.units_at(loc) for loc, _ in hexes):
            break   # IM.ART.BAT.HURRICANE.STOP: nobody left in the zone; later attacks are ignored


def _effects(rec: TrackedRecorder, side: str, plan: Plan, row: dict[str, Any], units: list[UnitState]) -> None:
    """Section J's effect of the result on every unit of the hex (the auditor's own table,
    `barrage_effect`): a status, one morale check for the hex, or a vehicle's second d6."""
    result = row["result"]
    if plan.mission == "suppression":
        for unit in units:
            rec.suppressed[unit.unit] = rec.turn + 1
    checks = [(u, barrage_effect(plan.mission, plan.ammunition, target_class(u), row["zone"], result,
                                 pinned="pinned" in u.status))
              for u in units if target_class(u) is not None]
    checks = [(u, e) for u, e in checks if e is not None]
    morale_roll = None
    if any(e.morale_check for _, e in checks):
        bonus = hit_bonus(result)
        subject = next(u.unit for u, e in checks if e.morale_check)
        morale_roll = rec.rng.randint(1, 6)
        rec.roll(side, "LS.MORALE", "d6", morale_roll, subject, [(bonus, f"{result} result")] if bonus else ())
    for unit, effect in checks:
        outcome = effect.outcome
        if effect.morale_check:
            passed = morale_passed(morale_roll, [hit_bonus(result)], unit.morale or 0)
            rec.emit("MoraleChecked", {"units": [unit.unit], "morale": unit.morale, "passed": passed}, unit.side)
            outcome = effect.on_pass if passed else effect.on_fail
        if effect.subroll is not None:
            sub = rec.rng.randint(1, 6)
            rec.roll(side, effect.rule, "d6", sub, unit.unit)
            outcome = "eliminated" if sub in effect.subroll else "none"
        _apply_outcome(rec, plan, unit, outcome)


def _apply_outcome(rec: TrackedRecorder, plan: Plan, unit: UnitState, outcome: str) -> None:
    if outcome == "eliminated":
        rec.status(unit.side, unit.unit, "eliminated", plan.id)
    elif outcome == "pinned":
        rec.status(unit.side, unit.unit, "pinned", plan.id)
    elif outcome == "retreat":
        # "it must retreat two hexagons instead and remains pinned"
        rec.status(unit.side, unit.unit, "retreated", plan.id)
        path = retreat_path(rec, unit)
        if path is not None:
            rec.emit("UnitMoved", {"unit": unit.unit, "path": path}, unit.side)
