"""Seeded Infernal Machines games: a pure player that returns log lines (no I/O).

`play_game(name, seed, turns=..., inject=...)` is the entry point; `recorder.Recorder` builds the
lines and is shared with the hand-written fixture builder.
"""
