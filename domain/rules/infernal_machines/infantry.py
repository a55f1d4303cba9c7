"""Judging infantry squads, infantry leaders and Sturmtruppen (IM.INF; Infantry squads (new),
Infantry leaders (new), Sturmtruppen (changed)).

Fire: a squad fires at 1 ("may not exceed 1 when firing"), 9 hexes with its light machine gun and
6 once it jammed (a d6 before each SACRT roll, `IM.INF.SQUAD.JAM`); a Sturmtruppen platoon fires at
the table of its distance; a leader gives -1 to the fire of the units stacked with it. These are
direct-fire terms (docs/rules/im-direct-fire.md). Morale: squads 4, Sturmtruppen 5, +1 stacked with
a leader; leaders never check morale, are immune to hits and die only alone in a hex the enemy's
infantry or cavalry occupies. Break-up: the four squads end each move within two hexes of a
sibling, and re-form unpinned in one hex at the start of a friendly foot movement phase.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.board.hexes import distance
from domain.board.state import UnitState
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.infantry_facts import JAM, infantry_facts
from domain.rules.infernal_machines.movement_costs import RULEBOOK
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.INF.SQUAD.STATS", "IM.INF.SQUAD.NOBONUS", "IM.INF.SQUAD.JAM", "IM.INF.LEADER.IMMUNE", "IM.INF.LEADER.CC",
    "IM.INF.LEADER.SAF", "IM.INF.LEADER.MORALE", "IM.INF.ST.ID", "IM.INF.ST.FP", "IM.INF.ST.EXTRA",
    "IM.INF.ST.MORALE", "IM.INF.ST.BREAKUP", "IM.INF.ST.CC_COUNT",
))
LEADER = "infantry-leader"
SQUAD = "infantry-squad"
OCCUPIERS = ("infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon")
FOOT_PHASES = ("first-foot-movement", "second-foot-movement")
LEADERLESS = UnitState("", None, "")   # stands for a unit the board does not hold
# Sturmtruppen firepower: distance -> (multiplier, addition) of the printed value, or a fixed 1
ST_TABLE = {0: (3, 0), 1: (3, 0), 2: (2, 0), 3: (1, 2), 4: (1, 1), 5: (1, 0), 6: (1, -1), 7: (1, -2)}

SQUAD_POWERS = declare(Interpretation(
    "IM.INF.ST.SQUAD.FP", ("IM.INF.ST.BREAKUP", "IM.INF.SQUAD.STATS"),
    "A Sturmtruppen squad 'behave[s] as ordinary squads' (firepower 1, which 'may not exceed 1 when firing') "
    "and has 'all the powers of the Sturmtruppen platoons ... (triple the firepower at 0-1 hex., etc.)': "
    "which firepower does it fire at? (AP-15)",
    {"sturm-powers": "the Sturmtruppen table applied to its printed 1 (3 adjacent)",
     "squad-cap": "1, the squads' cap"}, default=None))
SQUAD_MORALE = declare(Interpretation(
    "IM.INF.ST.SQUAD.MORALE", ("IM.INF.ST.BREAKUP", "IM.INF.ST.MORALE"),
    "A Sturmtruppen squad: 'Squads have a standard morale value of 4' against 'the morale value of a Sturmtruppen "
    "unit is always 5' and 'all the powers of the Sturmtruppen platoons'",
    {"sturm-powers": "5: the specific Sturmtruppen rule prevails (the catalogue's reading)",
     "squad-standard": "4, the squads' standard value"}, default="sturm-powers"))
JAM_NEAR = declare(Interpretation(
    "IM.INF.SQUAD.JAM.NEAR", ("IM.INF.SQUAD.JAM",),
    "'Before rolling the die on the SACRT, roll a six-sided die. On a result of 1, the inherent machine gun "
    "jams': is the jam roll made when the target is within six hexes (where the machine gun adds nothing)?",
    {"every-attack": "read literally: before every SACRT roll of a squad", "beyond-six": "only at 7 to 9 hexes"},
    default=None))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def sturm(unit: Optional[UnitState]) -> bool:
    return unit is not None and bool(unit.attrs.get("sturmtruppen"))


def sturm_firepower(printed: float, hexes: int) -> Optional[float]:
    """Sturmtruppen firepower at a distance: x3 at 0-1, x2 at 2, +2 at 3, +1 at 4, printed at 5, -1 at 6,
    -2 at 7, 1 at 8 and 9; None beyond 9 (the table stops there)."""
    if hexes in (8, 9):
        return 1.0
    if hexes not in ST_TABLE:
        return None
    times, plus = ST_TABLE[hexes]
    return printed * times + plus


def morale_of(ctx, unit: UnitState) -> tuple[Optional[int], str, str]:
    """The morale value a unit checks with (whichever module judges the check): Sturmtruppen 5 (barbed
    wire in the hex may lower it: by how much the text does not say), squads 4, else printed; +1 stacked
    with a leader. None when it is not known."""
    view = board_view(ctx)
    if "prone" in unit.status:
        return None, "", ""   # prone: +1 by the optional rule (IM.OPTMOVE.PRONE.EFFECTS)
    if sturm(unit) and not (unit.unit_class == SQUAD and
                            ctx.interpretations.reading(SQUAD_MORALE.name) == "squad-standard"):
        if unit.location and view.wire(unit.location):
            return None, "", ""
        base, rule_id, why = 5, "IM.INF.ST.MORALE", "Sturmtruppen: always 5"
    elif unit.unit_class == SQUAD:
        base, rule_id, why = 4, "IM.INF.SQUAD.STATS", "squads: 4"
    elif unit.morale is not None:
        base, rule_id, why = unit.morale, "IM.INF.LEADER.MORALE", "printed"
    else:
        return None, "", ""
    if stacked_leader(ctx.board, unit) is not None:
        return base + 1, "IM.INF.LEADER.MORALE", why + ", +1 stacked with an infantry leader"
    return base, rule_id, why


def stacked_leader(board, unit: UnitState) -> Optional[UnitState]:
    """A friendly infantry leader in the unit's hex."""
    if unit.location is None:
        return None
    return next((u for u in board.units_at(unit.location, side=unit.side)
                 if u.unit_class == LEADER and u.unit != unit.unit), None)


