"""How long smoke and gas markers last, when the log does not record their removal.

Infernal Machines gives both markers a lifetime, and a hand-written log may never record the
`MarkerRemoved`; the board view (`terrain.Board`) then treats the marker as gone once its
lifetime has passed, and the artillery effects judge reports the missing removal once.
- Smoke: "Smoke markers are removed during the opposing player's turn, in the 'pin removal'
  phase" (Selection and Effects of Ammunition, Smoke; IM.ART.AMMO.SMOKE.EFFECT). Smoke from
  mortars, on-map guns and grenade launchers "behaves exactly like a smoke marker". The marker
  is gone when that pin-removal phase ends (the removal happens during it).
- Gas: "Gas remains effective for two turns; remove the marker at the end of the last phase of
  the opposing player's turn" (Artillery Fire Missions, Gas missions; IM.ART.MISSION.GAS.DURATION).
  The catalogue flags it: the interpretation `im-gas-duration` (declared in
  `domain.rules.infernal_machines.artillery_effects`) has two readings, and this module computes
  both: "opponent-turn" ends with the first opponent player turn that starts after the barrage,
  "two-turns" with the opponent's player turn of game turn (fired + 2).
- A marker placed outside the barrage phase with an explicit `turns` field (a scenario's smoke,
  say) lasts that many full turns after the turn it was placed (as a pin "for two full turns"),
  and is gone when game turn (placed + turns + 1) starts.
A marker with none of these (a set-up marker without `turns`, a marker with no side) stays until
the log removes it.

The clock is fed the log's lines in order (`update`) and answers by the marker's `seq`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

LASTING_MARKERS = ("smoke", "gas")
GAS_READINGS = ("opponent-turn", "two-turns")
TEXT = "text"   # the reading key of lifetimes the text fixes (smoke, a scenario's `turns`)


@dataclass
class Watch:
    """One way a marker can expire: `started` is the seq where its last phase (or player turn)
    began, `gone` the seq from which the marker no longer counts."""

    kind: str                       # pin-removal | player-turn | game-turn
    side: Optional[str]             # the side that placed the marker
    after_turn: int = 0             # player-turn: the opponent's player turn in a game turn >= this
    started: Optional[int] = None
    gone: Optional[int] = None


@dataclass
class Lifetime:
    seq: int
    marker: str
    location: Optional[str]
    side: Optional[str]
    turn: int
    why: str                        # how the lifetime was found (for messages)
    watches: dict[str, Watch] = field(default_factory=dict)   # reading (or TEXT) -> watch

    def gone(self, reading: Optional[str] = None) -> Optional[int]:
        """The seq from which the marker is gone under `reading` (None: under every reading)."""
        if TEXT in self.watches:
            return self.watches[TEXT].gone
        if reading is not None:
            return self.watches[reading].gone
        ends = [w.gone for w in self.watches.values()]
        return None if None in ends else max(ends)

    def gone_under_some(self) -> Optional[int]:
        """The earliest seq from which some reading has the marker gone."""
        ends = [w.gone for w in self.watches.values() if w.gone is not None]
        return min(ends) if ends else None


def lifetime_of(line: dict[str, Any]) -> Optional[Lifetime]:
    """The lifetime a `MarkerPlaced` line gives its marker, or None (it stays until removed)."""
    d = line["data"]
    if line["type"] != "MarkerPlaced" or d.get("marker") not in LASTING_MARKERS or d.get("unit"):
        return None
    side, turn = line.get("side"), line["turn"]
    life = Lifetime(line["seq"], d["marker"], d.get("location"), side, turn, "")
    if line["phase"] != "barrage" and d.get("turns") is not None:
        life.why = f"placed in turn {turn} for {d['turns']} turn(s)"
        life.watches[TEXT] = Watch("game-turn", side, after_turn=turn + int(d["turns"]) + 1)
    elif side is None or line["phase"] == "setup":
        return None
    elif d["marker"] == "smoke":
        life.why = "removed in the opposing player's pin-removal phase"
        life.watches[TEXT] = Watch("pin-removal", side)
    else:
        life.why = "gas lasts two turns, removed at the end of the opposing player's turn"
        life.watches["opponent-turn"] = Watch("player-turn", side, after_turn=turn)
        life.watches["two-turns"] = Watch("player-turn", side, after_turn=turn + 2)
    return life


class MarkerClock:
    """The lifetimes of the smoke and gas markers of one game, fed its lines in order."""

    def __init__(self) -> None:
        self.lives: dict[int, Lifetime] = {}
        self._player: Optional[tuple[int, str]] = None    # (game turn, active side) in progress
        # the watches not yet gone, in the order of their markers: a turn or a phase looks at
        # these only, not at every marker the game ever placed (a watch once gone stays gone)
        self._watching: list[Watch] = []

    def update(self, line: dict[str, Any]) -> bool:
        """Take one line; True when a lifetime began or a watch started or ended with it."""
        kind, d, seq = line["type"], line["data"], line["seq"]
        changed = False
        if kind == "MarkerPlaced":
            life = lifetime_of(line)
            if life is not None:
                self.lives[seq] = life
                self._watching.extend(w for w in life.watches.values() if w.gone is None)
                changed = True
        elif kind == "TurnStarted":
            self._player = None
            for watch in self._open():
                if watch.started is not None or (watch.kind == "game-turn" and d.get("turn", line["turn"])
                                                 >= watch.after_turn):
                    watch.started = watch.started or seq
                    watch.gone = seq
                    changed = True
        elif kind == "PhaseStarted":
            active = d.get("active")
            new_player_turn = active is not None and (line["turn"], active) != self._player
            for watch in self._open():
                if watch.started is not None:
                    # a phase ends with the next phase; a player turn when another side's begins
                    if watch.kind == "pin-removal" or (active is not None and active != watch.side
                                                       and new_player_turn) or (active == watch.side):
                        watch.gone = seq
                        changed = True
                    continue
                opponent = active is not None and active != watch.side
                if watch.kind == "pin-removal" and opponent and d.get("phase") == "pin-removal":
                    watch.started = seq
                    changed = True
                elif watch.kind == "player-turn" and opponent and new_player_turn and line["turn"] >= watch.after_turn:
                    watch.started = seq
                    changed = True
            if active is not None:
                self._player = (line["turn"], active)
        return changed

    def _open(self) -> list[Watch]:
        if self._watching:
            self._watching = [w for w in self._watching if w.gone is None]
        return self._watching

    def life(self, seq: int) -> Optional[Lifetime]:
        return self.lives.get(seq)

    def expired(self, seq: int, reading: Callable[[], Optional[str]]) -> bool:
        """Whether the marker placed at `seq` is gone. Where the gas readings disagree, the chosen
        reading decides (`reading()` is asked only then); with none chosen, the marker counts as
        gone as soon as one reading has it gone: a check never rests on gas that may have lifted."""
        life = self.lives.get(seq)
        if life is None:
            return False
        if TEXT in life.watches:
            return life.watches[TEXT].gone is not None
        ends = {r: w.gone is not None for r, w in life.watches.items()}
        if len(set(ends.values())) == 1:
            return next(iter(ends.values()))
        chosen = reading()
        return ends[chosen] if chosen in ends else True
