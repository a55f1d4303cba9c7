"""Landships of Mogdonazia, the critical charts and what they leave (landships-of-mogdonazia.txt, D. 2
"Vehicle Critical Chart", Airships A. 3 "Airship Critical Chart", B. Crew and Systems): each
`CriticalHit` against its d6 (and the propulsion hit's sub-roll), the systems it damages and a
repair names, the D3 crew a 5 kills, and a vehicle left without crew ("It will always have a crew
(else it would be abandoned)").
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia.common import RULEBOOK, vehicle_of
from domain.tabletop.geometry import path_length

CRIT = RULEBOOK.rule("MOG.FIRE.CRIT")
AIR_CRIT = RULEBOOK.rule("MOG.AIR.CRIT")
SYSTEMS = RULEBOOK.rule("MOG.VEH.SYSTEMS")
UNIT = RULEBOOK.rule("MOG.GEN.UNIT")

CHARTS = {"vehicle": (CRIT, "MOG.FIRE.CRIT"), "airship": (AIR_CRIT, "MOG.AIR.CRIT")}
# "1 Weapon closest to shooter is damaged 2 Engine hit ... 3 Gears hit ... 4 Propulsion hit": the
# systems of B. ("the engine, the gear box, the weapons and the propulsion system"); the airship's 3
# is its propeller.
DAMAGES = {("vehicle", 1): "weapon", ("vehicle", 2): "engine", ("vehicle", 3): "gear-box", ("vehicle", 4): "propulsion",
           ("airship", 1): "weapon", ("airship", 2): "engine", ("airship", 3): "propeller",
           ("airship", 4): "propulsion"}
# A repair's `system` as a table may write it: the names of B., and a weapon by its id.
SYSTEM_NAMES = {"engine": "engine", "gear-box": "gear-box", "gearbox": "gear-box", "gears": "gear-box",
                "propulsion": "propulsion", "propeller": "propeller", "weapon": "weapon", "weapons": "weapon"}


def _repairs(ctx, unit: str, before: Optional[int]) -> list[tuple[int, str]]:
    """(seq, system) of the unit's successful repairs before seq `before`: B. 2 "On a 5 to 6, the
    system is repaired"."""
    weapons = {w.weapon for b in map(ctx.typed, ctx.of_type("VehicleBuilt")) if b.unit == unit for w in b.weapons}
    out = []
    for line in ctx.of_type("RepairAttempted", before=before):
        attempt = ctx.typed(line)
        if attempt.unit == unit and attempt.repaired:
            system = "weapon" if attempt.system in weapons else SYSTEM_NAMES.get(attempt.system.lower())
            out.append((line["seq"], system))
    return out


def _repaired_at(repairs: list[tuple[int, str]], system: str, after: int) -> Optional[int]:
    """The seq of the first repair of `system` after seq `after`, or None."""
    return next((seq for seq, name in repairs if name == system and seq > after), None)


def _vehicle_hits(ctx, unit: str, before: Optional[int]) -> list[tuple[int, Any]]:
    return [(line["seq"], hit) for line in ctx.of_type("CriticalHit", before=before)
            for hit in (ctx.typed(line),) if hit.unit == unit and hit.chart == "vehicle"]


def gears_hits(ctx, unit: str, before: Optional[int] = None) -> int:
    """Chart 3 "Gears hit, add 1 to turning, lose one die", each until the gear box is repaired (B. 2:
    "The crew can elect to repair a damaged system ... the system is repaired")."""
    repairs = _repairs(ctx, unit, before)
    return sum(1 for seq, hit in _vehicle_hits(ctx, unit, before)
               if hit.result == 3 and _repaired_at(repairs, "gear-box", seq) is None)


# The lasting statuses a vehicle critical leaves: "2 Engine hit, vehicle is immobilized", "4 Propulsion
# hit, 1-3 not serious (1/2 speed), 4-6 immobilized".
def _causes(status: str, hit) -> bool:
    if status == "immobilized":
        return hit.result == 2 or (hit.result == 4 and (hit.sub_roll or 0) >= 4)
    return status == "half-speed" and hit.result == 4 and 1 <= (hit.sub_roll or 0) <= 3


