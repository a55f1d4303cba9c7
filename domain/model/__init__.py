"""The ledger's aggregates. Their module paths are stored with every event: do not move them."""
from domain.model.artillery import OffMapArtilleryElement
from domain.model.game import Game
from domain.model.unit import Unit

__all__ = ["Game", "Unit", "OffMapArtilleryElement"]
