"""Landships of Mogdonazia, the Silly Contraptions (landships-of-mogdonazia.txt, pp. 3-4: jump packs,
Mr. Tesla's rifles, flame rifles, portable Congreve rockets, Steam-Powered Armour, Clockwork Men).
The headings are scrambled (MOG.Z 1): ids follow the content. A key figure's weapon is named by the
shot's `weapon` (the key figure, or what it carries); what the seed leaves to TSATF (the Dervish
rifle and Machine Gun columns, cohesion, rally) is `unverifiable` unless the table pack holds it.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia import core_tables
from domain.rules.landships_of_mogdonazia.common import RULEBOOK, carded, faces, last_roll, this_turn, vehicle_of
from domain.rules.landships_of_mogdonazia.criticals import standing_status
from domain.rules.landships_of_mogdonazia.fire import tsatf_fire
from domain.tabletop.geometry import extent, features_touched, measure, path_length

JUMP, TESLA, FLAME = RULEBOOK.rule("MOG.JUMP"), RULEBOOK.rule("MOG.TESLA"), RULEBOOK.rule("MOG.FLAME")
CONGREVE, PA, CLOCKWORK = RULEBOOK.rule("MOG.CONGREVE"), RULEBOOK.rule("MOG.PA"), RULEBOOK.rule("MOG.CLOCKWORK")
RULES = {"tesla-rifle": TESLA, "flame-rifle": FLAME, "congreve": CONGREVE}
DICE = {"tesla-rifle": 3, "flame-rifle": 3, "congreve": 6}   # "Roll 3D20", "Roll 3D20", "Roll 6D20"
FLAME_RANGE, OPERATOR_REACH = 8.0, 2.0                       # "Range is 8", "within 2"
SCATTER_WHY = "jump-pack: \"Scatter D6 away\""
HALF_PLATOON = 10                                            # "one officer, one NCO and eight soldiers"


class Contraptions(RuleModule):
    """Key figures' shots and their 20s, jump-pack moves and their chart, PAs and Clockworks."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.keys: dict[str, dict[str, str]] = {}       # unit -> {figure: carries}
        self.counts: dict[str, Optional[int]] = {}      # unit -> its figures at deployment
        self.shots: dict[str, tuple[str, Any]] = {}     # attack -> (carries, shot)
        self.pending: list[tuple[str, int, str]] = []   # (unit, seq, why) to settle by the turn's end
        self.each_turn: dict[str, int] = {}             # clockwork -> turn of its face card
        self.saves: list[tuple[str, str, int, int, Any]] = []   # (attack, shooter, seq, saves owed, rule)

    def on_UnitDeployed(self, line):
        unit, seq = self.ctx.typed(line), line["seq"]
        self.keys[unit.unit] = {k.figure: k.carries for k in unit.key_figures or ()}
        self.counts[unit.unit] = core_tables.figure_count(unit)
        if "jump-pack" not in self.keys[unit.unit].values():
            return ()
        count = unit.figures if isinstance(unit.figures, int) else len(unit.figures or ())
        return [JUMP.judge(seq, count == HALF_PLATOON, "a half platoon of 10", f"jump pack troops are \"organised in "
                           f"half platoons of one officer, one NCO and eight soldiers\": 10 figures, not {count}",
                           expected=HALF_PLATOON, recorded=count)]

    def _carries(self, shot) -> Optional[str]:
        return core_tables.carried(self.keys.get(shot.shooter, {}), shot, self.counts.get(shot.shooter))

    # -- shooting ------------------------------------------------------------------------------
    def on_ShotFired(self, line):
        shot, seq = self.ctx.typed(line), line["seq"]
        out = self._machine_shot(shot, line)
        carries = self._carries(shot)
        if carries is None:
            return out
        self.shots[shot.attack] = (carries, shot)
        if carries == "jump-pack":
            return out + self._jump_shot(shot, seq)
        rule = RULES[carries]
        out.append(rule.judge(seq, shot.dice == DICE[carries], f"{shot.dice}D20", f"\"Roll {DICE[carries]}D20\", not "
                              f"{shot.dice}", expected=DICE[carries], recorded=shot.dice))
        at_vehicle = vehicle_of(self.ctx, shot.target) is not None
        if carries == "flame-rifle":
            out.append(self._flame_range(shot, seq))
        if at_vehicle and carries in ("flame-rifle", "congreve"):
            wanted = "small-arms" if carries == "flame-rifle" else "artillery"
            out.append(rule.judge(seq, shot.weapon_class == wanted, f"{wanted} against landships",
                                  f"{carries} counts as {wanted} against landships, not {shot.weapon_class}",
                                  expected=wanted, recorded=shot.weapon_class))
        if carries == "congreve" and (shot.moved or self._moved(shot.shooter, seq)):
            out.append(CONGREVE.violation(seq, "\"The figure cannot fire if he moved during the movement phase\""))
        return out

    def _flame_range(self, shot, seq: int) -> RuleApplication:
        units = self.ctx.board.units
        measured = shot.range
        if shot.shooter in units and shot.target in units:
            how = self.ctx.interpretations.reading("measure") or "closest"
            measured = max(shot.range, measure(extent(units[shot.shooter]), extent(units[shot.target]), how))
        return FLAME.judge(seq, measured <= FLAME_RANGE, f"{measured}\" within 8\"", f"\"Range is 8\": the target is "
                           f"{measured}\" away", expected="<= 8", recorded=measured)

    def _moved(self, unit: str, seq: int, mode: Optional[str] = None) -> bool:
        moves = (self.ctx.typed(l) for l in this_turn(self.ctx, seq, "UnitMoved"))
        return any(m.unit == unit and path_length(m.path) > 0 and (mode is None or m.mode == mode) for m in moves)

    def _jump_shot(self, shot, seq: int) -> list[RuleApplication]:
        # "Figures shooting while using their jump pack are considered as mounted in the firing chart."
        if not self._moved(shot.shooter, seq, "jump-pack") or shot.fires_as is None:
            return []
        return [JUMP.judge(seq, shot.fires_as == "mounted", "fires as mounted", f"a figure shooting while using its "
                           f"jump pack fires as mounted, not {shot.fires_as}", expected="mounted", recorded=shot.fires_as)]

    def _machine_shot(self, shot, line) -> list[RuleApplication]:
        kind, seq = (vehicle_of(self.ctx, shot.shooter) or {}).get("kind"), line["seq"]
        unit = self.ctx.board.units.get(shot.shooter)
        if kind == "powered-armour":
            # "they can carry a maximum of two weapons (but can fire only one per turn)"
            fired = {self.ctx.typed(l).weapon for l in this_turn(self.ctx, seq, "ShotFired")
                     if self.ctx.typed(l).shooter == shot.shooter}
            if fired - {shot.weapon}:
                return [PA.violation(seq, f"{shot.shooter} already fired {sorted(fired, key=str)[0]} this turn: a PA "
                                     "\"can fire only one per turn\"", recorded=shot.weapon)]
            if unit is not None and carded(self.ctx, unit, "wound", seq) \
                    and shot.fires_as not in (None, "mounted", "short-range"):
                return [PA.violation(seq, "a wounded PA's \"weapon will count as mounted or short range\"",
                                     recorded=shot.fires_as)]
        if kind == "clockwork" and unit is not None:
            stopped = [s for s in ("broken-down",) if s in standing_status(self.ctx, unit, seq)] + \
                (["shut-down"] if carded(self.ctx, unit, "shut-down", seq) else []) + \
                self._chart_stops(shot.shooter, seq, True)
            if stopped:
                return [CLOCKWORK.violation(seq, f"{shot.shooter} is {stopped[0]}: it cannot shoot")]
        return []

    def on_ShotResolved(self, line):
        resolved, seq = self.ctx.typed(line), line["seq"]
        carries, shot = self.shots.get(resolved.attack, (None, None))
        if carries not in ("tesla-rifle", "flame-rifle"):
            return ()
        rule = RULES[carries]
        roll = last_roll(self.ctx, resolved.attack, "TSATF.FIRE", seq)
        if roll is None:
            return [rule.missing_roll(seq, f"no TSATF.FIRE d20s about {resolved.attack}")]
        rolled, out = faces(self.ctx.typed(roll)), []
        twenties = rolled.count(20)
        if resolved.twenties is not None:
            out.append(rule.judge(seq, resolved.twenties == twenties, f"{twenties} 20s", f"the d20s {rolled} show "
                                  f"{twenties} 20s", verdict=Verdict.MISMATCH, expected=twenties,
                                  recorded=resolved.twenties, related=[roll["seq"]]))
        if carries == "flame-rifle":
            hits = sum(1 for f in rolled if f <= 6)   # "Roll 3D20, looking for 1-6"
            out.append(FLAME.judge(seq, resolved.hits == hits, f"{hits} hits (1-6)", f"the d20s {rolled} give {hits} "
                                   "hits (\"looking for 1-6\")", verdict=Verdict.MISMATCH, expected=hits,
                                   recorded=resolved.hits, related=[roll["seq"]]))
        elif not self.ctx.tables.has("TSATF.FIRE"):
            out.append(TESLA.unverifiable(seq, "\"Roll 3D20 as Dervish rifle weapon\": the hits are read on TSATF's "
                                          f"column ({self.ctx.tables.lacks('TSATF.FIRE')})", recorded=resolved.hits))
        else:   # "Roll 3D20 as Dervish rifle weapon": the pack's column `dervish-rifle`
            out += tsatf_fire(self.ctx, shot, resolved, seq, core_tables.column_of(shot, carries), TESLA)
        if twenties:
            self.pending.append((shot.shooter, seq, f"{carries}: a 20 explodes the rifle, \"Remove the figure as a "
                                                    "casualty\""))
        if twenties > 1:   # "Any additional rolls of 20 will affect one figure each, and must save ... (flip a card)"
            self.saves.append((resolved.attack, shot.shooter, seq, twenties - 1, rule))
        if resolved.hits:
            self.pending.append((shot.target, seq, "\"If at least one figure is hit, the target unit must rally or be "
                                                   "considered shaken\""))
        return out

    # -- moving --------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        move, seq = self.ctx.typed(line), line["seq"]
        length = path_length(move.path)
        if move.mode == "jump-pack":
            self.pending.append((move.unit, seq, "\"After moving the figure, refer to the jump pack chart\""))
            return self._jump_move(move, length, seq)
        if move.mode == "scatter" and any(p[0] == move.unit and p[2].startswith(SCATTER_WHY) for p in self.pending):
            self.pending = [p for p in self.pending if not (p[0] == move.unit and p[2].startswith(SCATTER_WHY))]
            return [self._scatter(move, length, seq)]
        kind, unit = (vehicle_of(self.ctx, move.unit) or {}).get("kind"), self.ctx.board.units.get(move.unit)
        if kind == "powered-armour" and unit is not None and length > 0 and carded(self.ctx, unit, "wound", seq):
            return [self._allowance(PA, move.unit, "MOG.PA", 1, length, seq, "a wounded PA \"can only move 1D6\"")]
        if kind == "clockwork" and unit is not None and length > 0:
            stopped = (["shut-down"] if carded(self.ctx, unit, "shut-down", seq) else []) + \
                self._chart_stops(move.unit, seq, False)
            if stopped:
                return [CLOCKWORK.violation(seq, f"{move.unit} is {stopped[0]}: it does not move", recorded=length)]
        return ()

    def _jump_move(self, move, length: float, seq: int) -> list[RuleApplication]:
        # "Movement for jump packs is 5 dice, 4 dice if the figure has to cross a tall obstacle."
        tall = [f for f in (self.ctx.board.table or {}).get("features", []) if f.get("tall")]
        crossed = features_touched(self.ctx.board.units[move.unit], move.path, tall) if tall else []
        dice = 4 if crossed else 5
        why = f"jump pack: {dice} dice{' (crossing ' + crossed[0] + ')' if crossed else ''}"
        return [self._allowance(JUMP, move.unit, "MOG.JUMP", dice, length, seq, why)]

    def _allowance(self, rule, unit: str, purpose: str, dice: int, length: float, seq: int, why: str) -> RuleApplication:
        roll = last_roll(self.ctx, unit, purpose, seq)
        if roll is None:
            return rule.missing_roll(seq, f"{unit} moves without its {purpose} roll ({why})")
        rolled = faces(self.ctx.typed(roll))
        good = len(rolled) == dice and length <= sum(rolled)
        return rule.judge(seq, good, f"{why}: {length}\" within {rolled}", f"{why}: {len(rolled)} dice {rolled} for "
                          f"{length}\"", expected={"dice": dice, "inches": f"<= {sum(rolled)}"},
                          recorded={"dice": len(rolled), "inches": length}, related=[roll["seq"]])

    def on_JumpPackTested(self, line):
        test, seq = self.ctx.typed(line), line["seq"]
        self.pending = [p for p in self.pending if not (p[0] == test.unit and p[2].startswith("\"After moving"))]
        roll = last_roll(self.ctx, test.unit, "MOG.JUMP.CHART", seq)
        if roll is None:
            return [JUMP.missing_roll(seq, f"no MOG.JUMP.CHART d6 about {test.unit}")]
        face = self.ctx.typed(roll).result
        out = [JUMP.judge(seq, test.result == face, f"jump pack chart {face}", f"the chart d6 shows {face}, not "
                          f"{test.result}", verdict=Verdict.MISMATCH, expected=face, recorded=test.result,
                          related=[roll["seq"]])]
        # "3, 4 Scatter D6 away 5 Crashes, pilot casualty 6 Explodes as it takes off": what the result leaves
        if test.result in (3, 4):
            self.pending.append((test.unit, seq, SCATTER_WHY + f" (chart {test.result})"))
        elif test.result in (5, 6):
            what = "Crashes, pilot casualty" if test.result == 5 else "Explodes as it takes off"
            self.pending.append((test.unit, seq, f"jump-pack: chart {test.result}, \"{what}\": the figure is a casualty"))
        if test.result == 6 and self.ctx.interpretations.reading("mog-jump-6") is None:
            out.append(JUMP.ambiguous(seq, "\"6 Explodes as it takes off\", yet the chart is read \"After moving\": "
                                      "the figure's move stands or not", interpretation=self.ctx.interpretations.label(
                                          "mog-jump-6")))
        return out

    def _scatter(self, move, length: float, seq: int) -> RuleApplication:
        """"3, 4 Scatter D6 away": the scatter move is the MOG.JUMP.SCATTER d6 in inches (its direction is
        left to the table)."""
        roll = last_roll(self.ctx, move.unit, "MOG.JUMP.SCATTER", seq)
        if roll is None:
            return JUMP.missing_roll(seq, f"{move.unit} scatters without its MOG.JUMP.SCATTER d6 (\"Scatter D6 away\")")
        face = self.ctx.typed(roll).result
        return JUMP.judge(seq, abs(length - face) <= 0.1, f"scatters {length}\", the d6's {face}\"",
                          f"\"Scatter D6 away\": the d6 shows {face}, the scatter move is {length}\"", expected=float(face),
                          recorded=length, related=[roll["seq"]])

    # -- the Clockwork chart -------------------------------------------------------------------
    def on_HitCardResolved(self, line):
        hit = self.ctx.typed(line)
        if hit.outcome == "critical-each-turn":
            self.each_turn.setdefault(hit.target, line["turn"])
        return ()

    def on_CriticalHit(self, line):
        hit, seq = self.ctx.typed(line), line["seq"]
        if hit.chart != "clockwork":
            return ()
        roll = last_roll(self.ctx, hit.unit, "MOG.CLOCKWORK", seq)
        if roll is None:
            return [CLOCKWORK.missing_roll(seq, f"no MOG.CLOCKWORK d6 about {hit.unit} for its chart")]
        face = self.ctx.typed(roll).result
        return [CLOCKWORK.judge(seq, hit.result == face, f"Clockwork chart {face}", f"the chart d6 shows {face}, not "
                                f"{hit.result}", verdict=Verdict.MISMATCH, expected=face, recorded=hit.result,
                                related=[roll["seq"]])]

    def _chart_stops(self, unit: str, seq: int, shooting: bool) -> list[str]:
        """This turn's chart: "3 Does not move, shoot, or fire", "4 Charges ahead at full speed, cannot fire"."""
        results = {self.ctx.typed(l).result for l in this_turn(self.ctx, seq, "CriticalHit")
                   if self.ctx.typed(l).unit == unit and self.ctx.typed(l).chart == "clockwork"}
        stops = {3} | ({4} if shooting else set())
        return [f"on chart {r}" for r in sorted(results & stops)]

    def on_RepairAttempted(self, line):
        attempt, seq = self.ctx.typed(line), line["seq"]
        if (vehicle_of(self.ctx, attempt.unit) or {}).get("kind") != "clockwork":
            return ()
        # "If the Clockwork breaks down, the operator must be within 2 in order to repair it"
        units = self.ctx.board.units
        if attempt.operator is None:
            return [CLOCKWORK.violation(seq, "a Clockwork \"requires an operator to repair it\": none named")]
        if attempt.operator not in units:
            return [CLOCKWORK.unverifiable(seq, f"operator {attempt.operator!r} is a figure with no position on the "
                                           "table: \"within 2\" is not measured", recorded=attempt.operator)]
        how = self.ctx.interpretations.reading("measure") or "closest"
        gap = measure(extent(units[attempt.operator]), extent(units[attempt.unit]), how)
        return [CLOCKWORK.judge(seq, gap <= OPERATOR_REACH, f"operator {gap}\" away", f"the operator is {gap}\" away: "
                                "\"the operator must be within 2\"", expected="<= 2", recorded=gap)]

    # -- the turn's end ------------------------------------------------------------------------
    def on_TurnStarted(self, line):
        return self._end_of_turn(line["seq"] - 1, line)

    def finish(self):
        return self._end_of_turn(len(self.ctx.lines), None)

    def _end_of_turn(self, last: int, line: Optional[dict[str, Any]]) -> list[RuleApplication]:
        out = [self._settled(unit, seq, why, last) for unit, seq, why in self.pending]
        self.pending = []
        for attack, shooter, seq, owed, rule in self.saves:
            cards = [l for l in self.ctx.of_type("CardDrawn", after=seq, before=last + 1)
                     if self.ctx.typed(l).for_ == "TSATF.SAVE" and _about(self.ctx.typed(l).subject, attack, shooter)]
            if len(cards) < owed:
                out.append(rule.missing_roll(seq, f"{attack}: {owed} more 20(s) \"will affect one figure each, and "
                                             "must save in the usual TSATF manner (flip a card)\": "
                                             f"{len(cards)} TSATF.SAVE card(s)", expected=owed, recorded=len(cards)))
        self.saves = []
        ended = [l for l in self.ctx.of_type("TurnStarted", before=last + 1)]
        turn = self.ctx.typed(ended[-1]).turn if ended else 0
        for unit, since in self.each_turn.items():
            charts = [l for l in this_turn(self.ctx, last + 1, "CriticalHit")
                      if self.ctx.typed(l).unit == unit and self.ctx.typed(l).chart == "clockwork"]
            if turn > since and not charts:
                out.append(CLOCKWORK.missing_roll(last, f"{unit} refers to the Clockwork Critical chart every turn: "
                                                  f"none in turn {turn}"))
        return [a for a in out if a]

    def _settled(self, unit: str, seq: int, why: str, last: int) -> Optional[RuleApplication]:
        later = self.ctx.of_type
        if why.startswith("\"After moving"):
            return JUMP.missing_roll(seq, f"{unit}: no JumpPackTested after its jump ({why})")
        if why.startswith(SCATTER_WHY):
            return JUMP.violation(seq, f"{unit}: {why}; no UnitMoved mode scatter that turn")
        if "casualty" in why:
            taken = [l for l in later("CasualtiesTaken", after=seq, before=last + 1) if self.ctx.typed(l).unit == unit]
            rule = RULES.get(why.split(":")[0], JUMP)
            return None if taken else rule.violation(seq, f"{unit}: {why}; no CasualtiesTaken")
        rallied = [l for l in later("CardDrawn", after=seq, before=last + 1)
                   if self.ctx.typed(l).for_ == "TSATF.RALLY" and self.ctx.typed(l).subject == unit]
        shaken = [l for l in later("UnitStatusChanged", after=seq, before=last + 1)
                  if self.ctx.typed(l).unit == unit and self.ctx.typed(l).status == "shaken"]
        rule = FLAME if any(c == "flame-rifle" and s.target == unit for c, s in self.shots.values()) else TESLA
        return None if rallied or shaken else rule.violation(seq, f"{unit}: {why}; no TSATF.RALLY card nor shaken")