def standing_status(ctx, unit: Any, before: Optional[int] = None) -> list[str]:
    """The unit's statuses, less an `immobilized` or `half-speed` whose every critical hit has had its
    system repaired since (and since the status was recorded): the system "is repaired", its effect
    ends. A status no critical hit explains stays. `broken-down` is read from the log (`broken_down`)."""
    out = []
    for status in unit.status:
        if status in ("immobilized", "half-speed") and _lifted(ctx, unit.unit, status, before):
            continue
        if status == "broken-down":
            continue   # read from the log below
        out.append(status)
    if broken_down(ctx, unit.unit, before):
        out.append("broken-down")
    if "half-speed" not in out and _unrepaired(ctx, unit.unit, "half-speed", before):
        out.append("half-speed")   # "4 Propulsion hit, 1-3 not serious (1/2 speed)", its status recorded or not
    return out


def _unrepaired(ctx, unit: str, status: str, before: Optional[int]) -> bool:
    """Whether a critical hit that causes `status` stands, its system not repaired since."""
    causing = [(seq, hit) for seq, hit in _vehicle_hits(ctx, unit, before) if _causes(status, hit)]
    if not causing:
        return False    # most vehicles, most turns: no repairs to read
    repairs = _repairs(ctx, unit, before)
    return any(_repaired_at(repairs, DAMAGES[("vehicle", hit.result)], seq) is None for seq, hit in causing)


def broken_down(ctx, unit: str, before: Optional[int] = None) -> bool:
    """Whether the vehicle is broken down: the latest of a `broken-down` status or a BreakdownTested that
    broke down (A. 2), against a `restarted` status, a restart that restarted ("On a 4 to 6, the vehicle will
    move normally next turn") or, for a Clockwork, a repair ("requires an operator to repair it")."""
    history = ctx.shared("mog-breakdown-history", partial(BreakdownHistory, ctx)).of(unit)
    if not history:
        return False    # most units, most turns: nothing ever broke them down
    clockwork = (vehicle_of(ctx, unit) or {}).get("kind") == "clockwork"
    for seq, broken, kind in reversed(history):
        if (before is None or seq < before) and (kind != "RepairAttempted" or clockwork):
            return broken
    return False


class BreakdownHistory:
    """Per vehicle, each line that leaves it broken down or not, in log order: a fold the auditor
    feeds line by line (AuditContext.shared), so that asking costs what the vehicle's history
    holds, not the game's length. Made when first asked for, it takes the lines so far first."""

    # the auditor hands it these alone (AuditContext.folds_for): the only lines it keeps
    reads = frozenset({"UnitStatusChanged", "BreakdownTested", "RepairAttempted"})

    def __init__(self, ctx):
        self.ctx, self.by_unit, self.last = ctx, {}, 0
        for line in ctx.lines:
            self.update(line, None)

    def of(self, unit: str) -> list[tuple[int, bool, str]]:
        return self.by_unit.get(unit, [])

    def update(self, line, board) -> None:
        if line["seq"] <= self.last:
            return   # taken when made
        self.last = line["seq"]
        kind = line["type"]
        if kind not in ("UnitStatusChanged", "BreakdownTested", "RepairAttempted"):
            return
        event = self.ctx.typed(line)
        broken = None
        if kind == "UnitStatusChanged" and event.status in ("broken-down", "restarted"):
            broken = event.status == "broken-down"
        elif kind == "BreakdownTested" and event.kind == "breakdown" and event.broke_down:
            broken = True
        elif kind == "BreakdownTested" and event.kind == "restart" and event.restarted:
            broken = False
        elif kind == "RepairAttempted" and event.repaired:
            broken = False
        if broken is not None:
            self.by_unit.setdefault(event.unit, []).append((line["seq"], broken, kind))


def _lifted(ctx, unit: str, status: str, before: Optional[int]) -> bool:
    causes = [(seq, hit) for seq, hit in _vehicle_hits(ctx, unit, before) if _causes(status, hit)]
    if not causes:
        return False
    repairs = _repairs(ctx, unit, before)
    fixed = [_repaired_at(repairs, DAMAGES[("vehicle", hit.result)], seq) for seq, hit in causes]
    if None in fixed:
        return False
    marked = [line["seq"] for line in ctx.of_type("UnitStatusChanged", before=before)
              if ctx.typed(line).unit == unit and ctx.typed(line).status == status]
    return not marked or max(fixed) > marked[-1]


