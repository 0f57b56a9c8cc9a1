"""Campaign files (SPEC §3): TOML text -> a checked, frozen ``Campaign``.

Pure: the shell reads the file (``pbp.services.files.load_campaign``). Every mistake raises
``ConfigError`` naming the file, the key (with its line when the text shows it) and what was
expected. A character's name, player and side are read here; each ruleset's part of its sheet
by that ruleset's reader (``sheets.registry``).
"""

from __future__ import annotations

from pbp.campaign.model import Campaign, CampaignOptions, CharacterSheet, Visibility
from pbp.campaign.names import check_name, check_storable, check_username, warn_odd
from pbp.campaign.parts import Parts
from pbp.campaign.sheet_keys import check_misplaced, warn_unused
from pbp.campaign.sheets.base import OptionKey
from pbp.campaign.sheets.registry import ALL as SHEETS
from pbp.campaign.sheets.registry import (
    GENERAL_OPTIONS,
    LISTED,
    MISPLACED,
    OPTIONS,
    OPTIONS_LISTED,
)
from pbp.campaign.tables import KeyPath, Reader, Table, shortened
from pbp.campaign.turns import KEYS as TURN_KEYS
from pbp.campaign.turns import STANDING_DEFAULTS, TurnOptions, read_turns
from pbp.errors import ConfigError
from pbp.tags.model import SceneKind

_TOP_KEYS = ("campaign", "characters")
_CAMPAIGN_KEYS = (
    "name", "gms", "ruleset", "visibility", "templates", "sides", "options", *TURN_KEYS
)  # fmt: skip
# the general options (each ruleset's own: sheets.registry)
_OPTIONS: dict[str, OptionKey] = {**OPTIONS, **GENERAL_OPTIONS}
_CHARACTER_KEYS = (
    "name",
    "player",
    "side",
    "standing",
    *LISTED,
)  # each ruleset's part: sheets.registry
_RULESETS = tuple(kind.value for kind in SceneKind)
_VISIBILITIES: tuple[Visibility, ...] = ("hide-npcs", "open")
DEFAULT_PC_SIDE = "party"
DEFAULT_NPC_SIDE = "foes"


def parse_campaign(text: str, *, path: str) -> Campaign:
    """The campaign that ``text`` (the TOML of the file at ``path``) describes.

    ``path`` only names the file in errors; ``templates`` is kept as written (the shell
    resolves it against the file's folder).
    """
    return read_campaign(text, path=path)[0]


def read_campaign(text: str, *, path: str) -> tuple[Campaign, tuple[ConfigError, ...]]:
    """``parse_campaign``'s campaign, and the warnings about what loads but is probably not
    meant (a sheet key no scene of the campaign's ruleset reads)."""
    reader = Reader.of(text, path=path)
    reader.check_keys(reader.doc, (), allowed=_TOP_KEYS)
    head = reader.table(reader.doc, (), "campaign")
    if head is None:
        reader.report(
            ("campaign",),
            "the [campaign] table is missing",
            '[campaign] with name = "…" and gms = ["…"]',
        )
        reader.finish()
        raise AssertionError("finish raised")  # pragma: no cover
    at: KeyPath = ("campaign",)
    reader.check_keys(head, at, allowed=_CAMPAIGN_KEYS)
    # the [campaign] table first, so its mistakes are reported before any sheet's; each part
    # that is wrong is kept and the reading goes on, so every mistake of the file is reported
    name = reader.attempt(lambda: _name_text(reader, head, at), "?")
    gms: tuple[str, ...] = reader.attempt(lambda: _gms(reader, head), ("?",))
    sides: tuple[str, ...] = reader.attempt(lambda: _sides(reader, head), ())
    ruleset = reader.attempt(
        lambda: reader.choice(head, at, "ruleset", choices=_RULESETS, default=None), None
    )
    visibility = reader.attempt(
        lambda: reader.choice(head, at, "visibility", choices=_VISIBILITIES, default=None), None
    )
    templates = reader.attempt(lambda: reader.text(head, at, "templates"), None)
    options = reader.attempt(lambda: _options(reader, head), CampaignOptions())
    turns = reader.attempt(lambda: read_turns(reader, head), TurnOptions())
    rows: list[Table] = reader.attempt(lambda: reader.tables(reader.doc, (), "characters"), [])
    kind = SceneKind(ruleset or SceneKind.DISTAT)
    read = [_character(reader, row, ("characters", i), sides, kind) for i, row in enumerate(rows)]
    characters = tuple(c for c in read if c is not None)
    # a sheet with other mistakes still has its name checked ("": no name to compare)
    names = [" ".join(str(row.get("name", "")).split()) for row in rows]
    _check_unique_names(reader, names, ("characters",), "character")
    _warn_gm_players(reader, characters, rows, gms)
    reader.finish()
    campaign = Campaign(
        name=name,
        gms=gms,
        ruleset=kind,
        visibility=visibility or "hide-npcs",
        templates=templates,
        sides=sides,
        characters=characters,
        options=options,
        turns=turns,
    )
    return campaign, tuple(reader.warnings)


