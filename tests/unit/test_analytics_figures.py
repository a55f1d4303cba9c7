"""The analytics page's tabletop charts, as pure functions of the answers (dashboard/analytics_figures.py):
what each plots, from rows written as the folds would write them for the rulebooks' rules."""
from __future__ import annotations

from dashboard import analytics_figures as tt
from dashboard import ids
from dashboard.pages.analytics import TABLETOP_FIGURES, tabletop_figures
from projections.analytics_tabletop import ANSWERS, RULESETS


def empty() -> dict[str, list]:
    return {kind: [] for kind in ANSWERS}


def test_every_chart_says_when_there_is_nothing_to_show():
    for ruleset in ids.TABLETOP_CHARTS:
        for chart, fig in tabletop_figures(ruleset, empty()).items():
            assert not fig.data and "in the games shown" in fig.layout.annotations[0].text, chart
    assert set(TABLETOP_FIGURES) == {c for charts in ids.TABLETOP_CHARTS.values() for c in charts}
    assert set(RULESETS) == set(ids.TABLETOP_CHARTS)


def test_low_ammo_share_sums_the_games():
    # AVBCW, Low on ammo: "more '1's' than successful hits"; two games' rows for one type and turn add up.
    rows = [{"type": "lmg", "weapon": None, "turn": 2, "attacks": 3, "low_by_text": 1},
            {"type": "lmg", "weapon": None, "turn": 2, "attacks": 1, "low_by_text": 1}]
    fig = tt.low_ammo_figure({**empty(), "avbcw-low-ammo": rows})
    (bar,) = fig.data
    assert (bar.name, list(bar.x), list(bar.y), list(bar.text)) == ("lmg", [2], [0.5], ["2/4"])


def test_first_low_and_suppression_keep_the_units_that_never_ended():
    first = [{"game": "g", "unit": "u1", "type": "inf-regulars", "weapon": None, "first_low_turn": 3},
             {"game": "g", "unit": "u2", "type": "inf-regulars", "weapon": None, "first_low_turn": None}]
    (bar,) = tt.first_low_figure({**empty(), "avbcw-first-low": first}).data
    assert (list(bar.x), list(bar.y)) == (["3", "never"], [1, 1])
    # "remains suppressed until it succeeds a BRV test to move": one ended after 2 turns, one still on.
    supp = [{"turns": 2, "ended_by": "unsuppressed"}, {"turns": None, "ended_by": None}]
    bars = {b.name: (list(b.x), list(b.y)) for b in tt.suppression_figure({**empty(), "avbcw-suppression": supp}).data}
    assert bars == {"unsuppressed": (["2", "open"], [1, 0]), "still suppressed": (["2", "open"], [0, 1])}


def test_leadership_points_by_use_and_side():
    rows = [{"side": "royalist", "event": "placed", "use": None, "points": 4},
            {"side": "royalist", "event": "used", "use": "run-over", "points": 1},
            {"side": "socialist", "event": "returned", "use": None, "points": 2}]
    bars = {b.name: dict(zip(b.x, b.y)) for b in tt.leadership_figure({**empty(), "avbcw-leadership": rows}).data}
    assert bars["royalist"] == {"placed": 4, "returned": 0, "used: run-over": 1}
    assert bars["socialist"]["returned"] == 2


def test_breakdowns_against_odds_lost_turns_and_cards():
    # MOG, A.2 "In rough terrain 4-6": 3 of 6; the roll seen 2 of 4.
    rows = [{"game": "g", "unit": "l-1", "test": "breakdown", "terrain": "rough", "rolls": 4, "successes": 2,
             "odds": 0.5},
            {"game": "g", "unit": "l-1", "test": "restart", "terrain": "rough", "rolls": 2, "successes": 1, "odds": 0.5}]
    share, odds = tt.breakdown_figure({**empty(), "mog-breakdowns": rows}).data
    assert (list(share.y), list(share.text), list(odds.y)) == ([0.5], ["2/4"], [0.5])
    lost = [{"game": "g", "unit": "l-1", "lost_to_breakdown": 2, "lost_to_repair": 1}]
    broken, repairing = tt.lost_turns_figure({**empty(), "mog-lost-turns": lost}).data
    assert (list(broken.y), list(repairing.y)) == ([2], [1])
    cards = [{"card": "KH", "outcome": "critical", "draws": 2}, {"card": "AH", "outcome": "destroyed", "draws": 1},
             {"card": None, "outcome": "critical", "draws": 0}]
    bars = {b.name: dict(zip(b.x, b.y)) for b in tt.criticals_figure({**empty(), "mog-criticals": cards}).data}
    # D.2, a gun: "Face card- Criticals", "Ace of Hearts card- Destroyed"; the close combat critical has no card.
    assert bars == {"critical": {"AH": 0, "KH": 2}, "destroyed": {"AH": 1, "KH": 0}}