def destroyed_by(ctx, unit: str, before: Optional[int] = None) -> Optional[tuple[str, int]]:
    """(rule id, seq) of what destroyed the vehicle, whether or not its status was recorded: "6 Look out!
    Vehicle suddenly explodes" on the vehicle or airship chart, or a hit card read "Destroyed" ("Ace of
    Hearts card- Destroyed"). The first of each kind per unit is noted as the lines are read, once
    each (every shot, move and turn asks it of a vehicle): the first before `before` is the first."""
    seen = ctx.shared("mog-destroyed", _Destroyed)
    try:
        seen.read(ctx, before)
    except Exception:   # noqa: BLE001 - a line its schema refuses: the scan decides, as it always did
        return _scanned(ctx, unit, before)
    for found in (seen.crit.get(unit), seen.card.get(unit)):
        if found is not None and (before is None or found[1] < before):
            return found
    return None


def _scanned(ctx, unit: str, before: Optional[int]) -> Optional[tuple[str, int]]:
    """`destroyed_by` read from the lines themselves, in order: where a line cannot be typed it fails
    there, or answers before reaching it, as it did before the lines were noted once each."""
    for line in ctx.of_type("CriticalHit", before=before):
        hit = ctx.typed(line)
        if hit.unit == unit and hit.chart in CHARTS and hit.result == 6:
            return CHARTS[hit.chart][1], line["seq"]
    for line in ctx.of_type("HitCardResolved", before=before):
        card = ctx.typed(line)
        if card.target == unit and card.outcome == "destroyed":
            return "MOG.FIRE.CARD", line["seq"]
    return None


class _Destroyed:
    """Each unit's first chart 6 and first card read destroyed among the lines read so far (in log
    order, each line once; a line that cannot be typed is read again, and fails again, next time)."""

    def __init__(self) -> None:
        self.crit: dict[str, tuple[str, int]] = {}
        self.card: dict[str, tuple[str, int]] = {}
        self.crit_to = self.card_to = 0   # the last seq read of each type

    def read(self, ctx, before: Optional[int]) -> None:
        for line in ctx.of_type("CriticalHit", after=self.crit_to, before=before):
            hit = ctx.typed(line)
            if hit.chart in CHARTS and hit.result == 6:
                self.crit.setdefault(hit.unit, (CHARTS[hit.chart][1], line["seq"]))
            self.crit_to = line["seq"]
        for line in ctx.of_type("HitCardResolved", after=self.card_to, before=before):
            card = ctx.typed(line)
            if card.outcome == "destroyed":
                self.card.setdefault(card.target, ("MOG.FIRE.CARD", line["seq"]))
            self.card_to = line["seq"]


