"""Resistance turns and the emergency counter (Infernal Machines, Indirect Barrage Fire Procedure,
the EXAMPLE "we are on turn 1 of a scenario..." and its variants; Liaison officer, emergencies)."""
from domain.rules.infernal_machines.resistance import EmergencyTracker, resistance_by_hex, resistance_history
from tests.artillery_procedure_helpers import TARGET, Game, found, run


def example_turn_one(game: Game) -> Game:
    # EX-IM-06, turn 1: an FO-observed barrage, then small arms fire without result.
    game.barrage_phase(1).observe()
    game.declare("b-1")
    game.fire("b-1")
    game.fire_phase().small_arms("a-1")
    return game


def test_example_turn_one_fire_gives_column_one():
    # IM, example: "Place a 'resisted 1 turn' marker"; the turn-1 barrage does not count.
    game = example_turn_one(Game())
    assert resistance_by_hex(game.lines) == {TARGET: 1}


def test_two_attacks_in_a_turn_count_once():
    # IM, example: "Count the number of turns, not the number of times per turn" (EX-IM-07).
    game = example_turn_one(Game())
    game.turn_start(2)
    game.fire_phase().small_arms("a-2")
    game.small_arms("a-3")
    assert resistance_by_hex(game.lines) == {TARGET: 2}


def test_retreat_resets_to_zero():
    # IM, example: an elimination or retreat "counted as a success ... erased from the count" (EX-IM-08).
    game = example_turn_one(Game())
    game.turn_start(2)
    game.fire_phase().small_arms("a-2", result="retreated")
    assert resistance_by_hex(game.lines) == {}
    # ... and the no-result attack after the success in that turn is erased with it
    game.small_arms("a-3")
    assert resistance_by_hex(game.lines) == {}


def test_elimination_resets_to_zero():
    game = example_turn_one(Game())
    game.turn_start(2)
    game.fire_phase().small_arms("a-2", result="eliminated")
    assert resistance_by_hex(game.lines) == {}


def test_pinned_result_still_counts():
    # IM, example: "If a 'pinned' result had occurred ... the turn counted" (EX-IM-09).
    game = example_turn_one(Game())
    game.turn_start(2)
    game.fire_phase().small_arms("a-2", result="pinned")
    assert resistance_by_hex(game.lines) == {TARGET: 2}


def test_turn_without_fire_changes_nothing():
    # IM, example: no small arms fire in turn 2 -> "column '1' would still be used" (EX-IM-06).
    game = example_turn_one(Game())
    game.turn_start(2)
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.comm("b-2", 5)
    game.fot("b-2", 4, column=1)
    game.fire("b-2")
    game.turn_start(3)
    assert resistance_by_hex(game.lines) == {TARGET: 1}


def test_artillery_gun_fire_does_not_count():
    # IM: small arms fire "by units other than artillery" (IM.ART.RESIST.ARTY_EXCLUDED).
    game = Game()
    game.unit("b-gun", "british", "artillery-gun", "1:1008")
    game.turn_start(1)
    game.fire_phase().small_arms("a-1", firers=["b-gun"], firepower=10)
    assert resistance_by_hex(game.lines) == {}


def test_mortar_fire_counts_unless_the_reading_excludes_it():
    # IM.ART.RESIST.ARTY_EXCLUDED ⚠: mortars are resolved as small arms fire; a reading may exclude them.
    game = Game()
    game.unit("b-mtr", "british", "mortar", "1:1008")
    game.turn_start(1)
    game.fire_phase().small_arms("a-1", firers=["b-mtr"])
    assert resistance_by_hex(game.lines) == {TARGET: 1}
    assert resistance_by_hex(game.lines, mortars_count=False) == {}


def test_resistance_history_events():
    game = example_turn_one(Game())
    game.turn_start(2)
    game.fire_phase().small_arms("a-2", result="retreated")
    events = [(r["hex"], r["turn"], r["event"], r["count"]) for r in resistance_history(game.lines)]
    assert events == [(TARGET, 1, "fell", 0), (TARGET, 1, "resisted", 1), (TARGET, 2, "resisted", 2),
                      (TARGET, 2, "reset", 0)]


def test_fot_column_follows_resistance_in_the_audit():
    # IM, example: turn 3 "column '1' would still be used"; column 2 there is a mismatch.
    game = example_turn_one(Game())
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.comm("b-2", 5)
    game.fot("b-2", 4, column=1)
    game.fire("b-2")
    game.barrage_phase(3).observe()
    game.declare("b-3")
    game.comm("b-3", 6)
    bad = game.fot("b-3", 4, column=2)
    report = run(game)
    assert found(report, "IM.ART.FOT.ROLL", "mismatch") == [(bad["seq"], "IM.ART.FOT.ROLL", "mismatch")]
    mismatch = [a for a in report.findings if a.rule == "IM.ART.FOT.ROLL" and a.verdict.value == "mismatch"][0]
    assert (mismatch.expected, mismatch.recorded) == (1, 2)


def test_emergency_counts_attacks_not_turns():
    # IM, Liaison officer: "attacked ... three or more times, all of which have failed to produce a
    # 'pinned' or 'eliminated' result" — attacks, and a pinned result ends it.
    game = Game()
    game.turn_start(1)
    game.fire_phase()
    for attack in ("a-1", "a-2", "a-3"):
        game.small_arms(attack)
    tracker = EmergencyTracker()
    for line in game.lines:
        tracker.feed(line, {})
    assert tracker.count("british", TARGET) == 3
    game.small_arms("a-4", result="pinned")
    tracker.feed(game.lines[-3], {})
    tracker.feed(game.lines[-1], {})
    assert tracker.count("british", TARGET) == 0
