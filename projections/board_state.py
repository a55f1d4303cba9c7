"""The board at any point of a stored game, made cheap by stored checkpoints.

Checkpoints are kept per game. A worker makes them as the game's events arrive (`BoardFollower`,
a projection of the notification log, projections/follow.py), and records how far it has taken
each game (`umpire_board_heads`). A read is exact either way: it folds from the nearest checkpoint
to the point asked for. When no worker keeps the checkpoints, a read makes its own game's that
are due first (one game's events never slow another game's board); when one does, the read makes
none and says how many of the game's events the worker has yet to take (`lag`).

A checkpoint holds the whole board, so they are spaced by the board's size (at least `INTERVAL`
events apart, and at least a quarter as many events as the board holds items): their total size
grows linearly with the game, and a read folds no more events than the checkpoint it starts from
holds items.

The map (hexes, hexsides) is left out of checkpoints: it is large and changes only with
`MapDefined`, whose seqs the checkpoint lists so that the map is re-read from the log.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.application import Ledger
from domain.board.state import HANDLERS, BoardState, apply, fold
from projections.follow import FollowingProjection, games_of
from projections.lease import worker_keeps
from projections.store import ProjectionStore

KEY = "boards"  # the projection's name for `umpire worker --projection` and its lease
INTERVAL = 50
ITEMS_PER_EVENT = 4  # a checkpoint of N board items waits for N / 4 events after it
MAP_FIELDS = ("hexes", "hexsides", "maps")


def to_checkpoint(state: BoardState, map_seqs: list[int]) -> dict[str, Any]:
    data = state.to_json()
    for name in MAP_FIELDS:
        data.pop(name)
    data["_map_seqs"] = list(map_seqs)
    return data


def from_checkpoint(ledger: Ledger, game: str, data: dict[str, Any]) -> tuple[BoardState, list[int]]:
    """The board of a checkpoint just read from the store (its data is taken over, not copied)."""
    data = dict(data)
    map_seqs = data.pop("_map_seqs", [])
    data.setdefault("problems", [])
    state = BoardState.from_json({**data, "hexes": {}, "hexsides": [], "maps": []}, owned=True)
    for seq in map_seqs:
        for line in ledger.lines(game, after=seq - 1, upto=seq):
            HANDLERS["MapDefined"](state, line)
    return state, list(map_seqs)


def board_items(state: BoardState) -> int:
    """How much a checkpoint of this board holds, in items."""
    return len(state.units) + len(state.elements) + len(state.markers) + len(state.disputes) + len(state.problems)


class BoardCheckpoints:
    """Keeps each game's board checkpoints, spaced by the board's size (see above)."""

    def __init__(self, ledger: Ledger, store: ProjectionStore, interval: int = INTERVAL):
        self.ledger, self.store, self.interval = ledger, store, interval

    def next_after(self, seq: int, state: BoardState) -> int:
        """The seq of the checkpoint that follows one taken at `seq` of this board."""
        return seq + max(self.interval, board_items(state) // ITEMS_PER_EVENT)

    def due(self, game: str, upto: Optional[int] = None) -> tuple[list[tuple[int, int, dict[str, Any]]], int]:
        """The checkpoints of the game that are due up to seq `upto` (default: its last event) and
        not stored yet, and how many events were folded to make them."""
        last = self.ledger.last_seq(game) if upto is None else upto
        head = self.store.last_checkpoint(game)
        due = head[1] if head else self.interval
        if last < due:
            return [], 0
        state, map_seqs, at = self._state_at(game, head[0] if head else 0)
        rows, folded = [], 0
        for line in self.ledger.lines(game, after=at, upto=last):
            apply(state, line)
            folded += 1
            if line["type"] == "MapDefined":
                map_seqs.append(line["seq"])
            if line["seq"] == due:
                due = self.next_after(due, state)
                rows.append((line["seq"], due, to_checkpoint(state, map_seqs)))
        return rows, folded

    def catch_up_game(self, game: str) -> int:
        """Make the game's checkpoints that are due, and note how far the game is taken; return how
        many events were folded."""
        last = self.ledger.last_seq(game)
        rows, folded = self.due(game, last)
        if rows or last > self.head(game):
            with self.store.transaction() as cur:
                self.store.put_checkpoints(cur, game, rows)
                put_head(self.store, cur, game, last)
        return folded

    def head(self, game: str) -> int:
        """How far the game's checkpoints have been taken (its seq; 0: not at all)."""
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT seq FROM umpire_board_heads WHERE game = ?"), (game,))
            row = cur.fetchone()
        return int(row[0]) if row else 0

    def catch_up(self) -> int:
        """Make every game's due checkpoints (after an import); return the events folded."""
        return sum(self.catch_up_game(summary.game) for summary in self.ledger.games())

    def _state_at(self, game: str, seq: int) -> tuple[BoardState, list[int], int]:
        if seq == 0:
            return BoardState(), [], 0
        cp = self.store.checkpoint_before(game, seq)
        state, map_seqs = from_checkpoint(self.ledger, game, cp[1])
        return state, map_seqs, cp[0]

    def rebuild(self) -> int:
        """Forget every checkpoint and make them again from the log alone."""
        self.store.clear_checkpoints()
        with self.store.transaction() as cur:
            cur.execute("DELETE FROM umpire_board_heads")
        return self.catch_up()

    def board_at(self, game: str, seq: Optional[int] = None) -> BoardState:
        """The board after event `seq` (None: after the last event; 0: the empty board)."""
        return self.read(game, seq)[0]

    def read(self, game: str, seq: Optional[int] = None) -> tuple[BoardState, int]:
        """The board after event `seq`, and how many of the game's events a worker keeping the
        checkpoints has yet to take (0 when none does: the read made the game's checkpoints)."""
        kept = worker_keeps(self.store, KEY)
        if seq == 0:
            return BoardState(), self._lag(game) if kept else 0
        last = self.ledger.last_seq(game)
        seq = last if seq is None else min(seq, last)
        if not kept:
            self.catch_up_game(game)
        cp = self.store.checkpoint_before(game, seq)
        if cp is None:
            board = fold(self.ledger.lines(game, upto=seq))
        else:
            state, _ = from_checkpoint(self.ledger, game, cp[1])
            board = fold(self.ledger.lines(game, after=cp[0], upto=seq), state)
        return board, self._lag(game, last) if kept else 0

    def _lag(self, game: str, last: Optional[int] = None) -> int:
        last = self.ledger.last_seq(game) if last is None else last
        return max(0, last - self.head(game))


