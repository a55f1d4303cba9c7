"""Carrying units (`Embarked`, `Disembarked`): what each vehicle may carry, and the passengers' rules.

- New Vehicles: "A carrying capacity is now indicated by a figure in a circle ... If this figure is red
  it shows how many squad-sized units can be carried; if it is black, the number of platoon-sized
  units" (the counter's: `attrs.capacity` {"squads": n} or {"platoons": n}).
- Trucks (changed): "up to one platoon of infantry or machine gunners, or up to four squads, or four
  crews, plus the weapons carried by these units"; Motorcycles (new): "Each unarmed motorcycle counter
  may carry one squad-sized unit".
- British Mk. V* and Mk. IX: "The Mark V* could carry only one squad, and the Mark IX could carry up to
  two squads"; "during the turn in which they are dropped off, their morale value is reduced by 1 ...
  If a squad fires while in 'sick' mode, the SACRT die roll is modified by +1" (⚠ the garbled sentence
  before it: whether dropped squads may move or fire that turn is lost, and not judged).
- Benz: "it could carry a squad-sized unit ... Passenger units may not fight from the Benz; they must
  first dismount."
What a load counts: platoons (infantry, machine gun, cavalry), squads and crews (squad-sized); the
weapons they carry and individual counters do not count. A capacity in platoons takes a squad or a crew
as a quarter of a platoon (a truck: "one platoon ... or up to four squads").
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.direct_fire import Shot, Term
from domain.rules.infernal_machines.tanks import RULEBOOK
from domain.rules.infernal_machines.vehicles import spec_of

SECTIONS = RULEBOOK.sections((
    "IM.VEH.CAPACITY", "IM.LV.TRUCK.CAPACITY", "IM.LV.MOTO.UNARMED", "IM.VEH.MKVSTAR_IX.CAPACITY",
    "IM.VEH.MKVSTAR_IX.SICK", "IM.VEH.BENZ",
))
PLATOONS = ("infantry-platoon", "mg-platoon", "cavalry-platoon")
SQUAD_SIZED = ("infantry-squad", "crew")
RULE_OF = {"truck": "IM.LV.TRUCK.CAPACITY", "motorcycle": "IM.LV.MOTO.UNARMED", "motorcycle-armed": "IM.LV.MOTO.UNARMED",
           "mk-v-star": "IM.VEH.MKVSTAR_IX.CAPACITY", "mk-ix": "IM.VEH.MKVSTAR_IX.CAPACITY", "benz-apc": "IM.VEH.BENZ"}
APCS = ("mk-v-star", "mk-ix")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def capacity_of(unit) -> tuple[Optional[dict[str, int]], str]:
    """(capacity, rule): the counter's circled number (attrs.capacity), else the text's (vehicles.json)."""
    given = unit.attrs.get("capacity")
    if isinstance(given, dict):
        return {k: int(v) for k, v in given.items() if isinstance(v, int)}, "IM.VEH.CAPACITY"
    spec = spec_of(unit)
    if spec is not None and spec.get("capacity") is not None and spec.model in RULE_OF:
        return dict(spec.get("capacity")), RULE_OF[spec.model]
    return None, "IM.VEH.CAPACITY"


def load_of(units: list) -> dict[str, int]:
    load = {"platoons": 0, "squads": 0, "crews": 0}
    for u in units:
        if u.unit_class in PLATOONS:
            load["platoons"] += 1
        elif u.unit_class == "infantry-squad":
            load["squads"] += 1
        elif u.unit_class == "crew":
            load["crews"] += 1
    return load


def fits(capacity: dict[str, int], load: dict[str, int]) -> bool:
    """One of the capacity's alternatives holds the load ("one platoon ..., or up to four squads, or four
    crews"); squads and crews are squad-sized, a platoon capacity takes them as quarters of a platoon."""
    small = load["squads"] + load["crews"]
    if "platoons" in capacity and load["platoons"] + small / 4 <= capacity["platoons"]:
        if not ({"squads", "crews"} & set(capacity)) or small == 0:
            return True
    squads = capacity.get("squads", capacity.get("crews"))
    return squads is not None and load["platoons"] == 0 and small <= squads


def sick_terms(shot: Shot, ctx) -> list[Term]:
    """Squads dropped off by a Mk V* or Mk IX this turn: "If a squad fires while in 'sick' mode, the SACRT
    die roll is modified by +1"."""
    if shot.kind != "small-arms":
        return []
    dropped = ctx.shared("im-dropped-squads", DroppedSquads).turn
    sick = [f for f in shot.firers if dropped.get(f) == shot.turn]
    return [Term("IM.VEH.MKVSTAR_IX.SICK", 1, f"{sick[0]} was dropped off this turn (\"sick\" mode)")] if sick else []


