"""The board at any point: checkpoints give the fold's answer, a rebuild gives the same checkpoints,
each game's checkpoints are its own, and they grow linearly with the game."""
from __future__ import annotations

import random

from bench.ledger import synthetic_game
from domain.board.state import BoardState, fold
from domain.log import chain
from projections.board_state import BoardCheckpoints
from projections.store import ProjectionStore


def test_checkpointed_board_equals_the_plain_fold_at_every_seq(ledger, db_url):
    lines = synthetic_game("proj", 450, seed=3)
    ledger.import_lines(list(chain(lines)))
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=50)
    assert cps.catch_up_game("proj") == 450
    state = BoardState()
    for line in lines:
        state = fold([line], state)
        if line["seq"] % 7 == 0 or line["seq"] in (49, 50, 51, 450):
            assert cps.board_at("proj", line["seq"]).to_json() == state.to_json(), line["seq"]
    assert cps.board_at("proj", 0).to_json() == BoardState().to_json()


def test_incremental_checkpoints_equal_a_rebuild_from_the_log_alone(ledger, db_url):
    store = ProjectionStore(db_url)
    cps = BoardCheckpoints(ledger, store, interval=40)
    lines = synthetic_game("inc", 400, seed=5)
    texts = list(chain(lines))
    rng = random.Random(1)
    cut = 0
    while cut < len(texts):  # the log arrives in batches of random size, caught up after each
        step = rng.randint(1, 90)
        ledger.import_lines(texts[:cut + step])
        cut += step
        cps.board_at("inc")
    other = synthetic_game("other", 130, seed=6)
    ledger.import_lines(list(chain(other)))
    cps.catch_up()
    incremental = store.all_checkpoints()
    assert len(incremental) == 400 // 40 + 130 // 40
    assert cps.rebuild() == 530
    assert store.all_checkpoints() == incremental


def test_catch_up_is_exactly_once(ledger, db_url):
    ledger.import_lines(list(chain(synthetic_game("once", 250, seed=2))))
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=100)
    assert cps.catch_up_game("once") == 250
    assert cps.catch_up_game("once") == 0
    assert [seq for _, seq, _ in cps.store.all_checkpoints()] == [100, 200]


def test_the_map_is_restored_from_the_log_not_the_checkpoint(ledger, db_url):
    lines = synthetic_game("map", 300, seed=4)
    ledger.import_lines(list(chain(lines)))
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=100)
    cps.catch_up()
    _, _, stored = cps.store.all_checkpoints()[0]
    assert '"hexes"' not in stored
    assert cps.board_at("map", 250).hexes == fold(lines).hexes


def test_concurrent_catch_ups_store_each_checkpoint_once(ledger, db_url):
    import threading
    ledger.import_lines(list(chain(synthetic_game("race", 600, seed=8))))
    errors, counts = [], []

    def run():
        try:
            counts.append(BoardCheckpoints(ledger, ProjectionStore(db_url), interval=50).catch_up_game("race"))
        except Exception as exc:  # the test reports any failure of a racing catch-up
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and 600 in counts and set(counts) <= {0, 600}
    assert [seq for _, seq, _ in ProjectionStore(db_url).all_checkpoints()] == list(range(50, 601, 50))


def _markers(game: str, count: int) -> list[dict]:
    """A game whose board keeps growing: `count` markers placed and never removed."""
    lines = synthetic_game(game, 60, seed=9)
    last = lines[-1]
    for i in range(count):
        lines.append({**last, "seq": len(lines) + 1, "side": "british", "type": "MarkerPlaced",
                      "data": {"marker": f"wire-{i}", "location": "1:0505"}})
    return lines


def test_a_board_read_catches_up_only_its_own_game(ledger, db_url):
    store = ProjectionStore(db_url)
    cps = BoardCheckpoints(ledger, store, interval=50)
    ledger.import_lines(list(chain(synthetic_game("quiet", 120, seed=1))))
    ledger.import_lines(list(chain(_markers("busy", 3000))))
    assert cps.board_at("quiet").seq == 120
    assert store.last_checkpoint("busy") is None  # nothing of the busy game was folded
    assert cps.board_at("busy").seq == 3060
    assert store.last_checkpoint("busy") is not None


def test_checkpoints_grow_linearly_with_the_game(ledger, db_url):
    store = ProjectionStore(db_url)
    cps = BoardCheckpoints(ledger, store, interval=50)
    ledger.import_lines(list(chain(_markers("short", 2000))))
    ledger.import_lines(list(chain(_markers("long", 8000))))
    cps.board_at("short")
    cps.board_at("long")
    short, long = store.checkpoint_bytes("short"), store.checkpoint_bytes("long")
    # Four times the events: about four times the bytes (every 50 events it would be sixteen).
    assert 3 * short < long < 5.5 * short
    assert cps.board_at("long", 7777).to_json() == fold(_markers("long", 8000)[:7777]).to_json()


def test_an_event_the_board_cannot_fold_is_reported_for_its_game_only(ledger, db_url):
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=50)
    good = synthetic_game("good", 80, seed=2)
    bad = synthetic_game("bad", 80, seed=2)
    bad = [{**line, "game": "bad"} for line in bad]
    # A mission without its `mission`: refused by today's checks, held by an older store.
    ghost = {**bad[-1], "seq": 81, "type": "ArtilleryMissionSet", "data": {"side": "british"}}
    ledger.import_lines(list(chain(good)))
    ledger.import_lines(list(chain(bad)))
    ledger.append("bad", [ghost], checked=True)  # as a store written before a check existed holds it
    board = cps.board_at("bad")
    assert board.seq == 81
    assert [(p["seq"], p["type"]) for p in board.public()["problems"]] == [(81, "ArtilleryMissionSet")]
    assert cps.board_at("good").public()["problems"] == []


def test_umpire_import_makes_the_checkpoints_of_the_games_it_changed(db_url, tmp_path):
    from typer.testing import CliRunner

    from api.cli import app
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(chain(synthetic_game("cli-a", 130, seed=1))) + "\n")
    second.write_text("\n".join(chain(synthetic_game("cli-b", 70, seed=2))) + "\n")
    runner = CliRunner()
    assert runner.invoke(app, ["import", str(first), "--db", db_url]).exit_code == 0
    store = ProjectionStore(db_url)
    assert store.last_checkpoint("cli-a") == (100, 150)  # at 50 and 100; the next due at 150
    assert runner.invoke(app, ["import", str(second), str(first), "--db", db_url]).exit_code == 0
    assert store.last_checkpoint("cli-b") == (50, 100)
