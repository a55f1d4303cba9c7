"""Judging Dux Bellorum AVBCW leadership points (dux-bellorum-avbcw.txt, Turn sequence steps 1 and
5, Inspiring, Motivating, Suppression, Tank Commander; game-log-tabletop.md, Dux Bellorum,
LeadershipPointsPlaced / Used / Returned): who may give them, how many (an Inspiring commander's
6 less 1 for each unit under its command destroyed, a Motivating Demagogue's 2), within what
distance (24”, 12”, measured by `measure`), none from a suppressed commander, none to a Motivating
unit, placed alternately with the Repeller first, and the unused ones returned. What LPs do once
used is Dux Bellorum core (DB.*), not in the text."""
from __future__ import annotations

from typing import Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, on_table, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import inspiring, motivating, roles_of, type_of
from domain.rules.engine import Rule, RuleApplication, Verdict
from domain.tabletop import geometry as geo

TURN = RULEBOOK.rule("AVBCW.TURN")
INSPIRING = RULEBOOK.rule("AVBCW.AB.INSPIRING")
MOTIVATING = RULEBOOK.rule("AVBCW.AB.MOTIVATING")
SUPPRESSION = RULEBOOK.rule("AVBCW.SUPP.EFFECTS")
TANKCMDR = RULEBOOK.rule("AVBCW.VEH.TANKCMDR")

# Inspiring: "The Inspiring unit has 6 Leadership Points that may be given to any friendly unit
# under its command within 24”. The Inspiring unit loses 1 LP for each unit under its command that
# is destroyed." Motivating: "The Motivating unit has 2 Leadership Points that may be given to any
# friendly unit within 12”."
INSPIRING_LPS, INSPIRING_REACH = 6, 24.0
MOTIVATING_LPS, MOTIVATING_REACH = 2, 12.0
DESTROYED = ("destroyed", "eliminated")
WRECKS = ("wrecked", "brews-up")   # Vehicle Damage table 5 "Wrecked", 6 "Brews up!"


