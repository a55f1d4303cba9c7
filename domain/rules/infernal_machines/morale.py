"""Morale after small arms fire, and the optional rules that change it.

- IM.CORE.MORALE: "Infantry that roll a die result less than or equal to their morale value pass the
  morale check ... higher ... fail" (the morale checks the text spells out; H+X and the roof's
  "+1 to the roll" add to the roll). A `MoraleChecked` of units that small arms fire hit needs its
  roll (`LS.MORALE`, about a unit checked or the attack) and its `passed` must agree with it. What
  follows is the text's for small arms: "If hit, it is subject to the normal morale check to see
  whether it is pinned or eliminated" (armoured trains), "is hit and passes its morale check, it
  becomes pinned" (running): a pass pins, a failure eliminates.
- IM.OPTCBT.REDARMY: in a Russian Civil War game, a SACRT hit on a Red Army unit asks a d6: 1-2 it
  routs (removed), else the hit goes on; with a Red Army infantry leader in the hex it is pinned.
- IM.OPTCBT.PINREMOVAL and IM.OPTCBT.HEROISM: a d6 per unit or stack in the pin-removal phase (1-2
  un-pinned, 3-5 still pinned, 6 still pinned or the heroism table), and the heroism table's results.
"""
from __future__ import annotations

from functools import cache
from typing import Any, Optional

from domain.board.hexes import distance
from domain.rules.engine import RuleApplication, RuleModule, Verdict, closer
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import fire_facts, rule
from domain.rules.infernal_machines.infantry import LEADER, morale_of
from domain.rules.infernal_machines.support_weapons import UNNAMED_DIE

INDIVIDUALS = ("forward-observer", "liaison-officer", "infantry-leader")
RED_NATIONS = ("red-army", "red army", "soviet", "bolshevik", "bolsheviks", "reds", "red")
HEROIC = ("infantry-platoon", "cavalry-platoon", "infantry-squad", "mg-platoon")
HEROISM = {1: "charge", 2: "hardening", 3: "demoralisation", 4: "retreat", 5: "panic", 6: "surrender/rally"}


def agreed(options: list[Any], rule_id: str) -> bool:
    """An optional rule the players agreed: its id, a head of it (IM.OPTCBT), or the section's name."""
    return _agreed(tuple(o for o in options if isinstance(o, str)), rule_id)


@cache
def _agreed(options: tuple[str, ...], rule_id: str) -> bool:
    return any(rule_id == o or rule_id.startswith(o + ".") or o.lower() == "advanced-infantry-combat" for o in options)


def red_army(board, unit) -> bool:
    nation = str(((board.sides or {}).get(unit.side) or {}).get("nation", "")).lower()
    return bool(unit.attrs.get("red_army")) or nation in RED_NATIONS


def russian_civil_war(board) -> bool:
    scenario = f"{board.scenario or ''} {' '.join(map(str, board.options))}".lower()
    return "civil" in scenario or any(str((s or {}).get("nation", "")).lower() in RED_NATIONS
                                      for s in (board.sides or {}).values())


