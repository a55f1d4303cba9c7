"""An AVBCW army list checked and costed against the text (dux-bellorum-avbcw.txt; the data is
army.json, read by army_tables.py): unit statistics as printed (AVBCW.UNIT.STATS, VEH.STATS),
the points of every equipment, unit ability and army rule and who may take them (AVBCW.EQ.*,
AB.*, ARMY.*), the 2-7 point cap (SR.CAP) and the Tank Commander's +3 (VEH.TANKCMDR).

`check_army(data)` gives the list's errors, each naming the unit, the rule id, the count against
its limit and the rulebook's words; `umpire army check` prints them, and the rule module
`AVBCWArmy` reports them on `ArmyListed` in the audit (game-log-tabletop.md, Dux Bellorum)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Union

from pydantic import ValidationError

from domain.army_lists import ArmyError
from domain.events import first_error
from domain.rules.dux_bellorum_avbcw.army_tables import (
    ArmyTables, UnitRow, VehicleRow, number, printed_form, span, tables)
from domain.rules.dux_bellorum_avbcw.army_vehicles import vehicle_base
from domain.rules.dux_bellorum_avbcw.events import ArmyListed, ListedUnit
from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, RULESET_ID
from domain.rules.engine import RuleApplication, RuleModule

UNIT_STATS, VEH_STATS, CAP = "AVBCW.UNIT.STATS", "AVBCW.VEH.STATS", "AVBCW.SR.CAP"
HEAVY_MORTAR = "avbcw-heavy-mortar-pts"   # AVBCW.Z 1: 'Heavy mortar PTS is printed "3 4"'
UNIT_COLUMNS = ("MV", "BRV", "MELEE", "SHOOT", "PRO", "COH")
PRINTED_TOO = ("Figs", "PTS", "Notes")   # the table's other columns, compared as printed when a list gives them
# A Demagogue sits under "Commanders" in the unit table, yet the unit descriptions set
# "Demagogues" apart from "Commanders": whether "any Commander" means it too is not said.
DEMAGOGUE_AS = frozenset({"commander", "foot-commander"})
RADIOS = "radios"   # Spot "+1 point for radios": listed as the unit's option `radios`


class ArmyFormatError(ValueError):
    """A file or body that is not an ArmyListed event's data: the field and what is wrong."""

    def __init__(self, field: str, message: str):
        self.field, self.message = field, message
        super().__init__(f"{field}: {message}")


@dataclass
class ArmyReport:
    """What a list costs by the text, and what is wrong with it."""
    errors: list[ArmyError] = field(default_factory=list)
    costs: dict[str, Any] = field(default_factory=dict)      # unit -> points by the text (or [3, 4])
    breakdown: dict[str, str] = field(default_factory=dict)  # unit -> what its points are made of
    total: Any = None
    judged: list[tuple[Optional[str], str]] = field(default_factory=list)   # (unit, rule) looked at

    @property
    def violations(self) -> list[ArmyError]:
        return [e for e in self.errors if e.verdict == "violation"]


def read_army(data: Any) -> ArmyListed:
    """The typed ArmyListed data of a JSON value, or ArmyFormatError naming the field."""
    if isinstance(data, ArmyListed):
        return data
    if not isinstance(data, Mapping):
        raise ArmyFormatError("(json)", "an ArmyListed event's data is a JSON object")
    try:
        return ArmyListed.model_validate(dict(data))
    except ValidationError as exc:
        raise ArmyFormatError(*first_error(exc)) from None


def check_army(data: Any, readings: Optional[Mapping[str, Optional[str]]] = None) -> list[ArmyError]:
    """Every error of an army list (an ArmyListed event's data), in list order."""
    return army_report(data, readings).errors


def army_report(data: Any, readings: Optional[Mapping[str, Optional[str]]] = None) -> ArmyReport:
    """The list checked and costed; `readings` are interpretation readings ({name: reading})."""
    return _Checker(read_army(data), tables(), dict(readings or {})).run()


# ---------------------------------------------------------------- the checker

