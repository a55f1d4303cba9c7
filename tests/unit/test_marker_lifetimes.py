"""Lasting markers and pins: smoke and gas lifetimes when the log never removes them, a pinned
marker counting towards a double pin, and a crawling unit that stands up (IM.OPTMOVE.PRONE.STAND)."""
from __future__ import annotations

from domain.board.lifetimes import MarkerClock
from tests.artillery_helpers import verdicts as arty_verdicts
from tests.board_helpers import BoardLog, apps, failing, verdicts
from tests.unit.test_artillery_effects import barrage, fire

A, B, C = "5:0501", "5:0502", "5:0503"


# -- smoke ----------------------------------------------------------------------------------------
def smoke_game(removed: bool = False) -> BoardLog:
    """British smoke in 5:0503 (turn 1, British barrage phase), then the German player turn."""
    g = BoardLog(permissions=["smoke"])
    g.deploy("fo", "british", "forward-observer", A)
    g.at(1, "barrage")
    g.add("MarkerPlaced", {"marker": "smoke", "location": C}, side="british")
    g.at(1, "end")
    g.at(1, "pin-removal", "german")
    if removed:
        g.add("MarkerRemoved", {"marker": "smoke", "location": C}, side="british")
    g.at(1, "barrage", "german")
    return g


def observe(g: BoardLog, turn: int, phase: str) -> int:
    g.at(turn, phase)
    return g.add("HexObserved", {"observer": "fo", "target": "5:0506", "via": "forward-observer"},
                 side="british")["seq"]


def test_smoke_blocks_observation_until_the_opponents_pin_removal_phase():
    # IM, Smoke: "Smoke markers are removed during the opposing player's turn, in the 'pin removal'
    # phase"; an FO "may not observe through a hexagon affected by smoke" (Use of the forward observer)
    g = BoardLog(permissions=["smoke"])
    g.deploy("fo", "british", "forward-observer", A)
    g.at(1, "barrage")
    g.add("MarkerPlaced", {"marker": "smoke", "location": C}, side="british")
    seq = observe(g, 1, "end")          # still the firer's own turn: the smoke is there
    assert failing(g.audit(), seq) == {"IM.ART.FO.SMOKE": "violation"}
    g = smoke_game()
    seq = observe(g, 2, "barrage")      # the German pin-removal phase has passed: the smoke is gone
    assert failing(g.audit(), seq) == {}


def test_an_unremoved_smoke_marker_is_reported_once_as_unverifiable():
    # IM, Smoke: the removal belongs to the opposing player's pin-removal phase; the log lacks it
    g = smoke_game()
    observe(g, 2, "barrage")
    observe(g, 3, "barrage")
    found = [a for a in apps(g.audit(), "IM.ART.AMMO.SMOKE.EFFECT") if a.verdict.value != "ok"]
    pin_removal = next(l["seq"] for l in g.lines if l["type"] == "PhaseStarted"
                       and l["data"] == {"phase": "pin-removal", "active": "german"})
    assert [(a.verdict.value, a.seq) for a in found] == [("unverifiable", pin_removal)]
    # recorded in the German pin-removal phase: nothing to report
    g = smoke_game(removed=True)
    observe(g, 2, "barrage")
    assert verdicts(g.audit(), "IM.ART.AMMO.SMOKE.EFFECT") == ["ok"]


def test_scenario_smoke_follows_its_turns_field():
    # a set-up smoke marker with `turns` (not fired by a barrage) lasts that many full turns
    g = BoardLog()
    g.deploy("fo", "british", "forward-observer", A)
    g.marker("smoke", C, turns=1)
    seq1 = observe(g, 1, "barrage")
    seq2 = observe(g, 2, "barrage")
    report = g.audit()
    assert failing(report, seq1) == {"IM.ART.FO.SMOKE": "violation"}
    assert failing(report, seq2) == {}
    # without `turns`, a scenario's smoke stays until the log removes it
    g = BoardLog()
    g.deploy("fo", "british", "forward-observer", A)
    g.marker("smoke", C)
    seq = observe(g, 5, "barrage")
    assert failing(g.audit(), seq) == {"IM.ART.FO.SMOKE": "violation"}


# -- gas ------------------------------------------------------------------------------------------
def player_turns(lines: list, turns: range, order=("british", "german")) -> None:
    seq = len(lines)
    for turn in turns:
        seq += 1
        lines.append({"seq": seq, "turn": turn, "phase": "start", "side": None, "type": "TurnStarted",
                      "data": {"turn": turn}})
        for side in order:
            for phase in ("pin-removal", "barrage", "end"):
                seq += 1
                lines.append({"seq": seq, "turn": turn, "phase": phase, "side": None, "type": "PhaseStarted",
                              "data": {"phase": phase, "active": side}})


def test_gas_lifetime_under_each_reading():
    # IM, Gas missions: "Gas remains effective for two turns; remove the marker at the end of the last
    # phase of the opposing player's turn" (im-gas-duration: the opponent's next turn, or two turns)
    lines: list = []
    player_turns(lines, range(1, 2))
    barrage_phase = next(l for l in lines if l["data"] == {"phase": "barrage", "active": "german"})
    placed = {"seq": barrage_phase["seq"] + 0.5, "turn": 1, "phase": "barrage", "side": "german",
              "type": "MarkerPlaced", "data": {"marker": "gas", "location": C}}
    lines.insert(lines.index(barrage_phase) + 1, placed)
    player_turns(lines, range(2, 5))
    clock = MarkerClock()
    gone = {}
    for line in lines:
        clock.update(line)
        for reading in ("opponent-turn", "two-turns"):
            if reading not in gone and clock.expired(placed["seq"], lambda r=reading: r):
                gone[reading] = (line["turn"], line["data"].get("phase"), line["data"].get("active"))
    # German gas in turn 1 (German second): the British turn 2 ends it, or the British turn 3
    assert gone == {"opponent-turn": (2, "pin-removal", "german"), "two-turns": (3, "pin-removal", "german")}


