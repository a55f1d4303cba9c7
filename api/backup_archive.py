"""The logical backup (docs/backup.md): a zip archive of every game's canonical log, the tokens
and the dice seeds, with a manifest written last.

- `games/<game>.jsonl`: exactly what `umpire export GAME` writes (canonical lines, hash chain),
  so any one game can be taken out, verified and imported on its own;
- `tokens.json`: the API tokens as stored (their SHA-256, never a token);
- `dice-seeds.json`: each game's dice seed, commitment and reveal (unrevealed seeds are
  secret: the archive is written readable by its owner only);
- `umpire-backup.json`: the manifest (format, version, store kind, and each game's file, line
  count and head hash), written last so that an archive cut short has none.

Reading checks everything before anything is restored: the zip's directory and every member's
CRC (a truncated or damaged file), the manifest, and each game's schema and hash chain
(`verify_lines`), line count and head against the manifest.
"""
from __future__ import annotations

import json
import os
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any, Iterable, Iterator

from domain.events import GAME_ID
from domain.log import head_hash, verify_lines

FORMAT, VERSION = "umpire-backup", 1
MANIFEST = "umpire-backup.json"
TOKENS, SEEDS = "tokens.json", "dice-seeds.json"
TOKEN_COLUMNS = ("id", "hash", "role", "game", "side", "name", "created", "revoked")
ZIP_MAGIC = b"PK\x03\x04"


class BackupError(Exception):
    """A backup or restore refused: the message names the file and what is wrong with it."""


@dataclass
class Contents:
    """What a backup holds (or what a store holds, to be backed up)."""

    games: dict[str, int] = field(default_factory=dict)  # game -> lines
    tokens: list[dict[str, Any]] = field(default_factory=list)
    seeds: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def lines(self) -> int:
        return sum(self.games.values())

    def describe(self) -> str:
        return (f"{len(self.games)} games, {self.lines} events, {len(self.tokens)} tokens, "
                f"{len(self.seeds)} dice seeds")


def private_file(path: Path) -> None:
    """Create `path` empty, readable and writable by its owner only (a backup holds secrets)."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600))


def write_archive(path: Path, games: Iterable[tuple[str, Iterable[str]]], tokens: list[dict[str, Any]],
                  seeds: dict[str, dict[str, Any]], store: str) -> Contents:
    """Write the archive to `path` (which the caller replaces the target with once it is whole)."""
    private_file(path)
    contents = Contents(tokens=tokens, seeds=seeds)
    entries, now = [], datetime.now(timezone.utc)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        for game, lines in games:
            name, count, last = f"games/{game}.jsonl", 0, []
            member = zipfile.ZipInfo(name, date_time=now.timetuple()[:6])
            member.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(member, "w") as fh:
                for line in lines:
                    fh.write(line.encode("utf-8") + b"\n")
                    count, last = count + 1, [line]
            entries.append({"game": game, "file": name, "lines": count, "head": head_hash(last)})
            contents.games[game] = count
        zf.writestr(TOKENS, json.dumps(tokens, indent=1, sort_keys=True))
        zf.writestr(SEEDS, json.dumps(seeds, indent=1, sort_keys=True))
        manifest = {"format": FORMAT, "version": VERSION, "store": store, "umpire": package_version("umpire"),
                    "created": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "games": entries, "tokens": len(tokens), "dice_seeds": len(seeds)}
        zf.writestr(MANIFEST, json.dumps(manifest, indent=1))
    return contents


class Archive:
    """A logical backup opened for restoring; every read checks what it reads."""

    def __init__(self, path: Path):
        self.path = path
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as err:
            raise BackupError(f"{path}: not a whole Umpire backup: "
                              f"the archive is truncated or damaged ({err})") from None
        self.manifest = self._json(MANIFEST)
        if not isinstance(self.manifest, dict) or self.manifest.get("format") != FORMAT:
            raise BackupError(f"{path}: {MANIFEST} does not describe an Umpire backup")
        if self.manifest.get("version") != VERSION:
            raise BackupError(f"{path}: backup format version {self.manifest.get('version')!r}; "
                              f"this Umpire reads version {VERSION}")
        self.entries = self._entries()

    def close(self) -> None:
        self.zip.close()

    def _read(self, name: str) -> bytes:
        try:
            return self.zip.read(name)
        except KeyError:
            raise BackupError(f"{self.path}: {name} is missing from the archive") from None
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
            raise BackupError(f"{self.path}: {name} is damaged ({err})") from None

    def _json(self, name: str) -> Any:
        try:
            return json.loads(self._read(name).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise BackupError(f"{self.path}: {name}: not JSON ({err})") from None

    def _entries(self) -> list[dict[str, Any]]:
        entries = self.manifest.get("games")
        if not isinstance(entries, list):
            raise BackupError(f"{self.path}: {MANIFEST}: `games` is not a list")
        for number, entry in enumerate(entries):
            game = entry.get("game") if isinstance(entry, dict) else None
            if not isinstance(game, str) or not GAME_ID.fullmatch(game) or entry.get("file") != f"games/{game}.jsonl" \
                    or type(entry.get("lines")) is not int or not isinstance(entry.get("head"), str):
                raise BackupError(f"{self.path}: {MANIFEST}: games[{number}] is not a game id, file, lines and head")
        listed = {entry["file"] for entry in entries}
        stray = sorted(n for n in self.zip.namelist() if n.startswith("games/") and n not in listed)
        if stray or len(listed) != len(entries):
            raise BackupError(f"{self.path}: the games in the archive are not those its manifest lists "
                              f"({', '.join(stray) or 'a game listed twice'})")
        return entries

    def games(self) -> Iterator[tuple[str, list[str]]]:
        """Each game's lines, checked: schema, hash chain, and the manifest's count and head."""
        for entry in self.entries:
            game, name = entry["game"], entry["file"]
            try:
                texts = self._read(name).decode("utf-8").splitlines()
            except UnicodeDecodeError as err:
                raise BackupError(f"{self.path}: {name}: not UTF-8 ({err})") from None
            error = verify_lines(texts)
            if error is not None:
                raise BackupError(f"{self.path}: {name}: {error}")
            if json.loads(texts[0]).get("game") != game:
                raise BackupError(f"{self.path}: {name}: line 1: game: not {game!r}")
            if len(texts) != entry["lines"] or head_hash(texts) != entry["head"]:
                raise BackupError(f"{self.path}: {name}: {len(texts)} lines ending in head {head_hash(texts)}; "
                                  f"the manifest says {entry['lines']} lines, head {entry['head']}")
            yield game, texts

    def tokens(self) -> list[dict[str, Any]]:
        tokens = self._json(TOKENS)
        if not isinstance(tokens, list) or not all(
                isinstance(t, dict) and set(t) == set(TOKEN_COLUMNS) and all(
                    isinstance(t[c], str) for c in ("id", "hash", "role", "created")) for t in tokens):
            raise BackupError(f"{self.path}: {TOKENS}: not a list of tokens with {', '.join(TOKEN_COLUMNS)}")
        return tokens

    def seeds(self) -> dict[str, dict[str, Any]]:
        seeds = self._json(SEEDS)
        if not isinstance(seeds, dict) or not all(
                isinstance(v, dict) and isinstance(v.get("seed"), str) and isinstance(v.get("commitment"), str)
                for v in seeds.values()):
            raise BackupError(f"{self.path}: {SEEDS}: not a seed and commitment for each game")
        return seeds


def is_archive(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(len(ZIP_MAGIC)) == ZIP_MAGIC
