"""Judging Dux Bellorum AVBCW bravery tests (game-log-tabletop.md, Dux Bellorum, BraveryTested):
the 2d6 they read, the BRV they use (the listed BRV or an Inspiring commander's, Brittle's 6 on
break tests, and every change the text gives: -2 suppressed, +1 Banner, -2 bogged, less the PRO
of a vehicle running the unit over), and the extremes of the faces (double 1: a second move;
double 6: no move and 1 COH lost, a vehicle's mishap on the damage table). Whether the test is
passed is the Dux Bellorum core procedure DB.BRAVERY, not in the text: `unverifiable` unless the
game's table pack holds it. The moves the tests allow are suppression.py's."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Iterable, NamedTuple, Optional, Sequence

from domain.rules.dux_bellorum_avbcw import core_tables
from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import inspiring, stat, type_of
from domain.rules.dux_bellorum_avbcw.placing import distance
from domain.rules.engine import Rule, RuleApplication, Verdict
from domain.tabletop import geometry as geo

EXTREMES = RULEBOOK.rule("AVBCW.BRV.EXTREMES")
STATS = RULEBOOK.rule("AVBCW.UNIT.STATS")
VEH_STATS = RULEBOOK.rule("AVBCW.VEH.STATS")
SUPPRESSION = RULEBOOK.rule("AVBCW.SUPP.EFFECTS")
BANNER = RULEBOOK.rule("AVBCW.EQ.BANNER")
BRITTLE = RULEBOOK.rule("AVBCW.AB.BRITTLE")
INSPIRING = RULEBOOK.rule("AVBCW.AB.INSPIRING")
BOG = RULEBOOK.rule("AVBCW.VEH.TRACKED.BOG")
RUNOVER = RULEBOOK.rule("AVBCW.VEH.RUNOVER")
DB_BRAVERY = Rule("DB.BRAVERY", "Bravery test (core rules, not in the text)", "Dux Bellorum")

SUPPRESSED_BRV = -2      # "While suppressed a unit; ... Suffers -2 BRV"
BANNER_BRV = +1          # Banner: "The unit gains +1 BRV"
BRITTLE_BRV = 6          # Brittle: "The unit's Bravery is 6 when taking break tests"
BOGGED_BRV = -2          # Tracked vehicles: "The vehicle can attempt to move next turn as normal but suffers -2 BRV"
INSPIRING_REACH = 12.0   # "All friendly units within 12” of the Commander's 'unit leader' figure"
BRAVERY_ROLL = "DB.BRAVERY"   # the purpose of a bravery test's roll


class BraveryRolls:
    """Each unit's last DB.BRAVERY roll so far, for the modules that read a test's dice ("after its
    DieRolled (`DB.BRAVERY`, `2d6`)": its BRV and extremes here, the move it allows in
    suppression.py). A fold: the auditor takes each DieRolled into it, so a test finds its roll
    without looking back over the log."""
    reads = frozenset({"DieRolled"})
    __slots__ = ("last",)

    def __init__(self, ctx) -> None:
        self.last: dict[str, dict] = {}
        for line in ctx.rolls(BRAVERY_ROLL):   # any before it was made (none: it is made with the modules)
            self.update(line, None)

    def update(self, line, board) -> None:
        data = line["data"]
        subject = data.get("subject")
        if isinstance(subject, str) and (data.get("purpose") or "").startswith(BRAVERY_ROLL):
            self.last[subject] = line

    def of(self, unit: str, after: int, before: int) -> Optional[dict]:
        """The last DB.BRAVERY roll about `unit` with `after < seq < before` (the rolls of the log so
        far all come before `before`: the last of them in that span is the unit's last), or None."""
        roll = self.last.get(unit)
        return roll if roll is not None and after < roll["seq"] < before else None


def bravery_rolls(ctx) -> BraveryRolls:
    """The audit's one `BraveryRolls` (a module keeps it: one lookup per audit, not per test)."""
    return ctx.shared("avbcw-bravery-rolls", partial(BraveryRolls, ctx))


def faces_of(ctx, roll: Optional[dict]) -> tuple[int, ...]:
    return tuple(ctx.typed(roll).results or ()) if roll is not None else ()


class Change(NamedTuple):
    """A change the text makes to the BRV a test uses."""
    rule: Rule
    amount: int
    why: str


class Base(NamedTuple):
    """The BRV a test uses before its changes, and where it comes from. Tuples, not dataclasses:
    every bravery test makes one."""
    brv: int
    rule: Rule
    why: str


@dataclass
class Extreme:
    """A test's double 1 or double 6, and what it calls for."""
    seq: int
    turn: int
    unit: str
    faces: tuple[int, int]
    vehicle: bool
    answered: bool = False


# what a unit no army list names has of its tests (_facts_of): no entry, Banner, Brittle or BRV
NOT_LISTED = (None, False, False, False, None)


@lru_cache(maxsize=64)
def _listed(own: int, vehicle: bool) -> Base:
    """A unit's own listed BRV as a test's base: the same few for every test of a game (a Base is a tuple)."""
    return Base(own, VEH_STATS if vehicle else STATS, f"BRV {own} as listed")


class AVBCWBravery(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.last_test = 0                           # seq of the last BraveryTested: rolls come after it
        self.sixes: dict[str, Extreme] = {}          # unit -> its double 6 not yet answered
        self.bogged: set[str] = set()
        self._lacks: Optional[str] = None             # why the pack cannot settle a test (DB.BRAVERY absent)
        self._settles: Optional[bool] = None          # whether the audit's pack holds DB.BRAVERY (asked once)
        self._facts: dict[str, tuple] = {}            # unit -> what its entry says of its tests (see _facts_of)
        self._facts_version = -1                      # the army lists' version the facts were read at
        self.rolls = bravery_rolls(ctx)

    def on_UnitStatusChanged(self, line):
        data = self.ctx.typed(line)
        if data.status == "bogged":
            self.bogged.add(data.unit)

    # ------------------------------------------------------------ BraveryTested

    def on_BraveryTested(self, line) -> Iterable[RuleApplication]:
        ctx, data, seq = self.ctx, self.ctx.typed(line), line["seq"]
        after, self.last_test = self.last_test, seq
        roll = self.rolls.of(data.unit, after, seq)
        out = self._brv(line, data)
        if data.why != "bog":
            self.bogged.discard(data.unit)   # "If the BRV test is successful the vehicle moves off"
        if roll is None:
            out.append(EXTREMES.missing_roll(seq, f"{data.unit}'s bravery test has no DB.BRAVERY 2d6 before it: "
                                             "its extremes cannot be read"))
            return out
        rolled, roll_seq = ctx.typed(roll), roll["seq"]
        out += self._extremes(line, data, rolled, roll_seq)
        out.append(self._passed(data, seq, rolled, roll_seq))
        return out

    def _passed(self, data, seq: int, rolled, roll_seq: int) -> RuleApplication:
        """Whether the test is passed: the core Bravery test, read from the table pack's
        DB.BRAVERY (its dice, and how their total passes against the BRV used), else `unverifiable`."""
        if self._settles is None:   # the audit's pack does not change: asked once
            self._settles = self.ctx.tables.has("DB.BRAVERY")
        if not self._settles:
            return DB_BRAVERY.unverifiable(seq, self._unsettled_words(data.unit, data.passed), recorded=data.passed)
        table, faces = self.ctx.tables.get("DB.BRAVERY"), list(rolled.results or [rolled.result])
        if rolled.die != table["dice"]:
            return DB_BRAVERY.mismatch(seq, f"{data.unit}'s bravery roll is {rolled.die}; the core test of "
                                       f"{self.ctx.tables.label()} rolls {table['dice']}", expected=table["dice"],
                                       recorded=rolled.die, related=[roll_seq])
        expected = core_tables.passes(table, faces, data.brv)
        total = f"{faces} (total {sum(faces)}) against BRV {data.brv}, passing when total {table['pass']} BRV"
        return DB_BRAVERY.judge(seq, data.passed == expected, f"{data.unit} {'passes' if expected else 'fails'}: "
                                f"{total}", f"{data.unit} is recorded {'passing' if data.passed else 'failing'}; "
                                f"{total} ({self.ctx.tables.label()}) it {'passes' if expected else 'fails'}",
                                verdict=Verdict.MISMATCH, expected=expected, recorded=data.passed, related=[roll_seq])

    def _unsettled_words(self, unit: str, passed: bool) -> str:
        if self._lacks is None:   # the audit's pack does not change: its words once
            self._lacks = self.ctx.tables.lacks("DB.BRAVERY")
        return f"{unit} {'passes' if passed else 'fails'}: whether a test is passed is the core Bravery test: {self._lacks}"

    def _extremes(self, line, data, rolled, roll_seq: int) -> Sequence[RuleApplication]:
        """"A unit's bravery test that rolls double 1 (before modifiers) allows the unit to move
        twice ... A unit that rolls double six (before modifiers) cannot move and loses 1 Cohesion";
        a vehicle's double 6 "suffers a mechanical mishap; roll on the Vehicle Damage table with 1d6-1"."""
        faces = tuple(rolled.results or ())
        seq = line["seq"]
        if rolled.die != "2d6" or len(faces) != 2:
            return [EXTREMES.mismatch(seq, f"{data.unit}'s bravery roll is {rolled.die} {list(faces)}: the extremes "
                                      "\"double 1\" and \"double six\" are of two dice", related=[roll_seq])]
        if faces == (6, 6):
            unit = self.ctx.board.units.get(data.unit)
            vehicle = unit is not None and is_vehicle(unit, self.lists.get(data.unit))
            self.sixes[data.unit] = Extreme(seq, line["turn"], data.unit, faces, vehicle)
            what = "a mechanical mishap (Vehicle Damage at 1d6-1)" if vehicle else "no move and 1 COH lost"
            return [EXTREMES.ok(seq, f"{data.unit} rolls double 6: {what}", related=[roll_seq])]
        if faces == (1, 1):
            return [EXTREMES.ok(seq, f"{data.unit} rolls double 1: it may make \"two consecutive normal moves\"",
                                related=[roll_seq])]
        return ()

    # ------------------------------------------------------------ the BRV used

    def _facts_of(self, unit_id: str) -> tuple:
        """(its entry, whether a vehicle, Banner, Brittle, its listed BRV) as its army-list entry
        says: read once per unit and version of the lists (entries change only when a list is
        taken; an entry's type, never empty, says whether a vehicle)."""
        if self._facts_version != self.lists.version:
            self._facts.clear()
            self._facts_version = self.lists.version
        found = self._facts.get(unit_id)
        if found is None:
            entry = self.lists.get(unit_id)
            if entry is None:
                return NOT_LISTED
            found = self._facts[unit_id] = (entry, entry.type.startswith("vehicle:"), has_rule(entry, BANNER.id),
                                            has_rule(entry, BRITTLE.id), stat(entry, "BRV"))
        return found

    def _brv(self, line, data) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(data.unit)
        entry, vehicle, banner, brittle, own = self._facts_of(data.unit)
        # a unit not listed is a vehicle by its board type (is_vehicle)
        vehicle = unit is not None and (vehicle if entry is not None else is_vehicle(unit, None))
        found = self._base(line, data, vehicle, brittle, own)
        if isinstance(found, RuleApplication):
            return [found]
        base, out = found
        changes: list[Change] = []
        if unit is not None and "suppressed" in unit.status:
            changes.append(Change(SUPPRESSION, SUPPRESSED_BRV, "suppressed: \"Suffers -2 BRV\""))
        if banner:
            changes.append(Change(BANNER, BANNER_BRV, "Banner: \"The unit gains +1 BRV\""))
        if data.why == "bog" or (vehicle and data.unit in self.bogged):
            changes.append(Change(BOG, BOGGED_BRV, "bogged: \"suffers -2 BRV\""))
        if data.why == "run-over":
            pro = self._runner_pro(line, data.unit)
            if pro is None:
                out.append(RUNOVER.unverifiable(line["seq"], f"{data.unit}'s run-over test: no UnitRunOver names the "
                                                "vehicle, or its PRO is not one number, so the BRV cannot be counted"))
                return out
            changes.append(Change(RUNOVER, -pro, f"\"BRV is reduced by the PRO value of the vehicle\" ({pro})"))
        out.append(self._judge_brv(line["seq"], data, base, changes))
        return out

    def _base(self, line, data, vehicle: bool, brittle: bool, own: Optional[int]):
        """The BRV before changes: the unit's own, Brittle's 6 on a break test, or the lending
        commander's; with the judgement of the lending (a new list: the caller adds to it)."""
        if data.why == "break" and brittle:
            return Base(BRITTLE_BRV, BRITTLE, "Brittle: \"Bravery is 6 when taking break tests\""), []
        if data.brv_from is None or data.brv_from == data.unit:
            if own is None:
                return STATS.unverifiable(line["seq"], f"{data.unit} has no BRV in an ArmyListed: the BRV used "
                                          "cannot be counted", recorded=data.brv)
            return _listed(own, vehicle), []
        return self._lent(line, data)

    def _lent(self, line, data):
        """Inspiring: "All friendly units within 12” of the Commander's 'unit leader' figure may use
        the Commander's Bravery rating"."""
        seq, board = line["seq"], self.ctx.board
        lender, unit = board.units.get(data.brv_from), board.units.get(data.unit)
        entry = self.lists.get(data.brv_from)
        lends = inspiring(type_of(lender, entry), entry)
        own = stat(entry, "BRV")
        if lender is None or unit is None or lender.position is None or own is None:
            return INSPIRING.unverifiable(seq, f"{data.unit} uses {data.brv_from}'s BRV: the commander is not on the "
                                          "table or lists no BRV", recorded=data.brv)
        if lends is None:
            return INSPIRING.ambiguous(seq, f"{data.brv_from} is a Tank Commander: it \"acts as a Commander\", yet the "
                                       "text does not say it is Inspiring", recorded=data.brv)
        reach = distance(self.ctx, geo.xy(lender.position), unit_extent(unit))
        good = lends and lender.side == unit.side and reach <= INSPIRING_REACH
        lent = INSPIRING.judge(seq, good, f"{data.unit} is {reach}\" from Inspiring {data.brv_from}'s leader: within 12”",
                               f"{data.unit} uses {data.brv_from}'s BRV, yet " + (
                                   f"is {reach}\" from its leader figure (\"within 12”\")" if lends and lender.side == unit.side
                                   else "that unit is not a friendly Inspiring commander"),
                               expected=INSPIRING_REACH, recorded=reach)
        return Base(own, INSPIRING, f"{data.brv_from}'s BRV {own}"), [lent]

    def _runner_pro(self, line, unit_id: str) -> Optional[int]:
        run = [l for l in self.ctx.of_type("UnitRunOver", before=line["seq"]) if l["data"]["unit"] == unit_id]
        if not run:
            return None
        vehicle = self.ctx.typed(run[-1]).vehicle
        pro = (self.lists.get(vehicle).stats.get("PRO") if self.lists.get(vehicle) else None) or ""
        return int(pro) if pro.strip().isdigit() else None

    def _judge_brv(self, seq: int, data, base: Base, changes: list[Change]) -> RuleApplication:
        if not changes and data.brv == base.brv:   # most tests: the base alone, used as it is
            return base.rule.ok(seq, f"{data.unit} tests on BRV {base.brv} ({base.why})", expected=base.brv,
                                recorded=data.brv, inputs={"base": base.brv, "changes": []})
        if changes:
            expected = base.brv + sum(c.amount for c in changes)
            why = "; ".join([base.why, *(c.why for c in changes)])
        else:   # most tests: the base alone
            expected, why = base.brv, base.why
        inputs = {"base": base.brv, "changes": [{"rule": c.rule.id, "amount": c.amount} for c in changes] if changes else []}
        if data.brv == expected:
            rule = changes[-1].rule if changes else base.rule
            return rule.ok(seq, f"{data.unit} tests on BRV {expected} ({why})", expected=expected, recorded=data.brv,
                           inputs=inputs)
        # the change whose omission (or wrong sign) explains the recorded number, else the base
        blamed = next((c.rule for c in changes if data.brv in (expected - c.amount, expected - 2 * c.amount)),
                      base.rule)
        return blamed.mismatch(seq, f"{data.unit} tests on BRV {data.brv}, not {expected} ({why})",
                               expected=expected, recorded=data.brv, inputs=inputs)

    # ------------------------------------------------------------ a double 6's consequence

    def on_CohesionLost(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.cause != "bravery":
            return ()
        six = self.sixes.get(data.unit)
        if six is None or six.vehicle:
            return ()    # other losses a bravery test brings are core (DB.BRAVERY, DB.MORALE)
        six.answered = True
        del self.sixes[data.unit]
        return [EXTREMES.judge(line["seq"], data.points == 1, f"{data.unit} loses 1 COH for its double 6",
                               f"{data.unit} loses {data.points} COH for its double 6: it \"loses 1 Cohesion\"",
                               verdict=Verdict.MISMATCH, expected=1, recorded=data.points, related=[six.seq])]

    def on_VehicleDamaged(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.cause != "bravery":
            return ()
        six = self.sixes.pop(data.vehicle, None)
        if six is None:
            return [EXTREMES.violation(line["seq"], f"{data.vehicle} is damaged for a bravery roll without a double 6 "
                                       "since its last: \"in response to a Bravery roll of double 6\"")]
        return [EXTREMES.ok(line["seq"], f"{data.vehicle}'s mechanical mishap for its double 6", related=[six.seq])]

    def _unanswered(self) -> list[RuleApplication]:
        out = [EXTREMES.violation(six.seq, f"{six.unit} rolled double 6 and " + (
            "no Vehicle Damage roll follows (\"roll on the Vehicle Damage table with 1d6-1\")" if six.vehicle
            else "no loss of 1 COH (cause bravery) is recorded that turn: it \"loses 1 Cohesion\""))
            for six in self.sixes.values()]
        self.sixes.clear()
        return out

    def on_TurnStarted(self, line):
        return self._unanswered()

    def finish(self):
        return self._unanswered()



TESTS = "tests/unit/test_avbcw_bravery.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.BRV.EXTREMES": ("implemented", TESTS + "test_double_six_no_move_and_a_cohesion_lost",
                           "the test's DB.BRAVERY 2d6 (two dice), a double 6's 1 COH or vehicle mishap by the turn's "
                           "end; the moves a double 1 or 6 allows: suppression.py"),
    "AVBCW.SUPP.EFFECTS": ("partial", TESTS + "test_suppressed_brv", "a suppressed unit's bravery test at BRV -2"),
    "AVBCW.EQ.BANNER": ("implemented", TESTS + "test_banner_and_brittle", "\"+1 BRV\" in every bravery test; its cost and who "
                        "may take it: the army list's"),
    "AVBCW.AB.BRITTLE": ("implemented", TESTS + "test_banner_and_brittle", "\"Bravery is 6 when taking break tests\" (why "
                         "break), whatever the listed BRV; its cost and the \"Bravery 7 or more\" it needs: the army "
                         "list's"),
    "AVBCW.AB.INSPIRING": ("partial", TESTS + "test_an_inspiring_commander_lends_its_brv",
                           "`brv_from`: a friendly Inspiring commander (foot or mounted, or listing it) whose leader "
                           "figure is within 12” of the unit (`measure`), its BRV used; a Tank Commander: `ambiguous` "
                           "(\"acts as a Commander\", no Inspiring note); its Leadership Points: leadership.py"),
    "AVBCW.VEH.TRACKED.BOG": ("partial", TESTS + "test_a_bogged_vehicle_tests_at_minus_two",
                              "a bogged vehicle's next test (or a test why bog) at BRV -2; the bog rolls and where the "
                              "move ends: vehicle_moves.py"),
    "AVBCW.VEH.RUNOVER": ("partial", TESTS + "test_run_over_brv_less_the_vehicles_pro",
                          "the run-over test at BRV less the PRO of the vehicle of the last UnitRunOver of the unit (a "
                          "PRO by facing: `unverifiable`); the 2 COH: skirmish.py; the 3” assault: vehicle_moves.py"),
}
