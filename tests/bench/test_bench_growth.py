"""One long game costs the others nothing: a quiet game's board read beside a game grown by
thousands of markers, against a raw read of the quiet game measured in the same run. The figures
for docs come from `umpire bench --growth` (bench.growth)."""
from __future__ import annotations

from api.settings import ledger_env
from domain.application import Ledger
from bench.growth import run_growth_bench
from projections.store import ProjectionStore


def test_growth_bench_reports_a_quiet_board_unslowed_by_a_busy_game(db_url, tmp_path):
    figures = run_growth_bench(Ledger(ledger_env(db_url)), ProjectionStore(db_url), str(tmp_path / "raw.db"),
                               markers=6000)
    assert figures["busy_events"] > 6000 and figures["busy_checkpoint_rows"] >= 1
    # Recorded, not asserted as timings: the busy game's checkpoints stay linear in its length
    # (a whole board every 50 events would be about 6000 / 50 * 6000 marker copies).
    assert figures["busy_checkpoint_bytes_per_event"] < 2000
    print(figures)