def _name_text(reader: Reader, head: Table, at: KeyPath) -> str:
    reader.required(head, at, "name", expected='"The Sunken Keep"')
    name = (reader.text(head, at, "name") or "").strip()
    if not name:
        reader.fail((*at, "name"), "the campaign's name is empty", "a name")
    check_storable(reader, name, (*at, "name"), what="the campaign's name")
    warn_odd(reader, name, (*at, "name"), what="the campaign's name")
    return name


def _gms(reader: Reader, head: Table) -> tuple[str, ...]:
    at: KeyPath = ("campaign",)
    reader.required(head, at, "gms", expected='["gm_username"]')
    given = reader.strings(head, at, "gms") or ()
    if not given:
        reader.fail((*at, "gms"), "gms is empty", "at least one GM's forum username")
    gms = [check_username(reader, gm, (*at, "gms", i)) for i, gm in enumerate(given)]
    _check_unique_names(reader, gms, (*at, "gms"), "GM")
    return tuple(gms)


def _sides(reader: Reader, head: Table) -> tuple[str, ...]:
    """The declared sides; empty when the campaign does not declare them (any side goes)."""
    at: KeyPath = ("campaign", "sides")
    sides = reader.strings(head, ("campaign",), "sides")
    if sides is None:
        return ()
    if not sides:
        reader.fail(at, "sides is empty", 'at least one side, e.g. ["party", "foes"]')
    for index, side in enumerate(sides):
        check_name(reader, side, (*at, index), what="side")
    _check_unique_names(reader, list(sides), at, "side")
    return tuple(side.strip() for side in sides)


def _options(reader: Reader, head: Table) -> CampaignOptions:
    at: KeyPath = ("campaign", "options")
    table = reader.table(head, ("campaign",), "options") or {}
    reader.check_keys(table, at, allowed=OPTIONS_LISTED)
    # the true/false keys first, then the numbers: the first wrong one stops the reading
    flags = [key for key in OPTIONS_LISTED if _OPTIONS[key].minimum is None]
    given: dict[str, bool | int] = {
        key: reader.flag(table, at, key, default=bool(_OPTIONS[key].default)) for key in flags
    }
    for key in OPTIONS_LISTED:
        minimum = _OPTIONS[key].minimum
        if minimum is not None:
            given[key] = reader.whole(table, at, key, minimum=minimum) or _OPTIONS[key].default
    parts = (sheet.read_options({k: given[k] for k in sheet.options}) for sheet in SHEETS)
    return CampaignOptions(
        close_on_any_gm_post=bool(given["close_on_any_gm_post"]),
        parts=tuple(part for part in parts if part is not None),
    )


