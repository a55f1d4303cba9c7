"""Judging the Dux Bellorum AVBCW army rules used in play (dux-bellorum-avbcw.txt, Subterfuge, Taunts
and Insults; game-log-tabletop.md, Dux Bellorum, ArmyRuleUsed: "ARMY.SUBTERFUGE (before deployment,
not a Commander or Loyal unit; `DieRolled` d6 modifier -1, `CohesionLost`, at 0 `not-arrived`),
ARMY.TAUNTS (once, start of a turn after LPs)"). Their costs are the army list's (army.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, on_table, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import DEMAGOGUE, is_commander, stat, type_of
from domain.rules.dux_bellorum_avbcw.placing import distance, others
from domain.rules.engine import RuleApplication, Verdict

SUBTERFUGE = RULEBOOK.rule("AVBCW.ARMY.SUBTERFUGE")
TAUNTS = RULEBOOK.rule("AVBCW.ARMY.TAUNTS")

TAUNT_REACH = 12.0   # "All enemy units within 12” of this unit become Impetuous for that turn only"


@dataclass
class Plot:
    """A Subterfuge: its target, the d6 and the loss it calls for."""
    seq: int
    target: str
    roll: Optional[int] = None
    lost: Optional[int] = None
    arrived: bool = True
    judged: bool = False


@dataclass
class Taunt:
    seq: int
    turn: int
    due: set[str] = field(default_factory=set)      # enemy units within 12”
    made: set[str] = field(default_factory=set)     # recorded impetuous
    early: bool = False                               # LPs placed after it in its turn


class AVBCWArmyRules(ListedModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.rules: dict[str, set[str]] = {}          # side -> army rules listed
        self.deployed = False
        self.plots: list[Plot] = []
        self.taunted: dict[str, int] = {}             # side -> seq of its one taunt
        self.taunt: Optional[Taunt] = None
        self.shot_this_turn = False
        self.side_of: dict[str, str] = {}             # listed unit -> its list's side

    def on_ArmyListed(self, line):
        super().on_ArmyListed(line)
        listed = self.ctx.typed(line)
        self.rules[listed.side] = {r.rule for r in listed.army_rules}
        self.side_of.update({u.unit: listed.side for u in listed.units})

    def on_TurnStarted(self, line):
        out = self._plots_done() + self._taunt_done()
        self.shot_this_turn = False
        return out

    def on_ShotFired(self, line):
        self.shot_this_turn = True

    def on_LeadershipPointsPlaced(self, line) -> Iterable[RuleApplication]:
        """Taunts: "at the start of any turn and after LPs have been placed": no LPs are placed
        after a taunt in its turn."""
        taunt = self.taunt
        if taunt is None or taunt.turn != line["turn"] or taunt.early:
            return ()
        taunt.early = True
        return [TAUNTS.violation(taunt.seq, f"LPs are placed at seq {line['seq']}, after the taunt: \"at the start of "
                                 "any turn and after LPs have been placed\"", related=[line["seq"]])]

    def on_ArmyRuleUsed(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        side = line.get("side")
        rule = {SUBTERFUGE.id: SUBTERFUGE, TAUNTS.id: TAUNTS}.get(data.rule)
        if rule is None:
            return ()
        out = [rule.judge(seq, data.rule in self.rules.get(side, set()), f"{side}'s army lists {data.rule}",
                          f"{side}'s army does not list {data.rule}")]
        return out + (self._plot(line, data, side) if rule is SUBTERFUGE else self._taunted(line, data, side))

    # ------------------------------------------------------------ Subterfuge

    def _plot(self, line, data, side) -> list[RuleApplication]:
        """"Before either army deploys, select an enemy unit to target with subterfuge ... Commander
        and Loyal units cannot be targeted by Subterfuge.\""""
        seq, out = line["seq"], []
        out.append(SUBTERFUGE.judge(seq, not self.deployed, "before either army deploys",
                                    "a unit is already deployed: \"Before either army deploys\""))
        entry = self.lists.get(data.target or "")
        kind = type_of(None, entry)
        if entry is None:
            return out + [SUBTERFUGE.violation(seq, f"{data.target} is no listed unit")]
        if side is not None and self.side_of.get(data.target) == side:
            out.append(SUBTERFUGE.violation(seq, f"{data.target} is one of {side}'s own units: \"select an enemy unit "
                                            "to target with subterfuge\""))
        if kind == DEMAGOGUE:
            out.append(SUBTERFUGE.ambiguous(seq, f"{data.target} is a Demagogue, listed under Commanders: whether it is a "
                                            "\"Commander\" unit Subterfuge cannot target the text does not say"))
        else:
            out.append(SUBTERFUGE.judge(seq, not is_commander(kind, entry) and not has_rule(entry, "AVBCW.AB.LOYAL"),
                                        f"{data.target} may be targeted", f"{data.target} is a Commander or Loyal unit: "
                                        "they \"cannot be targeted by Subterfuge\""))
        self.plots.append(Plot(seq, data.target))
        return out

    def on_DieRolled(self, line):
        if not self.plots:
            return   # no subterfuge: most games, every roll
        data = self.ctx.typed(line)
        for plot in self.plots:
            if data.purpose == SUBTERFUGE.id and data.subject == plot.target and plot.roll is None:
                plot.roll = data.result

    def on_CohesionLost(self, line) -> Iterable[RuleApplication]:
        """"Roll 1d6-1; the targeted unit reduces its Cohesion by this much before the battle.\""""
        data = self.ctx.typed(line)
        if data.cause != "subterfuge":
            return ()
        plot = next((p for p in self.plots if p.target == data.unit and p.lost is None), None)
        if plot is None:
            return [SUBTERFUGE.violation(line["seq"], f"{data.unit} loses COH to subterfuge that does not target it")]
        if plot.roll is None:
            return [SUBTERFUGE.missing_roll(line["seq"], f"{data.unit}'s subterfuge loss has no d6 before it")]
        plot.lost = data.points
        return [SUBTERFUGE.judge(line["seq"], data.points == plot.roll - 1, f"{data.unit} loses {data.points}: 1d6-1 on "
                                 f"{plot.roll}", f"{data.unit} loses {data.points} COH; 1d6-1 on {plot.roll} is "
                                 f"{plot.roll - 1}", verdict=Verdict.MISMATCH, expected=plot.roll - 1,
                                 recorded=data.points)]

    def on_UnitStatusChanged(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.status == "impetuous" and self.taunt is not None and line["turn"] == self.taunt.turn:
            self.taunt.made.add(data.unit)
            return [TAUNTS.judge(line["seq"], data.unit in self.taunt.due, f"{data.unit} is within 12” of the taunt",
                                 f"{data.unit} is made Impetuous, yet is not an enemy unit within 12” of the taunting unit",
                                 related=[self.taunt.seq])]
        if data.status != "not-arrived":
            return ()
        plot = next((p for p in self.plots if p.target == data.unit), None)
        left = self._left(plot)
        plot_arrives = plot is not None and left is not None and left > 0
        if plot is not None:
            plot.arrived = False
        return [SUBTERFUGE.judge(line["seq"], plot is not None and not plot_arrives, f"{data.unit}'s Cohesion is "
                                 "reduced to zero: it \"does not arrive\"", f"{data.unit} does not arrive, yet "
                                 + ("no subterfuge targets it" if plot is None else f"its Cohesion is {left}"))]

    def _left(self, plot: Optional[Plot]) -> Optional[int]:
        if plot is None or plot.lost is None:
            return None
        coh = stat(self.lists.get(plot.target), "COH")
        return None if coh is None else coh - plot.lost

    def on_UnitDeployed(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        out = self._plots_done() if not self.deployed else []
        self.deployed = True
        plot = next((p for p in self.plots if p.target == data.unit), None)
        left = self._left(plot)
        if plot is not None and (not plot.arrived or (left is not None and left <= 0)):
            out.append(SUBTERFUGE.violation(line["seq"], f"{data.unit}'s Cohesion was reduced to zero: it \"does not arrive "
                                            "for the battle and cannot be deployed\"", related=[plot.seq]))
        return out

    def _plots_done(self) -> list[RuleApplication]:
        """Each subterfuge once, when deployment begins (or the turn, or the game, ends)."""
        out = []
        for plot in self.plots:
            if plot.judged:
                continue
            plot.judged = True
            left = self._left(plot)
            if plot.roll is None:
                out.append(SUBTERFUGE.missing_roll(plot.seq, f"the subterfuge against {plot.target} rolls no 1d6-1"))
            elif plot.roll - 1 > 0 and plot.lost is None:
                out.append(SUBTERFUGE.violation(plot.seq, f"{plot.target} loses no COH to subterfuge; 1d6-1 on "
                                                f"{plot.roll} is {plot.roll - 1}"))
            elif left is not None and left <= 0 and plot.arrived:
                out.append(SUBTERFUGE.violation(plot.seq, f"{plot.target}'s Cohesion is reduced to zero and no not-arrived "
                                                "status is recorded"))
        return out

    # ------------------------------------------------------------ Taunts and Insults

    def _taunted(self, line, data, side) -> list[RuleApplication]:
        """"Once per battle at the start of any turn and after LPs have been placed choose one of your
        units. All enemy units within 12” of this unit become Impetuous for that turn only.\""""
        seq, out = line["seq"], self._taunt_done()
        first = self.taunted.setdefault(side, seq)
        if first != seq:
            out.append(TAUNTS.violation(seq, f"{side} taunted at seq {first}: \"Once per battle\"", related=[first]))
        start = line["phase"] == "leadership" or (line["phase"] == "missile-fire" and not self.shot_this_turn)
        out.append(TAUNTS.judge(seq, start and line["turn"] >= 1, "at the start of the turn, after LPs are placed",
                                f"in phase {line['phase']}: \"at the start of any turn and after LPs have been placed\""))
        unit = self.ctx.board.units.get(data.unit or "")
        if not on_table(unit) or unit.side != side:
            return out + [TAUNTS.violation(seq, f"{data.unit} is not one of {side}'s units on the table")]
        due = {uid for uid, e in others(self.ctx.board, side, enemies=True).items()
               if distance(self.ctx, unit_extent(unit), unit_extent(e)) <= TAUNT_REACH}
        self.taunt = Taunt(seq, line["turn"], due)
        return out

    def _taunt_done(self) -> list[RuleApplication]:
        taunt, self.taunt = self.taunt, None
        if taunt is None:
            return []
        missing = sorted(taunt.due - taunt.made)
        return [TAUNTS.judge(taunt.seq, not missing, "every enemy unit within 12” is Impetuous",
                             f"{', '.join(missing)} within 12” are not made Impetuous: \"All enemy units within 12” of "
                             "this unit become Impetuous\"", inputs={"due": sorted(taunt.due)})]

    def finish(self):
        return self._plots_done() + self._taunt_done()


TESTS = "tests/unit/test_avbcw_army_play.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.ARMY.SUBTERFUGE": ("implemented", f"{TESTS}test_subterfuge; {TESTS}test_subterfuge_targets_an_enemy_unit",
                              "used by an army listing it, before any unit deploys, at a listed enemy unit that is no "
                              "Commander or Loyal unit (a Demagogue: `ambiguous`); its d6 (AVBCW.ARMY.SUBTERFUGE, "
                              "subject the target), the COH lost (cause subterfuge) 1d6-1, `not-arrived` exactly when "
                              "the listed COH is gone, and no deployment then"),
    "AVBCW.ARMY.TAUNTS": ("implemented", f"{TESTS}test_taunts; {TESTS}test_taunts_come_after_the_lps_are_placed",
                          "used by an army listing it, once a battle, in the leadership phase or before the turn's "
                          "first shot, with no LPs placed after it that turn; every enemy unit within 12” (`measure`) of the chosen unit made `impetuous` that "
                          "turn, no other; the Impetuous units' moves into contact need no bravery test "
                          "(suppression.py)"),
}