# -- direct-fire terms ---------------------------------------------------------------------------
def infantry_terms(shot, ctx) -> list:
    """The firepower, range and die terms of squads, Sturmtruppen and leaders for one shot."""
    from domain.rules.infernal_machines.direct_fire import Term
    if shot.kind != "small-arms":
        return []
    board, facts, out = ctx.board, infantry_facts(ctx), []
    for firer in shot.firers:
        unit = board.units.get(firer)
        if unit is None:
            continue
        hexes = shot.hexes(firer)
        if unit.unit_class == SQUAD:
            out.extend(_squad_terms(Term, ctx, unit, hexes, facts))
        elif sturm(unit) and unit.unit_class == "infantry-platoon" and unit.firepower is not None and hexes is not None:
            value = sturm_firepower(float(unit.firepower), hexes)
            if value is not None:
                out.append(Term("IM.INF.ST.FP", value if value > 0 else None,
                                f"Sturmtruppen firepower at {hexes} hexes", kind="firepower-set", unit=firer))
    origins = {loc for loc in shot.origins.values()}
    units = [board.units.get(f) for f in shot.firers]
    if len(origins) == 1 and all(units) and stacked_leader(board, units[0]) is not None:
        out.append(Term("IM.INF.LEADER.SAF", -1, "fire by units stacked with an infantry leader"))
    return out


def _squad_terms(Term, ctx, unit: UnitState, hexes: Optional[int], facts) -> list:
    jammed = facts.jam_of(unit) is not None
    out = [Term("IM.INF.SQUAD.JAM" if jammed else "IM.INF.SQUAD.STATS", 6 if jammed else 9,
                "a squad's rifles (its machine gun jammed)" if jammed else "a squad's inherent light machine gun",
                kind="range", unit=unit.unit)]
    value: Optional[float] = 1.0
    rule_id = "IM.INF.SQUAD.STATS"
    if sturm(unit) and hexes is not None:
        reading = ctx.interpretations.reading(SQUAD_POWERS.name)
        powered = sturm_firepower(1.0, hexes)
        if reading == "sturm-powers":
            value, rule_id = powered, "IM.INF.ST.FP"
        elif reading is None and powered != 1.0:
            value, rule_id = None, "IM.INF.ST.BREAKUP"   # the readings disagree: judged ambiguous by the module
    out.append(Term(rule_id, value if value is None or value > 0 else None, "a squad's firepower",
                    kind="firepower-set", unit=unit.unit))
    return out


