"""The federation bench's harness on a small run (`umpire bench --federation`, bench/federation.py):
a throwaway primary and its streaming replica under /tmp, writers racing on shared games (every
game stored whole, once, whatever the conflicts), writers on partitions by game (no conflict), and
the replica holding every notification after the writes. Timings are recorded, not asserted."""
from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from bench.federation import Cluster, partitions_of, run_writes
from bench.scale import game_texts, write_templates
from domain.model.ids import game_uuid
from projections.audit_trail import bucket_of

pytestmark = pytest.mark.postgres  # it starts PostgreSQL 15 clusters of its own (free ports, /tmp)


def test_partitions_split_the_games_by_their_bucket_and_shared_runs_give_every_game_to_every_writer():
    assert partitions_of(5, 2, False) == [list(range(5))] * 2
    split = partitions_of(12, 3, True)
    assert sorted(i for part in split for i in part) == list(range(12))
    assert all(bucket_of(f"scale-{i:05d}", 3) == w for w, part in enumerate(split) for i in part)


def stored_on_the_replica(cluster: Cluster, database: str, games: list[str]) -> list[tuple[int, int]]:
    """(events, last version) of each game, read on the replica."""
    with psycopg.connect(cluster.url(cluster.replica_port, database)) as conn:
        return [conn.execute("SELECT COUNT(*), COALESCE(MAX(originator_version), 0) FROM umpire_events "
                             "WHERE originator_id = %s", (game_uuid(game),)).fetchone() for game in games]


def test_racing_writers_store_each_game_once_and_the_replica_follows(tmp_path: Path):
    folder = tmp_path / "templates"
    write_templates(folder, 2, seed=7, turns=2)
    games = {f"scale-{i:05d}": len(game_texts(folder, i, 2)) for i in range(3)}  # game i is template i mod 2
    cluster = Cluster().start()
    try:
        shared = run_writes(cluster, folder, games=3, templates=2, writers=2, batch=10, partitioned=False, seed=1)
        split = run_writes(cluster, folder, games=3, templates=2, writers=2, batch=10, partitioned=True, seed=1)
        imported = run_writes(cluster, folder, games=3, templates=2, writers=2, batch=10, partitioned=False, seed=1,
                              whole_games=True)
        with psycopg.connect(cluster.url(cluster.primary_port)) as conn:
            databases = [name for (name,) in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'umpire_fed_%' ORDER BY oid")]
        assert len(databases) == 4  # one for the shared run, one a partition, one for the imports
        on_replica = stored_on_the_replica(cluster, databases[0], list(games))
        partitions = [stored_on_the_replica(cluster, name, list(games)) for name in databases[1:3]]
    finally:
        cluster.stop()
    assert imported["events"] == sum(games.values()) and imported["batches_tried"] == 3
    assert imported["conflicts_409"] == 0 and imported["replica_caught_up_after_seconds"] is not None
    for run in (shared, split):
        assert run["events"] == sum(games.values())  # every batch stored once, whichever writer won it
        assert run["batches_tried"] >= sum(-(-n // 10) for n in games.values()) + run["conflicts_409"]
        assert run["replica_caught_up_after_seconds"] is not None
    assert on_replica == [(n, n) for n in games.values()]  # whole games, each event once, on the replica
    assert split["conflicts_409"] == 0 and split["partitions"] == 2
    # each game in the partition its id hashes to, and only there
    assert [[n for n, _ in part] for part in partitions] == [
        [n if bucket_of(game, 2) == w else 0 for game, n in games.items()] for w in range(2)]
