"""Infernal Machines, the 1915-1933 expansion of Landships!: its rule system is `ruleset.RULESET`,
registered as the entry point `infernal-machines` of the group `umpire.rulesets`."""
