"""Direct fire: the facts of a shot and the checks every shot gets (direct_fire.py)."""
from __future__ import annotations

from domain.rules.infernal_machines import direct_fire
from domain.rules.infernal_machines.direct_fire import Term, expected_firepower, fire_facts
from tests.board_helpers import BoardLog, failing, verdicts


def shot(phase="offensive-small-arms-fire", active="british", side="british", firepower=4, rng=3,
         firer_range=6, cls="infantry-platoon", roll=True, mods=(), at="5:0502", target="5:0505", **attrs):
    g = BoardLog()
    g.add("UnitDeployed", {"unit": "b1", "class": cls, "name": "b1", "location": at, "firepower": 4,
                           "range": firer_range, "morale": 4, "attrs": attrs}, side="british")
    g.add("UnitDeployed", {"unit": "g1", "class": "infantry-platoon", "name": "g1", "location": target,
                           "firepower": 4, "range": 6, "morale": 4}, side="german")
    g.at(1, phase, active)
    g.roll("IM.SPOT.ROLL", 1, "b1", side, die="d10")
    g.add("Spotted", {"spotter": "b1", "target": target, "spotted": True}, side=side)
    fired = g.add("SmallArmsFired", {"attack": "a1", "firers": ["b1"], "target": target, "firepower": firepower,
                                     "range": rng}, side=side)["seq"]
    if roll:
        g.roll("LS.SACRT", 4, "a1", side, modifiers=[{"value": v, "why": "x"} for v in mods])
    resolved = g.add("SmallArmsResolved", {"attack": "a1", "results": [{"unit": "g1", "result": "no-effect"}]},
                     side=side)["seq"]
    return g, fired, resolved


def test_small_arms_fire_is_made_in_the_fire_phases():
    # Landships! sequence of play, as the text uses it ("during the defensive or offensive small arms
    # fire phases", Mortar fire procedure): not in a movement phase
    g, fired, _ = shot()
    assert verdicts(g.audit(), "IM.CORE.PHASE.FIRE", fired) == ["ok"]
    g, fired, _ = shot(phase="first-foot-movement")
    assert failing(g.audit(), fired)["IM.CORE.PHASE.FIRE"] == "violation"


def test_defensive_fire_is_the_other_players_and_offensive_fire_the_active_players():
    # Running: "If fired upon during a defensive fire phase, running units ..." (the moving player's
    # units are fired on by the other player in the defensive phase)
    g, fired, _ = shot(phase="defensive-small-arms-fire", active="german")
    assert verdicts(g.audit(), "IM.CORE.SIDE.FIRE", fired) == ["ok"]
    g, fired, _ = shot(phase="defensive-small-arms-fire", active="british")
    assert failing(g.audit(), fired) == {"IM.CORE.SIDE.FIRE": "violation"}
    g, fired, _ = shot(phase="offensive-small-arms-fire", active="german")
    assert failing(g.audit(), fired) == {"IM.CORE.SIDE.FIRE": "violation"}


def test_the_range_is_counted_in_hexes_and_within_the_printed_range():
    # 5:0502 to 5:0505 is three hexes down one column
    g, fired, _ = shot(rng=3)
    assert verdicts(g.audit(), "IM.CORE.RANGE.COUNT", fired) == ["ok"]
    g, fired, _ = shot(rng=2)
    assert failing(g.audit(), fired) == {"IM.CORE.RANGE.COUNT": "mismatch"}
    g, fired, _ = shot(firer_range=2)
    assert failing(g.audit(), fired) == {"IM.CORE.RANGE": "violation"}


def test_a_rifle_platoon_fires_at_most_its_printed_firepower():
    g, fired, _ = shot(firepower=4)
    assert verdicts(g.audit(), "IM.CORE.FIREPOWER", fired) == ["ok"]
    g, fired, _ = shot(firepower=5)
    assert failing(g.audit(), fired) == {"IM.CORE.FIREPOWER": "violation"}
    # an MG platoon may claim the machine gun bonus, a Landships! value the text does not give
    g, fired, _ = shot(firepower=5, cls="mg-platoon")
    assert failing(g.audit(), fired) == {"IM.CORE.FIREPOWER": "unverifiable"}


def test_a_small_arms_attack_is_resolved_with_its_sacrt_roll():
    g, _, resolved = shot(roll=False)
    assert verdicts(g.audit(), "LS.SACRT", resolved) == ["missing-roll"]
    g, _, resolved = shot(phase="offensive-anti-tank-fire", roll=False)
    assert "LS.SACRT" not in failing(g.audit(), resolved)   # blast power reuses the anti-tank d10


def test_terms_of_other_modules_feed_the_checks(monkeypatch):
    # the extension point: a module's DIRECT_FIRE_TERMS (docs/rules/im-direct-fire.md)
    def plus_two_die(shot, ctx):
        return [Term("IM.SW.MORTAR.RESOLVE", -1, "test die modifier"),
                Term("IM.SW.GL", 3, "test grenade launcher", "firepower", "b1")]
    monkeypatch.setattr(direct_fire, "term_sources", lambda: (plus_two_die,))
    g, fired, resolved = shot(firepower=7, mods=(-1,))
    report = g.audit()
    assert verdicts(report, "IM.SW.GL", fired) == ["ok"]
    assert verdicts(report, "IM.SW.MORTAR.RESOLVE", resolved) == ["ok"]
    g, fired, resolved = shot(firepower=8, mods=())
    report = g.audit()
    assert failing(report, fired) == {"IM.SW.GL": "violation"}
    assert verdicts(report, "IM.SW.MORTAR.RESOLVE", resolved) == ["mismatch"]


def test_the_fold_keeps_each_shot_with_its_rolls_and_resolution():
    g, fired, resolved = shot()
    from domain.rules.engine import AuditContext
    from domain.board.state import BoardState, apply
    from domain.rules.interpretations import Interpretations
    from domain.rules.tables import NONE
    from domain.rulesets import find
    ctx = AuditContext(BoardState(), NONE, Interpretations(), rules=find("infernal-machines"))
    facts = fire_facts(ctx)
    for line in g.lines:
        ctx.record(line)
        apply(ctx.board, line)
        for fold in ctx._folds:
            fold.update(line, ctx.board)
    s = facts.shot("a1")
    assert (s.seq, s.kind, s.firers, s.target, s.ranges, s.resolved_seq) == (
        fired, "small-arms", ("b1",), "5:0505", {"b1": 3}, resolved)
    assert [r["data"]["purpose"] for r in s.rolls] == ["LS.SACRT"]
    assert expected_firepower(s, [Term("IM.SW.SMG", 10, "smg", "firepower", "b1")], ctx.board)[0] == 14
