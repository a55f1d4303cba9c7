"""The tabletop analytics folds (AVBCW and Mogdonazia) and the answers made of their rows, on
hand-built lines: each expectation is read from the rulebook's text, quoted beside it."""
from __future__ import annotations

from typing import Any

from domain.rules.dux_bellorum_avbcw.analytics import AVBCWTally
from domain.rules.landships_of_mogdonazia.analytics import MOGTally
from projections import analytics_tabletop as answers


class Log:
    """Lines of one game, numbered as they are written, fed to a tally; the rows kept by kind."""

    def __init__(self, tally: Any):
        self.tally, self.seq, self.turn, self.rows = tally, 0, 1, {}

    def __call__(self, event: str, side: str = "royalist", **data: Any) -> None:
        self.seq += 1
        line = {"game": self.tally.game, "seq": self.seq, "turn": self.turn, "side": side, "type": event, "data": data}
        for row_kind, row in self.tally.take(line):
            self.rows.setdefault(row_kind, []).append(row)
        # the tally survives being saved and loaded between any two lines (the projection's pages)
        self.tally = type(self.tally).from_json(self.tally.to_json())

    def of(self, kind: str) -> list[dict]:
        return self.rows.get(kind, [])


def listed(unit: str, kind: str, special: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"unit": unit, "type": kind, "figures": 6, "stats": {"SHOOT": "4(1): 12\""}, "special": list(special),
            "pts": 5}


def avbcw_game() -> Log:
    log = Log(AVBCWTally("avbcw-a"))
    log("ArmyListed", side="royalist", units=[listed("r-inf", "inf-regulars"),
                                              listed("r-poor", "inf-irregulars", ("AVBCW.EQ.POORSUP",)),
                                              listed("r-sup", "supply")], army_rules=[], total=10)
    return log


def shot(log: Log, attack: str, shooter: str, faces: list[int], hits: int) -> None:
    log("ShotFired", attack=attack, shooter=shooter, target="s-1", rating="soft", dice=len(faces), range=10.0,
        modifiers=[])
    log("DieRolled", die=f"{len(faces)}d6", purpose="DB.SHOOT", result=sum(faces), results=faces, subject=attack)
    log("ShotResolved", attack=attack, hits=hits, ones=faces.count(1))


def test_low_on_ammo_by_the_text_and_how_soon():
    log = avbcw_game()
    # AVBCW, Low on ammo: "rolls more '1's' than successful hits becomes 'low on ammo'": 2 ones, 1 hit.
    shot(log, "a-1", "r-inf", [1, 1, 5, 3], hits=1)
    # 1 one against 1 hit: not more, not low.
    shot(log, "a-2", "r-inf", [1, 5, 3, 2], hits=1)
    # Poorly supplied: "It runs 'low on ammo' if any shooting attack dice rolls a '1'".
    shot(log, "a-3", "r-poor", [1, 5, 6, 5], hits=3)
    log.turn = 2
    log("AmmoStateChanged", unit="r-inf", state="low", cause="AVBCW.AMMO.LOW", attack="a-1")
    shot(log, "a-4", "r-inf", [1, 1], hits=0)
    # "A unit that suffers a second 'low on ammo' result can no longer shoot": exhausted.
    log("AmmoStateChanged", unit="r-inf", state="exhausted", cause="AVBCW.AMMO.LOW", attack="a-4")
    assert [(s["attack"], s["low_by_text"], s["supply"]) for s in log.of("avbcw-shot")] == [
        ("a-1", True, "normal"), ("a-2", False, "normal"), ("a-3", True, "poor"), ("a-4", True, "normal")]
    by_turn = answers.low_ammo(log.of("avbcw-shot"), log.of("avbcw-ammo"))
    assert [(r["type"], r["turn"], r["attacks"], r["low_by_text"], r["recorded_low"]) for r in by_turn] == [
        ("inf-irregulars", 1, 1, 1, 0), ("inf-regulars", 1, 2, 1, 0), ("inf-regulars", 2, 1, 1, 2)]
    soon = {r["unit"]: r for r in answers.first_low(log.of("avbcw-shot"), log.of("avbcw-ammo"))}
    # r-inf went low in turn 2 after its 2 attacks of turn 1, exhausted in turn 2; r-poor never recorded low.
    assert (soon["r-inf"]["first_low_turn"], soon["r-inf"]["attacks_to_low"], soon["r-inf"]["exhausted_turn"]) == (2, 2, 2)
    assert soon["r-poor"]["first_low_turn"] is None and soon["r-poor"]["attacks"] == 1


