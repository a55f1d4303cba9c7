"""Infernal Machines' machines in the analytics: the fold (domain/rules/infernal_machines/analytics_machines.py,
analytics_losses.py) on hand-written logs and the answers made of its rows (projections/analytics_machines.py).
Each expectation is read from the rulebook's text, quoted beside it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from domain.rules.infernal_machines.analytics import GameTally
from domain.rules.tables import TablePack
from projections import analytics_machines as answers

CASES = Path(__file__).resolve().parents[1] / "acceptance" / "cases_im_machines"
# A pack made for this test (not the Landships! table, which the text does not hold): a modified 6 or more breaks down.
TEST_PACK = TablePack("test", illustrative=True, tables={"BREAKDOWN": {"any": {**{str(r): "-" for r in range(1, 6)}, "6": "breakdown"}}})


class Log:
    """Lines of one game fed to the Infernal Machines tally, saved and loaded between any two lines (as the
    projection's pages do); the rows kept by kind."""

    def __init__(self, game: str = "im-a", tables: Optional[TablePack] = None):
        self.tally, self.tables, self.seq, self.turn, self.phase, self.rows = GameTally(game), tables, 0, 0, "setup", {}

    def __call__(self, event: str, by: Optional[str] = "british", **data: Any) -> None:
        self.seq += 1
        self.take({"game": self.tally.game, "seq": self.seq, "turn": self.turn, "phase": self.phase, "side": by,
                    "type": event, "data": data})

    def take(self, line: dict[str, Any]) -> None:
        self.tally.machines.tables = self.tables
        for kind, row in self.tally.take(line):
            self.rows.setdefault(kind, []).append(row)
        self.tally = GameTally.from_json(json.loads(json.dumps(self.tally.to_json())))

    def turn_of(self, turn: int, phase: str) -> None:
        self.turn, self.phase = turn, phase
        self("TurnStarted", by=None, turn=turn)

    def of(self, kind: str) -> list[dict]:
        return self.rows.get(kind, [])


def start(log: Log, nations=("british", "german"), **extra: Any) -> Log:
    log("GameStarted", by=None, ruleset="infernal-machines", date="1918-08", options=[], tables="none",
        sides={"british": {"nation": nations[0]}, "german": {"nation": nations[1]}}, **extra)
    log("MapDefined", by=None, maps=["5"], hexes={}, hexsides=[])
    log("WeatherSet", by=None, weather="fair", terrain_state="good")
    return log


def deploy(log: Log, unit: str, klass: str = "tank", side: str = "british", location: str = "5:0502", **attrs) -> None:
    log("UnitDeployed", by=side, unit=unit, name=unit, location=location, facing=0, firepower=4, morale=4,
        movement=6, range=8, attrs=attrs, **{"class": klass})


def breakdown(log: Log, unit: str, result: int, broke: bool, second: Optional[int] = None, modifiers=()) -> None:
    log("DieRolled", die="d6", purpose="LS.BREAKDOWN", result=result, subject=unit, modifiers=list(modifiers))
    if broke:
        log("UnitStatusChanged", unit=unit, status="broken-down")
    if second is not None:
        log("DieRolled", die="d6", purpose="IM.TANK.BREAKDOWN", result=second, subject=unit)


def machines_game(tables: Optional[TablePack] = None) -> Log:
    log = start(Log(tables=tables), nations=("italian", "german"))
    deploy(log, "i-cv", model="CV 29")
    deploy(log, "i-mk4", model="Mark IV male")
    deploy(log, "i-train", "armoured-train", protection=2, cars=2)
    log.turn_of(1, "vehicle-movement")
    breakdown(log, "i-cv", 6, broke=True, second=4)
    breakdown(log, "i-mk4", 3, broke=False)
    breakdown(log, "i-train", 6, broke=False)
    log.turn_of(2, "vehicle-movement")
    breakdown(log, "i-cv", 2, broke=False)
    breakdown(log, "i-mk4", 6, broke=True, second=3, modifiers=[{"value": 0, "why": "breakdown modifier"}])
    return log


def test_breakdowns_carry_the_texts_modifier_and_leave_the_landships_table_to_the_pack():
    rows = {r["type"]: r for r in answers.breakdowns(machines_game().of("im-breakdown"))}
    cv = rows["Italian CV 29 Tankette"]
    # IM, CV 29: "prone to breakdowns (breakdown modifier of +1)"; the chance itself is the Landships! table,
    # which the text does not hold: with the `none` pack there is no expected count.
    assert (cv["checks"], cv["breakdowns"], cv["modifier"], cv["expected"]) == (2, 1, [1], None)
    assert "not in the rulebook text" in cv["odds_from"] and "'none'" in cv["odds_from"]
    # IM, Tank Breakdowns: "roll a second six-sided die. If the result is even ...": one in two.
    assert (cv["second_dice"], cv["even"], cv["expected_even"]) == (1, 1, 0.5)
    # IM, Armoured trains: "Armoured trains never suffer breakdowns": expected 0, whatever the pack.
    assert (rows["armoured-train"]["checks"], rows["armoured-train"]["expected"]) == (1, 0.0)
    # A Landships! counter: its modifier is the counter's, which the first roll does not name.
    mk4 = rows["Mark IV male"]
    assert (mk4["checks"], mk4["breakdowns"], mk4["expected"], mk4["even"], mk4["second_dice"]) == (2, 1, None, 0, 1)


def test_with_a_breakdown_table_the_expected_count_reads_it_at_the_die_plus_the_modifier():
    rows = {r["type"]: r for r in answers.breakdowns(machines_game(TEST_PACK).of("im-breakdown"))}
    # CV 29, +1 (the text): a d6 + 1 reaches the test pack's 6 on a 5 or a 6: 2 in 6 at each of its 2 checks.
    assert rows["Italian CV 29 Tankette"]["expected"] == round(2 * 2 / 6, 4)
    assert "ILLUSTRATIVE" in rows["Italian CV 29 Tankette"]["odds_from"]
    # The Mark IV's second roll names its counter's modifier (+0), its first does not: the sum stays unknown.
    checks = [r for r in machines_game(TEST_PACK).of("im-breakdown") if r["event"] == "check" and r["unit"] == "i-mk4"]
    assert [c["odds"] for c in checks] == [None, 1 / 6]


def test_relative_modifiers_the_mine_clearer_and_the_bridge_layer():
    log = start(Log(tables=TEST_PACK))
    # IM, Mine Clearer: "breakdown modifier is increased by +1" over the female Mk IV's (the counter's, here +0).
    deploy(log, "b-mc", model="Mine Clearer", breakdown_modifier=0)
    # IM, Bridge Layer: "+1 compared with the standard Mk. V while it carries the bridge" (the Mk V's here +0).
    deploy(log, "b-bl", model="Bridge Layer", breakdown_modifier=0)
    # IM, The "Elephant": "The Elephant's breakdown modifier is +1" (a counter named as the catalogue names it).
    deploy(log, "Elephant")
    log.turn_of(1, "vehicle-movement")
    breakdown(log, "b-mc", 2, broke=False)
    breakdown(log, "b-bl", 2, broke=False)
    log("MarkerPlaced", location="5:0503", marker="bridge", vehicle="b-bl")
    breakdown(log, "b-bl", 2, broke=False)
    breakdown(log, "Elephant", 2, broke=False)
    mods = [(r["unit"], r["modifier"]) for r in log.of("im-breakdown")]
    assert mods == [("b-mc", 1), ("b-bl", 1), ("b-bl", 0), ("Elephant", 1)]


def test_fascines_of_the_ec_38_sequence():
    log = Log("fascine-sequence")
    for line in (CASES / "fascine-sequence.jsonl").read_text().splitlines():
        log.take(json.loads(line))
    rows = {r["type"]: r for r in answers.fascines(log.of("im-fascine"))}
    mk4 = rows["Mark IV male"]
    # IM, Tanks and Fascines: the drop "On a result of 3 to 6" (4 in 6): a 2 jams it, a 3 drops it; the unjam
    # "On a result of 1 to 4" (4 in 6): a 4 unjams it.
    assert (mk4["drop_rolls"], mk4["dropped"], mk4["jammed"], mk4["expected_dropped"]) == (2, 1, 1, round(8 / 6, 4))
    assert (mk4["unjam_rolls"], mk4["unjammed"], mk4["jammed_for_good"], mk4["expected_unjammed"]) == (
        1, 1, 0, round(4 / 6, 4))
    # "any other tank may cross the extra wide trench at that point": b-tank2 crosses in 5:0504.
    assert (mk4["trenches"], mk4["crossings"], mk4["crossed_by"]) == (["5:0504"], 1, ["b-tank2"])
    # "Fascines are carried by British tanks": both tanks carry one; b-tank2 never used its own.
    assert (mk4["carried"], rows["Mark IV female"]["carried"], rows["Mark IV female"]["drop_rolls"]) == (1, 1, 0)


def test_fascines_do_not_count_without_extra_wide_trenches():
    log = start(Log())
    deploy(log, "b-tank", model="Mark IV male")
    # "This rule applies only if the scenario states that certain trenches are extra wide".
    assert answers.fascines(log.of("im-fascine")) == []


def losses_game() -> Log:
    log = start(Log())
    for unit, loc in (("b-1", "5:0502"), ("b-2", "5:0503"), ("b-3", "5:0504"), ("b-4", "5:0505"),
                      ("b-5", "5:0506"), ("b-6", "5:0507"), ("b-7", "5:0508")):
        deploy(log, unit, location=loc, model="Mark IV female")
    deploy(log, "g-gun", "artillery-gun", side="german", location="5:0510")
    log.turn_of(1, "barrage")
    log("BarrageDeclared", by="german", side="german", barrage="br-1", target="5:0503", elements=["e-1"], mission="destruction",
        barrage_type="drumfire", ammunition="he", observer=None, sustained=False)
    log("BarrageResolved", by="german", barrage="br-1", firepower=10, column="10",
        results=[{"location": "5:0503", "zone": "primary", "result": "H"}])
    log("UnitStatusChanged", unit="b-2", status="eliminated")
    log.phase = "defensive-anti-tank-fire"
    log("AntiTankFired", by="german", attack="at-1", firers=["g-gun"], target="5:0502", target_unit="b-1", weapon="gun")
    # IM, Designer's note: "any 'hit' on a tank caused by an anti-tank weapon simply destroys it".
    log("AntiTankResolved", by="german", attack="at-1", results=[{"unit": "b-1", "result": "destroyed"}])
    log("UnitStatusChanged", unit="b-1", status="eliminated")
    log("AntiTankFired", by="german", attack="at-2", firers=["g-gun"], target="5:0508", target_unit="b-7", weapon="atr")
    log("AntiTankResolved", by="german", attack="at-2", results=[{"unit": "b-7", "result": "miss"}])
    log("UnitStatusChanged", unit="b-7", status="eliminated", cause="at-2")
    log.phase = "close-combat"
    log("CloseCombatFought", by="german", combat="cc-1", location="5:0504", attackers=["g-inf"], defenders=["b-3"])
    log("CloseCombatResolved", by="german", combat="cc-1", results=[{"unit": "b-3", "result": "captured"}])
    log.turn_of(2, "vehicle-movement")
    log("DieRolled", by="german", die="d6", purpose="LS.MINEFIELD", result=1, subject="b-4")
    log("UnitStatusChanged", unit="b-4", status="eliminated")
    breakdown(log, "b-5", 6, broke=True, second=5)
    log("UnitStatusChanged", unit="b-5", status="eliminated")
    log("UnitStatusChanged", unit="b-6", status="eliminated")
    return log


def test_losses_by_the_event_that_decides_them():
    rows = {r["unit"]: r for r in answers.vehicle_losses(losses_game().of("im-loss"))}
    found = {u: (r["cause"], r["decided_by"]) for u, r in rows.items()}
    assert found == {
        "b-2": ("artillery", "BarrageResolved br-1 in 5:0503"),
        "b-1": ("anti-tank", "AntiTankResolved.results[].result destroyed"),   # once, not again when eliminated
        "b-7": ("anti-tank", "UnitStatusChanged.cause"),                       # the cause names the attack
        "b-3": ("close-combat", "CloseCombatResolved.results[].result captured"),
        "b-4": ("mines", "DieRolled LS.MINEFIELD"),
        # broken down (an odd second die: Landships! 6.16) and removed with no blow recorded
        "b-5": ("breakdown", "UnitStatusChanged broken-down, not repaired"),
        "b-6": ("other", "UnitStatusChanged eliminated (no cause in the log)"),
    }
    assert (rows["b-1"]["weapon"], rows["b-7"]["weapon"], rows["b-1"]["decided_seq"]) == ("gun", "atr", rows["b-1"]["seq"])
    by_cause = {r["cause"]: r["losses"] for r in answers.losses_by_cause(losses_game().of("im-loss"))}
    assert by_cause == {"anti-tank": 2, "artillery": 1, "close-combat": 1, "mines": 1, "breakdown": 1, "other": 1}


def test_the_tally_stays_small_between_turns():
    log = losses_game()
    assert log.tally.machines.losses.blows   # b-4's minefield roll, this turn
    log.turn_of(3, "vehicle-movement")
    # what a turn's attacks and blows name is forgotten at the next turn (the tally is saved with every page)
    assert (log.tally.machines.losses.attacks, log.tally.machines.losses.blows) == ({}, {})


def test_a_pack_file_may_hold_the_breakdown_table_and_a_terrain_state_row_wins():
    from domain.rules.infernal_machines.analytics_machines import breakdown_odds
    from domain.rules.tables import validate_pack
    rows = {"any": {str(r): "breakdown" if r >= 6 else "-" for r in range(1, 8)},
            "difficult": {str(r): "breakdown" if r >= 5 else "-" for r in range(1, 8)}}
    pack = validate_pack({"pack": "mine", "tables": {"BREAKDOWN": rows}}, "mine.json", "infernal-machines")
    # IM, Terrain States: "difficult terrain increases the chance of a vehicle breaking down" (by the pack's row)
    assert breakdown_odds(pack, "good", "d6", 0)[0] == 1 / 6
    assert breakdown_odds(pack, "difficult", "d6", 1)[0] == 3 / 6
