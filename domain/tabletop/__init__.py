"""What the two miniatures rulesets share: tabletop geometry in inches (game-log-tabletop.md)."""