def _character(
    reader: Reader, row: Table, at: KeyPath, sides: tuple[str, ...], ruleset: SceneKind
) -> CharacterSheet | None:
    """One sheet, or None when it has mistakes (each of them kept in ``reader``)."""
    kept = len(reader.mistakes)
    check_misplaced(reader, row, at)
    own = {key: value for key, value in row.items() if key.casefold() not in MISPLACED}
    reader.check_keys(own, at, allowed=_CHARACTER_KEYS)
    skip = warn_unused(reader, row, at, ruleset)
    for sheet in SHEETS:
        sheet.warn(reader, row, at, ruleset=ruleset, skip=skip)
    name = reader.attempt(lambda: _character_name(reader, row, at), "?")
    player = reader.attempt(lambda: _player(reader, row, at), None)
    # each ruleset reads its own part of the sheet (sheets.registry)
    parts = Parts(tuple(sheet.read(reader, row, at) for sheet in SHEETS))
    side = reader.attempt(lambda: _side(reader, row, at, sides, npc=player is None), "?")
    standing = reader.attempt(
        lambda: reader.choice(row, at, "standing", choices=STANDING_DEFAULTS, default=None), None
    )
    if len(reader.mistakes) > kept:
        return None
    return CharacterSheet(name=name, player=player, side=side, parts=parts, standing=standing)


def _character_name(reader: Reader, row: Table, at: KeyPath) -> str:
    reader.required(row, at, "name", expected='"Aria"')
    return check_name(reader, reader.text(row, at, "name") or "", (*at, "name"), what="name")


def _player(reader: Reader, row: Table, at: KeyPath) -> str | None:
    player = reader.text(row, at, "player")
    return None if player is None else check_username(reader, player, (*at, "player"))


def _side(reader: Reader, row: Table, at: KeyPath, sides: tuple[str, ...], *, npc: bool) -> str:
    default = DEFAULT_NPC_SIDE if npc else DEFAULT_PC_SIDE
    given = reader.text(row, at, "side")
    side = default if given is None else check_name(reader, given, (*at, "side"), what="side")
    if sides and side.casefold() not in {s.casefold() for s in sides}:
        how = "" if given is not None else f" (the default for {'an NPC' if npc else 'a PC'})"
        reader.fail(
            (*at, "side"),
            f'side "{side}"{how} is not one of the campaign\'s sides',
            "one of " + ", ".join(f'"{s}"' for s in sides) + " (campaign.sides)",
        )
    # keep the spelling the campaign declared, so sides compare as one
    return next((s for s in sides if s.casefold() == side.casefold()), side)


def _warn_gm_players(
    reader: Reader, characters: tuple[CharacterSheet, ...], rows: list[Table], gms: tuple[str, ...]
) -> None:
    """A PC whose player is one of the GMs: the GM's posts are read as the GM's (every tag
    needs ``as NAME``) and the GM is reminded as a player who has not acted."""
    gm_names = {gm.casefold() for gm in gms}
    by_name = {sheet.name: sheet for sheet in characters}
    for index, row in enumerate(rows):
        sheet = by_name.get(" ".join(str(row.get("name", "")).split()))
        if sheet is None or sheet.player is None or sheet.player.casefold() not in gm_names:
            continue
        reader.warn(
            ("characters", index, "player"),
            f'player "{sheet.player}" is one of the GMs: the bot reads a GM\'s tags only with '
            f'"as {shortened(sheet.name)}", and reminds the GM of "{shortened(sheet.name)}" as '
            "a player who has not acted",
            "the username of the player who plays it, or no player: an NPC, run by the GMs",
        )


def _check_unique_names(
    reader: Reader, names: list[str], at: KeyPath, what: str, *, hint: str = ""
) -> None:
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name.strip().casefold()
        if not key:
            continue
        if key in seen:
            reader.report(
                (*at, index),
                f'{what} "{shortened(name.strip())}" is listed twice '
                f"(also at {reader.where((*at, seen[key]))})",
                f"each {what} once; names compare without regard to case{hint}",
            )
        seen[key] = index