class BoardFollower(FollowingProjection):
    """The checkpoints as a projection of the game events: for each game a page touches, the
    checkpoints due up to its last event in the page, and how far the game has been taken."""

    name = "umpire_boards"
    key = KEY

    def forget_statements(self) -> list[tuple[str, tuple]]:
        return [("DELETE FROM umpire_board_checkpoints", ()), ("DELETE FROM umpire_board_heads", ())]

    def prepare(self, events: list[Any]) -> list[tuple[str, int, list[tuple[int, int, dict[str, Any]]]]]:
        """Each game the page touches, taken up to its last event stored now: checkpoints are a
        function of the log's first events alone, so taking a game further than the page does no
        harm, and spares the next pages that work (a game written in a burst is folded once)."""
        boards = BoardCheckpoints(self.ledger, self.store)
        out = []
        for game in games_of(events):
            last = self.ledger.last_seq(game)
            out.append((game, last, boards.due(game, last)[0]))
        return out

    def write(self, cur: Any, prepared: list[tuple[str, int, list[tuple[int, int, dict[str, Any]]]]]) -> None:
        for game, upto, rows in prepared:
            self.store.put_checkpoints(cur, game, rows)
            put_head(self.store, cur, game, upto)


def put_head(store: ProjectionStore, cur: Any, game: str, seq: int) -> None:
    """Note that the game's checkpoints are taken up to `seq` (never back)."""
    cur.execute(store.q("INSERT INTO umpire_board_heads (game, seq) VALUES (?, ?) ON CONFLICT (game) "
                        "DO UPDATE SET seq = excluded.seq WHERE umpire_board_heads.seq < excluded.seq"), (game, seq))


def board_at(ledger: Ledger, game: str, seq: Optional[int] = None,
             store: Optional[ProjectionStore] = None) -> BoardState:
    """The board after event `seq`; with a projection store, through its checkpoints."""
    if store is None:
        if seq == 0:
            return BoardState()
        return fold(ledger.lines(game, upto=seq))
    return BoardCheckpoints(ledger, store).board_at(game, seq)


def seq_of(lines: list[dict[str, Any]], turn: int, phase: Optional[str] = None) -> Optional[int]:
    """The last event of a turn (and phase): where `--turn N [--phase P]` points."""
    found = None
    for line in lines:
        if line["turn"] == turn and (phase is None or line["phase"] == phase):
            found = line["seq"]
        elif found is not None and line["turn"] > turn:
            break
    return found
