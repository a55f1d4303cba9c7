"""Audits of games: the auditor run over a game's lines with its table pack and readings.

Reports are kept per game and log length, so readers (API, dashboard) do not re-run the audit
for a log that has not grown.
"""
from __future__ import annotations

import threading
from typing import Any, Iterable, Optional

from domain.rules.engine import AuditReport, audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack, resolve


def game_pack(lines: list[dict[str, Any]], loaded: Optional[TablePack] = None) -> TablePack:
    started = lines[0]["data"] if lines and lines[0]["type"] == "GameStarted" else {}
    return resolve(started.get("tables"), loaded, started.get("ruleset"))


def audit_lines(lines: list[dict[str, Any]], *, tables: Optional[TablePack] = None,
                interpretations: Iterable[str] = (), on_progress=None) -> AuditReport:
    """Audit one game's lines; `tables` is a user-loaded pack, `interpretations` NAME=READING pairs."""
    return audit(lines, tables=game_pack(lines, tables),
                 interpretations=Interpretations.from_pairs(interpretations), on_progress=on_progress)


class AuditCache:
    """The latest default audit of each game, keyed by how many events it covered."""

    def __init__(self):
        self._lock = threading.Lock()
        self._reports: dict[str, tuple[int, AuditReport]] = {}

    def report(self, game: str, lines: list[dict[str, Any]]) -> AuditReport:
        with self._lock:
            cached = self._reports.get(game)
        if cached and cached[0] == len(lines):
            return cached[1]
        report = audit_lines(lines)
        with self._lock:
            self._reports[game] = (len(lines), report)
        return report
