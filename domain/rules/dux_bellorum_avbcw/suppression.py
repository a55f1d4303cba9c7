"""Judging which Dux Bellorum AVBCW units may move, and going prone (dux-bellorum-avbcw.txt, Turn
sequence step 3, Suppression, Going prone, Bravery extremes, Assault troops; game-log-tabletop.md,
Dux Bellorum, BraveryTested, UnitMoved, UnitStatusChanged): a bravery test before each unit's own
move ("Test Bravery for each unit"), none needed by Assault troops or Impetuous units for a move
ending in contact, no move while suppressed until a test to move is passed, none in the turn of
the suppression, none after a double 6 or after going prone, a second move only after a double 1
and straight after the first, and who may go prone."""
from __future__ import annotations

from typing import Iterable, NamedTuple, Optional

from domain.rules.dux_bellorum_avbcw.bravery import DB_BRAVERY, bravery_rolls, faces_of
from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import never_prone, type_of
from domain.rules.dux_bellorum_avbcw.placing import extent_after, others
from domain.rules.engine import RuleApplication
from domain.tabletop import geometry as geo

TURN = RULEBOOK.rule("AVBCW.TURN")
EFFECTS = RULEBOOK.rule("AVBCW.SUPP.EFFECTS")
NOPRONE = RULEBOOK.rule("AVBCW.SUPP.NOPRONE")
PRONE = RULEBOOK.rule("AVBCW.PRONE")
EXTREMES = RULEBOOK.rule("AVBCW.BRV.EXTREMES")
ASSAULT = RULEBOOK.rule("AVBCW.AB.ASSAULT")

OWN_MOVES = (None, "normal", "second", "charge")


class Test(NamedTuple):
    """A test to move (a tuple: one is kept for nearly every bravery test of a game)."""
    seq: int
    passed: bool
    faces: tuple[int, ...]