class MoraleChecks(RuleModule):
    """Morale checks after small arms hits, the Red Army's rout test, pin removal and heroism."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.hit: dict[str, tuple[str, int]] = {}        # unit -> (attack, seq) of a small arms "hit" awaiting its check
        self.outcome: dict[str, tuple[str, int]] = {}    # unit -> (expected status, MoraleChecked seq)
        self.routs: dict[str, int] = {}                  # Red Army unit -> seq of its routing roll
        self.panicked: dict[str, int] = {}               # unit -> seq of its panic
        self.red_hits: list[tuple] = []                   # Red Army units hit, judged when the phase ends

    # -- the morale check after a hit ---------------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        resolved, out = self.ctx.typed(line), []
        for result in resolved.results:
            if result.result == "hit":
                self.hit[result.unit] = (resolved.attack, line["seq"])
            if result.result != "no-effect":
                out += self._red_army(line, result, resolved.attack)
        return out

    def on_MoraleChecked(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        hits = [self.hit.pop(u) for u in d.units if u in self.hit]
        if not hits:
            return []   # a barrage's morale check: judged with the barrage's effects (IM.ART.EFF.*)
        attack, since = hits[0]
        shot = self.facts.shot(attack)
        about = (*d.units, attack, None, shot.target if shot else None)
        rolls = [r for prefix in ("LS.MORALE", "IM.CORE.MORALE") for r in self.ctx.rolls(prefix, after=since, before=seq)
                 if r["data"].get("subject") in about]
        if not rolls:
            return [rule("LS.MORALE").missing_roll(seq, f"the morale check of {', '.join(d.units)} after attack "
                                                   f"{attack} has no LS.MORALE roll", related=[since])]
        roll = self.ctx.typed(rolls[-1])
        morale = d.morale if d.morale is not None else self._morale(d.units)
        if morale is None:
            return [rule("IM.CORE.MORALE").unverifiable(seq, "no morale value in the log", related=[rolls[-1]["seq"]])]
        modified = roll.result + sum(m.value for m in roll.modifiers)
        passed = modified <= morale
        for unit in d.units:
            self.outcome[unit] = ("pinned", seq, "it passed its morale check: a pass pins it") if d.passed else \
                ("eliminated", seq, "it failed its morale check: a failure eliminates it")
        return [rule("IM.CORE.MORALE").judge(
            seq, passed == d.passed, f"{modified} against morale {morale}: passed={passed}",
            f"a roll of {modified} against morale {morale} {'passes' if passed else 'fails'} (a roll less than or "
            f"equal to the morale value passes)", Verdict.MISMATCH, expected=passed, recorded=d.passed,
            related=[rolls[-1]["seq"], since], inputs={"roll": roll.result, "modified": modified, "morale": morale})]

    def _morale(self, units: list[str]) -> Optional[int]:
        """The morale the check is judged against when the log does not say: the infantry rules' value
        (Sturmtruppen 5, squads 4, +1 stacked with a leader), the printed one otherwise; none when the
        units checking together have different values or one's value is not known."""
        board = self.ctx.board
        values = {morale_of(self.ctx, board.units[u])[0] for u in units
                  if u in board.units and board.units[u].unit_class != LEADER}
        return values.pop() if len(values) == 1 else None

    def on_UnitStatusChanged(self, line):
        d, out = self.ctx.typed(line), []
        expected = self.outcome.pop(d.unit, None)
        if expected and d.status in ("pinned", "eliminated", "unpinned") and d.status != expected[0]:
            rule_id = "IM.CORE.MORALE" if "morale" in expected[2] else \
                "IM.OPTCBT.REDARMY" if "routed" in expected[2] else "IM.OPTCBT.HEROISM"
            out.append(rule(rule_id).mismatch(
                line["seq"], f"{d.unit}: {expected[2]} (seq {expected[1]}); the log has {d.status}",
                expected=expected[0], recorded=d.status, related=[expected[1]]))
        if line["phase"] == "pin-removal" and d.status == "unpinned":
            out += self._unpinned(line, d.unit)
        return out

    # -- the Red Army ----------------------------------------------------------------------------------------
    def _red_army(self, line, result, attack: str) -> list[RuleApplication]:
        """Noted at the hit, judged when the phase ends (the rout d6 follows the SACRT "hit")."""
        board = self.ctx.board
        unit, shot = board.units.get(result.unit), self.facts.shot(attack)
        if unit is None or shot is None or not red_army(board, unit) or not russian_civil_war(board):
            return []
        leader = any(u.unit_class == "infantry-leader" and red_army(board, u) for u in board.units_at(unit.location or ""))
        self.red_hits.append((unit.unit, attack, shot.seq, line["seq"], leader, result.result))
        return []

    def _judge_red_hits(self, before: int) -> list[RuleApplication]:
        out, options = [], self.ctx.board.options
        for unit, attack, fired, seq, leader, result in self.red_hits:
            rolls = [r for r in self.ctx.rolls("IM.OPTCBT.REDARMY", after=fired, before=before)
                     if r["data"].get("subject") in (unit, attack)]
            if not agreed(options, "IM.OPTCBT.REDARMY"):
                out += [rule("IM.OPTCBT.AGREE").violation(r["seq"], "a Red Army rout roll, but the players did not "
                                                          "agree the optional rule") for r in rolls]
            elif leader:
                out.append(rule("IM.OPTCBT.REDARMY").judge(
                    seq, not rolls and result in ("hit", "pinned"), f"{unit} is simply pinned (a Red Army leader is there)",
                    f"with a Red Army infantry leader in the hexagon {unit} is simply pinned: no rout test and no retreat "
                    f"(the log has {'a rout roll and ' if rolls else ''}{result})", related=[r["seq"] for r in rolls]))
            elif not rolls:
                out.append(rule("IM.OPTCBT.REDARMY").missing_roll(
                    seq, f"a SACRT hit on Red Army {unit} asks its rout d6 (IM.OPTCBT.REDARMY)"))
            else:
                natural = self.ctx.typed(rolls[0]).result
                out.append(rule("IM.OPTCBT.REDARMY").ok(rolls[0]["seq"], f"rout d6 {natural}: "
                                                        + ("it routs" if natural <= 2 else "the hit goes on")))
        self.red_hits = []
        return out

    @closer
    def on_PhaseStarted(self, line):
        return self._judge_red_hits(line["seq"])

    @closer
    def on_TurnStarted(self, line):
        return self._judge_red_hits(line["seq"])

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        if d.purpose == "IM.OPTCBT.REDARMY":
            return self._rout_roll(line, d)
        if d.purpose.startswith("IM.OPTCBT.PINREMOVAL") or d.purpose.startswith("IM.OPTCBT.HEROISM"):
            option = "IM.OPTCBT.HEROISM" if "HEROISM" in d.purpose else "IM.OPTCBT.PINREMOVAL"
            if not agreed(self.ctx.board.options, option):
                return [rule("IM.OPTCBT.AGREE").violation(line["seq"], f"a {option} roll, but the players did not agree "
                                                          "that optional rule")]
            if option == "IM.OPTCBT.HEROISM":
                return self._heroism(line, d)
        return []

    def _rout_roll(self, line, d) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(d.subject or "")
        if unit is not None and d.result <= 2 and agreed(self.ctx.board.options, "IM.OPTCBT.REDARMY"):
            self.outcome[unit.unit] = ("eliminated", line["seq"], f"routed on a {d.result} (1-2: removed from play)")
        return []

    # -- pin removal and heroism -----------------------------------------------------------------------------
    def _pin_roll(self, unit_id: str, before: int) -> Optional[dict[str, Any]]:
        unit = self.ctx.board.units.get(unit_id)
        stack = {unit_id, unit.location if unit else None} | \
            {u.unit for u in self.ctx.board.units_at(unit.location)} if unit and unit.location else {unit_id}
        rolls = [r for r in self.ctx.rolls("IM.OPTCBT.PINREMOVAL", after=self.ctx.phase_began(before), before=before)
                 if r["data"].get("subject") in stack]
        return rolls[-1] if rolls else None

    def _unpinned(self, line, unit_id: str) -> list[RuleApplication]:
        if not agreed(self.ctx.board.options, "IM.OPTCBT.PINREMOVAL"):
            return []
        roll_line = self._pin_roll(unit_id, line["seq"])
        if roll_line is None:
            return [rule("IM.OPTCBT.PINREMOVAL").missing_roll(
                line["seq"], f"{unit_id} is un-pinned without its pin-removal d6 (non-automatic removal is in use)")]
        result = self.ctx.typed(roll_line).result
        heroic = [r for r in self.ctx.rolls("IM.OPTCBT.HEROISM", after=roll_line["seq"], before=line["seq"])]
        if result == 6 and heroic:
            hero = self.ctx.typed(heroic[-1]).result
            return [rule("IM.OPTCBT.HEROISM").judge(line["seq"], hero != 4, f"heroism {hero} ({HEROISM.get(hero)}) "
                                                    "un-pins", "heroism 4 (retreat): the stack retreats two hexagons "
                                                    "and remains pinned", Verdict.MISMATCH, related=[heroic[-1]["seq"]])]
        return [rule("IM.OPTCBT.PINREMOVAL").judge(
            line["seq"], result <= 2, f"pin-removal d6 {result}: un-pinned",
            f"pin-removal d6 {result}: {'3-5' if result < 6 else '6'} leaves the units pinned", Verdict.MISMATCH,
            expected="pinned", recorded="unpinned", related=[roll_line["seq"]])]

    def _heroism(self, line, d) -> list[RuleApplication]:
        pin = [r for r in self.ctx.rolls("IM.OPTCBT.PINREMOVAL", after=self.ctx.phase_began(line["seq"]),
                                         before=line["seq"])
               if r["data"].get("subject") == d.subject or d.subject is None]
        out = []
        if not pin or self.ctx.typed(pin[-1]).result != 6:
            out.append(rule("IM.OPTCBT.HEROISM").violation(line["seq"], "the heroism table is rolled after a 6 on the "
                                                           "pin-removal roll", related=[p["seq"] for p in pin]))
        unit = self.ctx.board.units.get(d.subject or "")
        stack = [unit] if unit else [u for u in self.ctx.board.units.values() if u.location == d.subject and not u.eliminated]
        odd = [u.unit for u in stack if u.unit_class not in HEROIC]
        if odd:
            out.append(rule("IM.OPTCBT.HEROISM").violation(line["seq"], f"heroism is for infantry and cavalry platoons, "
                                                           f"not {', '.join(odd)}"))
        if d.result == 6 and stack:
            out += self._surrender(line, stack)
        if d.result == 5:
            for u in stack:
                self.panicked[u.unit] = line["seq"]
        return out

    def _surrender(self, line, stack) -> list[RuleApplication]:
        """"if an enemy unit (except an individual) is within five hexagons ... remove the latter" """
        view, loc = board_view(self.ctx), stack[0].location
        near = [u.unit for u in self.ctx.board.units.values() if loc and u.location and not u.eliminated
                and u.side != stack[0].side and u.unit_class not in INDIVIDUALS
                and distance(loc, u.location, view.placement) <= 5]
        for u in stack:
            self.outcome[u.unit] = ("eliminated", line["seq"], "surrender: an enemy is within five hexagons") if near \
                else ("unpinned", line["seq"], "rally: no enemy within five hexagons")
        return [rule("IM.OPTCBT.HEROISM").ok(line["seq"], "surrender: " + (f"{near[0]} is within five hexagons: the "
                                             "stack is destroyed" if near else "no enemy within five: it rallies"))]

    def on_SmallArmsFired(self, line):
        d = self.ctx.typed(line)
        panicked = [f for f in d.firers if f in self.panicked and self.ctx.board.units.get(f) is not None
                    and self._in_enemy_range(self.ctx.board.units[f])]
        return [rule("IM.OPTCBT.HEROISM").violation(line["seq"], f"{f} panicked (seq {self.panicked[f]}) and may not "
                                                    "fire while within small arms range of the enemy",
                                                    related=[self.panicked[f]]) for f in panicked]

    def _in_enemy_range(self, unit) -> bool:
        view = board_view(self.ctx)
        if unit.location is None:
            return False
        return any(u.side != unit.side and u.location and not u.eliminated and u.range
                   and distance(u.location, unit.location, view.placement) <= u.range
                   for u in self.ctx.board.units.values())

    def finish(self):
        return self._judge_red_hits(len(self.ctx.lines) + 1)


