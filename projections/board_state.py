"""The board at any point of a stored game, made cheap by stored checkpoints.

The checkpoint projection follows the ledger's notification log (Game events only) with its
own tracking row, and stores the board every `INTERVAL` events of each game. The map (hexes,
hexsides) is left out of checkpoints: it is large and changes only with `MapDefined`, whose
seqs the checkpoint lists so that the map is re-read from the log.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.application import Ledger
from domain.board.state import HANDLERS, BoardState, apply, fold
from domain.model import Game
from projections.store import ProjectionStore

INTERVAL = 50
PROJECTION = "board-checkpoints"
MAP_FIELDS = ("hexes", "hexsides", "maps")


def game_topics() -> list[str]:
    base = f"{Game.__module__}:{Game.__qualname__}"
    return [f"{base}.Started", f"{base}.Recorded"]


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
    state = BoardState.from_json({**data, "hexes": {}, "hexsides": [], "maps": []}, owned=True)
    for seq in map_seqs:
        for line in ledger.lines(game, after=seq - 1, upto=seq):
            HANDLERS["MapDefined"](state, line)
    return state, list(map_seqs)


class BoardCheckpoints:
    """Follows the notification log and keeps a board checkpoint every INTERVAL events."""

    def __init__(self, ledger: Ledger, store: ProjectionStore, interval: int = INTERVAL):
        self.ledger, self.store, self.interval = ledger, store, interval

    def catch_up(self, page: int = 2000) -> int:
        """Take every new notification; return how many game events were taken."""
        taken = 0
        topics = game_topics()
        while True:
            position = self.store.position(PROJECTION)
            notes = self.ledger.recorder.select_notifications(position + 1, page, topics=topics)
            if not notes:
                return taken
            by_game: dict[str, list[dict[str, Any]]] = {}
            for note in notes:
                line = self.ledger._decode(note)
                by_game.setdefault(line["game"], []).append(line)
            rows = {game: self._checkpoints(game, lines) for game, lines in by_game.items()}
            with self.store.transaction() as cur:
                if self.store.lock_position(cur, PROJECTION) != position:
                    continue  # another process took this page first
                for game, game_rows in rows.items():
                    if game_rows:
                        self.store.put_checkpoints(cur, game, game_rows)
                self.store.set_position(cur, PROJECTION, notes[-1].id)
            taken += len(notes)
            if len(notes) < page:
                return taken

    def _checkpoints(self, game: str, lines: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        first, last = lines[0]["seq"], lines[-1]["seq"]
        wanted = [s for s in range(((first - 1) // self.interval + 1) * self.interval, last + 1, self.interval)
                  if s >= first]
        if not wanted:
            return []
        state, map_seqs, at = self._state_before(game, first)
        rows = []
        for line in lines:
            apply(state, line)
            if line["type"] == "MapDefined":
                map_seqs.append(line["seq"])
            if line["seq"] in wanted:
                rows.append((line["seq"], to_checkpoint(state, map_seqs)))
            if line["seq"] >= wanted[-1]:
                break
        return rows

    def _state_before(self, game: str, first: int) -> tuple[BoardState, list[int], int]:
        cp = self.store.checkpoint_before(game, first - 1)
        if cp:
            state, map_seqs = from_checkpoint(self.ledger, game, cp[1])
            at = cp[0]
        else:
            state, map_seqs, at = BoardState(), [], 0
        for line in self.ledger.lines(game, after=at, upto=first - 1):
            apply(state, line)
            if line["type"] == "MapDefined":
                map_seqs.append(line["seq"])
        return state, map_seqs, first - 1

    def rebuild(self) -> int:
        """Forget every checkpoint and take the whole log again."""
        self.store.clear(PROJECTION, ("umpire_checkpoints",))
        return self.catch_up()

    def board_at(self, game: str, seq: Optional[int] = None) -> BoardState:
        """The board after event `seq` (None: after the last event; 0: the empty board)."""
        if seq == 0:
            return BoardState()
        last = self.ledger.last_seq(game)
        seq = last if seq is None else min(seq, last)
        self.catch_up()
        cp = self.store.checkpoint_before(game, seq)
        if cp is None:
            return fold(self.ledger.lines(game, upto=seq))
        state, _ = from_checkpoint(self.ledger, game, cp[1])
        return fold(self.ledger.lines(game, after=cp[0], upto=seq), state)


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
