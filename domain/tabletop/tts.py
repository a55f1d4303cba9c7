"""Reading a Tabletop Simulator save: the objects lying on its table, and where each stands and
faces on the game's table in inches (docs/tts.md).

A save is JSON (its knowledge base, "Save File Format": `ObjectStates`, each object's `GUID`,
`Nickname`, `Name` and `Transform` {posX, posY, posZ, rotX, rotY, rotZ, scaleX, ...}). TTS runs
on Unity: Y is up, so the table's plane is X (right) and Z (forward), and a positive `rotY` turns
an object clockwise seen from above ("clockwise when looking along the rotation axis towards the
origin"), its forward axis (local +Z) bearing `rotY` degrees clockwise from +Z.

Only the objects at the top of `ObjectStates` are read. What a container holds
(`ContainedObjects` of a deck or bag: "If an Object is placed inside of a bag/deck/etc, it stops
existing and is no longer in the scene"), an object's other `States` and the `ChildObjects`
attached to it are never looked at: hidden things never reach the log.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping, Optional

from domain.tabletop.geometry import round_inches

XY = tuple[float, float]
# TTS's knowledge base: "one Unity unit equals 1 inch"; its line tool measures in inches.
DEFAULT_SCALE = 1.0
# An object whose up axis leans more than this from the vertical has been knocked over: where
# its front points says nothing of the unit's facing.
MAX_TILT = 45.0


class TTSError(ValueError):
    """A save, a unit map or a table frame that cannot be read; `source` is which: "save",
    "map", "frame" (the frame's options) or "game"; `field` names the place in it."""

    def __init__(self, source: str, field: str, message: str):
        self.source, self.field, self.message = source, field, message
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class TableObject:
    """An object on the table of the save (a top-level entry of `ObjectStates`)."""

    index: int
    guid: Optional[str]
    nickname: str
    name: str
    transform: Any

    @property
    def where(self) -> str:
        return f"ObjectStates[{self.index}]"

    def label(self) -> str:
        """How a message names it: its GUID and nickname (or its kind, unnamed)."""
        shown = repr(self.nickname) if self.nickname else (self.name or "unnamed")
        return f"{self.guid or 'no GUID'} {shown}"


def table_objects(save: Any) -> list[TableObject]:
    """The objects at the top of a save's `ObjectStates`, in its order (nothing they hold)."""
    if not isinstance(save, dict):
        raise TTSError("save", "(save)", "not a Tabletop Simulator save: a save is a JSON object with `ObjectStates`")
    states = save.get("ObjectStates")
    if not isinstance(states, list):
        raise TTSError("save", "ObjectStates", "missing or not a list: not a Tabletop Simulator save")
    out = []
    for i, obj in enumerate(states):
        where = f"ObjectStates[{i}]"
        if not isinstance(obj, dict):
            raise TTSError("save", where, "an object of the table is a JSON object")
        for key in ("GUID", "Nickname", "Name"):
            if obj.get(key) is not None and not isinstance(obj[key], str):
                raise TTSError("save", f"{where}.{key}", f"{obj[key]!r} is not a string")
        out.append(TableObject(i, obj.get("GUID"), obj.get("Nickname") or "", obj.get("Name") or "",
                               obj.get("Transform")))
    return out


def _number(transform: Mapping[str, Any], key: str, where: str, default: Optional[float] = None) -> float:
    value = transform.get(key, default)
    if value is None:
        raise TTSError("save", f"{where}.{key}", "missing: the object's position and rotation are needed")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TTSError("save", f"{where}.{key}", f"{value!r} is not a finite number")
    return float(value)


@dataclass(frozen=True)
class Pose:
    """Where an object stands on the TTS table: X, Z (TTS units) and the bearing of its forward
    axis, degrees clockwise from +Z seen from above."""

    x: float
    z: float
    bearing: float


def pose(obj: TableObject) -> Pose:
    """The object's place on the table plane; refused when it lies knocked over."""
    where = f"{obj.where}.Transform"
    if not isinstance(obj.transform, dict):
        raise TTSError("save", where, f"object {obj.label()} has no Transform (position and rotation)")
    t = obj.transform
    x, z, rot_y = (_number(t, key, where) for key in ("posX", "posZ", "rotY"))
    rot_x, rot_z = (_number(t, key, where, 0.0) for key in ("rotX", "rotZ"))
    # Unity turns about Z, then X, then Y: the object's up axis then has a vertical component of
    # cos(rotX)·cos(rotZ), and while it stands within MAX_TILT of upright its forward axis seen
    # from above bears rotY.
    upright = math.cos(math.radians(rot_x)) * math.cos(math.radians(rot_z))
    if upright < math.cos(math.radians(MAX_TILT)):
        raise TTSError("save", where, f"object {obj.label()} is knocked over (rotX {rot_x:g}, rotZ {rot_z:g}): "
                       "stand it up, its facing cannot be read")
    return Pose(x, z, rot_y)


# Which edge of the TTS table is the edge of the side listed first in GameStarted.sides (where
# the log's y = 0 runs): the log's x and y axes as TTS (X, Z) directions, and the bearing of its
# +y from +Z. Its +x is its +y turned 90° clockwise ("facing 90 faces +x").
EDGES: dict[str, tuple[XY, XY, int]] = {
    "-z": ((1.0, 0.0), (0.0, 1.0), 0),
    "+z": ((-1.0, 0.0), (0.0, -1.0), 180),
    "-x": ((0.0, -1.0), (1.0, 0.0), 90),
    "+x": ((0.0, 1.0), (-1.0, 0.0), 270),
}


@dataclass(frozen=True)
class Frame:
    """How the TTS table lies under the game's table: inches per TTS unit, which TTS edge is the
    first side's, and the TTS (X, Z) of the log's origin (None: the game's table is centred on
    TTS (0, 0))."""

    scale: float = DEFAULT_SCALE
    edge: str = "-z"
    origin: Optional[XY] = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise TTSError("frame", "scale", f"{self.scale:g}: inches per TTS unit is a number above 0")
        if self.edge not in EDGES:
            raise TTSError("frame", "edge", f"{self.edge!r}: one of {', '.join(EDGES)}")
        if self.origin is not None and not all(math.isfinite(v) for v in self.origin):
            raise TTSError("frame", "origin", "X,Z are finite numbers")

    def origin_for(self, table: Optional[Mapping[str, Any]]) -> XY:
        """The TTS (X, Z) of the log's (0, 0)."""
        if self.origin is not None:
            return self.origin
        if table is None:
            raise TTSError("frame", "origin", "the game has no TableDefined to centre on TTS (0, 0): "
                           "give the TTS X,Z of the table's origin corner")
        ux, uy, _ = EDGES[self.edge]
        half_w, half_d = table["width"] / 2 / self.scale, table["depth"] / 2 / self.scale
        return (-half_w * ux[0] - half_d * uy[0], -half_w * ux[1] - half_d * uy[1])

    def point(self, at: Pose, table: Optional[Mapping[str, Any]]) -> XY:
        """The object's place in the log's inches, rounded half-up to 0.1" (a tape measure's
        step, and the step every distance is measured to)."""
        ox, oz = self.origin_for(table)
        ux, uy, _ = EDGES[self.edge]
        dx, dz = at.x - ox, at.z - oz
        return (round_inches((dx * ux[0] + dz * ux[1]) * self.scale),
                round_inches((dx * uy[0] + dz * uy[1]) * self.scale))

    def facing(self, at: Pose, front: float = 0.0) -> int:
        """The log's facing (whole degrees clockwise from +y) of an object whose front bears
        `front` degrees clockwise from its forward axis."""
        _, _, edge_bearing = EDGES[self.edge]
        return whole_degrees(at.bearing + front - edge_bearing)


def whole_degrees(angle: float) -> int:
    """An angle as the log writes it ("Angles are whole degrees, 0 to 359"), half a degree up."""
    turned = Decimal(repr(float(angle) % 360.0))
    return int(turned.quantize(Decimal(1), ROUND_HALF_UP)) % 360
