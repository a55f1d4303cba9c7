"""Umpire's benchmarks: the ledger against raw sqlite3/json (ledger), the HTTP load (api), many
games and their analytics (scale, from the seeded corpus), a quiet board beside a growing game
(growth). Run through `umpire bench`; they may use every layer, and no runtime package uses them.
A rule system's own benchmarks stay in its package (`RuleSet.benchmarks`)."""
