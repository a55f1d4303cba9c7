"""The analytics page's charts of the machines, as pure functions of the answers (dashboard/machine_figures.py):
what each plots, from rows written as projections/analytics_machines.py answers them for the rulebook's rules."""
from __future__ import annotations

from dashboard import ids
from dashboard import machine_figures as mf
from dashboard.pages.analytics import MACHINE_FIGURES, machine_figures
from projections.analytics_machines import ANSWERS


def empty() -> dict[str, list]:
    return {kind: [] for kind in ANSWERS}


def test_every_chart_says_when_there_is_nothing_to_show():
    for chart, fig in machine_figures(empty()).items():
        assert not fig.data and "in the games shown" in fig.layout.annotations[0].text, chart
    assert set(MACHINE_FIGURES) == set(ids.MACHINE_CHARTS)


def breakdown_row(kind: str, checks: int, broke: int, expected, even: int, second: int) -> dict:
    return {"type": kind, "class": "tank", "checks": checks, "breakdowns": broke, "expected": expected,
            "odds_from": "test", "second_dice": second, "even": even, "expected_even": second / 2}


def test_breakdowns_seen_against_expected_and_the_even_second_die():
    # IM, Tank Breakdowns: "If the result is even" (one in two); the CV 29's expected count from a pack.
    rows = [breakdown_row("CV 29", 4, 2, 1.3333, 1, 2), breakdown_row("Mark IV male", 3, 1, None, 0, 1)]
    seen, expected, even, expected_even = mf.breakdowns_figure({**empty(), "vehicle-breakdowns": rows}).data
    assert (list(seen.y), list(seen.text)) == ([2, 1], ["2 of 4 checks", "1 of 3 checks"])
    assert list(expected.y) == [1.3333, None]          # no table for the Mark IV: no marker, never a guess
    assert (list(even.y), list(expected_even.y)) == ([1, 0], [1.0, 0.5])


def test_without_any_table_the_chart_says_why_nothing_is_expected():
    rows = [breakdown_row("Mark IV male", 3, 1, None, 0, 1)]
    fig = mf.breakdowns_figure({**empty(), "vehicle-breakdowns": rows})
    assert "not in the text" in fig.layout.annotations[0].text


def test_fascines_sum_the_games_of_a_side_and_type():
    # IM, Tanks and Fascines: "On a result of 3 to 6 ... the fascine drops" (4 in 6 of each drop roll).
    row = {"game": "g1", "side": "british", "type": "Mark IV male", "carried": 1, "drop_rolls": 2, "dropped": 1,
           "expected_dropped": 1.3333, "unjammed": 1, "crossings": 1}
    fig = mf.fascines_figure({**empty(), "fascines": [row, {**row, "game": "g2"}]})
    bars = {t.name: list(t.y) for t in fig.data}
    assert bars["drop rolls"] == [4] and bars["dropped"] == [2] and bars["crossings over them"] == [2]
    assert bars["expected drops (3 to 6)"] == [2.6666]


def test_losses_stack_by_cause():
    rows = [{"type": "Mark IV female", "cause": "anti-tank", "losses": 2},
            {"type": "Mark IV female", "cause": "breakdown", "losses": 1},
            {"type": "CV 29", "cause": "mines", "losses": 1}]
    bars = {t.name: dict(zip(t.x, t.y)) for t in mf.losses_figure({**empty(), "losses-by-cause": rows}).data}
    assert bars == {"anti-tank": {"CV 29": 0, "Mark IV female": 2}, "mines": {"CV 29": 1, "Mark IV female": 0},
                    "breakdown": {"CV 29": 0, "Mark IV female": 1}}
