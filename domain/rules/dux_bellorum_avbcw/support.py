"""Judging Dux Bellorum AVBCW indirect fire, spotters and off-table support (dux-bellorum-avbcw.txt,
Indirect, Spot, Off table support; game-log-tabletop.md, Dux Bellorum, ShotFired `indirect`,
`spotter`, `off_table`): who may shoot indirectly, the target seen by the shooter or by a friendly
Spot unit with a clear line of communication to it (radios: always), and the Commander or Spotter
calling off-table support instead of shooting, at a target it sees, no more often than the army
bought. Sight is the tabletop geometry's (the LOS rules of the text), from each one's leader."""
from __future__ import annotations

from typing import Iterable, Optional

from shapely.geometry import LineString

from domain.rules.dux_bellorum_avbcw.facts import (
    RULEBOOK, ListedModule, friends_of, has_rule, on_table, rating_of, unit_extent)
from domain.rules.dux_bellorum_avbcw.kinds import is_commander, type_of
from domain.rules.dux_bellorum_avbcw.shooting import SIGHT_VERDICTS, Aim, weapon_rating
from domain.rules.engine import RuleApplication
from domain.tabletop import geometry as geo

INDIRECT = RULEBOOK.rule("AVBCW.EQ.INDIRECT")
SPOT = RULEBOOK.rule("AVBCW.AB.SPOT")
OTS = RULEBOOK.rule("AVBCW.ARMY.OTS")

MORTARS = frozenset({"mortar", "mortar-heavy"})      # "Indirect @ 0 points (Mortar units only)"
RADIOS = "radios"                                     # Spot "+1 point for radios": the unit's option
# "an area clearly inaccessible or difficult for a signals runner to cross": no kind is named
RUNNER_DOUBTS = frozenset({"dense-woodland", "river", "stream"})


def can_spot(kind: str, entry) -> bool:
    """"Spot @ 0 points (Spotter unit only), or @ +1 point (for Commander units)"."""
    return kind == "spotter" or has_rule(entry, SPOT.id)