def gas_walk(move_turn: int) -> BoardLog:
    """German gas on 5:0502 in turn 1; a British platoon walks into it in turn 1, and moves on later."""
    g = BoardLog(permissions=["gas"])
    g.deploy("i1", "british", "infantry-platoon", A, movement=4)
    g.at(1, "barrage", "german")
    g.add("MarkerPlaced", {"marker": "gas", "location": B}, side="german")
    g.at(1, "first-foot-movement")
    g.move("i1", [A, B])
    g.at(1, "pin-removal", "german")
    for turn in range(2, move_turn + 1):
        g.at(turn, "pin-removal")
        g.at(turn, "pin-removal", "german")
    g.at(move_turn, "first-foot-movement")
    return g


def test_gas_entered_holds_the_unit_only_while_the_marker_lasts():
    # IM, Gas: enemy units that enter a gas zone "become pinned there" and "may not ... move until the gas
    # marker is removed"; the marker's lifetime is im-gas-duration
    rule = "IM.ART.AMMO.GAS.EFFECTS.ENTER"
    g = gas_walk(2)
    seq = g.move("i1", [B, C])["seq"]
    report = g.audit(**{"im-gas-duration": "two-turns"})
    assert verdicts(report, rule, seq) == ["violation"]          # turn 2: the gas lasts into turn 3
    report = g.audit(**{"im-gas-duration": "opponent-turn"})
    assert verdicts(report, rule, seq) == []                     # gone after the British turn 2
    g = gas_walk(4)
    seq = g.move("i1", [B, C])["seq"]
    assert verdicts(g.audit(), rule, seq) == []                  # gone under both readings


def test_an_unremoved_gas_marker_is_reported_when_every_reading_has_it_gone():
    rule = "IM.ART.MISSION.GAS.DURATION"
    g = gas_walk(2)
    assert arty_verdicts(g.audit(), rule) == set()               # the readings disagree: not yet
    assert arty_verdicts(g.audit(**{"im-gas-duration": "opponent-turn"}), rule) == {"unverifiable"}
    g = gas_walk(4)
    found = [a for a in g.audit().applications if a.rule == rule]
    assert [a.verdict.value for a in found] == ["unverifiable"]


# -- a pinned marker is a pin ---------------------------------------------------------------------
def test_a_pinned_marker_counts_towards_the_double_pin():
    # IM, Destruction HE: a primary-zone miss pins; "If a unit already pinned suffers another pinned
    # result", it retreats. game-log.md lets a "pinned" marker on the unit record the first pin.
    def case(effect):
        log = barrage()
        log.unit("g1", "german", "infantry-platoon", "1:1010")
        log.add("MarkerPlaced", {"marker": "pinned", "unit": "g1"}, side="british")
        fire(log, "miss")
        effect(log)
        return arty_verdicts(log.audit(), "IM.ART.EFF.DEST.HE.INF")
    second_marker = lambda log: log.add("MarkerPlaced", {"marker": "pinned", "unit": "g1"}, side="british")
    retreat = lambda log: log.add("UnitMoved", {"unit": "g1", "path": ["1:1010", "1:1011", "1:1012"]},
                                  side="german")
    assert case(second_marker) == {"mismatch"}
    assert case(retreat) == {"ok"}


# -- prone, then standing -------------------------------------------------------------------------
def crawl_then_stand(stand) -> tuple[BoardLog, int]:
    g = BoardLog()
    g.deploy("i1", "british", "infantry-platoon", A, movement=2)
    g.at(1, "vehicle-movement")
    g.status("i1", "prone", side="british")
    g.at(1, "first-foot-movement")
    stand(g)
    return g, g.move("i1", [A, B, C])["seq"]


def test_a_crawling_unit_that_stands_up_is_held_by_the_named_reading():
    # Going Prone: "If it is before the first foot movement phase, the unit crawls and may only move a
    # maximum of one hexagon this turn" against "Units that begin the first foot movement phase prone may
    # choose to stand up by removing the marker before moving the unit"
    for stand in (lambda g: g.status("i1", "standing", side="british"),
                  lambda g: g.add("MarkerRemoved", {"marker": "prone", "unit": "i1"}, side="british")):
        g, seq = crawl_then_stand(stand)
        held = apps(g.audit("sample"), "IM.OPTMOVE.PRONE.CRAWL", seq)
        assert [(a.verdict.value, a.interpretation) for a in held] == [
            ("violation", "IM.OPTMOVE.PRONE.STAND=held-to-one-hex (default)")]
        free = apps(g.audit("sample", IM__OPTMOVE__PRONE__STAND="stands-free"), "IM.OPTMOVE.PRONE.CRAWL", seq)
        assert [(a.verdict.value, a.interpretation) for a in free] == [
            ("ok", "IM.OPTMOVE.PRONE.STAND=stands-free (chosen)")]
