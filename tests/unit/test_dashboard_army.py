"""The army list page's verdicts (dashboard/pages/army.py), the same as `umpire army check`'s:
each error names the unit, the rule id, the count against its limit and the rulebook's words."""
from __future__ import annotations

import base64
import json

from dashboard.pages.army import army_rulesets, checked, uploaded_text
from tests.integration.test_army_cli import LEGAL


def text_of(component) -> str:
    """Every string inside a Dash component tree, joined."""
    if isinstance(component, (str, int, float)):
        return str(component)
    children = getattr(component, "children", None)
    if children is None:
        return ""
    children = children if isinstance(children, list) else [children]
    return " ".join(text_of(c) for c in children if c is not None)


def test_a_legal_list_shows_its_points():
    # game-log-tabletop.md, Examples: Regulars 5 + Bayonets 1 = 6 points
    shown = text_of(checked(json.dumps(LEGAL), "dux-bellorum-avbcw", ""))
    assert "Legal: 1 units, 6 points" in shown and "r-inf 6" in shown


def test_each_error_shows_unit_rule_count_limit_and_the_rulebooks_words():
    # "Regulars 8-10" figures; "Bombs @ 1 point (Foot Commander, or any Infantry units only)"
    wrong = json.loads(json.dumps(LEGAL))
    wrong["units"][0]["figures"] = 12
    wrong["units"].append({"unit": "r-cav", "type": "cav-regulars", "figures": 6, "stats": {},
                           "special": ["AVBCW.EQ.BOMBS"], "pts": 5})
    wrong["total"] = 11
    shown = text_of(checked(json.dumps(wrong), "dux-bellorum-avbcw", ""))
    assert "Not legal: 2 error(s)" in shown
    assert "r-inf AVBCW.UNIT.STATS violation 12 8-10" in shown
    assert "r-cav AVBCW.EQ.BOMBS" in shown and "Bombs @ 1 point (Foot Commander, or any Infantry units only)" in shown


def test_a_reading_settles_an_ambiguous_cost():
    # AVBCW.Z 1: 'Heavy mortar PTS is printed "3 4"' (avbcw-heavy-mortar-pts)
    heavy = {"side": "royalist", "units": [{"unit": "hm", "type": "mortar-heavy", "figures": 5, "stats": {},
                                            "special": [], "pts": 4}], "army_rules": [], "total": 4}
    assert "ambiguous" in text_of(checked(json.dumps(heavy), "dux-bellorum-avbcw", ""))
    assert "Legal" in text_of(checked(json.dumps(heavy), "dux-bellorum-avbcw", "avbcw-heavy-mortar-pts=4"))
    assert "Not legal" in text_of(checked(json.dumps(heavy), "dux-bellorum-avbcw", "avbcw-heavy-mortar-pts=3"))
    assert "readings:" in text_of(checked(json.dumps(heavy), "dux-bellorum-avbcw", "avbcw-heavy-mortar-pts=5"))


def test_text_that_is_not_an_army_list_is_named_by_line_and_field():
    assert text_of(checked('{"side": "royalist",\n "units": [\n', "dux-bellorum-avbcw", "")).startswith(
        "line 3: (json): malformed JSON")
    shown = text_of(checked('{"side": "royalist",\n "units": 7}', "dux-bellorum-avbcw", ""))
    assert shown.startswith("line 2: units")
    assert "no army lists" in text_of(checked(json.dumps(LEGAL), "infernal-machines", ""))
    assert "Paste or load" in text_of(checked("  ", "dux-bellorum-avbcw", ""))


def test_an_uploaded_file_is_read_as_text_and_the_rule_systems_with_lists_are_offered():
    data_url = "data:application/json;base64," + base64.b64encode(json.dumps(LEGAL).encode()).decode()
    assert json.loads(uploaded_text(data_url)) == LEGAL
    assert uploaded_text("data:application/octet-stream;base64," + base64.b64encode(b"\xff\xfe").decode()) is None
    assert [rid for rid, _ in army_rulesets()] == ["dux-bellorum-avbcw"]