class _Checker:
    def __init__(self, army: ArmyListed, book: ArmyTables, readings: Mapping[str, Optional[str]]):
        self.army, self.book, self.readings = army, book, readings
        self.report = ArmyReport()

    def error(self, unit: Optional[str], rule: str, count: Any, limit: Any, words: str, message: str,
              verdict: str = "violation") -> None:
        self.report.errors.append(ArmyError(unit=unit, rule=rule, count=count, limit=limit, words=words,
                                            message=message, verdict=verdict))

    def judged(self, unit: Optional[str], rule: str) -> None:
        self.report.judged.append((unit, rule))

    def run(self) -> ArmyReport:
        for entry in self.army.units:
            self.report.costs[entry.unit] = self.unit(entry)
        self.single_rules()
        self.army_rules()
        self.total()
        return self.report

    # ------------------------------------------------------------ one unit

    def unit(self, entry: ListedUnit) -> Any:
        vehicle = entry.type.startswith("vehicle:")
        rule = VEH_STATS if vehicle else UNIT_STATS
        self.judged(entry.unit, rule)
        row = self.book.vehicle(entry.type) if vehicle else self.book.unit(entry.type)
        if row is None:
            table = "the soft or hard vehicle tables" if vehicle else "the unit type table"
            self.error(entry.unit, rule, entry.type, "a row of " + table, RULEBOOK.section(rule),
                       f"type {entry.type!r} is not a row of {table}")
            return None
        if isinstance(row, VehicleRow):
            base, why = vehicle_base(self, entry, row)
            included = self.book.included(row.row["notes"])
            classes = frozenset({"vehicle", "any", "brv>=7" if (number(row.row["BRV"]) or 0) >= 7 else "brv<7"})
            if entry.commander is True and row.hard:
                classes |= {"commander"}
        else:
            base, why = self.unit_row(entry, row), [f"{row.name} {row.row['PTS']}"]
            included = self.book.included(row.row["Notes"])
            brave = (number(row.row["BRV"]) or 0) >= 7
            classes = row.classes | {"non-vehicle", "any", "brv>=7" if brave else "brv<7"}
        if base is None:
            return None
        extra = self.specials(entry, classes, included, why)
        return self.cost(entry, rule, base, extra, why)

    def unit_row(self, entry: ListedUnit, row: UnitRow) -> Optional[Union[int, list[int]]]:
        """Figures and statistics as printed; the row's points (both of "3 4" unless chosen)."""
        low, high = span(row.row["Figs"])
        if entry.figures is not None and not low <= entry.figures <= high:
            self.error(entry.unit, UNIT_STATS, entry.figures, row.row["Figs"],
                       f"{row.name}: Figs {row.row['Figs']}", f"{entry.figures} figures")
        for column in (*UNIT_COLUMNS, *PRINTED_TOO):
            listed = entry.stats.get(column)
            if listed is not None and printed_form(listed) != printed_form(row.row[column]):
                self.error(entry.unit, UNIT_STATS, listed, row.row[column], f"{row.name}: {column} {row.row[column]}",
                           f"{column} {listed!r} is not the table's")
        for column in sorted(set(entry.stats) - set(UNIT_COLUMNS) - set(PRINTED_TOO)):
            self.error(entry.unit, UNIT_STATS, column, ", ".join(UNIT_COLUMNS), RULEBOOK.section(UNIT_STATS),
                       f"{column!r} is not a column of the unit type table")
        printed = row.row["PTS"].split()
        if len(printed) == 1:
            return int(printed[0])
        chosen = self.readings.get(HEAVY_MORTAR)
        return int(chosen) if chosen in printed else [int(p) for p in printed]

    # ------------------------------------------------------------ special rules

    def specials(self, entry: ListedUnit, classes: frozenset[str], included: set[str], why: list[str]) -> int:
        """The points of the unit's special rules (equipment and unit abilities), each checked
        for who may take it; the row's own Notes (Inspiring, Spot, Indirect, ...) cost nothing."""
        total, seen = 0, Counter(entry.special)
        for rule, times in seen.items():
            if times > 1:
                self.error(entry.unit, rule, times, 1, self.words(rule), f"{rule} listed {times} times")
        for rule in seen:
            total += self.special(entry, rule, classes, included, why)
        total += self.radios(entry, classes, included, why)
        self.exclusive(entry, included)
        return total

    def words(self, rule: str) -> str:
        spec = self.book.special.get(rule) or self.book.army_rules.get(rule)
        return spec["words"] if spec else RULEBOOK.section(CAP)

    def special(self, entry: ListedUnit, rule: str, classes: frozenset[str], included: set[str],
                why: list[str]) -> int:
        spec = self.book.special.get(rule)
        if spec is None:
            where = "an army rule: it belongs in `army_rules`" if rule in self.book.army_rules else \
                "not an equipment or unit ability of the text"
            self.error(entry.unit, rule if rule in self.book.army_rules else CAP, rule, "a special rule",
                       self.words(rule), f"{rule} is {where}")
            return 0
        self.judged(entry.unit, rule)
        if rule in included:
            why.append(f"{rule} 0 (the row's Notes)")
            return 0
        who = set(spec["who"]) & classes
        if not who:
            verdict = "ambiguous" if "demagogue" in classes and set(spec["who"]) & DEMAGOGUE_AS else "violation"
            reason = (" (a Demagogue is listed under Commanders, but the text sets Demagogues apart: "
                      "whether it is a Commander unit is not said)") if verdict == "ambiguous" else ""
            self.error(entry.unit, rule, entry.type, " / ".join(spec["who"]), spec["words"],
                       f"a {entry.type} may not take {spec['name']}{reason}", verdict)
        cost = spec["cost"]
        if isinstance(cost, Mapping):   # Spot: 0 for a Spotter, +1 for a Commander
            cost = min((cost[c] for c in who if c in cost), default=max(cost.values()))
        why.append(f"{rule} {cost:+d}")
        return cost

    def radios(self, entry: ListedUnit, classes, included: set[str], why: list[str]) -> int:
        """Spot: "+1 point for radios" (the unit's option `radios`)."""
        if entry.type.startswith("vehicle:") or RADIOS not in (entry.options or ()):
            for option in () if entry.type.startswith("vehicle:") else (entry.options or ()):
                self.error(entry.unit, UNIT_STATS, option, RADIOS, self.words("AVBCW.AB.SPOT"),
                           f"option {option!r}: the only option of a unit of the unit table is Spot's radios")
            return 0
        spot = "AVBCW.AB.SPOT"
        self.judged(entry.unit, spot)    # radios are bought under Spot
        if spot not in entry.special and spot not in included:
            self.error(entry.unit, spot, "radios without Spot", spot, self.words(spot),
                       "radios are bought with Spot")
        why.append(f"{spot} radios +1")
        return self.book.special[spot]["radios"]

    def exclusive(self, entry: ListedUnit, included: set[str]) -> None:
        """First Aid and Supply: "Units with the ... ability cannot be given any further special
        rules". Bicycles names Supply and Medical units: on them the two passages disagree."""
        owned = set(entry.special) | included
        for rule in sorted(owned):
            spec = self.book.special.get(rule) or {}
            if "exclusive" not in spec:
                continue
            others = sorted(r for r in set(entry.special) - {rule} - included if r in self.book.special)
            for other in others:
                named = {"supply", "medical"} & set(self.book.special[other]["who"])
                verdict = "ambiguous" if named and rule in included else "violation"
                self.error(entry.unit, rule, len(others), 0, spec["exclusive"],
                           f"{other} on a unit with {spec['name']}" + (
                               f" ({self.book.special[other]['words']})" if verdict == "ambiguous" else ""), verdict)

    # ------------------------------------------------------------ points

    def cost(self, entry: ListedUnit, rule: str, base: Any, extra: int, why: list[str]) -> Any:
        bases = base if isinstance(base, list) else [base]
        costs = [b + extra for b in bases]
        self.judged(entry.unit, CAP)
        cap = self.book.cap
        for b, total in zip(bases, costs):
            if (extra > 0 and total > cap["max"]) or (extra < 0 and total < cap["min"]):
                limit = f"{cap['min']}-{cap['max']}"
                verdict = "ambiguous" if len(bases) > 1 and not all(self.capped(x + extra, extra) for x in bases) \
                    else "violation"
                self.error(entry.unit, CAP, total, limit, cap["words"],
                           f"special rules {extra:+d} on {b} make {total} points", verdict)
                break
        shown = self.report.breakdown[entry.unit] = " + ".join(why)
        if entry.pts not in costs:
            expected = costs[0] if len(costs) == 1 else costs
            priced = [self.book.special[r]["words"] for r in dict.fromkeys(entry.special) if r in self.book.special]
            words = "; ".join([f"{why[0]} points", *priced])
            self.error(entry.unit, rule, entry.pts, expected, words,
                       f"listed at {entry.pts} points; the text gives {shown} = {expected}")
        elif len(costs) > 1:
            self.error(entry.unit, UNIT_STATS, entry.pts, costs, "Mortar, heavy: PTS 3 4",
                       f"PTS is printed \"3 4\" ({HEAVY_MORTAR}, no default): {entry.pts} is one reading", "ambiguous")
        return costs[0] if len(costs) == 1 else costs

    def capped(self, total: int, extra: int) -> bool:
        cap = self.book.cap
        return (extra > 0 and total > cap["max"]) or (extra < 0 and total < cap["min"])

    # ------------------------------------------------------------ the army

    def single_rules(self) -> None:
        """Loyal: "Choose any single non-vehicle unit"."""
        for rule, spec in self.book.special.items():
            if "single" not in spec:
                continue
            holders = [u.unit for u in self.army.units if rule in u.special]
            if len(holders) > spec["single"]:
                self.error(None, rule, len(holders), spec["single"], spec["words"],
                           f"{len(holders)} units take {spec['name']} ({', '.join(holders)})")

    def army_rules(self) -> None:
        seen = Counter(r.rule for r in self.army.army_rules)
        for listed in self.army.army_rules:
            spec = self.book.army_rules.get(listed.rule)
            if spec is None:
                self.error(None, CAP, listed.rule, "an army rule", self.book.data["per_unit"],
                           f"{listed.rule} is not an army rule of the text (Army bonuses)")
                continue
            self.judged(None, listed.rule)
            if seen[listed.rule] > 1:
                self.error(None, listed.rule, seen[listed.rule], 1, spec["words"], f"{listed.rule} listed twice")
                seen[listed.rule] = 1
            self.army_rule_cost(listed, spec)

    def army_rule_cost(self, listed, spec: Mapping[str, Any]) -> None:
        costs = spec["cost"]
        if listed.pts in costs:
            return
        if "tiers" in spec and listed.pts > max(costs):
            # AVBCW.Z 7: a single tier or a budget of shots at the tiers' prices
            self.error(None, listed.rule, listed.pts, f"{min(costs)}-{max(costs)}", spec["words"],
                       "more than 4 points: whether the army cost buys one tier or a budget of shots is not "
                       "said (AVBCW.Z 7)", "ambiguous")
            return
        limit = costs[0] if len(costs) == 1 else f"{min(costs)}-{max(costs)}"
        self.error(None, listed.rule, listed.pts, limit, spec["words"], f"listed at {listed.pts} points")

    def total(self) -> None:
        """`total`: the units' points and the army rules' ("Unless specified as an 'army rule',
        the points cost is per unit")."""
        self.judged(None, CAP)
        summed = sum(u.pts for u in self.army.units) + sum(r.pts for r in self.army.army_rules)
        self.report.total = summed
        if self.army.total != summed:
            self.error(None, CAP, self.army.total, summed, self.book.data["per_unit"],
                       f"total {self.army.total}, yet the units and army rules listed add up to {summed}")


