"""Sustained fire (Infernal Machines, Sustained fire option)."""
from tests.artillery_procedure_helpers import Game, at, failing, found, run


def fallen_turn_two(game: Game) -> Game:
    # The full procedure on turn 2: observed, communication tested, FOT consulted, the barrage falls.
    game.barrage_phase(2).observe()
    game.declare("b-2")
    game.comm("b-2", 5)
    game.fot("b-2", 3, column=0)
    game.fire("b-2")
    return game


def sustained(game: Game, turn: int, barrage: str, roll: int):
    game.barrage_phase(turn)
    declared = game.declare(barrage, sustained=True)
    game.roll("IM.ART.SUSTAINED", roll, barrage, "british")
    return declared


def test_sustained_fire_skips_comm_and_fot():
    # IM: "no communication test or Fire Order Table check is required"; 1 to 5 repeats the barrage.
    game = fallen_turn_two(Game())
    sustained(game, 3, "b-3", 5)
    game.fire("b-3")
    assert failing(run(game)) == []


def test_sustained_roll_six_ends():
    # IM: "must obtain a result of 1 to 5 on a six-sided die each turn to confirm that the barrage repeats".
    game = fallen_turn_two(Game())
    sustained(game, 3, "b-3", 6)
    resolved = game.fire("b-3", scatter_test=False)
    # firing after a 6 is not allowed (as after a failed communication test): a violation
    assert found(run(game), "IM.ART.SUSTAINED.ROLL") == [(at(resolved), "IM.ART.SUSTAINED.ROLL", "violation")]


def test_sustained_roll_six_cancelled_is_accepted():
    game = fallen_turn_two(Game())
    sustained(game, 3, "b-3", 6)
    game.cancel("b-3", "sustained-ended")
    assert failing(run(game)) == []


def test_sustained_without_roll_is_missing_roll():
    game = fallen_turn_two(Game())
    game.barrage_phase(3)
    game.declare("b-3", sustained=True)
    resolved = game.fire("b-3", scatter_test=False)
    assert found(run(game), "IM.ART.SUSTAINED.ROLL") == [(at(resolved), "IM.ART.SUSTAINED.ROLL", "missing-roll")]


def test_sustained_needs_previous_fallen_barrage():
    # IM: "Any pause or change of target means the player must restart the artillery fire procedure".
    game = fallen_turn_two(Game())
    game.barrage_phase(3)
    game.barrage_phase(4)
    declared = game.declare("b-4", sustained=True)
    assert found(run(game), "IM.ART.SUSTAINED") == [(at(declared), "IM.ART.SUSTAINED", "violation")]


def test_sustained_on_another_hex_is_violation():
    game = fallen_turn_two(Game())
    game.barrage_phase(3)
    declared = game.declare("b-3", "1:1011", sustained=True)
    assert (at(declared), "IM.ART.SUSTAINED", "violation") in found(run(game), "IM.ART.SUSTAINED")


def test_sustained_after_roll_six_is_ambiguous():
    # AP-05: does a roll of 6 force a full restart? Not stated.
    game = fallen_turn_two(Game())
    sustained(game, 3, "b-3", 6)
    game.cancel("b-3", "sustained-ended")
    declared = sustained(game, 4, "b-4", 2)
    assert found(run(game), "IM.ART.SUSTAINED") == [(at(declared), "IM.ART.SUSTAINED", "ambiguous")]
    assert found(run(game, sustained_pause="pause"), "IM.ART.SUSTAINED") == [
        (at(declared), "IM.ART.SUSTAINED", "violation")]


def test_sustained_without_scatter_is_ambiguous():
    # AP-05: is the log valid without a scatter roll on a sustained turn? Not stated.
    game = fallen_turn_two(Game())
    sustained(game, 3, "b-3", 4)
    resolved = game.fire("b-3", scatter_test=False)
    assert found(run(game), "IM.ART.SUSTAINED.SCATTER") == [(at(resolved), "IM.ART.SUSTAINED.SCATTER", "ambiguous")]


def test_sustained_observer_pinned_is_violation():
    # IM: "The forward observers ... used to initially observe the targeted hexagon must continue to do so".
    game = fallen_turn_two(Game())
    game.turn_start(3)
    game.phase_start("pin-removal", "german")
    game.add("UnitStatusChanged", {"unit": "b-fo", "status": "pinned"}, side="german")
    declared = sustained(game, 3, "b-3", 3)
    assert found(run(game), "IM.ART.SUSTAINED.OBSERVERS") == [
        (at(declared), "IM.ART.SUSTAINED.OBSERVERS", "violation")]



def test_a_barrage_id_declared_again_next_turn_is_a_new_barrage():
    # Sustained fire targets "the same hexagon(s) in each consecutive turn": a log may keep the id.
    from domain.rules.infernal_machines.barrage_tracker import renew_barrage
    declared = {"b-2": {"seq": 18, "turn": 2}}
    scatter = {"b-2": ["t2"]}
    assert renew_barrage("b-2", 2, declared, scatter) is False
    assert renew_barrage("b-2", 3, declared, scatter) is True
    assert declared == {"b-2@18": {"seq": 18, "turn": 2}} and scatter == {"b-2@18": ["t2"]}
    assert renew_barrage("b-9", 3, declared) is True
