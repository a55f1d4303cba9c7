"""Judging the infantry's equipment: bulletproof vests, smocks and skis (IM.INF.VEST, IM.INF.SMOCK.*,
IM.INF.SKI; Additional Equipment for Infantry (new), Skis).

Vests: +1 on the SACRT against fire from five or more hexes (exactly five: AP-01), as a direct-fire
term; their +1 on the BCRT is judged with the barrage (IM.ART.FP.TERRAIN). Smocks: smock troops more
than five hexes from the enemy are never spotted; a forward observer or leader spots them on a d6
(`IM.INF.SMOCK.SPOT`: 1 at 4-5 hexes, 1-2 at 2-3, 1-3 adjacent; other infantry and cavalry only
adjacent, on 1); fire at them needs such a spot, or their own fire within five hexes that revealed
them, and is area fire (+3 at 4-5, +2 at 2-3, no other terrain modifier); unseen, they close in
with -2 on the CACRT. Skis: no small arms fire on skis, skis on and off at the start of a friendly
foot movement phase when not pinned, and off when pinned by fire.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.board.hexes import distance
from domain.board.state import UnitState
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.infantry_facts import ORDINARY, SPOTTERS, infantry_facts, nearest_enemy, smocks
from domain.rules.infernal_machines.movement_costs import RULEBOOK
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.INF.VEST", "IM.INF.SMOCK.SPOT", "IM.INF.SMOCK.AREA", "IM.INF.SMOCK.REVEAL", "IM.INF.SMOCK.SURPRISE",
    "IM.INF.SKI",
), "equipment")
SMOCK_ROLL = "IM.INF.SMOCK.SPOT"
SKI_USERS = ("forward-observer", "infantry-leader", "infantry-platoon", "mg-platoon")
FOOT_PHASES = ("first-foot-movement", "second-foot-movement")

VEST_FIVE = declare(Interpretation(
    "IM.INF.VEST.FIVE", ("IM.INF.VEST",),
    "Bulletproof vest: +1 'in the case of enemy small arms fire directed from a distance of five or more "
    "hexagons', but 'If a unit equipped with a bulletproof vest is located within five hexagons, it may claim no "
    "modifier': what of fire from exactly five hexes? (AP-01)",
    {"five-or-more": "+1 at five hexes", "within-five": "no modifier at five hexes"}, default=None))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def smock_number(spotter: UnitState, hexes: int) -> Optional[int]:
    """The d6 number a spotter sees smock troops on at `hexes` (None: it may not try)."""
    if spotter.unit_class in SPOTTERS:
        return {1: 3, 2: 2, 3: 2, 4: 1, 5: 1}.get(hexes)
    return 1 if hexes == 1 and spotter.unit_class in ORDINARY else None


def defenders(board, shot) -> list[UnitState]:
    return [u for u in board.units_at(shot.target) if u.side and u.side != shot.side]


# -- direct-fire terms ---------------------------------------------------------------------------
def equipment_terms(shot, ctx) -> list:
    """The vest's +1 from five or more hexes; the smocks' area fire (+3 / +2, no other terrain modifier)."""
    from domain.rules.infernal_machines.direct_fire import Term
    if shot.kind != "small-arms":
        return []
    board, out = ctx.board, []
    targets = defenders(board, shot)
    near = min((r for r in shot.ranges.values() if r is not None), default=None)
    airborne = any(c == "aircraft" for c in shot.classes.values())
    if targets and all(u.attrs.get("vest") for u in targets) and (near is not None or airborne):
        reading = ctx.interpretations.reading(VEST_FIVE.name)
        if airborne or near >= 6 or (near == 5 and reading == "five-or-more"):
            out.append(Term("IM.INF.VEST", 1, "bulletproof vest against fire from five or more hexes"))
    facts = infantry_facts(ctx)
    hidden = [u for u in targets if smocks(u) and u.unit not in facts.revealed]
    if targets and len(hidden) == len(targets) and near is not None and near >= 2:
        value = 3 if near >= 4 else 2
        out.append(Term("IM.INF.SMOCK.AREA", value, f"area fire at smock troops {near} hexes away", tag="terrain",
                        exclusive=True))
    return out


DIRECT_FIRE_TERMS = (equipment_terms,)


class EquipmentChecks(RuleModule):
    """Vests at exactly five hexes, smocks' spotting, reveal and surprise, skis."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = infantry_facts(ctx)
        self.moved: dict[str, int] = {}                 # unit -> the seq of its last move
        self.unskied: list[tuple[str, int]] = []        # (unit, seq) pinned on skis, skis still on
        self.combats: dict[str, tuple[int, bool]] = {}  # combat -> (seq, a smock surprise)
        self.last_spot = 0

    # -- vests ----------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        d, seq, board, out = self.ctx.typed(line), line["seq"], self.ctx.board, []
        firers = [board.units[f] for f in d.firers if f in board.units]
        for unit in firers:
            if self.facts.on_skis(unit):
                out.append(rule("IM.INF.SKI").violation(seq, f"{unit.unit} is on skis and may not fire small arms"))
        targets = [u for u in board.units_at(d.target) if u.side and u.side != line.get("side")]
        vested = bool(targets) and all(u.attrs.get("vest") for u in targets)
        view = board_view(self.ctx) if vested else None
        near = min((distance(u.location, d.target, view.placement) for u in firers if u.location),
                   default=None) if view else None
        if vested and near == 5 and self.ctx.interpretations.reading(VEST_FIVE.name) is None:
            out.append(rule("IM.INF.VEST").ambiguous(seq, f"fire at vested units from exactly five hexes. "
                                                     f"{VEST_FIVE.describe()}"))
        out.extend(self._smock_target(line, targets))
        return out

    # -- smocks ---------------------------------------------------------------------------------
    def _smock_target(self, line, targets: list[UnitState]) -> list[RuleApplication]:
        hidden = [u for u in targets if smocks(u)]
        if not targets or len(hidden) != len(targets):
            return []
        seq, turn = line["seq"], line["turn"]
        revealed = [u.unit for u in hidden if u.unit in self.facts.revealed]
        if revealed:
            return [rule("IM.INF.SMOCK.REVEAL").ok(seq, f"{', '.join(revealed)} revealed by their own fire: "
                                                   f"normal small arms fire")]
        seen = [u.unit for u in hidden if self.facts.seen(u, turn)]
        return [rule("IM.INF.SMOCK.SPOT").judge(
            seq, bool(seen), "smock troops spotted by a forward observer or leader: area fire",
            f"smock troops ({', '.join(u.unit for u in hidden)}) are spotted only by a forward observer or infantry "
            f"leader (or, adjacent, on a 1): none spotted them this turn")]

    def on_Spotted(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        spotter = board.units.get(d.spotter)
        since, self.last_spot = self.last_spot, seq
        if spotter is None or spotter.location is None:
            return []
        hidden = [u for u in board.units_at(d.target) if smocks(u) and u.side != spotter.side
                  and u.unit not in self.facts.revealed]
        if not hidden:
            return []
        view = board_view(self.ctx)
        hexes = distance(spotter.location, d.target, view.placement)
        far = min(nearest_enemy(board, u, view) or 99 for u in hidden)
        if hexes > 5 or far > 5:
            return [rule("IM.INF.SMOCK.SPOT").violation(
                seq, f"smock troops more than five hexes from enemy troops may be neither spotted nor observed "
                f"({hexes} hexes from {spotter.unit})", recorded=hexes)]
        number = smock_number(spotter, hexes)
        if number is None:
            return [rule("IM.INF.SMOCK.SPOT").violation(
                seq, f"a {spotter.unit_class} may not spot smock troops {hexes} hexes away: a forward observer or "
                f"infantry leader is required (other infantry and cavalry only adjacent)")]
        about = {spotter.unit, d.target, *(u.unit for u in hidden)}
        rolls = [r for r in self.ctx.rolls(SMOCK_ROLL, after=since, before=seq) if r["data"].get("subject") in about]
        if not rolls:
            return [rule("IM.INF.SMOCK.SPOT").missing_roll(
                seq, f"{spotter.unit}'s spot of smock troops at {hexes} hexes has no d6 ({SMOCK_ROLL}) before it")]
        result = self.ctx.typed(rolls[-1]).result
        expected = result <= number
        return [rule("IM.INF.SMOCK.SPOT").judge(
            seq, expected == d.spotted, f"d6 {result} against 1-{number}: spotted={expected}",
            f"d6 {result} against 1-{number} at {hexes} hexes gives spotted={expected}", Verdict.MISMATCH,
            expected=expected, recorded=d.spotted, related=[rolls[-1]["seq"]])]

    def on_CloseCombatFought(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        attackers = [board.units[u] for u in d.attackers if u in board.units]
        surprise = bool(attackers) and all(smocks(u) and not self.facts.seen(u, line["turn"]) for u in attackers)
        self.combats[d.combat] = (line["seq"], surprise)
        return []

    def on_CloseCombatResolved(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        found = self.combats.get(d.combat)
        if found is None:
            return []
        since, surprise = found
        rolls = [r for r in self.ctx.rolls("LS.CACRT", after=since, before=seq) if r["data"].get("subject") == d.combat]
        if not rolls:
            return []
        values = [m.value for m in self.ctx.typed(rolls[-1]).modifiers]
        if surprise:
            return [rule("IM.INF.SMOCK.SURPRISE").judge(
                seq, -2 in values, "smock troops' surprise: -2 on the CACRT",
                f"unspotted smock troops close in with complete surprise: -2 on their CACRT roll (modifiers {values})",
                Verdict.MISMATCH, expected=-2, recorded=values, related=[rolls[-1]["seq"]])]
        return []

    # -- skis -----------------------------------------------------------------------------------
    def after_UnitMoved(self, line):
        self.moved[self.ctx.typed(line).unit] = line["seq"]
        return []

    def on_MarkerPlaced(self, line):
        return self._skis(line, on=True)

    def on_MarkerRemoved(self, line):
        d = self.ctx.typed(line)
        if d.marker == "skis" and d.unit:
            self.unskied = [(u, s) for u, s in self.unskied if u != d.unit]
        return self._skis(line, on=False)

    def _skis(self, line, on: bool) -> list[RuleApplication]:
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        unit = board.units.get(d.unit or "")
        if d.marker != "skis" or unit is None:
            return []
        why = []
        if on and unit.unit_class not in SKI_USERS:
            why.append(f"a {unit.unit_class} may not use skis (FOs, leaders, infantry and MG platoons only)")
        pinned_off = not on and any(u == unit.unit for u, _ in self.unskied)
        if not pinned_off:
            if line["phase"] not in FOOT_PHASES or self.moved.get(unit.unit, 0) > self.ctx.phase_began(seq):
                why.append("skis go on or off at the start of a friendly foot movement phase")
            if board_view(self.ctx).pinned(unit):
                why.append(f"{unit.unit} is pinned")
        return [rule("IM.INF.SKI").judge(seq, not why, f"skis {'on' if on else 'off'}", "; ".join(why))]

    def on_UnitStatusChanged(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        unit = board.units.get(d.unit)
        if unit is not None and d.status == "pinned" and self.facts.on_skis(unit) and \
                any(m.get("unit") == unit.unit and m.get("marker") == "skis" for m in board.markers):
            self.unskied.append((unit.unit, line["seq"]))
        return []

    def on_TurnStarted(self, line):
        return self._still_on_skis()

    def finish(self):
        return self._still_on_skis()

    def _still_on_skis(self) -> list[RuleApplication]:
        """"When units on skis are the target of fire and are hit, if they are pinned they must remove their
        ski counter" (by the end of that turn)."""
        out = [rule("IM.INF.SKI").violation(seq, f"{unit} was pinned on skis and must remove its ski counter")
               for unit, seq in self.unskied]
        self.unskied = []
        return out


T = "tests/unit/test_im_equipment.py::"
COVERAGE: dict[str, Any] = {
    "IM.INF.VEST": ("ambiguous", T + "test_ec_49_a_vest_gives_plus_one_from_afar_and_nothing_close; "
                    + T + "test_ap_01_a_vest_at_exactly_five_hexes_is_a_named_reading; "
                    + T + "test_ec_49_a_vest_adds_one_on_the_bcrt",
                    "+1 on the SACRT from six or more hexes (and from aircraft), five hexes is IM.INF.VEST.FIVE "
                    "(AP-01); +1 on the BCRT with the barrage; no running (movement)"),
    "IM.INF.SMOCK.SPOT": ("implemented", T + "test_ec_48_smock_troops_are_spotted_by_observers_and_leaders_on_a_d6; "
                          + T + "test_ec_48_spotted_smock_troops_take_area_fire_and_revealed_ones_normal_fire",
                          "the d6 spot (IM.INF.SMOCK.SPOT) by an FO or leader, or adjacent infantry or cavalry; fire at "
                          "smock troops needs such a spot that turn, or their reveal"),
    "IM.INF.SMOCK.AREA": ("implemented", T + "test_ec_48_spotted_smock_troops_take_area_fire_and_revealed_ones_normal_fire",
                          "+3 at 4-5 hexes, +2 at 2-3, as an exclusive terrain term (no other terrain modifier)"),
    "IM.INF.SMOCK.REVEAL": ("implemented", T + "test_ec_48_spotted_smock_troops_take_area_fire_and_revealed_ones_normal_fire; "
                            + T + "test_smock_troops_moving_six_hexes_away_are_unspotted_again"),
    "IM.INF.SMOCK.SURPRISE": ("implemented", T + "test_unspotted_smock_troops_close_in_with_surprise",
                              "the -2 on the LS.CACRT roll of a close combat by smock troops no FO or leader spotted"),
    "IM.INF.SKI": ("partial", T + "test_skis_no_fire_on_skis_on_and_off_at_the_start_of_a_foot_phase_and_off_when_pinned",
                   "no fire on skis, skis on and off at the start of a friendly foot phase when not pinned, off when "
                   "pinned by fire, users only; climbing an elevation in two whole phases is not judged"),
}
