"""Judging Dux Bellorum AVBCW melee (dux-bellorum-avbcw.txt, Melee, Equipment, Vehicles: Melee;
game-log-tabletop.md, Dux Bellorum, CloseCombatFought / CloseCombatResolved): who may fight
(VEH.NOMELEE), the dice each unit rolls (its MELEE rating, Bayonets and SMGs +1, Wrecking tools
+0, and the modifiers: +1 charged or pursued into contact last turn, +2 on a flank outside the
opponent's arc, -1 against an opponent in terrain or beyond an obstacle: MELEE.MODS), who falls
back and how far (MELEE.FALLBACK, measured on the table), and the pursuit (MELEE.PURSUE). The
recorded `flank` and `charged` are checked against the table and the log; hits and COH lost
against PRO are Dux Bellorum core (DB.MELEE), not in the text."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from shapely.geometry import LineString

from domain.rules.dux_bellorum_avbcw import core_tables
from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import stat
from domain.rules.dux_bellorum_avbcw.placing import around, distance, extent_after, others
from domain.rules.dux_bellorum_avbcw.shooting import modifier_sum
from domain.rules.engine import Rule, RuleApplication, Verdict
from domain.tabletop import geometry as geo
from domain.tabletop.queries import ARC_HALF_WIDTH

MODS = RULEBOOK.rule("AVBCW.MELEE.MODS")
FALLBACK = RULEBOOK.rule("AVBCW.MELEE.FALLBACK")
PURSUE = RULEBOOK.rule("AVBCW.MELEE.PURSUE")
NOMELEE = RULEBOOK.rule("AVBCW.VEH.NOMELEE")
BAYONETS = RULEBOOK.rule("AVBCW.EQ.BAYONETS")
SMG = RULEBOOK.rule("AVBCW.EQ.SMG")
DB_MELEE = Rule("DB.MELEE", "Melee hits (core rules, not in the text)", "Dux Bellorum")

CHARGED, FLANK, OPPONENT_IN_TERRAIN = +1, +2, -1   # Melee modifiers
BAYONETS_MELEE = SMG_MELEE = +1                     # "gains +1 MELEE"
FALL_BACK_CLEAR = 6.0      # "the minimum distance to be more than 6” from all enemy units"
MINIMUM_STEP = 0.2         # game-log-tabletop.md: "0.2" earlier on its path it was not"
INSIDE_DEPTH = 0.05        # more than touching: "in" terrain (as the shooting modifiers read it)
OBSTACLES = frozenset({"hedge", "fence", "wall"})   # linear obstacles (game-log-tabletop.md, TableDefined)


@dataclass
class Combat:
    seq: int
    sides: list[list[str]]
    resolved: int = 0
    falling: dict[str, bool] = field(default_factory=dict)     # unit -> its fall-back move seen
    pursuing: list[str] = field(default_factory=list)


class AVBCWMelee(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.combats: dict[str, Combat] = {}
        self.into_contact: dict[tuple[int, str], int] = {}    # (turn, unit) -> seq of a move ending in contact
        self.pursued: dict[tuple[int, str], int] = {}         # (turn, unit) -> seq of its pursuit
        self.low: set[str] = set()                            # units low on ammo: "This bonus is permanently lost"

    def on_AmmoStateChanged(self, line):
        data = self.ctx.typed(line)
        if data.state in ("low", "exhausted"):
            self.low.add(data.unit)

    # ------------------------------------------------------------ moves that matter to a combat

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data, seq, turn = self.ctx.typed(line), line["seq"], line["turn"]
        unit = self.ctx.board.units.get(data.unit)
        if unit is None or unit.position is None:
            return ()
        near = around(self.ctx, unit, data.path, data.figures)   # the move's end and the others, shared
        # an enemy whose box is more than 0.1" from the end's is not in contact: not measured
        touching = [uid for uid, e in near.near_end(0.1).items()
                    if near.others[uid].side != unit.side and geo.in_contact(near.end, e)]
        if touching and data.mode in (None, "normal", "second", "charge"):
            self.into_contact[(turn, data.unit)] = seq
        if data.mode == "pursue":
            return self._pursuit(line, data, touching)
        if data.mode == "fall-back":
            return self._fall_back(line, data, unit)
        return ()

    # ------------------------------------------------------------ CloseCombatFought

    def on_CloseCombatFought(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        self.combats[data.combat] = Combat(seq, [list(side.units) for side in data.sides])
        out = []
        for side in data.sides:
            for uid in side.units:
                unit = self.ctx.board.units.get(uid)
                if unit is not None and is_vehicle(unit, self.lists.get(uid)):
                    out.append(NOMELEE.violation(seq, f"{uid} is a vehicle: \"Vehicles never enter melee and are never "
                                                 "locked in melee\""))
        for i, side in enumerate(data.sides):
            out += self._charged(line, side, i)
            out += self._flank(line, data, side, i)
            out += self._in_terrain(line, data, side, i)
        return out

    def _charged(self, line, side, index: int) -> list[RuleApplication]:
        """"+1 Unit charged into contact this turn, or pursued into contact last turn"."""
        turn, seq = line["turn"], line["seq"]
        moved = [self.into_contact.get((turn, u)) or self.pursued.get((turn - 1, u)) for u in side.units]
        expected = any(moved)
        return [MODS.judge(seq, side.charged == expected, f"side {index + 1} charged: {side.charged} (the moves "
                           "into contact this turn, pursuits last turn)",
                           f"side {index + 1} records charged {side.charged}, yet the log shows "
                           + ("a move into contact this turn or a pursuit last turn" if expected else
                              "no move into contact this turn and no pursuit last turn"),
                           verdict=Verdict.MISMATCH, expected=expected, recorded=side.charged,
                           related=[s for s in moved if s])]

    def _one_against_one(self, data, side, index: int):
        """The side's unit and its opponent, both on the table, when one unit fights one; else None
        (several a side: the recorded flags are taken)."""
        if len(data.sides) != 2 or len(side.units) != 1 or len(data.sides[1 - index].units) != 1:
            return None
        board = self.ctx.board
        me, foe = board.units.get(side.units[0]), board.units.get(data.sides[1 - index].units[0])
        if me is None or foe is None or me.position is None or foe.position is None:
            return None
        return me, foe

    def _flank(self, line, data, side, index: int) -> list[RuleApplication]:
        """"+2 Attacking a unit's flank (anywhere outside its firing arc)": one unit against one,
        measured from the table (`avbcw-arc`); several a side: the recorded flag is taken."""
        pair = self._one_against_one(data, side, index)
        if pair is None:
            return []
        me, foe = pair
        half = ARC_HALF_WIDTH[self.ctx.interpretations.reading("avbcw-arc")]
        outside = not geo.in_arc(foe.position, float(foe.facing or 0), unit_extent(me), 0.0, half)
        return [MODS.judge(line["seq"], side.flank == outside, f"side {index + 1} flank: {side.flank}",
                           f"side {index + 1} records flank {side.flank}; {side.units[0]} is "
                           f"{'outside' if outside else 'inside'} {foe.unit}'s firing arc",
                           verdict=Verdict.MISMATCH, expected=outside, recorded=side.flank,
                           interpretation=self.ctx.interpretations.label("avbcw-arc"))]

    def _in_terrain(self, line, data, side, index: int) -> list[RuleApplication]:
        """"-1 Opponent unit is in terrain, or beyond an obstacle": one unit against one, a side's
        `in_terrain` against the table. A unit whose extent lies in area terrain (woodland, a
        building: "It stops upon entering area terrain (e.g. woodland or a building)") is in terrain.
        A linear obstacle it touches that the line between the two units crosses may make it
        "beyond an obstacle" to the one side or to both: the text does not say, so either record is
        taken there; so is a trench (fortified, not area terrain)."""
        pair = self._one_against_one(data, side, index)
        if pair is None:
            return []
        me, foe = pair
        board = self.ctx.board
        features = board.table["features"]
        mine = unit_extent(me)
        inner = mine.shrunk(INSIDE_DEPTH)
        areas = [f["id"] for f in features if geo.is_area(f) and inner.intersects(geo.feature_shape(f))]
        if areas:
            expected, why = True, f"{side.units[0]} is in {', '.join(areas)}"
        else:
            between = LineString([geo.xy(me.position), geo.xy(foe.position)])
            unsure = [f["id"] for f in features
                      if (f["kind"] in OBSTACLES and geo.in_contact(mine, geo.feature_shape(f))
                          and between.intersects(geo.feature_shape(f)))
                      or (f["kind"] == "trench" and inner.intersects(geo.feature_shape(f)))]
            if unsure:
                return []
            expected, why = False, f"{side.units[0]} is in no terrain and beyond no obstacle"
        return [MODS.judge(line["seq"], side.in_terrain == expected, f"side {index + 1} in_terrain: {side.in_terrain} "
                           f"({why})", f"side {index + 1} records in_terrain {side.in_terrain}, yet {why}: \"-1 Opponent "
                           "unit is in terrain, or beyond an obstacle\"", verdict=Verdict.MISMATCH, expected=expected,
                           recorded=side.in_terrain)]

    # ------------------------------------------------------------ CloseCombatResolved

    def on_CloseCombatResolved(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        combat = self.combats.get(data.combat)
        if combat is None:
            return ()
        fought = self.ctx.typed(self.ctx.earlier(combat.seq))
        combat.resolved = seq
        out = []
        for result in data.results:
            index = next((i for i, s in enumerate(combat.sides) if result.unit in s), None)
            if index is not None and len(fought.sides) == 2:
                out.append(self._dice(seq, result, fought.sides[index], fought.sides[1 - index]))
                out += self._rolled(line, combat, result)
                out += self._melee_hits(line, combat, result, fought.sides[1 - index])
        out += self._who_falls_back(seq, data, combat)
        return out

    def _dice(self, seq, result, mine, theirs) -> RuleApplication:
        entry = self.lists.get(result.unit)
        base = stat(entry, "MELEE")
        if base is None:
            return MODS.unverifiable(seq, f"{result.unit} lists no MELEE: its dice cannot be counted", recorded=result.dice)
        parts = [(None, base, f"MELEE {base}")]
        if has_rule(entry, BAYONETS.id):
            parts.append((BAYONETS, BAYONETS_MELEE, "Bayonets +1"))
        if has_rule(entry, SMG.id) and result.unit not in self.low:
            parts.append((SMG, SMG_MELEE, "SMGs +1"))
        if mine.charged:
            parts.append((MODS, CHARGED, "charged +1"))
        if mine.flank:
            parts.append((MODS, FLANK, "flank +2"))
        if theirs.in_terrain:
            parts.append((MODS, OPPONENT_IN_TERRAIN, "opponent in terrain or beyond an obstacle -1"))
        expected = max(0, sum(p[1] for p in parts))
        why = ", ".join(p[2] for p in parts)
        if result.dice == expected:
            return MODS.ok(seq, f"{result.unit} rolls {expected} ({why})", expected=expected, recorded=result.dice)
        blamed = next((rule for rule, amount, _ in parts[1:] if rule is not MODS and result.dice == expected - amount), MODS)
        return blamed.mismatch(seq, f"{result.unit} rolls {result.dice} melee dice, not {expected} ({why})",
                               expected=expected, recorded=result.dice, inputs={"recorded_modifiers": modifier_sum(
                                   result.modifiers)})

    def _rolled(self, line, combat: Combat, result) -> list[RuleApplication]:
        rolls = self.ctx.rolls_for(result.unit, "DB.MELEE", after=combat.seq, before=line["seq"])
        if not rolls:
            return [MODS.missing_roll(line["seq"], f"{result.unit}'s melee dice have no DB.MELEE DieRolled")]
        faces = self.ctx.typed(rolls[-1]).results or [self.ctx.typed(rolls[-1]).result]
        return [MODS.judge(line["seq"], len(faces) == result.dice, f"{result.unit} rolled {len(faces)} dice",
                           f"{result.unit} records {result.dice} dice; its DB.MELEE roll has {len(faces)}",
                           verdict=Verdict.MISMATCH, expected=len(faces), recorded=result.dice,
                           related=[rolls[-1]["seq"]])]

    def _melee_hits(self, line, combat: Combat, result, theirs) -> list[RuleApplication]:
        """The hits against the opponent's PRO: the core melee procedure, judged only when the
        table pack holds DB.MELEE and the unit fought one opponent (whose PRO they strike)."""
        rolls = self.ctx.rolls_for(result.unit, "DB.MELEE", after=combat.seq, before=line["seq"])
        if not self.ctx.tables.has("DB.MELEE") or not rolls:
            return []
        seq, rolled = line["seq"], self.ctx.typed(rolls[-1])
        if len(theirs.units) != 1:
            return [DB_MELEE.unverifiable(seq, f"{result.unit} fought {', '.join(theirs.units)}: whose PRO each die "
                                          "strikes is not recorded", recorded=result.hits)]
        pro, why = core_tables.protection(self.lists.get(theirs.units[0]))
        if pro is None:
            return [DB_MELEE.unverifiable(seq, f"{result.unit} against {theirs.units[0]}: {why}", recorded=result.hits)]
        table, faces = self.ctx.tables.get("DB.MELEE"), rolled.results or [rolled.result]
        hits = core_tables.hit_count(table, faces, pro)
        read = f"the faces {faces} against {theirs.units[0]}'s {why}, hitting when face {table['hit']} PRO"
        return [DB_MELEE.judge(seq, result.hits == hits, f"{result.unit}: {hits} hits, {read}",
                               f"{result.unit} records {result.hits} hits; {read} ({self.ctx.tables.label()}) give "
                               f"{hits}", verdict=Verdict.MISMATCH, expected=hits, recorded=result.hits,
                               related=[rolls[-1]["seq"]])]

    def _who_falls_back(self, seq, data, combat: Combat) -> list[RuleApplication]:
        """"Any unit that suffers more COH loss than all opponents it fought against falls back"."""
        lost = {r.unit: r.coh_lost for r in data.results}
        expected = []
        for i, side in enumerate(combat.sides):
            theirs = sum(lost.get(u, 0) for s in combat.sides[:i] + combat.sides[i + 1:] for u in s)
            expected += [u for u in side if lost.get(u, 0) > theirs]
        recorded = set(data.fall_back)
        combat.falling = {u: False for u in recorded}
        out = [FALLBACK.judge(seq, recorded == set(expected), f"falling back: {sorted(expected) or 'none'}",
                              f"falling back: recorded {sorted(recorded) or 'none'}, by the COH lost "
                              f"{sorted(expected) or 'none'}: \"Any unit that suffers more COH loss than all opponents it "
                              "fought against falls back\"", expected=sorted(expected), recorded=sorted(recorded))]
        winners = {u for i, side in enumerate(combat.sides) if not set(side) & recorded
                   and any(set(s) & recorded for s in combat.sides[:i] + combat.sides[i + 1:]) for u in side}
        stray = [u for u in data.pursue if u not in winners]
        combat.pursuing = [u for u in data.pursue if u in winners]
        if data.pursue:
            out.append(PURSUE.judge(seq, not stray, f"{', '.join(data.pursue)} won and may pursue",
                                    f"{', '.join(stray)} pursue yet did not win against a retreating enemy: \"Any "
                                    "unit that won a melee may choose to pursue a retreating enemy\""))
        return out

    # ------------------------------------------------------------ falling back and pursuing

    def _fall_back(self, line, data, unit) -> list[RuleApplication]:
        """"It retreats the minimum distance to be more than 6” from all enemy units"."""
        seq = line["seq"]
        combat = next((c for c in self.combats.values() if data.unit in c.falling), None)
        if combat is None:
            return [FALLBACK.violation(seq, f"{data.unit} falls back, yet no resolved combat has it fall back")]
        combat.falling[data.unit] = True
        enemies = others(self.ctx.board, unit.side, enemies=True)
        end = extent_after(unit, data.path, data.figures)
        nearest = min((distance(self.ctx, end, unit_extent(e)) for e in enemies.values()), default=None)
        if nearest is None:
            return []
        if nearest <= FALL_BACK_CLEAR:
            return [FALLBACK.violation(seq, f"{data.unit} falls back to {nearest}\" from the nearest enemy: \"to be more "
                                       "than 6” from all enemy units\"", expected=f"> {FALL_BACK_CLEAR}", recorded=nearest)]
        shorter = _cut(data.path, MINIMUM_STEP)
        before = min(distance(self.ctx, extent_after(unit, shorter), unit_extent(e)) for e in enemies.values())
        return [FALLBACK.judge(seq, before <= FALL_BACK_CLEAR, f"{data.unit} falls back to {nearest}\": more than 6”, "
                               f"{before}\" 0.2” before its end", f"{data.unit} falls back further than it must: already "
                               f"{before}\" from every enemy 0.2” before its end (\"the minimum distance\")",
                               expected=FALL_BACK_CLEAR, recorded=before)]

    def _pursuit(self, line, data, touching: list[str]) -> list[RuleApplication]:
        """"It moves into contact with that enemy unit, and both remain locked in melee"."""
        seq, turn = line["seq"], line["turn"]
        combat = next((c for c in self.combats.values() if data.unit in c.pursuing), None)
        if combat is None:
            return [PURSUE.violation(seq, f"{data.unit} pursues, yet no resolved combat has it pursue")]
        self.pursued[(turn, data.unit)] = seq
        fled = [u for u in touching if u in combat.falling]
        return [PURSUE.judge(seq, bool(fled), f"{data.unit} pursues into contact with {', '.join(fled)}",
                             f"{data.unit}'s pursuit ends in contact with no retreating enemy: \"It moves into contact "
                             "with that enemy unit\"", related=[combat.resolved])]

    def _unmoved(self) -> list[RuleApplication]:
        out = []
        for combat in self.combats.values():
            out += [FALLBACK.violation(combat.resolved, f"{u} falls back and no fall-back move is recorded this turn")
                    for u, moved in combat.falling.items() if not moved]
        self.combats.clear()
        return out

    def on_TurnStarted(self, line):
        return self._unmoved()

    def finish(self):
        return self._unmoved()


def _cut(path, inches: float) -> list:
    """The path less its last `inches` (the base centre's polyline, straight segments)."""
    points = [geo.xy(p) for p in path]
    left = inches
    while len(points) > 1:
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        if length > left:
            t = (length - left) / length
            return [{"x": x, "y": y} for x, y in points[:-1]] + [{"x": x0 + (x1 - x0) * t, "y": y0 + (y1 - y0) * t}]
        left -= length
        points.pop()
    return [{"x": points[0][0], "y": points[0][1]}]


TESTS = "tests/unit/test_avbcw_melee.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.MELEE.MODS": ("implemented", f"{TESTS}test_melee_dice; {TESTS}test_charged_and_flank_from_the_table; "
                         f"{TESTS}test_in_terrain_from_the_table",
                         "each unit's dice: MELEE as listed, +1 charged (`charged` against the log: a move into contact "
                         "this turn or a pursuit last turn), +2 flank (`flank` against the table, one unit a side: "
                         "outside the opponent's arc, `avbcw-arc`), -1 opponent in terrain (`in_terrain` against the "
                         "table, one unit a side: its extent in area terrain; beside a linear obstacle between the two, "
                         "or in a trench, either record is taken); the DB.MELEE "
                         "roll has that many dice; its hits against the opponent's PRO: DB.MELEE, read from the "
                         "table pack when it holds it (docs/table-packs.md); COH lost: DB core"),
    "AVBCW.MELEE.FALLBACK": ("implemented", TESTS + "test_falling_back",
                             "`fall_back` is every unit losing more COH than all its opponents together; each moves "
                             "(mode fall-back) that turn to more than 6” from all enemy units (`measure`), and 0.2” "
                             "earlier on its path it was not"),
    "AVBCW.MELEE.PURSUE": ("implemented", TESTS + "test_pursuit",
                           "only a unit whose side won (an opponent falls back, none of its own) pursues; its pursue "
                           "move ends in contact with a retreating enemy; next turn's +1 (MELEE.MODS)"),
    "AVBCW.VEH.NOMELEE": ("implemented", TESTS + "test_vehicles_never_melee",
                          "a vehicle in a CloseCombatFought: violation"),
    "AVBCW.EQ.BAYONETS": ("implemented", TESTS + "test_melee_dice", "\"+1 MELEE\"; its cost and who may take it: the army "
                          "list's"),
    "AVBCW.EQ.SMG": ("implemented", TESTS + "test_melee_dice", "\"+1 MELEE\" until the unit is low on ammo "
                     "(\"permanently lost\"); the +1 SHOOT (12”): modifiers.py"),
}