DIRECT_FIRE_TERMS = (infantry_terms,)


class InfantryChecks(RuleModule):
    """Squads, leaders and Sturmtruppen: their fire, morale, close combat, break-up."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = infantry_facts(ctx)
        self.fired: dict[str, dict[str, Any]] = {}   # attack -> its SmallArmsFired line
        self.moves: list[tuple[int, str]] = []       # (seq, squad) of broken-up squads' moves this phase
        self.phase_start = 0
        self.leaders: set[str] = set()               # the infantry leaders deployed

    # -- set-up ---------------------------------------------------------------------------------
    def on_UnitDeployed(self, line):
        d = self.ctx.typed(line)
        if d.class_ == LEADER:
            self.leaders.add(d.unit)
        if not d.attrs.get("sturmtruppen"):
            return []
        return [rule("IM.INF.ST.ID").judge(
            line["seq"], d.class_ in ("infantry-platoon", SQUAD), f"{d.unit}: Sturmtruppen infantry",
            f"Sturmtruppen are ordinary infantry platoons (or their squads), not a {d.class_}", recorded=d.class_)]

    # -- fire -----------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        self.fired[d.attack] = line
        view, out = board_view(self.ctx), []
        for firer in d.firers:
            unit = board.units.get(firer)
            if unit is None or unit.location is None:
                continue
            hexes = distance(unit.location, d.target, view.placement)
            out.extend(self._sturm_fire(seq, unit, hexes, d))
            if unit.unit_class == LEADER:
                out.append(rule("IM.INF.LEADER.IMMUNE").violation(
                    seq, f"{firer} is an infantry leader: it has no firepower value or firing range of its own"))
        return out

    def _sturm_fire(self, seq: int, unit: UnitState, hexes: int, fired) -> list[RuleApplication]:
        if not sturm(unit):
            return []
        out = []
        if hexes > 9:
            out.append(rule("IM.INF.ST.FP").ambiguous(
                seq, f"{unit.unit} fires at {hexes} hexes: the Sturmtruppen table stops at 9 (presumably the "
                f"inherent machine gun's range)", recorded=hexes))
        elif unit.unit_class == SQUAD and self.ctx.interpretations.reading(SQUAD_POWERS.name) is None \
                and sturm_firepower(1.0, hexes) != 1.0:
            out.append(rule("IM.INF.ST.BREAKUP").ambiguous(
                seq, f"Sturmtruppen squad {unit.unit} fires at {hexes} hexes: {SQUAD_POWERS.describe()}",
                interpretation=self.ctx.interpretations.label(SQUAD_POWERS.name)))
        elif unit.unit_class != SQUAD and unit.firepower is not None and (sturm_firepower(float(unit.firepower), hexes) or 0) <= 0:
            out.append(rule("IM.INF.ST.FP").ambiguous(
                seq, f"{unit.unit} (printed {unit.firepower:g}) at {hexes} hexes: the table gives no more than 0 "
                f"and states no floor", recorded=hexes))
        mortars = [w for w in (getattr(fired, "weapons", None) or []) if "mortar" in str(w)]
        if len(mortars) > 1:
            out.append(rule("IM.INF.ST.EXTRA").violation(
                seq, f"one 76 mm light mortar may be assigned to a Sturmtruppen platoon; {unit.unit}'s fire names "
                f"{len(mortars)}", recorded=mortars))
        return out

    def on_SmallArmsResolved(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        out = []
        for result in d.results:
            unit = board.units.get(result.unit)
            if unit is not None and unit.unit_class == LEADER:
                out.append(rule("IM.INF.LEADER.IMMUNE").judge(
                    seq, result.result == "no-effect", f"{unit.unit} is immune to hits",
                    f"infantry leader {unit.unit} is immune to hits on the SACRT; the log records {result.result}",
                    recorded=result.result))
        fired = self.fired.get(d.attack)
        if fired is not None:
            out.extend(self._jams(line, fired))
        return out

    def _jams(self, line, fired) -> list[RuleApplication]:
        """Before each SACRT roll of a squad, a d6: on 1 the machine gun jams, and from then on only
        targets within six hexes may be attacked (EC-31: the attack at 7-9 is not made)."""
        shot, seq, out, board = self.ctx.typed(fired), line["seq"], [], self.ctx.board
        if not any((board.units.get(f) or LEADERLESS).unit_class == SQUAD for f in shot.firers):
            return []
        view = board_view(self.ctx)
        sacrt = self.ctx.rolls("LS.SACRT", after=fired["seq"], before=seq)
        for firer in shot.firers:
            unit = board.units.get(firer)
            if unit is None or unit.unit_class != SQUAD or unit.location is None:
                continue
            jam = self.facts.jam_of(unit)
            if jam is not None and jam < fired["seq"]:
                continue   # jammed before: its range is judged with the shot (the range term)
            hexes = distance(unit.location, shot.target, view.placement)
            rolls = [r for r in self.ctx.rolls(JAM, after=fired["seq"], before=seq)
                     if r["data"].get("subject") in (firer, shot.attack)]
            out.extend(self._jam_roll(seq, firer, hexes, rolls, sacrt, line))
        return out

    def _jam_roll(self, seq, firer, hexes, rolls, sacrt, line) -> list[RuleApplication]:
        if not rolls:
            if hexes > 6:
                return [rule("IM.INF.SQUAD.JAM").missing_roll(
                    seq, f"squad {firer} fires at {hexes} hexes without its jam roll (d6, {JAM}) before the SACRT")]
            reading = self.ctx.interpretations.reading(JAM_NEAR.name)
            label = self.ctx.interpretations.label(JAM_NEAR.name)
            if reading is None:
                return [rule("IM.INF.SQUAD.JAM").ambiguous(
                    seq, f"squad {firer} fires at {hexes} hexes with no jam roll. {JAM_NEAR.describe()}",
                    interpretation=label)]
            return [rule("IM.INF.SQUAD.JAM").judge(
                seq, reading == "beyond-six", "no jam roll within six hexes",
                f"squad {firer}: a jam roll before every SACRT roll", Verdict.MISSING_ROLL, interpretation=label)]
        jammed = rolls[-1]["data"].get("result") == 1
        if not jammed or hexes <= 6:
            return [rule("IM.INF.SQUAD.JAM").ok(seq, f"jam roll {rolls[-1]['data'].get('result')}",
                                                related=[rolls[-1]["seq"]])]
        results = self.ctx.typed(line).results
        made = bool(sacrt) or any(r.result != "no-effect" for r in results)
        return [rule("IM.INF.SQUAD.JAM").judge(
            seq, not made, f"{firer}'s machine gun jammed: the attack at {hexes} hexes is not made",
            f"{firer}'s machine gun jammed (roll 1): only targets within six hexes may be attacked, this one is "
            f"{hexes} away", related=[rolls[-1]["seq"]])]

    # -- morale ---------------------------------------------------------------------------------
    def on_MoraleChecked(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        units = [board.units[u] for u in d.units if u in board.units]
        out = [rule("IM.INF.LEADER.IMMUNE").violation(seq, f"infantry leader {u.unit} never takes a morale check")
               for u in units if u.unit_class == LEADER]
        values = {self._morale(u) for u in units if u.unit_class != LEADER}
        if d.morale is None or len(values) != 1:
            return out
        (expected, rule_id, why), = values
        if expected is None:
            return out
        return out + [rule(rule_id).judge(seq, d.morale == expected, f"morale {expected} ({why})",
                                          f"the morale value is {expected} ({why}), the check used {d.morale}",
                                          Verdict.MISMATCH, expected=expected, recorded=d.morale)]

    def _morale(self, unit: UnitState) -> tuple[Optional[int], str, str]:
        return morale_of(self.ctx, unit)

    # -- leaders --------------------------------------------------------------------------------
    def on_UnitStatusChanged(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        unit = board.units.get(d.unit)
        if unit is None or unit.unit_class != LEADER or d.status not in ("pinned", "eliminated", "retreated"):
            return []
        if d.status != "eliminated":
            return [rule("IM.INF.LEADER.IMMUNE").violation(
                seq, f"infantry leader {unit.unit} is immune to hits and never takes a morale check: it is not "
                f"{d.status}", recorded=d.status)]
        alone = not [u for u in board.units_at(unit.location or "", side=unit.side) if u.unit != unit.unit]
        enemy = [u.unit for u in board.units_at(unit.location or "") if u.side != unit.side
                 and u.unit_class in OCCUPIERS]
        return [rule("IM.INF.LEADER.IMMUNE").judge(
            seq, alone and bool(enemy), f"{unit.unit} alone in {unit.location} with the enemy's {', '.join(enemy)}",
            f"infantry leader {unit.unit} may be eliminated only alone in a hex enemy infantry or cavalry occupies "
            f"({'not alone' if not alone else 'no enemy infantry or cavalry there'})")]

    # -- break-up -------------------------------------------------------------------------------
    def on_PlatoonBrokenUp(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        platoon = board.units.get(d.platoon)
        why = []
        if platoon is None or not sturm(platoon) or platoon.unit_class != "infantry-platoon":
            why.append(f"{d.platoon} is not a Sturmtruppen infantry platoon")
        if platoon is not None and platoon.location is None:
            why.append(f"{d.platoon} is not on the board")
        if len(d.squads) != 4:
            why.append(f"a platoon breaks up into four squads, not {len(d.squads)}")
        return [rule("IM.INF.ST.BREAKUP").judge(seq, not why, f"{d.platoon} breaks up into four squads",
                                                "; ".join(why))]

    def on_PlatoonReformed(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        squads = [board.units[q] for q in d.squads if q in board.units]
        view, why = board_view(self.ctx), []
        if len(squads) != 4 or any(q.attrs.get("platoon") != d.platoon for q in squads):
            why.append(f"the four squads of {d.platoon} re-form it")
        if len({q.location for q in squads}) != 1:
            why.append("the squads are not in the same hex")
        if any(view.pinned(q) for q in squads):
            why.append("a squad is pinned")
        start = line["phase"] in FOOT_PHASES and line.get("side") in (None, board.active) and not [
            m for m in self.ctx.of_type("UnitMoved", after=self.phase_start, before=seq)]
        if not start:
            why.append("re-forming is at the start of the friendly foot movement phase")
        return [rule("IM.INF.ST.BREAKUP").judge(seq, not why, f"{d.platoon} re-formed", "; ".join(why))]

    def after_UnitMoved(self, line):
        unit = self.ctx.board.units.get(self.ctx.typed(line).unit)
        if unit is not None and unit.attrs.get("platoon") and line["phase"] in FOOT_PHASES:
            self.moves.append((line["seq"], unit.unit))
        return []

    def on_PhaseStarted(self, line):
        out = self._siblings() + self._lone_leaders(line)
        self.moves, self.phase_start = [], line["seq"]
        return out

    def finish(self):
        return self._siblings()

    def _siblings(self) -> list[RuleApplication]:
        """Each broken-up squad "must always end [its] movement within a maximum distance of two
        hexagons of another Sturmtruppen squad belonging to the same platoon" (judged at its last move
        of the phase)."""
        if not self.moves:
            return []   # no platoon's squad moved this phase (most phases): nothing to measure
        board, view, out = self.ctx.board, board_view(self.ctx), []
        last = {unit: seq for seq, unit in self.moves}
        for unit_id, seq in last.items():
            unit = board.units[unit_id]
            siblings = [u for u in board.units.values() if u.unit != unit_id and u.location and not u.eliminated
                        and u.attrs.get("platoon") == unit.attrs.get("platoon") and u.unit_class == SQUAD]
            if not siblings or unit.location is None:
                continue
            near = min(distance(unit.location, u.location, view.placement) for u in siblings)
            out.append(rule("IM.INF.ST.BREAKUP").judge(
                seq, near <= 2, f"{unit_id} ends {near} hex(es) from a squad of its platoon",
                f"{unit_id} ends its movement {near} hexes from the nearest squad of its platoon (at most 2)",
                expected=2, recorded=near))
        return out

    def _lone_leaders(self, line) -> list[RuleApplication]:
        """A leader alone in a hex the enemy's infantry or cavalry occupied must be eliminated by the end
        of the phase."""
        board, out = self.ctx.board, []
        for unit in (board.units[u] for u in self.leaders if u in board.units):
            if unit.eliminated or unit.location is None:
                continue
            here = board.units_at(unit.location)
            if any(u.side == unit.side and u.unit != unit.unit for u in here):
                continue
            enemy = [u.unit for u in here if u.side != unit.side and u.unit_class in OCCUPIERS]
            if enemy:
                out.append(rule("IM.INF.LEADER.IMMUNE").violation(
                    line["seq"], f"infantry leader {unit.unit} is alone in {unit.location} with the enemy's "
                    f"{', '.join(enemy)} and is not eliminated", related=[unit.last_seq]))
        return out

    # -- close combat ---------------------------------------------------------------------------
    def on_CloseCombatFought(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        attackers = [board.units[u] for u in d.attackers if u in board.units]
        defenders = [board.units[u] for u in d.defenders if u in board.units]
        out = []
        if "shifts" in d.model_fields_set:
            out.extend(self._leader_shift(seq, d, attackers, defenders))
        strength = getattr(d, "strength", None)
        if isinstance(strength, dict):
            for side, units in (("attackers", attackers), ("defenders", defenders)):
                out.extend(self._platoons(seq, side, units, strength.get(side)))
        return out

    def _leader_shift(self, seq, d, attackers, defenders) -> list[RuleApplication]:
        """"infantry leaders provide a one-column shift on the CACRT in favour of the side that possesses
        one in the hexagon": +1 with the attackers' leader, -1 with the defenders'."""
        board = self.ctx.board
        def has_leader(units: list[UnitState]) -> bool:
            return any(u.unit_class == LEADER for u in units) or any(
                stacked_leader(board, u) is not None for u in units)
        expected = int(has_leader(attackers)) - int(has_leader(defenders))
        recorded = sum(float(s.get("value", 0)) for s in d.shifts if isinstance(s, dict)
                       and "leader" in str(s.get("why", "")).lower())
        if expected == 0 and recorded == 0:
            return []
        return [rule("IM.INF.LEADER.CC").judge(
            seq, recorded == expected, f"leaders' column shift {expected:+d}",
            f"the leaders give a column shift of {expected:+d} on the CACRT; the log records {recorded:+g}",
            Verdict.MISMATCH, expected=expected, recorded=recorded)]

    def _platoons(self, seq, side, units, recorded) -> list[RuleApplication]:
        """"Count three Sturmtruppen squads as one platoon for the purposes of close combat"."""
        squads = [u for u in units if u.unit_class == SQUAD and sturm(u)]
        if not squads or recorded is None or any(u.unit_class not in ("infantry-platoon", SQUAD) or
                                                 (u.unit_class == SQUAD and not sturm(u)) for u in units):
            return []
        expected = len(units) - len(squads) + len(squads) / 3
        return [rule("IM.INF.ST.CC_COUNT").judge(
            seq, abs(float(recorded) - expected) < 1e-6, f"{side}: {expected:g} platoons",
            f"{side}: three Sturmtruppen squads count as one platoon: {expected:g}, not {recorded}",
            Verdict.MISMATCH, expected=expected, recorded=recorded)]

    def on_CloseCombatResolved(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        out = []
        for result in d.results:
            unit = board.units.get(result.unit)
            if unit is None or unit.unit_class != LEADER or result.result not in ("eliminated", "captured"):
                continue
            friends = [u for u in board.units_at(unit.location or "", side=unit.side) if u.unit != unit.unit]
            out.append(rule("IM.INF.LEADER.CC").judge(
                seq, not friends, f"{unit.unit} was alone", f"infantry leader {unit.unit} may not be eliminated to "
                f"satisfy a CACRT result ({', '.join(u.unit for u in friends)} with it)"))
        return out


T = "tests/unit/test_im_infantry.py::"
COVERAGE: dict[str, Any] = {
    "IM.INF.SQUAD.STATS": ("implemented", T + "test_a_squad_fires_at_one_and_never_more; "
                           + T + "test_ec_47_morale_values_of_sturmtruppen_squads_and_leaders",
                           "fires at 1 (a firepower-set term), reaches 9 hexes, checks morale at 4"),
    "IM.INF.SQUAD.NOBONUS": ("implemented", T + "test_a_squad_fires_at_one_and_never_more",
                             "a squad's firepower is set to 1, so no machine gun bonus can be added"),
    "IM.INF.SQUAD.JAM": ("ambiguous", T + "test_ec_31_the_jammed_machine_gun_limits_the_squad_to_six_hexes; "
                         + T + "test_the_jam_roll_comes_before_a_shot_beyond_six_and_is_a_reading_within",
                         "the jam roll within six hexes is IM.INF.SQUAD.JAM.NEAR; a jam at 7-9 cancels the attack"),
    "IM.INF.LEADER.IMMUNE": ("implemented", T + "test_leaders_never_check_morale_and_are_immune_to_hits; "
                             + T + "test_a_leader_dies_only_alone_in_a_hex_the_enemy_occupies",
                             "no fire, no morale check, no hit result or pin on the SACRT; eliminated only alone "
                             "with enemy infantry or cavalry in its hex, and then by the end of the phase"),
    "IM.INF.LEADER.CC": ("implemented", T + "test_close_combat_leaders_shift_one_column_and_three_squads_count_as_a_platoon",
                         "the leaders' column shifts recorded on CloseCombatFought (+1 attacker, -1 defender) and no "
                         "leader lost to a CACRT result while friends are with it; the CACRT is LS.CACRT"),
    "IM.INF.LEADER.SAF": ("implemented", T + "test_a_leader_gives_minus_one_to_fire_from_its_hex_only"),
    "IM.INF.LEADER.MORALE": ("implemented", T + "test_ec_47_morale_values_of_sturmtruppen_squads_and_leaders"),
    "IM.INF.ST.ID": ("implemented", T + "test_sturmtruppen_are_infantry_platoons_designated_by_the_scenario",
                     "UnitDeployed.attrs sturmtruppen on an infantry platoon (or its squads)"),
    "IM.INF.ST.FP": ("ambiguous", T + "test_ex_im_20_sturmtruppen_firepower_by_distance",
                     "the table as a firepower-set term; beyond 9 hexes and values of 0 or less are ambiguous"),
    "IM.INF.ST.EXTRA": ("partial", T + "test_ex_im_20_sturmtruppen_firepower_by_distance",
                        "grenade launchers and light mortars add under their own rules (IM.SW terms); a shot naming "
                        "two light mortars for one platoon is a violation; the battalion's allotment is the scenario's"),
    "IM.INF.ST.MORALE": ("partial", T + "test_ec_47_morale_values_of_sturmtruppen_squads_and_leaders",
                         "always 5 (+1 with a leader); with barbed wire in the hex the value is not judged: the text "
                         "does not say by how much the wire reduces it"),
    "IM.INF.ST.BREAKUP": ("ambiguous", T + "test_ec_47_broken_up_squads_stay_within_two_hexes_of_a_sibling; "
                          + T + "test_ec_47_re_forming_needs_four_unpinned_squads_in_one_hex_at_the_start_of_a_foot_phase; "
                          + T + "test_ap_15_a_sturmtruppen_squad_adjacent_fires_at_three_or_one",
                          "PlatoonBrokenUp / PlatoonReformed; the squads' firepower is IM.INF.ST.SQUAD.FP (AP-15), "
                          "their morale IM.INF.ST.SQUAD.MORALE; the scenario's number of break-ups is not in the log"),
    "IM.INF.ST.CC_COUNT": ("needs a chart", T + "test_close_combat_leaders_shift_one_column_and_three_squads_count_as_a_platoon",
                           "the platoons a close combat counts (CloseCombatFought.strength) are judged; the odds and "
                           "the CACRT are the base game's"),
}
