"""`umpire import` refuses a location its type refuses, exit 2 naming line and field, for an event
type of a rule system's own as for Umpire's (domain/locations.py: the checks read the types)."""
from __future__ import annotations

from typer.testing import CliRunner

from api.cli import app
from tests.location_helpers import flare_rules, hex_log, skirmish_rules, tabletop_log  # noqa: F401  (fixtures)

runner = CliRunner()


def refused(tmp_path, texts: list[str]) -> str:
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(texts) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["import", str(log), "--db", str(tmp_path / "u.db")])
    assert result.exit_code == 2, result.output
    return result.stderr.strip().splitlines()[-1]


def test_a_hex_in_a_tabletop_events_point_exits_2_naming_it(tmp_path, skirmish_rules):
    # game-log-tabletop.md: "a hex in a tabletop game, or a point in a hex game, is a format error".
    message = refused(tmp_path, tabletop_log(skirmish_rules, ("ObjectiveSeized", {"unit": "r-1", "point": "5:6613"})))
    assert "line 5: data (ObjectiveSeized).point" in message and "hex location" in message


def test_a_point_off_the_table_exits_2_naming_it(tmp_path, skirmish_rules):
    # game-log-tabletop.md, Geometry: "a point off the table is a format error" (48" x 48" here).
    seized = {"unit": "r-1", "point": {"x": 12.0, "y": 30.0}, "signals": [{"at": {"x": 12.0, "y": 48.2}}]}
    message = refused(tmp_path, tabletop_log(skirmish_rules, ("ObjectiveSeized", seized)))
    assert "line 5: data.signals[0].at: (12.0, 48.2) is off the table" in message


def test_a_bad_hex_exits_2_naming_it(tmp_path, flare_rules):
    # game-log.md, Locations: "The four digits are column (two digits) then row (two digits)".
    message = refused(tmp_path, hex_log(flare_rules, ("FlareFired", {"unit": "b-1", "target": "5:661"})))
    assert "line 5: data (FlareFired).target" in message and "not a hex location" in message
