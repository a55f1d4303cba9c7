"""The machines' demo game (fixtures/games/riqueval-1918-st-quentin-canal.jsonl, README.md there): a Bridge Layer's
bridge over the St Quentin Canal, breakdowns, a fascine and an anti-tank rifle, and a ruled dispute. Each
expectation quotes the Infernal Machines passage it comes from."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from tests.conftest import FIXTURE_GAMES, ROOT

runner = CliRunner()
DEMO = FIXTURE_GAMES / "riqueval-1918-st-quentin-canal.jsonl"
VEHICLES = ROOT / "domain" / "rules" / "infernal_machines" / "vehicles.json"   # the catalogue, per nation and year
FAILING = {"violation", "mismatch", "missing-roll"}


def lines():
    return [json.loads(t) for t in DEMO.read_text(encoding="utf-8").splitlines()]


def audit(*extra):
    """The exit status and every rule application (`--all`: the ok ones too)."""
    result = runner.invoke(app, ["audit", str(DEMO), "--all", "--format", "json", *extra])
    return result.exit_code, json.loads(result.output)["applications"]


def at(findings, rule):
    return [(f["seq"], f["verdict"]) for f in findings if f["rule"] == rule]


def test_the_audit_gives_the_disputed_engine_hit_and_only_the_charts_the_pack_lacks():
    # Anti-Tank Rifles: "on a result of 4 or 5, the engine is hit. If the engine is hit, a third die result of 1 or 2
    # indicates a permanent halt until repaired": a third die of 5 is not covered (IM.SW.ATR.ENGINE_THIRD).
    code, findings = audit()
    log = lines()
    dispute = next(l for l in log if l["type"] == "DisputeRaised")
    third = log[dispute["data"]["about"] - 1]
    assert code == 0 and not [f for f in findings if f["verdict"] in FAILING]
    assert third["data"]["purpose"] == "IM.SW.ATR.CRIT" and third["data"]["result"] == 5
    assert [(f["seq"], f["rule"]) for f in findings if f["verdict"] == "ambiguous"] == [(third["seq"], "IM.SW.ATR.CRIT")]
    # the ATCRT and the SACRT are Landships! charts: the "sample" pack holds neither
    assert {f["rule"] for f in findings if f["verdict"] == "unverifiable"} == {"LS.ATCRT", "LS.SACRT"}
    # the reading the referee ruled, given to the audit, leaves nothing ambiguous
    code, ruled = audit("--interpretation", "IM.SW.ATR.ENGINE_THIRD=runs-on")
    assert code == 0 and not [f for f in ruled if f["verdict"] == "ambiguous"]


def test_the_dispute_is_ruled_after_the_game_as_a_house_rule():
    log = lines()
    disputes = [l["data"] for l in log if l["type"] == "DisputeRaised"]
    rulings = [l["data"] for l in log if l["type"] == "RulingIssued"]
    assert len(disputes) == 1 and len(rulings) == 1 and log[-1]["type"] == "RulingIssued"
    assert (rulings[0]["dispute"], rulings[0]["decision"], rulings[0]["rule"]) == \
        (disputes[0]["dispute"], "house-rule", "IM.SW.ATR.CRIT")
    assert "IM.SW.ATR.ENGINE_THIRD=runs-on" in rulings[0]["note"]


def test_the_bridge_layer_bridges_the_canal_and_its_side_crosses_it_as_clear():
    # The Mk. V** "Bridge Layer" (1918): "When the tank reaches a river or trench hexagon, it may stop and deploy the
    # bridge across the hexagon ... Friendly units and vehicles may cross the bridge, treating the hexagon as clear
    # terrain." The sample pack gives tracked vehicles no way into a river: only the bridge lets them over.
    log = lines()
    start = log[0]["data"]
    entry = json.loads(VEHICLES.read_text(encoding="utf-8"))["vehicles"]["mk-v-bridge-layer"]
    assert (entry["nation"], entry["year"]) == (start["sides"]["british"]["nation"], int(start["date"][:4]))
    _, findings = audit()
    laid = next(l for l in log if l["type"] == "MarkerPlaced" and l["data"]["marker"] == "bridge")
    river = next(l for l in log if l["type"] == "MapDefined")["data"]["hexes"][laid["data"]["location"]]
    assert river["terrain"] == "river" and (laid["seq"], "ok") in at(findings, "IM.VEH.BRIDGELAYER.DEPLOY")
    over = [l["seq"] for l in log if l["type"] == "UnitMoved" and laid["data"]["location"] in l["data"]["path"][1:]]
    assert len(over) >= 4 and all((seq, "ok") in at(findings, "IM.VEH.BRIDGELAYER.DEPLOY") for seq in over)


def test_the_breakdown_the_fascine_and_the_mark_v_over_the_wide_trench():
    # Tank Breakdowns: "If the result is even, the tank in question breaks down for the next turn only and, after that
    # turn, is considered automatically repaired." Tanks and Fascines: "On a result of 3 to 6 ... the fascine drops
    # into the trench ... On a result of 1 to 2, the fascine is jammed ... On a result of 1 to 4, the crew succeeds";
    # "the British Mk. V and Mk. VIII tanks may cross extra wide trenches without using a fascine".
    log = lines()
    _, findings = audit()
    rolls = {p: [(l["turn"], l["data"]["result"]) for l in log if l["type"] == "DieRolled" and l["data"]["purpose"] == p]
             for p in ("IM.TANK.BREAKDOWN", "IM.TANK.FASCINE.DROP", "IM.TANK.FASCINE.UNJAM", "IM.SW.ATR.CRIT")}
    assert rolls == {"IM.TANK.BREAKDOWN": [(1, 4)], "IM.TANK.FASCINE.DROP": [(2, 2), (4, 5)],
                     "IM.TANK.FASCINE.UNJAM": [(3, 3)], "IM.SW.ATR.CRIT": [(1, 4), (1, 5)]}
    moves = {l["turn"] for l in log if l["type"] == "UnitMoved" and l["data"]["unit"] == "b-mk5"}
    assert moves == {1, 3}                        # broken down in turn 1: still in turn 2, repaired in turn 3
    assert [v for _, v in at(findings, "IM.TANK.BREAKDOWN")] == ["ok"]
    assert {v for _, v in at(findings, "IM.TANK.FASCINE.DROP")} == {"ok"}
    assert [v for _, v in at(findings, "IM.TANK.FASCINE.EXEMPT")] == ["ok"]
    weather = at(findings, "IM.ENV.WEATHER.ROLL")   # "on 6 to 10 it is fair": the d10 of 7
    assert weather == [(next(l["seq"] for l in log if l["type"] == "WeatherSet"), "ok")]
