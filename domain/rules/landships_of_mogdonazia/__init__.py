"""Landships of Mogdonazia (game-log-tabletop.md), a tabletop rule system."""
