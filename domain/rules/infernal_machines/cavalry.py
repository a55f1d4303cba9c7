"""Mounted Cavalry Small Arms Fire (new), IM.CAV.TROT: "A cavalry platoon that moves a maximum of
five hexagons (not movement points) during its movement phase is considered to be trotting. Each
cavalry platoon (other than machine gun platoons) that trots has an inherent firepower of 1 and a
range of 2 ... Cavalry units that charge or gallop still have no firepower or firing range."

Mounted cavalry fire through terms (direct_fire.py): firepower 1 and range 2 after a trot (at most
five hexagons this turn, standing still included), firepower 0 after a gallop (a move of more than
five hexagons, or `mode` "gallop") or a charge (`mode` "charge", or a close combat it attacked in).
A dismounted platoon fires as infantry. The move itself is judged by movement.py (IM.CAV.TROT).
"""
from __future__ import annotations

from typing import Any

from domain.rules.engine import RuleModule
from domain.rules.infernal_machines.direct_fire import Shot, Term

FAST = ("gallop", "charge")


class CavalryPaces:
    """The hexes each unit moved this turn, and whether it galloped or charged (a fold)."""

    def __init__(self):
        self.turn = 0
        self.hexes: dict[str, int] = {}
        self.fast: set[str] = set()

    def update(self, line: dict[str, Any], board) -> None:
        kind, data = line["type"], line["data"]
        if line["turn"] != self.turn:
            self.turn, self.hexes, self.fast = line["turn"], {}, set()
        if kind == "UnitMoved" and line["phase"] in ("first-foot-movement", "second-foot-movement"):
            unit = data.get("unit")
            self.hexes[unit] = self.hexes.get(unit, 0) + max(0, len(data.get("path", ())) - 1)
            if data.get("mode") in FAST or data.get("charge"):
                self.fast.add(unit)
        elif kind == "CloseCombatFought":
            self.fast.update(data.get("attackers", ()))


def paces(ctx) -> CavalryPaces:
    return ctx.shared("im-cavalry-paces", CavalryPaces)


def trot_terms(shot: Shot, ctx) -> list[Term]:
    if shot.kind != "small-arms":
        return []
    out, seen = [], paces(ctx)
    for firer in shot.firers:
        unit = ctx.board.units.get(firer)
        if unit is None or unit.unit_class != "cavalry-platoon" or "dismounted" in unit.status \
                or unit.attrs.get("mg") or unit.attrs.get("machine_gun"):
            continue
        moved = seen.hexes.get(firer, 0) if seen.turn == shot.turn else 0
        galloped = firer in seen.fast and seen.turn == shot.turn
        if galloped or moved > 5:
            why = f"{firer} {'galloped or charged' if galloped else f'moved {moved} hexagons'}: no firepower"
            out += [Term("IM.CAV.TROT", 0, why, "firepower-set", firer), Term("IM.CAV.TROT", 0, why, "range", firer)]
        else:
            why = f"{firer} trots ({moved} hexagons this turn)"
            out += [Term("IM.CAV.TROT", 1, why, "firepower-set", firer), Term("IM.CAV.TROT", 2, why, "range", firer)]
    return out


DIRECT_FIRE_TERMS = (trot_terms,)


class CavalryFire(RuleModule):
    """Makes the paces fold at the audit's start (a fold made on a later ask would miss the moves
    before it); the trot's firepower and range are judged through the terms by direct_fire.py."""

    def __init__(self, ctx):
        super().__init__(ctx)
        paces(ctx)


COVERAGE = {
    "IM.CAV.TROT": ("implemented", "tests/unit/test_im_sacrt.py::test_trotting_cavalry_fires_at_one_to_two_hexes",
                    "fire: firepower 1 and range 2 at the trot (five hexagons at most), none after a gallop or charge"),
}