def test_supply_leadership_and_suppression():
    log = avbcw_game()
    # AVBCW, Turn sequence: "Alternately place LPs"; returned "all unused LPs to players".
    log("LeadershipPointsPlaced", **{"from": "r-cmd", "to": "r-inf", "points": 2})
    log("LeadershipPointsUsed", unit="r-inf", points=1, use="re-roll", about=1)
    log("LeadershipPointsReturned", side="royalist", points=1)
    # Suppression: "remains suppressed until it succeeds a BRV test to move".
    log("UnitStatusChanged", unit="r-inf", status="suppressed", cause="AVBCW.SUPP.TRIGGER")
    log.turn = 3
    log("UnitStatusChanged", unit="r-inf", status="unsuppressed", cause="AVBCW.SUPP.EFFECTS")
    log("UnitStatusChanged", unit="r-poor", status="suppressed", cause="AVBCW.SUPP.TRIGGER")
    # Supply (AB.SUPPLY): back to normal ammunition by the Supply unit.
    log("AmmoStateChanged", unit="r-poor", state="normal", cause="AVBCW.AB.SUPPLY", by="r-sup")
    lp = answers.leadership(log.of("avbcw-lp"))
    assert [(r["event"], r["use"], r["points"]) for r in lp] == [
        ("placed", None, 2), ("returned", None, 1), ("used", "re-roll", 1)]
    stretches = answers.suppression(log.of("avbcw-supp"))
    assert [(s["unit"], s["from_turn"], s["to_turn"], s["turns"], s["ended_by"]) for s in stretches] == [
        ("r-inf", 1, 3, 2, "unsuppressed"), ("r-poor", 3, None, None, None)]
    (resupply,) = answers.supply(log.of("avbcw-ammo"))
    assert (resupply["by"], resupply["unit"], resupply["type"], resupply["turn"]) == ("r-sup", "r-poor", "inf-irregulars", 3)


def mog_game() -> Log:
    log = Log(MOGTally("mog-a"))
    log("VehicleBuilt", unit="l-1", kind="landship", looks="armoured", open_topped=False, speed_dice=4,
        target_class=2, crew=8, weapons=[])
    return log


def test_breakdowns_against_the_texts_odds_and_turns_lost():
    log = mog_game()
    # MOG, A.2: "Breakdown Roll 1D6 On road 6 Off road 5-6 In rough terrain 4-6".
    log("BreakdownTested", unit="l-1", kind="breakdown", terrain="road", broke_down=False)
    log.turn = 2
    log("BreakdownTested", unit="l-1", kind="breakdown", terrain="rough", broke_down=True)
    for turn, restarted in ((3, False), (4, True)):   # "On a 4 to 6, the vehicle will move normally next turn"
        log.turn = turn
        log("TurnStarted", turn=turn)
        log("BreakdownTested", unit="l-1", kind="restart", terrain="rough", restarted=restarted)
    log.turn = 5
    log("TurnStarted", turn=5)
    # B.2: "On a 5 to 6, the system is repaired ... cannot do anything else for the entire turn".
    log("RepairAttempted", unit="l-1", system="engine", repaired=False)
    rows = {(r["test"], r["terrain"]): r for r in answers.breakdowns(log.of("mog-test"))}
    assert rows[("breakdown", "road")]["odds"] == round(1 / 6, 4)
    assert (rows[("breakdown", "rough")]["odds"], rows[("breakdown", "rough")]["successes"]) == (0.5, 1)
    assert (rows[("restart", "rough")]["rolls"], rows[("restart", "rough")]["odds"]) == (2, 0.5)
    assert rows[("repair", None)]["odds"] == round(2 / 6, 4)
    (lost,) = answers.lost_turns(log.of("mog-lost"))
    # broken down in turn 2: turns 3 and 4 begin broken down (restarted in 4, moving again in 5); 5 spent repairing.
    assert (lost["breakdown_turns"], lost["repair_turns"], lost["lost"]) == ([3, 4], [5], 3)


def test_criticals_by_card():
    log = mog_game()
    # MOG, D.2: a gun's "Face card- Criticals"; machine gun or small arms: "Ace card- Criticals".
    log("HitCardResolved", attack="a-1", target="l-1", weapon_class="gun", card="KH", outcome="critical")
    log("CriticalHit", unit="l-1", chart="vehicle", result=3, effect="gears hit")
    log("HitCardResolved", attack="a-2", target="l-1", weapon_class="small-arms", card="7C", outcome="none")
    log("HitCardResolved", attack="a-3", target="l-1", weapon_class="small-arms", card="AS", outcome="critical")
    log("CriticalHit", unit="l-1", chart="vehicle", result=2, effect="engine hit")
    # F.4: a vehicle losing a close combat takes a critical without a card.
    log("CriticalHit", unit="l-1", chart="vehicle", result=5, effect="D3 crew")
    rows = answers.criticals(log.of("mog-card"), log.of("mog-crit"))
    assert [(r["card"], r["weapon_class"], r["outcome"], r["draws"], r["critical_results"]) for r in rows] == [
        ("7C", "small-arms", "none", 1, []), ("AS", "small-arms", "critical", 1, [2]),
        ("KH", "gun", "critical", 1, [3]), (None, None, "critical", 0, [5])]