class AVBCWSupport(ListedModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.called: dict[str, int] = {}                  # side -> off-table shots called
        self.own_shots: dict[tuple[int, str], int] = {}   # (turn, unit) -> seq of its own shot
        self.calls: dict[tuple[int, str], int] = {}       # (turn, unit) -> seq of its call
        self.bought: dict[str, Optional[int]] = {}        # side -> shots bought (None: not said)

    def on_ArmyListed(self, line):
        super().on_ArmyListed(line)
        listed = self.ctx.typed(line)
        for rule in listed.army_rules:
            if rule.rule == OTS.id:
                self.bought[listed.side] = rule.shots

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        board = self.ctx.board
        shooter, target = board.units.get(data.shooter), board.units.get(data.target)
        if not (on_table(shooter) and on_table(target)):
            return ()
        if data.off_table is not None:
            return self._called(line, data, shooter, target)
        key = (line["turn"], data.shooter)
        self.own_shots.setdefault(key, seq)
        out = []
        if key in self.calls:
            out.append(OTS.violation(seq, f"{data.shooter} called off-table support this turn at seq {self.calls[key]}: "
                                     "it calls \"Instead of shooting\"", related=[self.calls[key]]))
        if data.indirect:
            out += self._indirect(line, data, shooter, target)
        return out

    # ------------------------------------------------------------ indirect fire

    def _indirect(self, line, data, shooter, target) -> list[RuleApplication]:
        """"The unit can shoot at any enemy unit it can see. Alternately, it can shoot at any enemy
        unit that a friendly unit with the 'Spot' special unit ability can see, provided there is a
        clear line of communication between that friendly 'spotter' unit and the unit making the
        indirect shot.\""""
        seq = line["seq"]
        entry = self.lists.get(data.shooter)
        rating = weapon_rating(data.weapon, entry)[1]
        able = (type_of(shooter, entry) in MORTARS or has_rule(entry, INDIRECT.id)
                or (rating is not None and rating.min_range is not None))
        out = [INDIRECT.judge(seq, able, f"{data.shooter} has an indirect weapon",
                              f"{data.shooter} shoots indirectly without one: \"Indirect @ 0 points (Mortar units only)\"")]
        if data.spotter is None:
            aim = Aim(self, data.model_copy(update={"indirect": False}), shooter, target, entry)
            best = aim._best_sight
            if best is not None:
                label, answer = best
                out.append(INDIRECT.apply(seq, SIGHT_VERDICTS[answer.status], f"{data.shooter} sees {data.target} "
                                          f"itself (\"any enemy unit it can see\"): {answer.reason}",
                                          inputs=answer.to_json()))
            return out
        return out + self._spotted(seq, data, shooter, target)

    def _spotted(self, seq, data, shooter, target) -> list[RuleApplication]:
        spotter = self.ctx.board.units.get(data.spotter)
        if not on_table(spotter) or spotter.side != shooter.side:
            return [SPOT.violation(seq, f"{data.spotter} is no friendly unit on the table")]
        entry = self.lists.get(data.spotter)
        out = [SPOT.judge(seq, can_spot(type_of(spotter, entry), entry), f"{data.spotter} has Spot",
                          f"{data.spotter} has no Spot: only \"a friendly unit with the 'Spot' special unit ability\"")]
        out.append(self._sees(seq, spotter, data.spotter, target, data.target, SPOT))
        out.append(self._communication(seq, data, spotter, shooter, entry))
        return out

    def _sees(self, seq, who, who_id: str, target, target_id: str, rule) -> RuleApplication:
        friends = friends_of(self.ctx.board, who.side, (who_id, target_id))
        answer = geo.sight(geo.xy(who.position), unit_extent(target), self.ctx.board.table["features"], friends,
                           shooter=unit_extent(who))
        return rule.apply(seq, SIGHT_VERDICTS[answer.status], f"{who_id} to {target_id}: {answer.reason}",
                          inputs=answer.to_json())

    def _communication(self, seq, data, spotter, shooter, entry) -> RuleApplication:
        """"This line of communication will be blocked if it must deviate to avoid impassable
        terrain, enemy units, or an area clearly inaccessible or difficult for a signals runner to
        cross"; radios: "will always have a mutual line of communication"."""
        if RADIOS in (entry.options or () if entry else ()):
            return SPOT.ok(seq, f"{data.spotter} has radios: \"always have a mutual line of communication\"")
        line = LineString([geo.xy(spotter.position), geo.xy(shooter.position)])
        features = self.ctx.board.table["features"]
        blocked = [f["id"] for f in features if (f["kind"] == "impassable" or f.get("passable") is False)
                   and line.intersects(geo.feature_shape(f))]
        blocked += [uid for uid, u in self.ctx.board.units.items() if on_table(u) and u.side != shooter.side
                    and line.intersects(unit_extent(u).shape)]
        doubts = [f["id"] for f in features if f["kind"] in RUNNER_DOUBTS and line.intersects(geo.feature_shape(f))]
        if blocked:
            return INDIRECT.violation(seq, f"the line of communication from {data.spotter} to {data.shooter} meets "
                                      f"{', '.join(blocked)}: it \"will be blocked if it must deviate to avoid "
                                      "impassable terrain, enemy units\"", inputs={"blocked": blocked})
        if doubts:
            return INDIRECT.ambiguous(seq, f"the line of communication crosses {', '.join(doubts)}: whether that is \"an "
                                      "area clearly inaccessible or difficult for a signals runner\" the text does not "
                                      "say", inputs={"crosses": doubts})
        return INDIRECT.ok(seq, f"a clear line of communication from {data.spotter} to {data.shooter}")

    # ------------------------------------------------------------ off-table support

    def _called(self, line, data, caller, target) -> list[RuleApplication]:
        """"Instead of shooting, a Commander unit or Spotter unit can call in the off table support to
        attack an enemy unit"; Spot: "A unit with Spot allows off table support ... to shoot at any
        enemy unit the spotter can see"."""
        seq, side = line["seq"], caller.side
        entry = self.lists.get(data.shooter)
        kind = type_of(caller, entry)
        out = [OTS.judge(seq, is_commander(kind, entry) or kind == "spotter", f"{data.shooter} may call off-table "
                         "support", f"{data.shooter} ({kind}) calls off-table support: only \"a Commander unit or "
                         "Spotter unit can call in the off table support\"")]
        if side not in self.bought:
            out.append(OTS.violation(seq, f"{side}'s army lists no Off table support"))
        self.called[side] = self.called.get(side, 0) + 1
        bought = self.bought.get(side)
        if bought is not None:
            out.append(OTS.judge(seq, self.called[side] <= bought, f"off-table shot {self.called[side]} of {bought}",
                                 f"off-table shot {self.called[side]}: the army bought {bought}", expected=bought,
                                 recorded=self.called[side]))
        key = (line["turn"], data.shooter)
        self.calls.setdefault(key, seq)
        if key in self.own_shots:
            out.append(OTS.violation(seq, f"{data.shooter} shot this turn at seq {self.own_shots[key]}: it calls "
                                     "\"Instead of shooting\"", related=[self.own_shots[key]]))
        out.append(self._sees(seq, caller, data.shooter, target, data.target, OTS))
        return out


# "1 point per shot = SHOOT 4 (1) Indirect; 2 points per shot = SHOOT 5 (1) Indirect; 3 points per
# shot = SHOOT 6 (2) Indirect; 4 points per shot = SHOOT 7 (2) Indirect"
OTS_TIERS = {1: rating_of("4(1)"), 2: rating_of("5(1)"), 3: rating_of("6(2)"), 4: rating_of("7(2)")}


TESTS = "tests/unit/test_avbcw_support.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.EQ.INDIRECT": ("implemented", f"{TESTS}test_an_indirect_shot_seen_by_the_shooter; "
                          f"{TESTS}test_a_spotter_and_the_line_of_communication",
                          "an indirect shot only by a Mortar (or a unit listing Indirect, or a rating with a minimum "
                          "range); no spotter: the shooter's own line of sight to the target (the LOS rules); a "
                          "spotter's line of communication: the straight line to the shooter meets no impassable "
                          "ground or enemy unit (dense woodland, a river or stream on it: `ambiguous`), radios: always "
                          "clear; \"counts all targets in light cover as 'in the open'\": no -1 (modifiers.py)"),
    "AVBCW.AB.SPOT": ("implemented", f"{TESTS}test_a_spotter_and_the_line_of_communication; "
                      f"{TESTS}test_off_table_support",
                      "the `spotter` of an indirect shot is a friendly Spotter (or a unit listing Spot) that sees the "
                      "target by the LOS rules from its leader; radios (option `radios`) keep the line of "
                      "communication"),
    "AVBCW.ARMY.OTS": ("ambiguous", TESTS + "test_off_table_support",
                       "a call (`off_table`) by a Commander or Spotter of an army listing Off table support, that "
                       "does not shoot itself that turn (\"Instead of shooting\"), at a target it sees; no more calls "
                       "than the `shots` bought (the 1-4 points a tier or a budget: AVBCW.Z 7); the tier's dice "
                       "(modifiers.py)"),
}
