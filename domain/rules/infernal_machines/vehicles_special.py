"""Vehicles with a procedure of their own: the Mine Clearer, the Bridge Layer, the 3-Pounder armoured car and
the Mk. I Gun Carrier.

- Mine Clearer: "The mine clearer is not affected by enemy minefields. The tank simply has to enter a
  minefield hexagon to clear it. Friendly units may then enter the hexagon safely" (a minefield roll,
  purpose naming MINEFIELD, about it or a friend in a cleared hex is refused); OPTIONAL RULE: friends follow
  only its entry and exit "paths" (the option `IM.VEH.MINECLEARER.PATH`).
- Bridge Layer: "it loses 1 movement point from its normal movement allowance when carrying the bridge";
  its bridge (a `bridge` marker) is laid once and "cannot be picked up or reused".
- 3-Pounder armoured car: "The armoured car has its movement allowance halved ... To use the gun, the car
  must stop" (towing: a gun aboard it, `Embarked`, or `attrs.towing`).
- Gun Carrier: the crew on it (a crew whose `attrs.vehicle` names it, or a `crew` marker on it), then "During
  each following friendly Vehicle Movement Phase, roll a six-sided die, adding +1 to the die for each
  previous failed die roll. On a result of 10 or more, the gun is now ready ... If the crew is pinned or
  leaves the hexagon, the unloading process must begin again in its entirety" (`IM.VEH.GUNCARRIER.UNLOAD`
  dice; the gun comes as an artillery gun deployed in the hex or `Disembarked`); the gun "has a firepower
  of 20 ... may fire directly only at enemy units that have fired directly at it"; reloading needs the
  carrier in the gun's hex and 12 or more (`IM.VEH.GUNCARRIER.RELOAD` dice; the gun `Embarked` again).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from domain.board.hexes import distance
from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.movement_costs import Conditions, evaluate_path, mover_for
from domain.rules.infernal_machines.tanks import RULEBOOK
from domain.rules.infernal_machines.vehicles import bridge_drops, spec_of

SECTIONS = RULEBOOK.sections((
    "IM.VEH.MINECLEARER.CLEAR", "IM.VEH.MINECLEARER.PATH", "IM.VEH.BRIDGELAYER.CARRY", "IM.VEH.BRIDGELAYER.DEPLOY",
    "IM.VEH.3PDR_AC", "IM.VEH.GUNCARRIER.UNLOAD", "IM.VEH.GUNCARRIER.RESET", "IM.VEH.GUNCARRIER.GUN",
    "IM.VEH.GUNCARRIER.RELOAD",
))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def model(unit) -> Optional[str]:
    spec = spec_of(unit)
    return spec.model if spec else None


@dataclass
class Carrier:
    """A Gun Carrier's unloading or reloading: the crew's start, the failures so far, the last success."""
    crew_turn: Optional[int] = None
    failures: int = 0
    rolled: set = field(default_factory=set)          # (turn, phase) of its rolls
    ready: Optional[int] = None                       # seq of the success that readies the gun
    gun: Optional[str] = None
    reload_failures: int = 0
    reloaded: Optional[int] = None
    fired_at_gun: set = field(default_factory=set)    # enemy units that fired directly at the placed gun


class SpecialVehicles(RuleModule):
    """The Mine Clearer's paths, the Bridge Layer's bridge and load, the towing car, the Gun Carrier."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.cleared: dict[str, tuple[Optional[str], str, Optional[str], str, int]] = {}   # hex -> (in, side, out, unit, seq)
        self.spent: dict[tuple[str, int, str], float] = {}
        self.towed_moves: dict[str, int] = {}                # towing car -> turn of its last move
        self.carriers: dict[str, Carrier] = {}
        self.paths: dict[str, list[str]] = {}               # unit -> the hexes its last move entered
        bridge_drops(ctx)                                    # a fold: made now, so that it sees every line

    # -- moves -------------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        unit = board.units.get(d.unit)
        if unit is None or len(d.path) < 2:
            return []
        kind = model(unit)
        self.paths[unit.unit] = list(d.path[1:])
        out = self._minefields(line, unit, d.path, kind)
        if kind == "mk-v-bridge-layer" and not bridge_drops(self.ctx).dropped(unit.unit):
            out += self._allowance(line, unit, d.path, "IM.VEH.BRIDGELAYER.CARRY", lambda a: a - 1,
                                   "loses 1 movement point while carrying the bridge")
        if kind == "rolls-royce-3pdr" and self._towing(unit):
            self.towed_moves[unit.unit] = line["turn"]
            out += self._allowance(line, unit, d.path, "IM.VEH.3PDR_AC", lambda a: a / 2,
                                   "has its movement allowance halved while towing the gun")
        out += self._crew_left(line, unit)
        return out

    def _allowance(self, line, unit, path, rule_id, limit, why) -> list[RuleApplication]:
        view = board_view(self.ctx)
        mover = mover_for(view, unit, self.ctx.tables)
        board = self.ctx.board
        pe = evaluate_path(view, mover, list(path), Conditions(board.weather, board.terrain_state), self.ctx.tables,
                           self.ctx.interpretations)
        key = (unit.unit, line["turn"], line["phase"])
        if pe.total is None or mover.allowance is None or self.spent.get(key, 0.0) is None:
            self.spent[key] = None
            return [rule(rule_id).unverifiable(line["seq"], self.ctx.tables.lacks("MOVEMENT") + " (the move's cost)")]
        total = self.spent.get(key, 0.0) + pe.total
        self.spent[key] = total
        allowed = limit(mover.allowance)
        single = len(path) == 2 and total == pe.total
        return [rule(rule_id).judge(line["seq"], total <= allowed or single, f"{total:g} MP of {allowed:g}",
                                    f"{unit.unit} {why}: {allowed:g} MP of {mover.allowance:g}; it spends {total:g}",
                                    expected=allowed, recorded=total)]

    def _towing(self, unit) -> bool:
        return bool(unit.attrs.get("towing")) or any(
            u.attrs.get("aboard") == unit.unit and u.unit_class == "artillery-gun" for u in self.ctx.board.units.values())

    # -- the Mine Clearer --------------------------------------------------------------------------
    def _minefields(self, line, unit, path, kind) -> list[RuleApplication]:
        view, out = board_view(self.ctx), []
        left = self.cleared.get(path[0])
        if kind == "mk-iv-mine-clearer" and left is not None and left[3] == unit.unit and left[2] is None:
            self.cleared[path[0]] = (left[0], left[1], path[1], left[3], left[4])    # its exit, a move later
        for i, loc in enumerate(path[1:], 1):
            mined = view.markers(loc)["minefield"] or "minefield" in view.features(loc)
            if kind == "mk-iv-mine-clearer" and mined and loc not in self.cleared:
                after = path[i + 1] if i + 1 < len(path) else None
                self.cleared[loc] = (path[i - 1], unit.side, after, unit.unit, line["seq"])
            elif kind != "mk-iv-mine-clearer" and loc in self.cleared and self.cleared[loc][1] == unit.side:
                out += self._follow(line, unit, path, i, loc)
        return out

    def _follow(self, line, unit, path, i, loc) -> list[RuleApplication]:
        """OPTIONAL RULE: friends follow only the mine clearer's entry and exit paths."""
        if "IM.VEH.MINECLEARER.PATH" not in {str(o) for o in self.ctx.board.options}:
            return []
        entry, _, exit_, clearer, seq = self.cleared[loc]
        came, going = path[i - 1], path[i + 1] if i + 1 < len(path) else None
        good = {came, going} - {None} <= {entry, exit_}
        return [rule("IM.VEH.MINECLEARER.PATH").judge(
            line["seq"], good, f"{unit.unit} follows the mine clearer's path through {loc}",
            f"{unit.unit} crosses the cleared minefield {loc} from {came} to {going}: friends follow only the mine "
            f"clearer's path ({entry} -> {exit_})", related=[seq], recorded=[came, going])]

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        purpose = (d.purpose or "").upper()
        if "MINEFIELD" in purpose:
            return self._mine_roll(line, d)
        if d.purpose in ("IM.VEH.GUNCARRIER.UNLOAD", "IM.VEH.GUNCARRIER.RELOAD"):
            return self._carrier_roll(line, d)
        return []

    def _mine_roll(self, line, d) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(d.subject or "")
        if unit is None:
            return []
        if model(unit) == "mk-iv-mine-clearer":
            return [rule("IM.VEH.MINECLEARER.CLEAR").violation(
                line["seq"], f"{unit.unit} is a mine clearer: \"not affected by enemy minefields\"", recorded=d.purpose)]
        crossed = [loc for loc in self.paths.get(unit.unit, [unit.location])
                   if loc in self.cleared and self.cleared[loc][1] == unit.side]
        entry = self.cleared[crossed[0]] if crossed else None
        if entry is not None:
            return [rule("IM.VEH.MINECLEARER.CLEAR").violation(
                line["seq"], f"{crossed[0]} was cleared by {entry[3]} (seq {entry[4]}): friendly units enter it "
                "\"safely with no further effect\"", related=[entry[4]])]
        return []

    # -- the Bridge Layer's bridge ----------------------------------------------------------------------
    def on_MarkerPlaced(self, line):
        d = self.ctx.typed(line)
        if d.marker == "crew" and d.unit and model(self.ctx.board.units.get(d.unit)) == "gun-carrier-mk-i":
            self._carrier(d.unit).crew_turn, self._carrier(d.unit).failures = line["turn"], 0
            return []
        if d.marker != "bridge" or line["turn"] == 0:
            return []
        drops = bridge_drops(self.ctx)
        layer = drops.layer_of(line, self.ctx.board)
        r = rule("IM.VEH.BRIDGELAYER.DEPLOY")
        if layer is None:
            return []
        unit = self.ctx.board.units.get(layer)
        if drops.dropped(layer):
            return [r.violation(line["seq"], f"{layer} laid its bridge at seq {drops.drops[layer]}: \"Once placed, the "
                                "bridge cannot be picked up or reused in any way\"", related=[drops.drops[layer]])]
        view = board_view(self.ctx)
        near = unit is not None and unit.location and distance(unit.location, d.location, view.placement) <= 1
        where = "a river" if view.river(d.location) else "a trench" if view.trench(d.location) else None
        return [r.judge(line["seq"], bool(near), f"{layer} lays its bridge across {where or 'a hexagon (an emergency)'} "
                        f"in {d.location}", f"{layer} in {unit.location if unit else '?'} cannot lay its bridge in "
                        f"{d.location}", recorded=d.location)]

    def on_MarkerRemoved(self, line):
        d = self.ctx.typed(line)
        if d.marker != "bridge" or not bridge_drops(self.ctx).drops:
            return []
        return [rule("IM.VEH.BRIDGELAYER.DEPLOY").violation(
            line["seq"], f"the bridge in {d.location} is removed: it \"cannot be picked up or reused in any way\"",
            recorded=d.location)]

    # -- the Gun Carrier -----------------------------------------------------------------------------
    def _carrier(self, unit: str) -> Carrier:
        return self.carriers.setdefault(unit, Carrier())

    def on_UnitDeployed(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        if d.class_ == "crew" and model(board.units.get(str(d.attrs.get("vehicle", "")))) == "gun-carrier-mk-i":
            self._carrier(str(d.attrs["vehicle"])).crew_turn = line["turn"]
        if d.class_ != "artillery-gun" or line["turn"] == 0:
            return []
        carrier = next((u for u in board.units_at(d.location) if model(u) == "gun-carrier-mk-i"), None) \
            if d.location else None
        return self._gun_placed(line, carrier, d.unit, d.firepower) if carrier else []

    def on_Disembarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        carrier = board.units.get(d.carrier)
        if model(carrier) != "gun-carrier-mk-i":
            return []
        guns = [n for n in d.units if board.units.get(n) and board.units[n].unit_class == "artillery-gun"]
        return [app for g in guns for app in self._gun_placed(line, carrier, g, board.units[g].firepower)]

    def _gun_placed(self, line, carrier, gun: str, firepower) -> list[RuleApplication]:
        c = self._carrier(carrier.unit)
        out = [rule("IM.VEH.GUNCARRIER.UNLOAD").judge(
            line["seq"], c.ready is not None, f"the gun {gun} is ready (seq {c.ready})",
            f"the gun {gun} is placed before a roll of 10 or more (six-sided die plus previous failures) readies it",
            related=[c.ready] if c.ready else [])]
        if firepower is not None:
            out.append(rule("IM.VEH.GUNCARRIER.GUN").judge(
                line["seq"], firepower == 20, "the carrier's gun has a firepower of 20",
                f"\"as it is so large, it has a firepower of 20\", not {firepower:g}", expected=20, recorded=firepower))
        if c.ready is not None:
            c.gun, c.ready, c.failures, c.crew_turn = gun, None, 0, None
        return out

    def on_Embarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        carrier = board.units.get(d.carrier)
        if model(carrier) != "gun-carrier-mk-i":
            return []
        c = self._carrier(carrier.unit)
        if c.gun not in d.units:
            return []
        ok = c.reloaded is not None
        c.gun, c.reloaded, c.reload_failures = None, None, 0
        return [rule("IM.VEH.GUNCARRIER.RELOAD").judge(
            line["seq"], ok, "the gun is back on the chassis", "the gun is put back on the chassis without a reloading "
            "roll of 12 or more")]

    def _carrier_roll(self, line, d) -> list[RuleApplication]:
        board = self.ctx.board
        unit = board.units.get(d.subject or "")
        if model(unit) != "gun-carrier-mk-i":
            return []
        c, seq, reload = self._carrier(unit.unit), line["seq"], d.purpose.endswith("RELOAD")
        r = rule(d.purpose)
        out = [rule("IM.VEH.GUNCARRIER.UNLOAD").judge(
            seq, line["phase"] == "vehicle-movement" and board.active == unit.side, "in a friendly Vehicle Movement Phase",
            "the roll is made \"during each following friendly Vehicle Movement Phase\"", recorded=line["phase"])]
        if (line["turn"], line["phase"]) in c.rolled:
            out.append(r.violation(seq, "one roll a Vehicle Movement Phase"))
        c.rolled.add((line["turn"], line["phase"]))
        if reload:
            gun = board.units.get(c.gun or "")
            out.append(r.judge(seq, gun is not None and gun.location == unit.location, "the carrier is in the gun's hex",
                               "to reload the gun the carrier must be in the same hexagon as the artillery gun"))
            failures, need = c.reload_failures, 12
        else:
            if c.crew_turn is None or line["turn"] <= c.crew_turn:
                out.append(r.violation(seq, "the crew is placed on the Gun Carrier first; the rolls come in the following "
                                       "friendly Vehicle Movement Phases"))
            failures, need = c.failures, 10
        total = d.result + failures
        mods = [m.value for m in d.modifiers]
        if mods and sum(mods) != failures:
            out.append(r.mismatch(seq, f"+1 for each previous failed roll: +{failures}, not {sum(mods):+d}",
                                  expected=failures, recorded=sum(mods)))
        if total >= need:
            if reload:
                c.reloaded = seq
            else:
                c.ready = seq
            out.append(r.ok(seq, f"{d.result} + {failures} = {total}: {need} or more"))
        else:
            if reload:
                c.reload_failures += 1
            else:
                c.failures += 1
            out.append(r.ok(seq, f"{d.result} + {failures} = {total}: less than {need}"))
        return out

    def _crew_left(self, line, unit) -> list[RuleApplication]:
        """RESET: "If the crew ... leaves the hexagon": the crew moves, or the carrier moves away from it."""
        for name, c in self.carriers.items():
            crew = unit.unit_class == "crew" and unit.attrs.get("vehicle") == name
            if (crew or unit.unit == name) and c.crew_turn is not None and c.gun is None:
                c.failures, c.crew_turn, c.ready = 0, line["turn"], None
                return [rule("IM.VEH.GUNCARRIER.RESET").ok(line["seq"], f"the crew of {name} leaves its hexagon: the "
                                                           "unloading must begin again in its entirety")]
        return []

    def on_UnitStatusChanged(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        unit = board.units.get(d.unit)
        if unit is None or d.status != "pinned" or unit.unit_class != "crew":
            return []
        c = self.carriers.get(str(unit.attrs.get("vehicle", "")))
        if c is not None and c.gun is None and c.crew_turn is not None:
            c.failures, c.crew_turn, c.ready = 0, line["turn"], None
            return [rule("IM.VEH.GUNCARRIER.RESET").ok(line["seq"], "the crew is pinned: the unloading begins again")]
        return []

    # -- the placed gun fires back only -------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        return self._direct(line)

    def on_AntiTankFired(self, line):
        return self._direct(line)

    def _direct(self, line) -> list[RuleApplication]:
        d, board, out = self.ctx.typed(line), self.ctx.board, []
        for c in self.carriers.values():
            gun = board.units.get(c.gun or "")
            if gun is None:
                continue
            if gun.location == d.target:
                c.fired_at_gun.update(d.firers)
            if gun.unit in d.firers:
                there = {u.unit for u in board.units_at(d.target)}
                out.append(rule("IM.VEH.GUNCARRIER.GUN").judge(
                    line["seq"], bool(there & c.fired_at_gun), f"{gun.unit} fires back at units that fired at it",
                    f"the Gun Carrier's gun \"may fire directly only at enemy units that have fired directly at it\": "
                    f"none in {d.target} has", recorded=sorted(there)))
        for firer in d.firers:
            car = board.units.get(firer)
            towing = self.ctx.board.units.get(str(car.attrs.get("aboard", ""))) if car else None
            if car is not None and car.unit_class == "artillery-gun" and model(towing) == "rolls-royce-3pdr" \
                    and self.towed_moves.get(towing.unit) == line["turn"]:
                out.append(rule("IM.VEH.3PDR_AC").violation(
                    line["seq"], f"the gun of {towing.unit} fires in a turn the car moved: \"To use the gun, the car "
                    "must stop\"", recorded=firer))
        return out


T = "tests/unit/test_im_special_vehicles.py::"
COVERAGE = {
    "IM.VEH.MINECLEARER.BASE": ("implemented", "tests/unit/test_im_tanks.py::test_the_breakdown_roll_carries_the_catalogue_modifier",
                                "a female Mk IV (the counter's arms) with the breakdown modifier +1 over its own"),
    "IM.VEH.MINECLEARER.CLEAR": ("implemented", f"{T}test_the_mine_clearer_clears_the_way"),
    "IM.VEH.MINECLEARER.PATH": ("implemented", f"{T}test_the_mine_clearer_clears_the_way"),
    "IM.VEH.BRIDGELAYER.CARRY": ("needs a chart", f"{T}test_the_bridge_layer_carries_then_lays_its_bridge; "
                                 "tests/unit/test_im_vehicles.py::test_the_bridge_layer_has_a_blind_front",
                                 "-1 MP (the moves' costs are the table pack's MOVEMENT), the blind front (ahead yes, "
                                 "between: Landships! 8.12), breakdown +1 over the Mk V's counter"),
    "IM.VEH.BRIDGELAYER.DEPLOY": ("implemented", f"{T}test_the_bridge_layer_carries_then_lays_its_bridge; "
                                  f"{T}test_a_laid_bridge_is_crossed_as_clear_terrain",
                                  "laid by the layer in or next to the hex, once, never removed; a friendly unit's "
                                  "step into its hex costs clear terrain (movement_costs.py)"),
    "IM.VEH.3PDR_AC": ("ambiguous", f"{T}test_the_three_pounder_car_tows_at_half_speed_and_stops_to_fire",
                       "half the allowance while towing, no gun fire in a turn it moved; its optional range 30 "
                       "cites 16.23 (IM.Z 25)"),
    "IM.VEH.GUNCARRIER.UNLOAD": ("implemented", f"{T}test_ec_37_the_gun_is_ready_on_the_fifth_roll_at_the_earliest"),
    "IM.VEH.GUNCARRIER.RESET": ("implemented", f"{T}test_ec_37_a_pinned_crew_starts_again"),
    "IM.VEH.GUNCARRIER.GUN": ("implemented", f"{T}test_ec_37_the_gun_is_ready_on_the_fifth_roll_at_the_earliest"),
    "IM.VEH.GUNCARRIER.RELOAD": ("implemented", f"{T}test_ec_37_reloading_needs_twelve_in_the_guns_hex"),
}
