"""The board at any point of a stored game (checkpointed fold of the game's lines)."""
from __future__ import annotations

from typing import Optional

from domain.application import Ledger
from domain.board.state import BoardState, fold


def board_at(ledger: Ledger, game: str, seq: Optional[int] = None) -> BoardState:
    """The board after event `seq` (None: the last event; 0: the empty board)."""
    if seq == 0:
        return BoardState()
    return fold(ledger.lines(game, upto=seq))