class AVBCWMoveLimits(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.last_test = 0
        self.tests: dict[tuple[int, str], list[Test]] = {}      # (turn, unit) -> its move tests
        self.moves: dict[tuple[int, str], list[int]] = {}       # (turn, unit) -> its own moves' seqs
        self.last_move: Optional[tuple[int, str]] = None        # (seq, unit) of the last own move
        self.suppressed: dict[str, tuple[int, int]] = {}        # unit -> (turn, seq) it was suppressed
        self.prone: dict[str, int] = {}                         # unit -> turn it went prone
        self.impetuous: set[tuple[int, str]] = set()
        self.rolls = bravery_rolls(ctx)

    def on_BraveryTested(self, line):
        data, seq = self.ctx.typed(line), line["seq"]
        after, self.last_test = self.last_test, seq
        if data.why != "move":
            return ()   # only the tests to move are kept: their dice are read for them alone
        faces = faces_of(self.ctx, self.rolls.of(data.unit, after, seq))
        self.tests.setdefault((line["turn"], data.unit), []).append(Test(seq, data.passed, faces))
        return ()

    # ------------------------------------------------------------ statuses

    def on_UnitStatusChanged(self, line) -> Iterable[RuleApplication]:
        data, seq, turn = self.ctx.typed(line), line["seq"], line["turn"]
        if data.status == "impetuous":
            self.impetuous.add((turn, data.unit))
        elif data.status == "suppressed":
            self.suppressed[data.unit] = (turn, seq)
        elif data.status == "unsuppressed":
            return [self._unsuppressed(line, data)]
        elif data.status == "prone":
            return self._prone(line, data)
        return ()

    def _unsuppressed(self, line, data) -> RuleApplication:
        """"A suppressed unit remains suppressed until it succeeds a BRV test to move (even if it
        doesn't act on that movement)"."""
        since = self.suppressed.get(data.unit, (0, 0))[1]
        passed = [t for t in self.tests.get((line["turn"], data.unit), []) if t.passed and t.seq > since]
        return EFFECTS.judge(line["seq"], bool(passed), f"{data.unit} passed its test to move at seq "
                             f"{passed[-1].seq if passed else '-'}: no longer suppressed",
                             f"{data.unit} is unsuppressed without a passed bravery test to move since its suppression: "
                             "it \"remains suppressed until it succeeds a BRV test to move\"",
                             related=[t.seq for t in passed])

    def _prone(self, line, data) -> list[RuleApplication]:
        """Going prone: "Instead of moving, a unit (except Mounted Commanders, Cavalry, Mortar, Field
        gun, or Flamethrower teams) can go prone"; suppression: "Units that cannot go prone ... do not
        go prone"."""
        seq, turn = line["seq"], line["turn"]
        unit = self.ctx.board.units.get(data.unit)
        kind = type_of(unit, self.lists.get(data.unit))
        by_suppression = (data.cause or "").startswith("AVBCW.SUPP")
        rule = NOPRONE if by_suppression else PRONE
        if never_prone(kind):
            return [rule.violation(seq, f"{data.unit} ({kind}) goes prone: Mounted Commanders, Cavalry, Mortar, Field "
                                   "gun and Flamethrower teams (and vehicles) do not go prone")]
        if by_suppression:
            return [NOPRONE.ok(seq, f"{data.unit} ({kind}) goes prone when suppressed")]
        self.prone[data.unit] = turn
        moved = self.moves.get((turn, data.unit))
        if moved:
            return [PRONE.violation(seq, f"{data.unit} goes prone after moving at seq {moved[0]} this turn: "
                                    "\"Instead of moving, a unit ... can go prone\"", related=moved)]
        return [PRONE.ok(seq, f"{data.unit} ({kind}) goes prone instead of moving")]

    # ------------------------------------------------------------ moves

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data, turn = self.ctx.typed(line), line["turn"]
        unit = self.ctx.board.units.get(data.unit)
        if data.mode not in OWN_MOVES or unit is None or unit.position is None:
            return ()
        key = (turn, data.unit)
        earlier = self.moves.setdefault(key, [])
        tests = self.tests.get(key, [])
        out = [*self._tested(line, data, unit, tests, earlier), *self._suppressed(line, data, unit, tests),
               *self._extremes(line, data, unit, tests, earlier)]
        if self.prone.get(data.unit) == turn:
            out.append(PRONE.violation(line["seq"], f"{data.unit} went prone this turn \"Instead of moving\", and moves"))
        earlier.append(line["seq"])
        self.last_move = (line["seq"], data.unit)
        return out

    def _tested(self, line, data, unit, tests: list[Test], earlier: list[int]) -> list[RuleApplication]:
        """"3. Move units (... Test Bravery for each unit)"; Assault troops: "it does not need to make a
        Bravery test for a move that will end in contact with an enemy unit"."""
        seq = line["seq"]
        if earlier:
            return []    # the second of "two consecutive normal moves": one test gave both
        if tests:
            if tests[-1].passed:
                return [TURN.ok(seq, f"{data.unit} moves after its bravery test at seq {tests[-1].seq}",
                                related=[tests[-1].seq])]
            return [DB_BRAVERY.unverifiable(seq, f"{data.unit} moves after failing its bravery test at seq "
                                            f"{tests[-1].seq}: what a failed test allows is the core Bravery test, "
                                            "not in the text", related=[tests[-1].seq])]
        assault = has_rule(self.lists.get(data.unit), ASSAULT.id)
        impetuous = (line["turn"], data.unit) in self.impetuous
        if (assault or impetuous) and self._ends_in_contact(data, unit):
            return [ASSAULT.ok(seq, f"{data.unit} ({'Assault troops' if assault else 'Impetuous'}) moves into contact "
                               "with no bravery test: \"it does not need to make a Bravery test\"")]
        return [TURN.violation(seq, f"{data.unit} moves with no bravery test this turn: \"3. Move units (... Test "
                               "Bravery for each unit)\"" + (" (Assault troops need none only for a move that ends in "
                                                             "contact with an enemy unit)" if assault else ""))]

    def _ends_in_contact(self, data, unit) -> bool:
        end = extent_after(unit, data.path, data.figures)
        return any(geo.in_contact(end, unit_extent(enemy))
                   for enemy in others(self.ctx.board, unit.side, enemies=True).values())

    def _suppressed(self, line, data, unit, tests: list[Test]) -> list[RuleApplication]:
        """"While suppressed a unit; • Remains prone and cannot move"; a unit suppressed this turn
        "automatically goes (or stays) prone this turn as its move"."""
        seq, turn = line["seq"], line["turn"]
        if data.unit not in self.suppressed or "suppressed" not in unit.status:
            return []    # never suppressed, or the suppression ignored (Fearless) or lifted since
        when, at = self.suppressed[data.unit]
        if when == turn:
            return [EFFECTS.violation(seq, f"{data.unit} was suppressed this turn at seq {at}: it \"goes (or stays) "
                                      "prone this turn as its move\"", related=[at])]
        passed = [t for t in tests if t.passed and t.seq > at]
        return [EFFECTS.judge(seq, bool(passed), f"{data.unit}, suppressed, passed its test to move: \"remains "
                              "suppressed until it succeeds a BRV test to move\"",
                              f"{data.unit} moves while suppressed (since seq {at}) without passing a bravery test to "
                              "move: it \"Remains prone and cannot move\"", related=[at] + [t.seq for t in passed])]

    def _extremes(self, line, data, unit, tests: list[Test], earlier: list[int]) -> list[RuleApplication]:
        """"rolls double 1 ... allows the unit to move twice; these are two consecutive normal moves";
        "A unit that rolls double six ... cannot move" (a vehicle's double 6 is its mishap instead)."""
        seq = line["seq"]
        sixes = [t for t in tests if t.faces == (6, 6)]
        if sixes and not is_vehicle(unit, self.lists.get(data.unit)):
            return [EXTREMES.violation(seq, f"{data.unit} rolled double 6 at seq {sixes[-1].seq} and moves: it "
                                       "\"cannot move\"", related=[sixes[-1].seq])]
        if not earlier and data.mode != "second":
            return []
        ones = [t for t in tests if t.faces == (1, 1)]
        straight_after = bool(earlier) and self.last_move == (earlier[-1], data.unit)
        good = bool(ones) and len(earlier) == 1 and straight_after
        why = ("no first move this turn" if not earlier else "more than two moves" if len(earlier) > 1
               else "no double 1 this turn" if not ones else "another unit moved between")
        return [EXTREMES.judge(seq, good, f"{data.unit}'s second move, straight after its first, for the double 1 at "
                               f"seq {ones[-1].seq if ones else '-'}",
                               f"{data.unit} moves again this turn ({why}): only \"double 1 ... allows the unit to move "
                               "twice; these are two consecutive normal moves\"", related=earlier + [t.seq for t in ones])]


TESTS = "tests/unit/test_avbcw_bravery.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.TURN": ("partial", f"{TESTS}test_a_bravery_test_for_each_unit_that_moves",
                   "a bravery test (why move) before each unit's own move this turn; after a failed one, what the unit "
                   "may do is DB.BRAVERY (`unverifiable`)"),
    "AVBCW.SUPP.EFFECTS": ("implemented", f"{TESTS}test_a_suppressed_unit_cannot_move; {TESTS}test_suppressed_brv",
                           "no own move in the turn of the suppression (\"as its move\"), none later until a bravery "
                           "test to move is passed, `unsuppressed` only after one; -2 BRV: bravery.py; -2 SHOOT: "
                           "modifiers.py; no LPs from a suppressed commander: leadership.py"),
    "AVBCW.SUPP.NOPRONE": ("implemented", f"{TESTS}test_who_goes_prone",
                           "a suppressed Mounted Commander, Cavalry, Mortar, Field gun or Flamethrower team (or vehicle) "
                           "recorded `prone`: violation; vehicles never suppressed (shooting.py)"),
    "AVBCW.PRONE": ("implemented", f"{TESTS}test_who_goes_prone; {TESTS}test_prone_instead_of_moving",
                    "\"Instead of moving\": not after an own move this turn, no own move after it; not the types of "
                    "SUPP.NOPRONE; the -1 to hit a prone unit in the open: modifiers.py"),
    "AVBCW.BRV.EXTREMES": ("implemented", f"{TESTS}test_double_one_gives_two_consecutive_moves; "
                           f"{TESTS}test_double_six_no_move_and_a_cohesion_lost",
                           "the faces of the DB.BRAVERY 2d6 before the test (none: `missing-roll`); double 1: a second "
                           "own move, straight after the first; double 6: no own move that turn (not vehicles) and 1 "
                           "COH lost (cause bravery) by the turn's end, a vehicle's VehicleDamaged cause bravery; a "
                           "bravery VehicleDamaged with no double 6: violation (bravery.py)"),
    "AVBCW.AB.ASSAULT": ("implemented", f"{TESTS}test_assault_troops_need_no_test_to_contact",
                         "an own move with no bravery test is legal for Assault troops (and units made Impetuous) when "
                         "its end is in contact with an enemy unit; its cost: the army list's"),
}