class Criticals(RuleModule):
    """CriticalHit on the vehicle and airship charts, RepairAttempted's system, crew losses."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.damaged: dict[str, set[str]] = {}
        self.killed: dict[str, int] = {}
        self.pending_d3: dict[str, tuple[str, int]] = {}   # unit -> (purpose, seq of its critical 5)

    def on_CriticalHit(self, line):
        hit, seq = self.ctx.typed(line), line["seq"]
        if hit.chart not in CHARTS:
            return ()   # the Clockwork chart: contraptions.py
        rule, purpose = CHARTS[hit.chart]
        rolls = self._rolls(hit.unit, purpose, seq)
        if not rolls:
            return [rule.missing_roll(seq, f"no {purpose} d6 about {hit.unit} before its critical hit")]
        face = self.ctx.typed(rolls[0]).result
        out = [rule.judge(seq, hit.result == face, f"critical d6 {face}", f"the critical d6 shows {face}, not "
                          f"{hit.result}", verdict=Verdict.MISMATCH, expected=face, recorded=hit.result,
                          related=[rolls[0]["seq"]])]
        if hit.result == 4:
            out.append(self._sub_roll(rule, purpose, hit, rolls, seq))
        if hit.chart == "airship" and hit.result == 3:
            out.append(AIR_CRIT.ambiguous(seq, "\"Propeller hit, lose 1D6 to turning, lose one die\": how the lost "
                                          "die counts against turning is unclear (MOG.Z 5)"))
        if (hit.chart, hit.result) in DAMAGES:
            self.damaged.setdefault(hit.unit, set()).add(DAMAGES[(hit.chart, hit.result)])
        if hit.result == 5:
            self.pending_d3[hit.unit] = (purpose, seq)
        return out

    def _rolls(self, unit: str, purpose: str, seq: int) -> list[dict[str, Any]]:
        """This critical's rolls: those of its purpose about the unit since its last critical (a
        critical 5's D3, rolled after it, not among them)."""
        earlier = [l for l in self.ctx.of_type("CriticalHit", before=seq) if self.ctx.typed(l).unit == unit]
        rolls = self.ctx.rolls_for(unit, purpose, after=earlier[-1]["seq"] if earlier else 0, before=seq)
        rolls = [r for r in rolls if self.ctx.typed(r).purpose == purpose]
        if earlier and self.ctx.typed(earlier[-1]).result == 5:
            rolls = rolls[1:]
        return rolls[-2:]

    def _sub_roll(self, rule, purpose: str, hit, rolls, seq: int) -> RuleApplication:
        # "4 Propulsion hit, 1-3 not serious (1/2 speed), 4-6 immobilized" (airship: "cannot change direction")
        if len(rolls) < 2:
            return rule.missing_roll(seq, f"a propulsion hit rolls again (1-3, 4-6): no second {purpose} d6")
        face = self.ctx.typed(rolls[1]).result
        return rule.judge(seq, hit.sub_roll == face, f"propulsion sub-roll {face}",
                          f"the propulsion sub-roll d6 shows {face}, not {hit.sub_roll}", verdict=Verdict.MISMATCH,
                          expected=face, recorded=hit.sub_roll, related=[rolls[1]["seq"]])

    def on_RepairAttempted(self, line):
        attempt, seq = self.ctx.typed(line), line["seq"]
        built = self._weapons(attempt.unit)
        system = "weapon" if attempt.system in built else SYSTEM_NAMES.get(attempt.system.lower())
        if system is None:
            return [SYSTEMS.violation(seq, f"{attempt.system!r} is not a system: \"the engine, the gear box, the "
                                      "weapons and the propulsion system\"", recorded=attempt.system)]
        if attempt.repaired:   # the system works again: a critical's lasting effect ends
            self.damaged.get(attempt.unit, set()).discard(system)
        return [SYSTEMS.ok(seq, f"{attempt.system} is the {system}, a system of B.")]

    def _weapons(self, unit: str) -> set[str]:
        built = [self.ctx.typed(l) for l in self.ctx.of_type("VehicleBuilt")]
        return {w.weapon for b in built if b.unit == unit for w in b.weapons}

    def on_CasualtiesTaken(self, line):
        taken, seq = self.ctx.typed(line), line["seq"]
        out = []
        pending = self.pending_d3.get(taken.unit)
        if pending and taken.cause in (pending[0], "MOG.FIRE.CRIT", "MOG.AIR.CRIT"):
            del self.pending_d3[taken.unit]
            out.append(self._d3(taken, pending, seq))
        built = vehicle_of(self.ctx, taken.unit)
        if built is not None:
            self.killed[taken.unit] = self.killed.get(taken.unit, 0) + taken.killed
        return out

    def _d3(self, taken, pending: tuple[str, int], seq: int) -> RuleApplication:
        # "5 D3 Crew are killed, no save": a D3 is "a d6 read as ceil(face/2)"
        purpose, crit_seq = pending
        rule = CRIT if purpose == "MOG.FIRE.CRIT" else AIR_CRIT
        rolls = [r for r in self.ctx.rolls_for(taken.unit, purpose, after=crit_seq, before=seq)
                 if self.ctx.typed(r).purpose == purpose]
        if not rolls:
            return rule.missing_roll(seq, f"\"D3 Crew are killed\": no {purpose} d6 after the critical at seq {crit_seq}")
        d3 = math.ceil(self.ctx.typed(rolls[-1]).result / 2)
        good = taken.killed == d3 and taken.wounded == 0
        return rule.judge(seq, good, f"D3 {d3} crew killed, no save",
                          f"the D3 is {d3}: {d3} crew killed and none wounded (\"no save\"), not {taken.killed} killed "
                          f"and {taken.wounded} wounded", verdict=Verdict.MISMATCH,
                          expected={"killed": d3, "wounded": 0},
                          recorded={"killed": taken.killed, "wounded": taken.wounded}, related=[rolls[-1]["seq"]])

    def _acts(self, line):
        event, seq = self.ctx.typed(line), line["seq"]
        unit = event.unit if line["type"] == "UnitMoved" else event.shooter
        if line["type"] == "UnitMoved" and path_length(event.path) == 0:
            return ()
        out = []
        built = vehicle_of(self.ctx, unit)
        if built is not None and built.get("crew", 0) - self.killed.get(unit, 0) <= 0:
            out.append(UNIT.violation(seq, f"{unit} has no crew left ({self.killed[unit]} killed of {built['crew']}): "
                                      "\"It will always have a crew (else it would be abandoned)\"",
                                      recorded=line["type"]))
        gone = destroyed_by(self.ctx, unit, seq) if built is not None else None
        if gone is not None:
            out.append(RULEBOOK.rule(gone[0]).violation(seq, f"{unit} was destroyed at seq {gone[1]}: it does not "
                                                        "act", recorded=line["type"], related=[gone[1]]))
        if line["type"] == "UnitMoved":
            out.extend(self._immobilized(unit, seq))
        return out

    on_UnitMoved = on_ShotFired = _acts

    def _immobilized(self, unit: str, seq: int) -> list[RuleApplication]:
        """A move after "2 Engine hit, vehicle is immobilized" or a propulsion 4-6, unrepaired, when the
        log did not record the status (breakdown.py judges the move of an `immobilized` unit)."""
        state = self.ctx.board.units.get(unit)
        if state is None or "immobilized" in state.status:
            return []
        for line in reversed(self.ctx.of_type("CriticalHit", before=seq)):
            hit = self.ctx.typed(line)
            if hit.unit != unit or hit.chart != "vehicle":
                continue
            stops = hit.result == 2 or (hit.result == 4 and (hit.sub_roll or 0) >= 4)
            if stops and DAMAGES[("vehicle", hit.result)] in self.damaged.get(unit, set()):
                return [CRIT.violation(seq, f"{unit} is immobilized by the critical hit at seq {line['seq']} "
                                       f"({hit.result}{'/' + str(hit.sub_roll) if hit.sub_roll else ''}): it does not "
                                       "move", related=[line["seq"]])]
        return []


