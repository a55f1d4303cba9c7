"""Seeded Infernal Machines games: a pure player that returns log lines (no I/O).

`player.play_game(name, seed, map_data, pack, turns=...)` plays one legal game;
`inject.inject(lines, k, rng)` breaks k rules in it and says where. `recorder.Recorder` builds
the lines and is shared with the hand-written fixture builder (fixtures/games/build_fixtures.py).
"""
