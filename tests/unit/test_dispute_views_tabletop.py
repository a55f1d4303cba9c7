"""A dispute in a tabletop game shows its evidence like one in a hex game: the board before and
after the disputed event, narrowed to what it names (a tabletop board has no artillery elements)."""
from __future__ import annotations

from domain.board.state import BoardState, apply
from domain.log import read_lines
from projections.audit_trail import audit_lines
from projections.disputes import dispute_views
from tests.conftest import ROOT

DEMO = ROOT / "fixtures" / "games" / "mog-1890-kessarine-road.jsonl"


def _board_at(lines):
    def board_at(seq: int) -> BoardState:
        board = BoardState()
        for line in lines[:seq]:
            apply(board, line)
        return board
    return board_at


def test_a_tabletop_dispute_shows_the_units_it_names_before_and_after():
    lines = read_lines(DEMO.read_text(encoding="utf-8").splitlines())
    views = list(dispute_views(lines, audit_lines(lines), _board_at(lines)))
    assert views, "the demo game raises a dispute"
    for view in views:
        before, after = view["board"]["before"], view["board"]["after"]
        assert "elements" not in before and "elements" not in after
        named = set(after["units"])
        assert named and named <= set(_board_at(lines)(len(lines)).public()["units"])
