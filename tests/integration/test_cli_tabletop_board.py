"""`umpire sight` and `umpire reach` on the two tabletop example logs of game-log-tabletop.md,
through the CLI: the answers in text and JSON, and the one-line errors (exit 2)."""
from __future__ import annotations

import json

import pytest

from tests.conftest import SPEC
from tests.integration.test_cli_newcomer import assert_one_line_error, invoke

TABLETOP = SPEC / "examples-tabletop"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    store = str(tmp_path_factory.mktemp("tabletop") / "umpire.db")
    for name in ("avbcw-example", "mog-example"):
        result = invoke("import", TABLETOP / f"{name}.jsonl", "--db", store)
        assert result.exit_code == 0, result.output
    return store


def as_json(*args):
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_sight_from_the_car_to_the_regulars_at_seq_20(db):
    """Clear under AVBCW.LOS, from the centre of the car's front edge, 12.6" to r-inf's closest
    point (worked out in tests/unit/test_tabletop_queries.py from the page's coordinates)."""
    out = as_json("sight", "avbcw-example", "s-car", "r-inf", "--at", "20", "--db", db)
    assert (out["status"], out["rule"], out["distance"]) == ("clear", "AVBCW.LOS", 12.6)
    assert out["origin"]["from"] == "F"
    text = invoke("sight", "avbcw-example", "s-car", "r-inf", "--db", db).stdout
    assert "clear" in text and "[AVBCW.LOS]" in text and '12.6"' in text and "front edge centre" in text


def test_sight_between_points_is_blocked_by_the_hedge_and_the_wood(db):
    """h-1 at x = 44: "Meets a linear obstacle"; w-1 (x 2..12): 10" of it is "more than 3" of area terrain"."""
    hedge = as_json("sight", "avbcw-example", "40,38", "47,38", "--db", db)
    assert (hedge["status"], hedge["blocker"], hedge["why"]) == ("blocked", "h-1", "linear-obstacle")
    wood = as_json("sight", "avbcw-example", "1,35", "13,35", "--db", db)
    assert (wood["status"], wood["why"], wood["area_terrain"]) == ("blocked", "area-terrain", 10.0)


def test_a_point_takes_a_side_and_the_readings_can_be_chosen(db):
    """s-mil (x 21.5..26.5, y 21..23) is a socialist friend 'within 1"' of a line along y = 22."""
    alone = as_json("sight", "avbcw-example", "33,22", "16,22", "--db", db)
    assert alone["status"] == "clear"
    sided = as_json("sight", "avbcw-example", "33,22", "16,22", "--side", "socialist", "--db", db)
    assert (sided["status"], sided["blocker"]) == ("blocked", "s-mil")
    closest = as_json("sight", "avbcw-example", "s-mil", "r-inf", "--interpretation", "avbcw-range=closest",
                      "--db", db)
    assert closest["distance"] == 12.0       # base edge y 21 to base edge y 9


def test_sight_in_mogdonazia_is_unchecked_with_the_reason(db):
    out = as_json("sight", "mog-example", "l-1", "r-1", "--db", db)
    assert out["status"] == "unchecked" and out["rule"] is None and "no line-of-sight rule" in out["reason"]
    assert out["distance"] == 12.0           # the ShotFired range of seq 16


def test_reach_of_the_car_is_the_good_going(db):
    """Wheeled: "They can only travel off-road on ground designated as good enough": all of gg-1."""
    out = as_json("reach", "avbcw-example", "s-car", "--db", db)
    assert out["allowance"] == 24.0 and out["area"] == 240.0 and out["bounds"] == [30.0, 15.0, 42.0, 35.0]
    assert out["region"]["type"] == "Polygon"
    assert out["approximation"] == "approximation: straight-line distance, terrain costs not applied"
    text = invoke("reach", "avbcw-example", "s-car", "--db", db).stdout
    assert "area 240.0 sq in" in text and "x 30.0..42.0, y 15.0..35.0" in text
    assert "approximation: straight-line distance, terrain costs not applied" in text


def test_reach_in_mogdonazia_needs_an_allowance(db):
    unknown = as_json("reach", "mog-example", "l-1", "--db", db)
    assert unknown["allowance"] is None and unknown["region"] is None and "--allowance" in unknown["allowance_from"]
    given = as_json("reach", "mog-example", "l-1", "--allowance", "30", "--db", db)
    assert given["bounds"] == [0.0, 0.0, 54.0, 48.0]     # (24, 24) +- 30 on a 72" x 48" table


@pytest.mark.parametrize("args, words", [
    (["sight", "avbcw-example", "nobody", "r-inf"], ["no unit 'nobody'"]),
    (["sight", "avbcw-example", "s-car", "50,3"], ["off the table"]),
    (["sight", "avbcw-example", "s-car", "r-inf", "--at", "5"], ["s-car is not yet deployed"]),
    (["sight", "avbcw-example", "5:0101", "r-inf"], ["hex location", "inches"]),
    (["sight", "avbcw-example", "s-car", "r-inf", "--observer", "aircraft"], ["hex games"]),
    (["sight", "avbcw-example", "s-car", "r-inf", "--interpretation", "avbcw-arc=wide"], ["avbcw-arc"]),
    (["reach", "avbcw-example", "nobody"], ["no unit 'nobody'"]),
    (["reach", "avbcw-example", "s-car", "--at", "5"], ["not yet deployed"]),
    (["reach", "mog-example", "l-1", "--allowance", "-2"], ["--allowance"]),
])
def test_errors_are_one_line_and_exit_2(db, args, words):
    assert_one_line_error(invoke(*args, "--db", db), *words)
