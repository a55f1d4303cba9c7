"""Infernal Machines: importing this package registers its rule modules with the auditor."""
from domain.rules.infernal_machines import artillery_legality, artillery_legality_creeping, artillery_resolution, artillery_effects_judge, ammunition, artillery_resolution_direct  # noqa: F401,E501
from domain.rules.infernal_machines import artillery_procedure  # noqa: F401  (off-map barrage procedure)
from domain.rules.infernal_machines import movement, observation, spotting  # noqa: F401  (movement, observation, spotting)
