"""The board at any point: checkpoints give the fold's answer, and a rebuild gives the same checkpoints."""
from __future__ import annotations

import random

from api.bench import synthetic_game
from domain.board.state import BoardState, fold
from domain.log import chain
from projections.board_state import BoardCheckpoints
from projections.store import ProjectionStore


def test_checkpointed_board_equals_the_plain_fold_at_every_seq(ledger, db_url):
    lines = synthetic_game("proj", 450, seed=3)
    ledger.import_lines(list(chain(lines)))
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=50)
    assert cps.catch_up() == 450
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
        cps.catch_up()
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
    assert cps.catch_up() == 250
    assert cps.catch_up() == 0
    assert [seq for _, seq, _ in cps.store.all_checkpoints()] == [100, 200]


def test_the_map_is_restored_from_the_log_not_the_checkpoint(ledger, db_url):
    lines = synthetic_game("map", 300, seed=4)
    ledger.import_lines(list(chain(lines)))
    cps = BoardCheckpoints(ledger, ProjectionStore(db_url), interval=100)
    cps.catch_up()
    _, _, stored = cps.store.all_checkpoints()[0]
    assert '"hexes"' not in stored
    assert cps.board_at("map", 250).hexes == fold(lines).hexes


def test_concurrent_catch_ups_take_each_page_once(ledger, db_url):
    import threading
    ledger.import_lines(list(chain(synthetic_game("race", 600, seed=8))))
    errors, counts = [], []

    def run():
        try:
            counts.append(BoardCheckpoints(ledger, ProjectionStore(db_url), interval=50).catch_up(page=100))
        except Exception as exc:  # the test reports any failure of a racing catch-up
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and sum(counts) == 600
    assert [seq for _, seq, _ in ProjectionStore(db_url).all_checkpoints()] == list(range(50, 601, 50))