# ---------------------------------------------------------------- the audit

class AVBCWArmy(RuleModule):
    """The army-list check on each `ArmyListed` (the page's ArmyListed row: UNIT.STATS, VEH.STATS,
    SR.CAP, VEH.TANKCMDR, each EQ.* and AB.* cost and who may take it, ARMY.* costs)."""

    ruleset = RULESET_ID

    def on_ArmyListed(self, line) -> Iterable[RuleApplication]:
        chosen = self.ctx.interpretations.reading(HEAVY_MORTAR) if self._has_heavy_mortar(line) else None
        report = army_report(self.ctx.typed(line), {HEAVY_MORTAR: chosen})
        seq, out, failed = line["seq"], [], set()
        for err in report.errors:
            rule = RULEBOOK.rule(err.rule)
            message = f"{err.unit or self.ctx.typed(line).side}: {err.message}: \"{err.words}\""
            kind = rule.ambiguous if err.verdict == "ambiguous" else rule.violation
            out.append(kind(seq, message, expected=err.limit, recorded=err.count,
                            interpretation=HEAVY_MORTAR if HEAVY_MORTAR in err.message else None))
            failed.add((err.unit, err.rule))
        for unit, rule in dict.fromkeys(report.judged):
            if (unit, rule) not in failed:
                out.append(RULEBOOK.rule(rule).ok(seq, self._ok(report, unit, rule)))
        return out

    @staticmethod
    def _ok(report: ArmyReport, unit: Optional[str], rule: str) -> str:
        if unit is None:
            return f"the army: {report.total} points, as listed"
        if rule in (UNIT_STATS, VEH_STATS) and unit in report.breakdown:
            return f"{unit}: {report.costs[unit]} points by the text ({report.breakdown[unit]})"
        return f"{unit}: as the text prices and allows it"

    def _has_heavy_mortar(self, line) -> bool:
        return any(u["type"] == "mortar-heavy" for u in line["data"]["units"])


