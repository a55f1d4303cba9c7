"""Tabletop answers of `umpire sight` and `umpire reach` (domain/tabletop/queries.py), on the two
example logs of game-log-tabletop.md and variants of them. Expected numbers are worked out by hand
from the page's coordinates and the seed's words, cited at each test."""
from __future__ import annotations

import copy
import json
import math
import pytest

from domain.board.state import fold
from domain.tabletop import queries as q
from tests.conftest import SPEC

EXAMPLES = SPEC / "examples-tabletop"


def log(name: str) -> list[dict]:
    return [json.loads(line) for line in (EXAMPLES / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def board(lines, upto=None):
    return fold(lines, upto=upto)


@pytest.fixture(scope="module")
def avbcw():
    lines = log("avbcw-example")
    return board(lines), lines


@pytest.fixture(scope="module")
def mog():
    lines = log("mog-example")
    return board(lines), lines


def with_features(lines, *features):
    """The log with more TableDefined features (seq 2)."""
    changed = copy.deepcopy(lines)
    changed[1]["data"]["features"] += list(features)
    return changed


def default(b):
    return q.readings(b.options)


# ---------------------------------------------------------------- sight, Dux Bellorum

def test_the_car_sees_the_regulars_from_the_centre_of_its_front_edge(avbcw):
    """At seq 20 the car stands at (34.3, 21.0) facing 240 with a 2 x 4 hull; r-inf's 5 x 2 base
    at (24, 8) facing 0 spans x 21.5..26.5, y 7..9. "A Vehicle's line of sight is measured from the
    centre edge of the facing being fired from": r-inf bears about 218 from the car, within 45 of
    its facing (front arc, avbcw-arc=quadrant). Front edge centre = position + 2" along 240."""
    b, lines = avbcw
    answer = q.sight(b, lines, "s-car", "r-inf", default(b))
    front = (34.3 + 2 * math.sin(math.radians(240)), 21.0 + 2 * math.cos(math.radians(240)))
    assert answer.status == "clear" and answer.rule == "AVBCW.LOS"
    assert answer.origin.label == "F" and answer.origin.in_arc
    assert answer.origin.point == pytest.approx(front)
    # to the closest point of the target, (26.5, 9.0), rounded half-up to 0.1"
    expected = math.floor(math.dist(front, (26.5, 9.0)) * 10 + 0.5) / 10
    assert answer.distance == expected == 12.6


def test_infantry_see_from_their_leader_figure(avbcw):
    """ "A unit's line of sight is measured from its leader figure": r-inf's position (24, 8);
    to s-mil's base (y 21..23 at seq 20) the closest point is 13" away, the range the log's
    ShotFired records (seq 11: "range": 13.0)."""
    b, lines = avbcw
    answer = q.sight(b, lines, "r-inf", "s-mil", default(b))
    assert answer.origin.label == "leader" and answer.origin.point == (24.0, 8.0)
    assert answer.status == "clear" and answer.distance == 13.0 == lines[10]["data"]["range"]


def test_the_hedge_blocks_a_line_that_crosses_it(avbcw):
    """h-1 runs along x = 44 from y 30 to 46: "This LOS is blocked if this LOS ... Meets a linear
    obstacle or similar terrain (e.g. a hedge)"."""
    b, lines = avbcw
    answer = q.sight(b, lines, (40.0, 38.0), (47.0, 38.0), default(b))
    assert (answer.status, answer.result.blocker, answer.result.why) == ("blocked", "h-1", "linear-obstacle")
    assert answer.distance == 7.0
    beside = q.sight(b, lines, (40.0, 28.0), (47.0, 28.0), default(b))   # below the hedge's end at y 30
    assert beside.status == "clear"


@pytest.mark.parametrize("start, status, inches", [
    ((1.0, 35.0), "blocked", 10.0),    # across the whole wood, x 2..12
    ((9.0, 35.0), "clear", 3.0),       # 3.0" is not "more than 3""
    ((8.9, 35.0), "blocked", 3.1),
])
def test_more_than_three_inches_of_woodland_blocks(avbcw, start, status, inches):
    """w-1 spans x 2..12, y 30..40; a line along y = 35 to x = 14 holds (12 - x0) inches of it:
    "Passes through more than 3" of area terrain (e.g. a woodland)"."""
    b, lines = avbcw
    answer = q.sight(b, lines, start, (14.0, 35.0), default(b))
    assert answer.status == status and answer.result.area == inches
    assert answer.result.why == ("area-terrain" if status == "blocked" else "")


def test_a_friend_within_an_inch_of_the_line_blocks(avbcw):
    """From the car to (16, 22) every line passes over s-mil (x 21.5..26.5, y 21..23), the car's
    friend: "Passes within 1" of a friendly unit". The same line drawn from a point with no side
    has no friends to pass."""
    b, lines = avbcw
    answer = q.sight(b, lines, "s-car", (16.0, 22.0), default(b))
    assert (answer.status, answer.result.blocker, answer.result.why) == ("blocked", "s-mil", "friend")
    assert all(status == "blocked" for _, status in answer.others)
    origin = answer.origin.point
    assert q.sight(b, lines, origin, (16.0, 22.0), default(b)).status == "clear"
    assert q.sight(b, lines, origin, (16.0, 22.0), default(b), side="socialist").status == "blocked"


def test_over_a_hill_the_line_is_unchecked(avbcw):
    """game-log-tabletop.md, kinds table: "neither seed has hill rules, so LOS over hills is unchecked"."""
    b, lines = avbcw
    hilly = with_features(lines, {"id": "hl-1", "kind": "hill", "height": 1,
                                  "points": [[14.0, 2.0], [18.0, 2.0], [18.0, 6.0], [14.0, 6.0]]})
    hb = board(hilly)
    answer = q.sight(hb, hilly, (12.0, 4.0), (20.0, 4.0), default(hb))
    assert answer.status == "unchecked" and answer.result.blocker == "hl-1"


def test_range_follows_the_avbcw_range_reading(avbcw):
    """`avbcw-range`: `from-leader` (default) or `closest`. From s-mil's leader (24, 22) to r-inf's
    front edge (y 9) is 13.0; base to base (s-mil's near edge y 21) is 12.0."""
    b, lines = avbcw
    assert q.sight(b, lines, "s-mil", "r-inf", default(b)).distance == 13.0
    closest = q.readings(b.options, ["avbcw-range=closest"])
    assert q.sight(b, lines, "s-mil", "r-inf", closest).distance == 12.0


# ---------------------------------------------------------------- sight, Landships of Mogdonazia

def test_mogdonazia_has_no_sight_rule_and_measures_closest_point(mog):
    """The seed has no LOS rule: `unchecked`, no rule. `measure` applies: l-1 at (24, 24) facing 90
    (6" deep along +x: x 21..27) to r-1 at (40, 24) facing 270 (2" deep: x 39..41) is 12.0, the
    range the log's ShotFired records (seq 16); `measure=centre` gives 40 - 24 = 16.0."""
    b, lines = mog
    answer = q.sight(b, lines, "l-1", "r-1", default(b))
    assert answer.status == "unchecked" and answer.rule is None
    assert "no line-of-sight rule" in answer.reason
    assert answer.distance == 12.0 == lines[15]["data"]["range"]
    centre = q.readings(b.options, ["measure=centre"])
    assert q.sight(b, lines, "l-1", "r-1", centre).distance == 16.0


# ---------------------------------------------------------------- errors

def test_unknown_units_undeployed_units_and_points_off_the_table_are_refused(avbcw):
    b, lines = avbcw
    with pytest.raises(q.QueryError, match="no unit 'nobody'"):
        q.sight(b, lines, "nobody", "r-inf", default(b))
    with pytest.raises(q.QueryError, match="off the table"):   # the table is 48" x 48"
        q.sight(b, lines, "s-car", (48.5, 10.0), default(b))
    early = board(lines, upto=5)            # s-car listed at seq 4, deployed at seq 7
    with pytest.raises(q.QueryError, match="s-car is not yet deployed"):
        q.reach_region(early, lines[:5], "s-car")
    with pytest.raises(q.QueryError, match="avbcw-arc"):
        q.readings([], ["avbcw-arc=wide"])
    with pytest.raises(q.QueryError, match="these answers read"):
        q.readings([], ["mog-bomb=hit-at-offset"])


def test_parse_place_reads_points_in_inches():
    assert q.parse_place("12.5,40") == (12.5, 40.0)
    assert q.parse_place("s-car") == "s-car"


# ---------------------------------------------------------------- reach

def test_infantry_reach_a_circle_of_their_mv(avbcw):
    """r-inf's ArmyListed stats.MV is "6": a 6" circle about (24, 8), wholly on the table; its area
    is pi * 36 (113.1 sq in, to the polygon's 0.1)."""
    b, lines = avbcw
    answer = q.reach_region(b, lines, "r-inf")
    assert answer.allowance.inches == 6.0 and "stats.MV" in answer.allowance.source
    assert answer.area == pytest.approx(math.pi * 36, abs=0.15)
    assert answer.bounds == [18.0, 2.0, 30.0, 14.0]
    assert answer.limits == ()
    assert answer.approximation == "approximation: straight-line distance, terrain costs not applied"


def test_a_wheeled_car_reaches_only_the_good_going_it_stands_on(avbcw):
    """dux-bellorum-avbcw.txt, Wheeled vehicles: "They can only travel off-road on ground designated
    as good enough for wheeled vehicles". The car (MV "24", drive wheeled) at (34.3, 21) lies on
    gg-1 (x 30..42, y 15..35) whose farthest corner is 16" away: it reaches all of gg-1, 12 x 20."""
    b, lines = avbcw
    answer = q.reach_region(b, lines, "s-car")
    assert answer.allowance.inches == 24.0
    assert answer.area == 240.0 and answer.bounds == [30.0, 15.0, 42.0, 35.0]
    assert any("AVBCW.VEH.WHEELED" in limit for limit in answer.limits)
    assert answer.moved_this_turn == 10.0      # seq 20: 8.0 + 2.0 (game-log-tabletop.md, Examples)


def test_impassable_ground_is_cut_out_and_the_table_edge_clips(avbcw):
    """An `impassable` polygon ("passable": false) inside the 6" circle is taken out whole; a unit
    near the edge is clipped at x = 0."""
    b, lines = avbcw
    blocked = with_features(lines, {"id": "imp-1", "kind": "impassable",
                                    "points": [[25.0, 9.5], [27.0, 9.5], [27.0, 11.5], [25.0, 11.5]]})
    bb = board(blocked)
    answer = q.reach_region(bb, blocked, "r-inf")
    assert answer.area == pytest.approx(math.pi * 36 - 4.0, abs=0.15)
    assert "impassable imp-1" in answer.limits
    edge = q.reach_region(b, lines, "r-inf", given=30.0)     # 24 - 30 < 0: clipped at x 0 and y 0
    assert edge.bounds[0] == 0.0 and edge.bounds[1] == 0.0 and edge.bounds[2] == 48.0
    assert any(limit.startswith("the table edge") for limit in edge.limits)


def test_a_rolled_allowance_is_unknown_until_given(mog):
    """Landships of Mogdonazia: "roll a D6. This is the number of dice it can use for movement";
    the dice kept depend on the ground, so no allowance is guessed. Given 30": l-1 at (24, 24) on a
    72" x 48" table reaches x 0..54, y 0..48."""
    b, lines = mog
    unknown = q.reach_region(b, lines, "l-1")
    assert unknown.allowance.inches is None and unknown.region is None
    assert "MOG.VEH.SPEED.DICE" in unknown.allowance.source and "--allowance" in unknown.allowance.source
    given = q.reach_region(b, lines, "l-1", given=30.0)
    assert given.bounds == [0.0, 0.0, 54.0, 48.0]
    assert given.to_json()["region"]["type"] == "Polygon"
    with pytest.raises(q.QueryError, match="--allowance"):
        q.reach_region(b, lines, "l-1", given=-1.0)


def test_a_turret_weapon_is_sighted_from_the_turret_as_the_audit_sights_it():
    # dux-bellorum-avbcw.txt, Vehicles: "Turrets have a 360° fire arc (unless otherwise specified)
    # measured from the turret center"; the Rolls Royce's row prints "LMG (T)". With avbcw-arc=narrow
    # the militia, about 30° off the bow, lies in no hull arc, yet the turret bears (the acceptance
    # case shoot-turret-all-round-with-narrow-arcs, which the audit judges ok).
    from tests.conftest import ROOT
    path = ROOT / "tests" / "acceptance" / "cases_avbcw" / "shoot-turret-all-round-with-narrow-arcs.jsonl"
    lines = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]
    b = board(lines, upto=10)
    answer = q.sight(b, lines[:10], "r-rr", "s-mil", q.readings(b.options))
    assert answer.origin.label == "turret" and answer.origin.in_arc
    assert answer.origin.point == (24.0, 8.0)          # no turret offset given: the hull's centre
    shot = q.shot_view(b, lines[:10], lines[9]["data"], q.readings(b.options))
    assert shot.arc is None                             # 360°: no wedge to draw