TESTS = "tests/unit/test_mog_criticals.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.FIRE.CRIT": ("implemented", "; ".join(TESTS + t for t in (
        "test_the_critical_is_its_d6", "test_a_propulsion_hit_rolls_again", "test_d3_crew_are_killed_no_save",
        "test_an_engine_hit_immobilizes", "test_a_repaired_engine_lifts_the_recorded_immobilized_status",
        "test_a_repaired_gear_box_gives_the_lost_die_back", "test_a_repaired_propulsion_ends_half_speed",
        "test_an_exploded_or_destroyed_vehicle_neither_rolls_nor_acts", "test_half_speed_stands_without_its_status")),
        "`Criticals`: the chart's d6 and the propulsion sub-roll, the D3 crew (no save), immobilized by 2 and 4/4-6 "
        "until repaired; gears hit and half speed are read by `MovementDice` (vehicles.py) until the gear box or "
        "propulsion is repaired (a recorded `immobilized` or `half-speed` lifted by the repair); 6 by explode.py; "
        "after 6 (or a card read destroyed) the vehicle neither acts nor rolls for breakdown, its status recorded "
        "or not"),
    "MOG.AIR.CRIT": ("ambiguous", TESTS + "test_the_airship_chart_and_its_unclear_propeller_hit",
                     "`Criticals`: the Airship chart's d6 and sub-roll, the D3 crew; 3 (\"lose 1D6 to turning, lose "
                     "one die\") is `ambiguous` (MOG.Z 5); \"cannot change direction\" is judged by air.py"),
    "MOG.VEH.SYSTEMS": ("implemented", TESTS + "test_a_repair_names_a_system",
                        "`Criticals`: a repair names a system of B. (engine, gear box, weapons, propulsion; a weapon by "
                        "its id); a repaired system ends the critical's lasting effect"),
    "MOG.GEN.UNIT": ("implemented", TESTS + "test_a_vehicle_without_crew_does_not_act",
                     "`Criticals`: the crew as built less those killed; with none left the vehicle neither moves nor "
                     "shoots"),
}