TESTS = "tests/unit/test_avbcw_army.py::"
PRICED = TESTS + "test_every_special_rule_at_its_printed_price_for_whom_it_names"
ALONE = TESTS + "test_first_aid_and_supply_take_no_further_rules_and_loyal_is_single"
COST = "cost and who may take it, on ArmyListed"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.UNIT.STATS": ("implemented", f"{TESTS}test_statistics_as_printed; "
                         f"{TESTS}test_points_of_equipment_and_abilities; "
                         f"{TESTS}test_heavy_mortar_points_follow_the_named_interpretation; "
                         f"{TESTS}test_the_pages_example_lists_are_legal",
                         "ArmyListed against the row: Figs, MV BRV MELEE SHOOT PRO COH as printed (spaces and inch "
                         "marks aside), PTS plus the special rules' points; heavy mortar \"3 4\": "
                         "`avbcw-heavy-mortar-pts` (no default: `ambiguous`)"),
    "AVBCW.VEH.STATS": ("implemented", f"{TESTS}test_vehicles_as_printed_with_options_and_tank_commanders; "
                        f"{TESTS}test_no_more_weapons_than_the_row_prints",
                        "ArmyListed against the soft or hard vehicle row: crew, MV, BRV, SHOOT and PRO as printed "
                        "(a soft vehicle's with or without its options applied), options of the soft table only, each "
                        "weapon's rating and arcs among the row's (a coaxial MG's unprinted rating: `ambiguous`), no "
                        "more weapons than the row prints (\"2x\" two), PTS"),
    "AVBCW.SR.CAP": ("implemented", f"{TESTS}test_the_cap_of_2_to_7_points; {TESTS}test_army_rules_and_the_total",
                     "special rules taking a unit below 2 or above 7 points; `total` the units' and army rules' "
                     "points"),
    "AVBCW.VEH.TANKCMDR": ("implemented", TESTS + "test_vehicles_as_printed_with_options_and_tank_commanders",
                           "+3 points, hard vehicles only (`commander: true`)"),
    **{rule: ("partial", f"{TESTS}test_every_special_rule_at_its_printed_price_for_whom_it_names; "
                         f"{TESTS}test_who_may_take_what",
              f"{COST}; its effect in play: the modules that judge play")
       for rule in ("AVBCW.EQ.ARMOUR", "AVBCW.EQ.BANNER", "AVBCW.EQ.BAYONETS", "AVBCW.EQ.BOMBS",
                    "AVBCW.EQ.BICYCLES", "AVBCW.EQ.INDIRECT", "AVBCW.EQ.MIXED", "AVBCW.EQ.POORSUP", "AVBCW.EQ.SMG",
                    "AVBCW.EQ.SQUADLMG", "AVBCW.EQ.WELLSUP", "AVBCW.AB.AMBUSH", "AVBCW.AB.ASSAULT",
                    "AVBCW.AB.FEARLESS", "AVBCW.AB.INSPIRING", "AVBCW.AB.MOTIVATING", "AVBCW.AB.SNEAKY",
                    "AVBCW.AB.SNIPER", "AVBCW.AB.TRENCHRATS")},
    "AVBCW.EQ.SMOKE": ("partial", PRICED,
                       f"{COST}; the smoke's drift: \"wind\" is undefined in the seed (AVBCW.Z 6), the page gives "
                       "TableDefined.wind; placing and drifting in play: end_phase.py"),
    "AVBCW.EQ.WRECK": ("partial", PRICED,
                       f"{COST} (\"(and Foot Commander ...)\" read as \"any\", AVBCW.Z 4); its effect: vehicle_moves.py"),
    "AVBCW.AB.BRITTLE": ("partial", f"{PRICED}; {TESTS}test_who_may_take_what",
                         f"{COST} (\"any unit with Bravery 7 or more\", the row's BRV); BRV 6 in break tests: bravery.py"),
    "AVBCW.AB.FIRSTAID": ("partial", f"{PRICED}; {ALONE}",
                          f"{COST}, \"cannot be given any further special rules\"; its end-phase restore: end_phase.py"),
    "AVBCW.AB.SUPPLY": ("partial", f"{PRICED}; {ALONE}",
                        f"{COST}, \"cannot be given any further special rules\" (Bicycles, which names Supply "
                        "units: `ambiguous`); its end-phase resupply: end_phase.py"),
    "AVBCW.AB.SPOT": ("partial", f"{PRICED}; {TESTS}test_spot_and_radios",
                      f"{COST}: 0 for a Spotter, +1 for a Commander, +1 radios (option `radios`); spotting for "
                      "indirect fire: support.py"),
    "AVBCW.AB.MADMINUTE": ("partial", PRICED,
                           f"{COST}; its \"out of ammo\": `avbcw-mad-minute` (no default, AVBCW.Z 2), in play: modifiers.py"),
    "AVBCW.AB.LOYAL": ("needs a chart", f"{PRICED}; {ALONE}",
                       f"{COST}: 1 point, \"any single non-vehicle unit\"; the rest is Dux Bellorum p.53 (CORE:DB), "
                       "not in the text"),
    "AVBCW.ARMY.ASSASSINATION": ("needs a chart", TESTS + "test_army_rules_and_the_total",
                                 "4 points; the rule is Dux Bellorum p.50 (CORE:DB), not in the text"),
    "AVBCW.ARMY.SWIFT": ("needs a chart", TESTS + "test_army_rules_and_the_total",
                         "2 points; the rule is Dux Bellorum p.54 (CORE:DB), not in the text"),
    "AVBCW.ARMY.OTS": ("ambiguous", TESTS + "test_army_rules_and_the_total",
                       "1-4 points; more: `ambiguous` (a tier or a budget of shots, AVBCW.Z 7); the shots: support.py, modifiers.py"),
    "AVBCW.ARMY.SUBTERFUGE": ("partial", TESTS + "test_army_rules_and_the_total", "4 points; its use: army_play.py"),
    "AVBCW.ARMY.TAUNTS": ("partial", TESTS + "test_army_rules_and_the_total", "3 points; its use: army_play.py"),
}
