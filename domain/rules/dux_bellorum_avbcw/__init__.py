"""Dux Bellorum: A Very British Civil War (game-log-tabletop.md), a tabletop rule system."""