DIRECT_FIRE_TERMS = (sick_terms,)


class DroppedSquads:
    """Squads that left a Mk V* or Mk IX, and the turn they did (a fold, shared with the SACRT term)."""

    reads = frozenset({"Disembarked"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self):
        self.turn: dict[str, int] = {}

    def update(self, line: dict[str, Any], board) -> None:
        if line["type"] != "Disembarked":
            return
        spec = spec_of(board.units.get(line["data"].get("carrier")))
        if spec is not None and spec.model in APCS:
            for name in line["data"].get("units", []):
                self.turn[name] = line["turn"]


class CarryingChecks(RuleModule):
    """Who boards what, how many, and what passengers may do."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.dropped = ctx.shared("im-dropped-squads", DroppedSquads)

    def on_Embarked(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        carrier = board.units.get(d.carrier)
        if carrier is None:
            return []
        capacity, rule_id = capacity_of(carrier)
        if capacity is None:
            return [rule(rule_id).unverifiable(line["seq"], f"{carrier.unit}'s carrying capacity is the circled number "
                                               "on its counter (attrs.capacity), not in the log")]
        aboard = [u for u in board.units.values() if u.attrs.get("aboard") == carrier.unit and u.unit not in d.units]
        boarding = [board.units[n] for n in d.units if n in board.units]
        load = load_of(aboard + boarding)
        shown = ", ".join(f"{v} {k}" for k, v in load.items() if v) or "nothing"
        return [rule(rule_id).judge(
            line["seq"], fits(capacity, load), f"{carrier.unit} carries {shown}",
            f"{carrier.unit} may carry {' or '.join(f'{v} {k}' for k, v in capacity.items())}; with these it would "
            f"carry {shown}", expected=capacity, recorded=load)]

    def on_SmallArmsFired(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        out = []
        for firer in d.firers:
            unit = board.units.get(firer)
            carrier = board.units.get(unit.attrs.get("aboard", "")) if unit else None
            spec = spec_of(carrier)
            if spec is not None and spec.model == "benz-apc":
                out.append(rule("IM.VEH.BENZ").violation(
                    line["seq"], f"{firer} fires from the Benz {carrier.unit}: \"Passenger units may not fight from "
                    "the Benz; they must first dismount\"", recorded=firer))
        return out

    def on_MoraleChecked(self, line):
        """"during the turn in which they are dropped off, their morale value is reduced by 1"."""
        d, board = self.ctx.typed(line), self.ctx.board
        out = []
        for name in d.units:
            unit = board.units.get(name)
            if unit is None or self.dropped.turn.get(name) != line["turn"] or d.morale is None or unit.morale is None:
                continue
            out.append(rule("IM.VEH.MKVSTAR_IX.SICK").judge(
                line["seq"], d.morale == unit.morale - 1, f"{name}, dropped off this turn, checks at morale {d.morale}",
                f"{name} was dropped off this turn: its morale is {unit.morale - 1} (printed {unit.morale} - 1), "
                f"not {d.morale}", expected=unit.morale - 1, recorded=d.morale))
        return out


T = "tests/unit/test_im_carrying.py::"
COVERAGE = {
    "IM.VEH.CAPACITY": ("needs a chart", f"{T}test_a_counters_circled_capacity",
                        "the counter's circled number (attrs.capacity: squads or platoons); without it, and "
                        "outside the catalogue, unverifiable"),
    "IM.LV.TRUCK.CAPACITY": ("implemented", f"{T}test_a_truck_carries_a_platoon_or_four_squads_or_four_crews"),
    "IM.LV.MOTO.UNARMED": ("implemented", f"{T}test_unarmed_motorcycles_carry_one_squad"),
    "IM.VEH.MKVSTAR_IX.CAPACITY": ("implemented", f"{T}test_the_mk_v_star_carries_one_squad_the_mk_ix_two"),
    "IM.VEH.MKVSTAR_IX.SICK": ("ambiguous", f"{T}test_squads_dropped_off_are_sick_that_turn",
                               "+1 on the SACRT and morale -1 in the turn they are dropped off; the garbled sentence "
                               "(whether they may move or fire that turn) is not judged"),
    "IM.VEH.BENZ": ("implemented", f"{T}test_benz_passengers_dismount_to_fight",
                    "one squad-sized passenger, who may not fire from it; it moves as a tank (vehicles_board.py)"),
}