COVERAGE = {
    "IM.CORE.MORALE": ("implemented", "tests/unit/test_im_morale.py::test_a_hit_is_followed_by_a_morale_check_against_the_morale_value; "
                       "tests/unit/test_im_morale.py::test_a_pass_pins_and_a_failure_eliminates",
                       "after a small arms hit (barrage morale checks: IM.ART.EFF.*); the roll's die is the base game's"),
    "IM.OPTCBT.AGREE": ("implemented", "tests/unit/test_im_morale.py::test_optional_rules_need_the_players_agreement"),
    "IM.OPTCBT.REDARMY": ("implemented", "tests/unit/test_im_morale.py::test_a_red_army_hit_asks_for_the_rout_die; "
                          "tests/unit/test_im_morale.py::test_with_a_red_leader_the_unit_is_simply_pinned"),
    "IM.OPTCBT.PINREMOVAL": ("implemented", "tests/unit/test_im_morale.py::test_pin_removal_frees_on_one_or_two"),
    "IM.OPTCBT.HEROISM": ("partial", "tests/unit/test_im_morale.py::test_heroism_surrender_or_rally_by_the_nearest_enemy",
                          "after a 6, for platoons; retreat stays pinned, surrender or rally by the nearest enemy, no fire "
                          "while panicked; the charge's route and the morale levels of hardening are not judged"),
}
