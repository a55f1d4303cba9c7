"""`umpire army check LIST.json`: "exit 0 when legal and 1 with each error naming the unit, the
rule id, the count against its limit and the rulebook's words" (issue 13); 2 for a file that is
not an ArmyListed event's data, naming the line and the field."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app

# game-log-tabletop.md, Examples: the royalist list (Regulars 5 + Bayonets 1 = 6)
LEGAL = {"side": "royalist", "units": [
    {"unit": "r-inf", "type": "inf-regulars", "figures": 10,
     "stats": {"MV": "6", "BRV": "8", "MELEE": "4(1)", "SHOOT": "6", "PRO": "5", "COH": "5"},
     "special": ["AVBCW.EQ.BAYONETS"], "pts": 6}], "army_rules": [], "total": 6}


def run(tmp_path, text: str, *args: str):
    path = tmp_path / "list.json"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["army", "check", str(path), *args])


def test_a_legal_list_exits_0_with_its_points(tmp_path):
    result = run(tmp_path, json.dumps(LEGAL))
    assert result.exit_code == 0, result.output
    assert "legal: 1 units, 6 points" in result.stdout


def test_each_error_is_one_line_with_rule_count_limit_and_words(tmp_path):
    # "Bombs @ 1 point (Foot Commander, or any Infantry units only)"; "Regulars 8-10"
    wrong = json.loads(json.dumps(LEGAL))
    wrong["units"][0]["figures"] = 12
    wrong["units"].append({"unit": "r-cav", "type": "cav-regulars", "figures": 6, "stats": {},
                           "special": ["AVBCW.EQ.BOMBS"], "pts": 5})
    wrong["total"] = 11
    result = run(tmp_path, json.dumps(wrong))
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2
    assert "r-inf: AVBCW.UNIT.STATS: 12 figures (12 against 8-10)" in lines[0]
    assert "r-cav: AVBCW.EQ.BOMBS" in lines[1] and "\"Bombs @ 1 point (Foot Commander, or any Infantry units only)\"" in lines[1]
    report = json.loads(run(tmp_path, json.dumps(wrong), "--format", "json").stdout)
    assert [(e["unit"], e["rule"], e["count"], e["limit"]) for e in report["errors"]] == \
        [("r-inf", "AVBCW.UNIT.STATS", 12, "8-10"), ("r-cav", "AVBCW.EQ.BOMBS", "cav-regulars", "foot-commander / infantry")]


def test_an_ambiguous_cost_is_shown_not_failed_and_a_reading_settles_it(tmp_path):
    # AVBCW.Z 1: 'Heavy mortar PTS is printed "3 4"'
    heavy = {"side": "royalist", "units": [{"unit": "hm", "type": "mortar-heavy", "figures": 5, "stats": {},
                                            "special": [], "pts": 4}], "army_rules": [], "total": 4}
    result = run(tmp_path, json.dumps(heavy))
    assert result.exit_code == 0 and "ambiguous: hm: AVBCW.UNIT.STATS" in result.stdout
    assert run(tmp_path, json.dumps(heavy), "--interpretation", "avbcw-heavy-mortar-pts=3").exit_code == 1


def test_not_json_or_not_an_army_list_exits_2_naming_line_and_field(tmp_path):
    result = run(tmp_path, '{"side": "royalist",\n "units": [\n')
    assert result.exit_code == 2 and "line 3: (json): malformed JSON" in result.stderr
    text = ('{"side": "royalist",\n "units": [\n  {"unit": "r-inf", "type": "inf-regulars",\n'
            '   "stats": {}, "special": [], "pts": "five"}\n ],\n "army_rules": [], "total": 5}\n')
    result = run(tmp_path, text)
    assert result.exit_code == 2 and "line 4: units.0.pts: Input should be a valid integer" in result.stderr
    result = run(tmp_path, json.dumps(LEGAL), "--ruleset", "no-such-rules")
    assert result.exit_code == 2 and "--ruleset" in result.stderr
    result = run(tmp_path, json.dumps(LEGAL), "--ruleset", "infernal-machines")
    assert result.exit_code == 2 and "no army lists" in result.stderr