def _about(subject: Any, attack: str, shooter: str) -> bool:
    """A save card about the shot or the firing unit (or one of its figures, `unit/figure`)."""
    subject = str(subject or "")
    return subject in (attack, shooter) or subject.startswith(shooter + "/")


TESTS = "tests/unit/test_mog_contraptions.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.JUMP": ("ambiguous", "; ".join(TESTS + t for t in (
        "test_jump_packs_move_5_dice_or_4_over_a_tall_obstacle", "test_the_jump_pack_chart_follows_the_move",
        "test_jump_troops_are_half_platoons", "test_the_jump_pack_chart_result_is_applied")),
        "`Contraptions`: half platoons of 10, 5 dice or 4 over a `tall` feature, the chart after the move (its d6), "
        "3-4 a scatter move of the MOG.JUMP.SCATTER d6 in inches, 5 and 6 a casualty that turn, fires as mounted; 6 "
        "is `mog-jump-6` (no default: `ambiguous`); scatter's direction is left to the table"),
    "MOG.TESLA": ("needs a chart", TESTS + "test_tesla_rifles_roll_3d20_and_their_20s_explode",
                  "`Contraptions`: 3D20, the 20s counted, the carrier a casualty on a 20, each further 20 a TSATF.SAVE "
                  "card that turn, a hit target rallies or is shaken; the hits are TSATF's Dervish rifle column: "
                  "`unverifiable` without it"),
    "MOG.FLAME": ("implemented", TESTS + "test_flame_rifles_hit_on_1_to_6_within_8_inches; " + TESTS +
                  "test_a_lone_flame_rifle_figure_fires_its_flame_rifle_without_naming_it",
                  "`Contraptions`: 3D20, hits 1-6, range 8, small arms against landships, 20s, rally or shaken; the "
                  "shot's `weapon` names the key figure, or, unnamed, a unit all of whose figures carry it"),
    "MOG.CONGREVE": ("needs a chart", TESTS + "test_congreve_rockets_do_not_fire_after_moving",
                     "`Contraptions`: 6D20, no fire after moving, artillery against landships; the hits are TSATF's "
                     "Machine Gun (short range) column"),
    "MOG.PA": ("implemented", TESTS + "test_powered_armour_fires_one_weapon_a_turn_and_moves_1d6_wounded; " + TESTS +
               "test_a_hit_card_wounds_or_shuts_down_without_a_status_line; "
               "tests/unit/test_mog_combat.py::test_powered_armour_fights_as_a_figure_and_wounded_at_minus_2",
               "`Contraptions`: one weapon a turn, a wounded PA 1D6 and mounted or short range; the -2 in close combat "
               "when wounded is judged by `VehicleCombat` (combat.py), which fights a PA as a figure (no latch or "
               "hatch); cohesion and the melee itself are TSATF's"),
    "MOG.CLOCKWORK": ("implemented", TESTS + "test_a_clockwork_refers_to_its_chart_every_turn; " + TESTS +
                      "test_a_repaired_clockwork_is_no_longer_broken_down",
                      "`Contraptions`: the chart's d6 every turn after a face card, 3 and 4 stop it moving or "
                      "shooting, broken down or shut down it does not shoot, repair with an operator within 2\" (a "
                      "successful repair ends its breakdown); Zulus and Egyptians are TSATF's"),
}
