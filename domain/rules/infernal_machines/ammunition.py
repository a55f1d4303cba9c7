"""Optional rule: artillery ammunition consumption (IM.ART section M).

In force when `GameStarted.options` holds an id starting with `IM.ART.AMMOCON` (the catalogue's
`IM.ART.AMMOCON.ENABLE`). Each off-map element has 25 artillery points; each `ArtilleryPointsSpent`
must be the cost table's amount for its barrage, before the barrage fires (its scatter test), and
never take the element over 25; a barrage that fires without its spend is a missing step. An
objective whose hex lies in the primary impact zone after scatter is destroyed automatically.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleModule, Verdict, closer
from domain.rules.infernal_machines.artillery_legality import CREEPING, ammo_option_on
from domain.rules.infernal_machines.artillery_resolution import placement_of
from domain.rules.infernal_machines.barrage_tracker import Declared, renew_barrage
from domain.board.hexes import to_cube
from domain.rules.interpretations import Interpretation, declare
from domain.rulebook import beside

RULEBOOK = beside(__file__)
OPTION = "IM.ART.AMMOCON"
POINTS_PER_ELEMENT = 25
R_ENABLE = RULEBOOK.rule("IM.ART.AMMOCON.ENABLE")
R_COST = RULEBOOK.rule("IM.ART.AMMOCON.COST")
R_CAP = RULEBOOK.rule("IM.ART.AMMOCON.COST.CAP")
R_SEQUENCE = RULEBOOK.rule("IM.ART.AMMOCON.SEQUENCE")
R_EXEMPT = RULEBOOK.rule("IM.ART.AMMOCON.EXEMPT")
R_AUTOKILL = RULEBOOK.rule("IM.ART.AMMOCON.AUTOKILL")

# The cost table, artillery points per element per turn.
OBJECTIVE_COST = {"strongpoint": 4, "wire": 2, "gun": 1}
SMOKE_COST, INTERDICTION_COST, BARRAGE_COST = 5, 1, 2

ROWS = declare(Interpretation(
    "im-ammunition-cost-rows", ("IM.ART.AMMOCON.COST", "IM.ART.AMMOCON.EXEMPT"),
    "Does a targeted action (strongpoint 4, wire 2, gun 1, smoke 5, interdiction 1) also pay the 2-point "
    "'drumfire or hurricane barrage (whatever the mission)' row?",
    {"alternatives": "no: each barrage pays one row; the example charges 1 point for a gun and needs no barrage type",
     "cumulative": "yes: the targeted row plus 2 for the barrage"},
    default="alternatives"))
AUTOKILL_SCATTER = declare(Interpretation(
    "im-ammunition-autokill-scatter", ("IM.ART.AMMOCON.AUTOKILL",),
    "After a scatter, is the objective destroyed when its hex still lies in the new primary zone (the rule), "
    "or is the point always wasted (the example: 'If there is scatter, the artillery point is wasted')?",
    {"primary-zone": "destroyed whenever its hex lies in the primary zone after scatter",
     "wasted": "any scatter wastes the point"},
    default="primary-zone"))


def points_cost(mission: str, ammunition: str, objective: Optional[str] = None,
                rows: str = "alternatives") -> int:
    """Artillery points each firing element spends this turn for one barrage."""
    if mission in CREEPING or mission == "gas" or ammunition == "gas":
        return 0                                      # "exempt from the ammunition consumption rules"
    if ammunition == "smoke":
        targeted = SMOKE_COST
    elif mission == "interdiction":
        targeted = INTERDICTION_COST
    elif mission == "destruction" and objective in OBJECTIVE_COST:
        targeted = OBJECTIVE_COST[objective]
    else:
        return BARRAGE_COST
    return targeted + (BARRAGE_COST if rows == "cumulative" else 0)


def objective_destroyed(target: str, scattered: bool, new_target: Optional[str], ammunition: str,
                        primary_offsets: Optional[list[list[int]]] = None, reading: str = "primary-zone",
                        placement=None) -> Optional[bool]:
    """Is the objective in `target` destroyed? None when it needs the impact-zone template."""
    if ammunition == "smoke":
        return False
    if not scattered:
        return True
    if reading == "wasted":
        return False
    if primary_offsets is None or new_target is None:
        return None
    kw = {"placement": placement} if placement is not None else {}
    t, c = to_cube(target, **kw), to_cube(new_target, **kw)
    return [t[0] - c[0], t[1] - c[1], t[2] - c[2]] in [list(o) for o in primary_offsets]


def primary_offsets(tables, mission: str, barrage_type: str) -> Optional[list[list[int]]]:
    zone = tables.get("IMPACT_ZONES", mission)
    if isinstance(zone, dict) and barrage_type in zone:
        zone = zone[barrage_type]
    return zone.get("primary") if isinstance(zone, dict) else None


# what shows an automatic kill was carried out (a unit eliminated, a marker taken away)
KILL_EVIDENCE = ("UnitStatusChanged", "MarkerRemoved")


class AmmunitionConsumption(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.on = False
        self.declared: dict[str, Declared] = {}
        self.spent: dict[str, dict[str, int]] = {}          # barrage -> element -> seq of the spend
        self.fired: dict[str, int] = {}                     # barrage -> seq of its first scatter test
        self.unspent: dict[str, tuple[int, list[str]]] = {}  # barrage -> (that seq, elements not yet spent)
        self.pending_kill: Optional[dict[str, Any]] = None

    def on_GameStarted(self, line):
        self.on = ammo_option_on(self.ctx.typed(line).options, OPTION)
        return []

    def on_ArtilleryElementAssigned(self, line):
        if not self.on:
            return []
        points = self.ctx.typed(line).artillery_points
        return [R_ENABLE.judge(line["seq"], points == POINTS_PER_ELEMENT, "25 artillery points",
                               f"each off-map element has {POINTS_PER_ELEMENT} artillery points, not {points}",
                               verdict=Verdict.MISMATCH, expected=POINTS_PER_ELEMENT, recorded=points)]

    def on_BarrageDeclared(self, line):
        declared = self.ctx.typed(line)
        if renew_barrage(declared.barrage, line["turn"], self.declared, self.spent, self.fired, self.unspent):
            self.declared[declared.barrage] = Declared(declared, line["seq"], line["turn"])
        return self._close_kill()

    @closer
    def on_PhaseStarted(self, line):
        return self._close_kill()

    def finish(self):
        out = self._close_kill()
        for key, decl in self.declared.items():
            seq, missing = self.unspent.get(key) or (None, [])
            missing = [e for e in missing if e not in self.spent.get(key, {})]
            if missing:
                out.append(R_SEQUENCE.missing_roll(seq, f"no artillery points spent for {', '.join(missing)} before "
                                                   f"the barrage fired", related=[decl.seq]))
        return out

    def on_ArtilleryPointsSpent(self, line):
        spend, seq = self.ctx.typed(line), line["seq"]
        if not self.on:
            return [R_ENABLE.violation(seq, "artillery points are spent only with the optional ammunition-consumption "
                                       "rule, which this game did not choose")]
        found = self.declared.get(spend.barrage or "")
        element = self.ctx.board.elements.get(spend.element)
        out = []
        if element is not None:
            left = (element.artillery_points or POINTS_PER_ELEMENT) - element.points_spent
            out.append(R_CAP.judge(seq, spend.points <= left, f"{spend.points} of {left} points left",
                                   f"{spend.element} has {left} artillery points left; it cannot spend {spend.points}",
                                   expected=f"<= {left}", recorded=spend.points))
        if found is None:
            return out
        decl = found.event
        if spend.element not in decl.elements:
            out.append(R_COST.violation(seq, f"{spend.element} does not fire in {decl.barrage}", recorded=spend.element))
        rows = self.ctx.interpretations.reading(ROWS.name) or "alternatives"
        cost = points_cost(decl.mission, decl.ammunition, decl.objective, rows)
        if cost == 0:
            out.append(R_EXEMPT.violation(seq, f"a {decl.mission} barrage is exempt from ammunition consumption",
                                          expected=0, recorded=spend.points))
        else:
            out.append(R_COST.judge(seq, spend.points == cost, f"{cost} point(s) per element for this barrage",
                                    f"the cost table charges {cost} point(s) per firing element, not {spend.points}",
                                    verdict=Verdict.MISMATCH, expected=cost, recorded=spend.points,
                                    related=[found.seq], interpretation=self.ctx.interpretations.label(ROWS.name)))
        fired = self.spent.setdefault(decl.barrage, {})
        if self.fired.get(spend.barrage or ""):
            out.append(R_SEQUENCE.violation(seq, "artillery points are spent before the barrage fires (its scatter test)",
                                            related=[self.fired[spend.barrage]]))
        fired[spend.element] = seq
        return out

    def on_ScatterTested(self, line):
        test = self.ctx.typed(line)
        found = self.declared.get(test.barrage)
        if not self.on or found is None:
            return []
        decl = found.event
        first = not self.fired.get(test.barrage)
        self.fired.setdefault(test.barrage, line["seq"])
        out = []
        if first and points_cost(decl.mission, decl.ammunition, decl.objective) > 0:
            spent = self.spent.get(decl.barrage, {})
            missing = [e for e in decl.elements if e not in spent]
            if missing:   # judged at the end: a spend recorded late is the violation, not a missing step
                self.unspent[test.barrage] = (line["seq"], missing)
            else:
                out.append(R_SEQUENCE.ok(line["seq"], "every firing element spent its points first"))
        if decl.objective and decl.target:
            out.extend(self._close_kill())
            self.pending_kill = {"decl": found, "test": line, "events": []}
        return out

    def before(self, line):
        if self.pending_kill is not None and line["type"] in KILL_EVIDENCE:
            self.pending_kill["events"].append(line)
        return super().before(line)

    def steps_for(self, kind: str):
        """`before` for the events a pending automatic kill collects, its handlers for the others."""
        on, after = self.own_handlers(kind)
        return (self.before if kind in KILL_EVIDENCE else on), after

    def _close_kill(self):
        if self.pending_kill is None:
            return []
        p, self.pending_kill = self.pending_kill, None
        decl, test, typed = p["decl"].event, p["test"], self.ctx.typed
        board = self.ctx.board
        reading = self.ctx.interpretations.reading(AUTOKILL_SCATTER.name) or "primary-zone"
        label = self.ctx.interpretations.label(AUTOKILL_SCATTER.name)
        offsets = primary_offsets(self.ctx.tables, decl.mission, decl.barrage_type)
        scatter = typed(test)
        destroyed = objective_destroyed(decl.target, scatter.scattered, scatter.new_target,
                                        decl.ammunition, offsets, reading, placement_of(board))
        marker = {"strongpoint": "strongpoint", "wire": "wire"}.get(decl.objective)
        hits = [e for e in p["events"] if e["type"] == "MarkerRemoved" and typed(e).location == decl.target
                and typed(e).marker in (marker, "wire-high")] if marker else \
            [e for e in p["events"] if e["type"] == "UnitStatusChanged" and typed(e).status == "eliminated"
             and (u := board.units.get(typed(e).unit)) is not None
             and u.unit_class in ("artillery-gun", "support-weapon") and u.location == decl.target]
        related = [p["decl"].seq, test["seq"]]
        if destroyed is None:
            return [R_AUTOKILL.unverifiable(test["seq"], self.ctx.tables.lacks("IMPACT_ZONES")
                                            + ": is the objective still in the primary zone after the scatter?",
                                            related=related, interpretation=label)]
        return [R_AUTOKILL.judge(test["seq"], destroyed == bool(hits),
                                 f"the {decl.objective} is {'destroyed' if destroyed else 'not destroyed'}",
                                 f"the {decl.objective} in {decl.target} "
                                 f"{'lies in the primary zone: it is destroyed automatically' if destroyed else 'is outside the primary zone: it is not destroyed'}"
                                 f"; the log {'records' if hits else 'does not record'} its destruction",
                                 verdict=Verdict.MISMATCH, expected=destroyed, recorded=bool(hits),
                                 related=related + [e["seq"] for e in hits], interpretation=label)]


COVERAGE = {
    "IM.ART.AMMOCON.ENABLE": ("implemented", "tests/unit/test_ammunition.py::test_option_off_spend_is_a_violation"),
    "IM.ART.AMMOCON.COST": ("implemented", "tests/unit/test_ammunition.py::test_cost_table_and_cap"),
    "IM.ART.AMMOCON.EXEMPT": ("implemented", "tests/unit/test_ammunition.py::test_exempt_missions"),
    "IM.ART.AMMOCON.SEQUENCE": ("implemented", "tests/unit/test_ammunition.py::test_missing_spend_is_a_missing_step"),
    "IM.ART.AMMOCON.AUTOKILL": ("implemented", "tests/unit/test_ammunition.py::test_gun_destroyed_ex_im_18; tests/unit/test_ammunition.py::test_an_untyped_barrages_scatter_is_ambiguous_only_where_the_types_disagree_ap09"),
}