class AVBCWLeadership(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.roles: dict[str, str] = {}
        self._others: dict[Optional[str], Optional[str]] = {}   # side -> the other side, by the roles
        self.destroyed: set[str] = set()
        self._measure_label: Optional[str] = None
        self._measure: Optional[str] = None          # the `measure` reading (with its label)
        self._forget()
        self._turn()

    def _forget(self) -> None:
        """Drops what is worked out from the units deployed (their types and sides), the army lists
        and the units destroyed: called where one of them changes, and none changes at most events
        (a placement weighs every giver of a side for the LPs it has left, turn after turn)."""
        self._givers: dict[str, tuple[Optional[Rule], int, float]] = {}
        self._commanded: dict[tuple[str, str], Optional[bool]] = {}
        self._leading: dict[str, list[str]] = {}

    def _turn(self) -> None:
        self.given: dict[str, int] = {}      # giver -> LPs placed this turn
        self.held: dict[str, int] = {}       # unit -> LPs placed with it this turn
        self.used: dict[str, int] = {}       # unit -> LPs used this turn
        self.last_side: Optional[str] = None

    def on_GameStarted(self, line):
        self.roles = roles_of(line["data"].get("sides", {}))
        self._others.clear()

    def on_TurnStarted(self, line):
        self._turn()

    def on_ArmyListed(self, line):
        super().on_ArmyListed(line)
        self._forget()

    def on_UnitStatusChanged(self, line):
        data = self.ctx.typed(line)
        if data.status in DESTROYED:
            self.destroyed.add(data.unit)
            self._forget()

    def on_VehicleDamaged(self, line):
        data = self.ctx.typed(line)
        if data.result in WRECKS and not data.repeat:
            self.destroyed.add(data.vehicle)
            self._forget()

    # ------------------------------------------------------------ who gives, how many

    def _giver(self, unit_id: str) -> tuple[Optional[Rule], int, float]:
        """The rule a unit gives LPs by, its LPs this turn and their reach; None: it gives none.
        Each unit's once until what it is worked out from changes (`_forget`)."""
        found = self._givers.get(unit_id)
        if found is None:
            found = self._givers[unit_id] = self._gives(unit_id)
        return found

    def after_UnitDeployed(self, line):
        self._forget()   # once the board holds it: its type and side

    def _gives(self, unit_id: str) -> tuple[Optional[Rule], int, float]:
        entry = self.lists.get(unit_id)
        kind = type_of(self.ctx.board.units.get(unit_id), entry)
        if motivating(kind, entry):
            return MOTIVATING, MOTIVATING_LPS, MOTIVATING_REACH
        lends = inspiring(kind, entry)
        if lends is False:
            return None, 0, 0.0
        lost = sum(1 for uid in self.destroyed if uid != unit_id and self._commands(unit_id, uid))
        return (INSPIRING if lends else TANKCMDR), max(0, INSPIRING_LPS - lost), INSPIRING_REACH

    def _commands(self, giver: str, unit_id: str) -> Optional[bool]:
        """Whether `unit_id` is "under its command": the `commander` its list entry names, else the
        only Inspiring commander of its side; None where the log does not say. Once per pair and
        state of the units deployed, their lists and losses (`_forget`), as `_giver`."""
        key = (giver, unit_id)
        if key not in self._commanded:
            self._commanded[key] = self._under(giver, unit_id)
        return self._commanded[key]

    def _under(self, giver: str, unit_id: str) -> Optional[bool]:
        entry, giver_unit = self.lists.get(unit_id), self.ctx.board.units.get(giver)
        unit = self.ctx.board.units.get(unit_id)
        if unit_id == giver:
            return True     # the commander keeps LPs of its own
        if entry is not None and isinstance(entry.commander, str):
            return entry.commander == giver
        if unit is None or giver_unit is None or unit.side != giver_unit.side:
            return False
        return True if self._leaders(unit.side) == [giver] else None

    def _leaders(self, side: str) -> list[str]:
        """The side's units that are or may be Inspiring commanders, once per state of the units
        deployed and their army lists."""
        leaders = self._leading
        if side not in leaders:
            leaders[side] = [uid for uid, u in self.ctx.board.units.items() if u.side == side
                             and inspiring(type_of(u, self.lists.get(uid)), self.lists.get(uid)) is not False]
        return leaders[side]

    def _left(self, side: str) -> int:
        """The LPs a side may still place this turn."""
        total = 0
        for uid, unit in self.ctx.board.units.items():
            if unit.side == side and on_table(unit) and "suppressed" not in unit.status:
                rule, points, _ = self._giver(uid)
                total += max(0, points - self.given.get(uid, 0)) if rule is not None else 0
        return total

    # ------------------------------------------------------------ LeadershipPointsPlaced

    def on_LeadershipPointsPlaced(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        giver, to = self.ctx.board.units.get(data.from_), self.ctx.board.units.get(data.to)
        if giver is None or to is None:
            return ()   # a unit not on the table: the log's reference check says so
        out = [self._alternately(line, giver.side)]
        rule, points, reach = self._giver(data.from_)
        if rule is None:
            out.append(INSPIRING.violation(seq, f"{data.from_} is neither a Commander nor a Demagogue: it has no "
                                           "Leadership Points to give"))
            return out
        if not on_table(giver):
            # Motivating: "These extra LPs are only lost if the Motivating unit is lost"; a commander
            # destroyed (or never arrived) has none to give either
            out.append(rule.violation(seq, f"{data.from_} is no longer in the battle ({', '.join(giver.status) or 'gone'}): "
                                      "a lost unit gives no Leadership Points"))
            return out
        if "suppressed" in giver.status:
            out.append(SUPPRESSION.violation(seq, f"{data.from_} is suppressed: \"If the unit is a commander or "
                                             "Demagogue it does not generate or distribute Leadership Points\""))
        out += self._to(line, data, rule, reach, giver, to)
        out.append(self._count(seq, data, rule, points))
        self.given[data.from_] = self.given.get(data.from_, 0) + data.points
        self.held[data.to] = self.held.get(data.to, 0) + data.points
        self.last_side = giver.side
        return out

    def _alternately(self, line, side: Optional[str]) -> RuleApplication:
        """"1. Alternately place LPs (Repeller goes first)": one side places, then the other, while
        both have LPs left to place."""
        seq = line["seq"]
        if side in self._others:   # the roles are the game's: each side's other once, not at every placement
            other = self._others[side]
        else:
            other = self._others[side] = next((s for s in self.roles if s != side), None)
        if self.last_side is None:
            first = next((s for s, role in self.roles.items() if role == "repeller"), None)
            # (each judgement words only its own verdict: an LP placement is among the most common lines)
            if side == first or first is None or self._left(first) == 0:
                return TURN.ok(seq, f"{side} places first", expected=first, recorded=side)
            return TURN.violation(seq, f"{side} places LPs first: \"Alternately place LPs (Repeller goes first)\", "
                                  f"and the Repeller ({first}) has LPs to place", expected=first, recorded=side)
        if side != self.last_side or other is None or self._left(other) == 0:
            return TURN.ok(seq, f"{side} places in turn", expected=other, recorded=side)
        return TURN.violation(seq, f"{side} places again while {other} has LPs left: \"Alternately place LPs\"",
                              expected=other, recorded=side)

    def _to(self, line, data, rule: Rule, reach: float, giver, to) -> list[RuleApplication]:
        seq, out = line["seq"], []
        entry = self.lists.get(data.to)
        # "You can never assign LPs to a Motivating unit": not even the Demagogue's own two
        if motivating(type_of(to, entry), entry):
            out.append(MOTIVATING.violation(seq, f"{data.to} is Motivating: \"You can never assign LPs to a Motivating "
                                            "unit\"" + (" (its own included)" if data.to == data.from_ else "")))
        if to.side != giver.side:
            return out + [rule.violation(seq, f"{data.to} is not a friendly unit of {data.from_}")]
        label = self._measure_label
        if label is None:   # the readings are settled when the game starts: read once per audit
            label = self._measure_label = self.ctx.interpretations.label("measure")
            self._measure = self.ctx.interpretations.reading("measure")
        far = geo.measure(unit_extent(giver), unit_extent(to), self._measure)   # placing.distance, its reading read once
        if far <= reach:
            out.append(rule.ok(seq, f"{data.to} is {far}\" from {data.from_}: within {reach:g}”", expected=reach,
                               recorded=far, interpretation=label))
        else:
            out.append(rule.violation(seq, f"{data.to} is {far}\" from {data.from_}: LPs \"may be given to any friendly "
                                      f"unit ... within {reach:g}”\"", expected=reach, recorded=far, interpretation=label))
        if rule is not MOTIVATING:
            commanded = self._commands(data.from_, data.to)
            if commanded is False:
                out.append(rule.violation(seq, f"{data.to} is not under {data.from_}'s command (its list names "
                                          f"{entry.commander if entry else 'none'})"))
            elif commanded is None:
                out.append(rule.unverifiable(seq, f"whether {data.to} is \"under its command\": the side has several "
                                             "commanders and the army list names none for it"))
        return out

    def _count(self, seq: int, data, rule: Rule, points: int) -> RuleApplication:
        total = self.given.get(data.from_, 0) + data.points
        if rule is TANKCMDR:
            return TANKCMDR.ambiguous(seq, f"{data.from_} is a Tank Commander: it may \"distribute Leadership Points\", "
                                      "yet the text gives it no number of them", recorded=total)
        if total <= points:
            return rule.ok(seq, f"{data.from_} places {total} of its {points} LPs this turn", expected=points,
                           recorded=total)
        words = ("\"has 2 Leadership Points\"" if rule is MOTIVATING else
                 f"\"has 6 Leadership Points\", less 1 per unit under its command destroyed: {points}")
        return rule.violation(seq, f"{data.from_} places {total} LPs this turn: it {words}", expected=points,
                              recorded=total)

    # ------------------------------------------------------------ used and returned

    def on_LeadershipPointsUsed(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        used = self.used.get(data.unit, 0) + data.points
        self.used[data.unit] = used
        held = self.held.get(data.unit, 0)
        return [TURN.judge(line["seq"], used <= held, f"{data.unit} uses {used} of the {held} LPs placed with it",
                           f"{data.unit} uses {used} LPs this turn, {held} placed with it (\"1. Alternately place LPs\")",
                           expected=held, recorded=used)]

    def on_LeadershipPointsReturned(self, line) -> Iterable[RuleApplication]:
        """"5. Check morale & victory (Reduce LPs if necessary, and return all unused LPs to players)"."""
        data = self.ctx.typed(line)
        # the side's units on the board that were given or used LPs this turn (any other has none
        # unused): a handful, where the board holds every unit of both sides
        units = self.ctx.board.units
        unused = 0
        for uid in self.held.keys() | self.used.keys():
            unit = units.get(uid)
            if unit is not None and unit.side == data.side:
                unused += max(0, self.held.get(uid, 0) - self.used.get(uid, 0))
        return [TURN.judge(line["seq"], data.points == unused, f"{data.side} returns its {unused} unused LPs",
                           f"{data.side} returns {data.points} LPs; {unused} placed this turn are unused: \"return all "
                           "unused LPs to players\"", verdict=Verdict.MISMATCH, expected=unused, recorded=data.points)]


TESTS = "tests/unit/test_avbcw_leadership.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.TURN": ("implemented", f"{TESTS}test_alternately_repeller_first; {TESTS}test_unused_points_are_returned",
                   "LPs placed alternately, the Repeller first, while the other side has LPs left; no unit uses more "
                   "LPs than were placed with it this turn; the LPs returned are the turn's unused ones"),
    "AVBCW.AB.INSPIRING": ("implemented", f"{TESTS}test_how_many_and_how_far; {TESTS}test_a_lost_giver_gives_none",
                           "none once it is destroyed; 6 LPs a turn less 1 per unit under its command destroyed (its list's `commander`, else the "
                           "side's only commander; several and none named: `unverifiable`), to friendly units within "
                           "24” (`measure`); a unit that is no Commander or Demagogue gives none"),
    "AVBCW.AB.MOTIVATING": ("implemented", f"{TESTS}test_how_many_and_how_far; {TESTS}test_a_motivating_unit_keeps_none_of_its_own; "
                            f"{TESTS}test_a_lost_giver_gives_none",
                            "2 LPs a turn to friendly units within 12” (`measure`), never to a Motivating unit (itself "
                            "included), none once it is lost; its "
                            "cost and who may take it: the army list's"),
    "AVBCW.SUPP.EFFECTS": ("partial", TESTS + "test_a_suppressed_commander_gives_none",
                           "a suppressed commander or Demagogue places no LPs"),
    "AVBCW.VEH.TANKCMDR": ("ambiguous", TESTS + "test_how_many_and_how_far",
                           "a Tank Commander's LPs: it \"can ... distribute Leadership Points\", no number is given "
                           "(`ambiguous`); its 24” and command as an Inspiring commander's; its +3 points: the army "
                           "list's"),
}
