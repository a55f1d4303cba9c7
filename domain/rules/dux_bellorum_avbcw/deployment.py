"""Deployment and basing of a Dux Bellorum AVBCW game, as far as a log shows them, measured on
the table in inches (dux-bellorum-avbcw.txt, Deployment, Basing, Ambush; game-log-tabletop.md,
UnitDeployed): sides deploy alternately three units at a time (AVBCW.DEPLOY), an Ambush unit
deploys on its first turn as its move no closer than 12" to any enemy (AVBCW.AB.AMBUSH), and a
unit's figures stay within 3" of its leader without intermixing with another unit (AVBCW.BASE)."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from shapely.geometry import Point

from domain.rules.dux_bellorum_avbcw.facts import (
    RULEBOOK, RULESET_ID, ArmyLists, has_rule, is_vehicle, on_table, unit_extent)
from domain.rules.engine import RuleApplication, RuleModule
from domain.tabletop import geometry as geo

DEPLOY = RULEBOOK.rule("AVBCW.DEPLOY")
BASE = RULEBOOK.rule("AVBCW.BASE")
AMBUSH = RULEBOOK.rule("AVBCW.AB.AMBUSH")
# Deployment: "At the start of the battle, each side alternately deploys 3 units (of any type) at a time."
AT_A_TIME = 3
# Basing: "All figures in a unit must remain within 3” of this central figure."
LEADER_REACH = 3.0
# Ambush: "the unit is deployed anywhere in play but no closer than 12” to any enemy unit."
AMBUSH_DISTANCE = 12.0
SWIFT = "AVBCW.ARMY.SWIFT"          # Swift deployment: "See p 54." (Dux Bellorum core, not in the text)
OWN_MOVES = (None, "normal", "second", "charge")
OVERLAP = 1e-6                       # square inches shared by two extents: intermixed, not in contact


class AVBCWDeployment(RuleModule):
    ruleset = RULESET_ID

    def __init__(self, ctx):
        super().__init__(ctx)
        self.lists = ArmyLists()
        self.sides: dict[str, str] = {}          # unit -> its list's side
        self.swift: set[str] = set()             # sides whose list buys Swift deployment
        self.deployed: set[str] = set()
        self.gone: set[str] = set()              # not arriving (ARMY.SUBTERFUGE)
        self.run: tuple[Optional[str], int] = (None, 0)   # the side deploying now, and how many in a row
        self.ambushed: dict[str, int] = {}       # unit -> the turn it deployed by Ambush
        self.checked_start = False

    def on_ArmyListed(self, line):
        data = self.ctx.typed(line)
        self.lists.take(data)
        self.sides.update({u.unit: data.side for u in data.units})
        if any(r.rule == SWIFT for r in data.army_rules):
            self.swift.add(data.side)

    def on_UnitStatusChanged(self, line):
        data = self.ctx.typed(line)
        if data.status == "not-arrived":
            self.gone.add(data.unit)

    # ------------------------------------------------------------ AVBCW.DEPLOY

    def waiting(self, side: Optional[str]) -> list[str]:
        """The side's listed units still to deploy as normal (not Ambush, not kept away)."""
        return [u for u, s in self.sides.items() if s == side and u not in self.deployed and u not in self.gone
                and not has_rule(self.lists.get(u), "AVBCW.AB.AMBUSH")]

    def _alternation(self, line, unit: str, side: Optional[str]) -> RuleApplication:
        seq, (run_side, count) = line["seq"], self.run
        words = "\"each side alternately deploys 3 units (of any type) at a time\""
        if self.swift:
            return DEPLOY.unverifiable(seq, f"Swift deployment ({', '.join(sorted(self.swift))}): Dux Bellorum "
                                       "p.54 is not in the text, and may change how armies deploy")
        if side == run_side:
            self.run = (side, count + 1)
            others = [u for s in {*self.sides.values()} - {side} for u in self.waiting(s)]
            return DEPLOY.judge(seq, count + 1 <= AT_A_TIME or not others,
                                f"{unit}: {side}'s unit {count + 1} in a row",
                                f"{unit}: {side} deploys a unit {count + 1} in a row while the other side has "
                                f"{len(others)} to deploy: {words}", expected=AT_A_TIME, recorded=count + 1)
        self.run = (side, 1)
        left = self.waiting(run_side) if run_side is not None else []
        if run_side is not None and count < AT_A_TIME and left:
            return DEPLOY.violation(seq, f"{unit}: {side} deploys after {run_side} placed {count} of its 3, with "
                                    f"{len(left)} still to deploy: {words}", expected=AT_A_TIME, recorded=count)
        return DEPLOY.ok(seq, f"{unit}: {side} deploys in its turn")

    def on_TurnStarted(self, line) -> Iterable[RuleApplication]:
        """The battle starts: every listed unit has deployed, but for Ambush and units that do
        not arrive."""
        if self.checked_start or not self.sides:
            return ()
        self.checked_start = True
        missing = sorted(u for s in set(self.sides.values()) for u in self.waiting(s))
        if self.swift:
            return [DEPLOY.unverifiable(line["seq"], "Swift deployment (Dux Bellorum p.54) is not in the text")]
        return [DEPLOY.judge(line["seq"], not missing, "every listed unit deployed at the start of the battle",
                             f"listed, not deployed at the start of the battle: {', '.join(missing)} (\"At the start "
                             "of the battle, each side alternately deploys 3 units\")", recorded=missing)]

    # ------------------------------------------------------------ UnitDeployed

    def on_UnitDeployed(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        entry = self.lists.get(data.unit)
        side = self.sides.get(data.unit, line.get("side"))
        ambush = has_rule(entry, "AVBCW.AB.AMBUSH")
        out = []
        if line["turn"] == 0 and ambush:
            out.append(AMBUSH.violation(line["seq"], f"{data.unit} has Ambush: it \"is not deployed as normal. "
                                        "Instead on your first turn, as its move, the unit is deployed\""))
        elif line["turn"] == 0:
            out.append(self._alternation(line, data.unit, side))
        elif ambush or data.attrs.get("ambush"):
            out += self._ambush(line, data, entry, side)
        elif not self.swift:
            out.append(DEPLOY.violation(line["seq"], f"{data.unit} deploys in turn {line['turn']}: units deploy \"At "
                                        "the start of the battle\", or by Ambush on their first turn"))
        self.deployed.add(data.unit)
        if not is_vehicle_type(data, entry):
            out += self._basing(line, data)
            out += self._intermixed(line, data)
        return out

    def _ambush(self, line, data, entry, side) -> list[RuleApplication]:
        seq, out = line["seq"], []
        if not has_rule(entry, "AVBCW.AB.AMBUSH"):
            out.append(AMBUSH.violation(seq, f"{data.unit} deploys by ambush without the Ambush ability in its list"))
        if line["turn"] != 1:
            out.append(AMBUSH.violation(seq, f"{data.unit} deploys by ambush in turn {line['turn']}: \"on your "
                                        "first turn, as its move\"", expected=1, recorded=line["turn"]))
        self.ambushed[data.unit] = line["turn"]
        how = self.ctx.interpretations.reading("measure") or "closest"
        mine = geo.extent(data)
        enemies = {uid: geo.measure(mine, unit_extent(u), how) for uid, u in self.ctx.board.units.items()
                   if u.side not in (None, side) and on_table(u)}
        close = {uid: d for uid, d in enemies.items() if d < AMBUSH_DISTANCE}
        label = self.ctx.interpretations.label("measure")
        if close:
            uid, d = min(close.items(), key=lambda kv: kv[1])
            out.append(AMBUSH.violation(seq, f"{data.unit} deploys {d}\" from {uid}: \"no closer than 12” to any "
                                        "enemy unit\"", expected=AMBUSH_DISTANCE, recorded=d, interpretation=label))
        else:
            nearest = min(enemies.values(), default=None)
            out.append(AMBUSH.ok(seq, f"{data.unit} deploys by ambush"
                                 + (f", {nearest}\" from the nearest enemy" if nearest is not None else ""),
                                 interpretation=label))
        return out

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        out = []
        if data.mode in OWN_MOVES and self.ambushed.get(data.unit) == line["turn"]:
            out.append(AMBUSH.violation(line["seq"], f"{data.unit} moves in the turn it deployed by ambush: it is "
                                        "deployed \"as its move\""))
        unit = self.ctx.board.units.get(data.unit)
        if data.figures and unit is not None and not is_vehicle(unit, self.lists.get(data.unit)):
            after = {"position": data.path[-1], "figures": data.figures, "figure_base": unit.figure_base}
            out += self._basing(line, _Placed(data.unit, after))
        return out

    # ------------------------------------------------------------ AVBCW.BASE

    def _basing(self, line, data) -> list[RuleApplication]:
        """Basing: "All figures in a unit must remain within 3” of this central figure" (the
        leader, at `position`). Figures placed: each base measured to the leader's by `measure`;
        a footprint only: its farthest point from the leader (the page: "extent within 3" of the
        leader")."""
        seq, leader = line["seq"], geo.xy(_get(data, "position"))
        figures, base = _get(data, "figures"), _get(data, "figure_base")
        if figures and base:
            how = self.ctx.interpretations.reading("measure") or "closest"
            disc = geo.Extent(Point(leader), base / 2, leader)
            far = max(geo.measure(geo.Extent(Point(geo.xy(f)), base / 2, geo.xy(f)), disc, how) for f in figures)
            label = self.ctx.interpretations.label("measure")
        else:
            size = _get(data, "footprint")
            if size is None:
                return []
            # the footprint, kept as the unit's extent (`_intermixed`) finds it again
            rectangle = geo.rectangle(leader, _get(data, "facing") or 0, size.w, size.d)
            far, label = geo.farthest(rectangle, leader), None
            reach = geo.round_inches(max(size.w, size.d) / 2)
            if far > LEADER_REACH and reach <= LEADER_REACH:
                # only the corners lie beyond 3": whether a figure stands there, the log does not show
                return [BASE.unverifiable(seq, f"{_get(data, 'unit')}'s footprint reaches {far}\" from its leader at "
                                          f"its corners only ({reach}\" across the front): no `figures` say where "
                                          "its figures stand", recorded=far)]
        unit = _get(data, "unit")
        return [BASE.judge(seq, far <= LEADER_REACH, f"{unit}'s figures within {far}\" of its leader",
                           f"{unit} has figures {far}\" from its leader: \"All figures in a unit must remain within "
                           "3” of this central figure\"", expected=LEADER_REACH, recorded=far, interpretation=label)]

    def _intermixed(self, line, data) -> list[RuleApplication]:
        """"Figures from different units must not 'intermix'": no two units' extents overlap
        (extents that touch are in contact, not intermixed)."""
        try:
            mine = geo.extent(data).shape
        except ValueError:       # figures without `figure_base`: the log's own check names it
            return []
        # a unit whose shape's box is apart from this one's shares no area with it: not intersected
        mixed = sorted(uid for uid, u in self.ctx.board.units.items()
                       if uid != data.unit and on_table(u) and not is_vehicle(u, self.lists.get(uid))
                       and not geo.boxes_apart(unit_extent(u).shape, mine, 0.0)
                       and unit_extent(u).shape.intersection(mine).area > OVERLAP)
        return [BASE.judge(line["seq"], not mixed, f"{data.unit} stands apart from every other unit",
                           f"{data.unit} is deployed intermixed with {', '.join(mixed)}: \"Figures from different "
                           "units must not 'intermix'\"", recorded=mixed)]


class _Placed:
    """A unit's figures after a move, in the shape `_basing` reads."""

    def __init__(self, unit: str, placed: dict[str, Any]):
        self.unit, self.placed = unit, placed

    def __getattr__(self, name: str) -> Any:
        return self.placed.get(name)


def _get(data: Any, name: str) -> Any:
    return getattr(data, name, None)


def is_vehicle_type(data, entry) -> bool:
    kind = (entry.type if entry is not None else None) or data.type or ""
    return kind.startswith("vehicle:")


TESTS = "tests/unit/test_avbcw_deployment.py::"
DEMO = "tests/integration/test_avbcw_demo.py::"
COVERAGE = {
    "AVBCW.DEPLOY": ("implemented", f"{TESTS}test_sides_deploy_three_at_a_time; "
                     f"{TESTS}test_a_fourth_unit_in_a_row_while_the_other_side_waits; "
                     f"{TESTS}test_every_unit_deploys_at_the_start; {DEMO}test_the_legal_rest_is_judged",
                     "UnitDeployed in setup by side: runs of 3 in turn (fewer when a side has no more to deploy, more "
                     "when the other has none); every listed unit deployed by turn 1 but Ambush and not-arrived "
                     "units; a deployment later, not by Ambush: violation; Swift deployment (DB p.54) in a list: "
                     "`unverifiable`. Who deploys first is not in the text"),
    "AVBCW.BASE": ("implemented", f"{TESTS}test_figures_within_3_of_the_leader; {TESTS}test_units_do_not_intermix; "
                   f"{DEMO}test_the_legal_rest_is_judged",
                   "figures placed (`figures`, `figure_base`): each base within 3.0\" of the leader's by `measure`; "
                   "a footprint only: its farthest point within 3.0\" of the leader (\"extent within 3\" of the "
                   "leader\"), its frontage or depth beyond 3.0\" either side a violation, its corners only "
                   "`unverifiable`; at deployment no two units' extents overlap (vehicles interpenetrate); figures "
                   "recorded on a move: within 3\" again. The facing edge: every unit has a `facing`"),
    "AVBCW.AB.AMBUSH": ("implemented", f"{TESTS}test_ambush; tests/unit/test_avbcw_army.py::"
                        "test_points_of_equipment_and_abilities",
                        "not deployed in setup; deployed in turn 1 (`attrs.ambush`), no closer than 12.0\" to any "
                        "enemy on the table (by `measure`), with no own move that turn (\"as its move\"); bought in "
                        "its list (2 points, Foot Commander, Infantry or Support Team)"),
}
