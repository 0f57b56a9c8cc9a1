"""Campaign files (SPEC §3): TOML text -> a checked, frozen ``Campaign``.

Pure: the shell reads the file (``pbp.services.files.load_campaign``). Every mistake raises
``ConfigError`` naming the file, the key (with its line when the text shows it) and what was
expected.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pbp.campaign.model import Campaign, CampaignOptions, CharacterSheet, Visibility
from pbp.campaign.sheet_keys import MISPLACED, check_misplaced, warn_unused, warn_values
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.errors import ConfigError
from pbp.rules.distat.intents import STATS, Stat
from pbp.rules.distat.talents import Talent, TalentEffect, TalentKind
from pbp.tags.model import NAME_FORBIDDEN_CHARS, RESERVED_WORDS, SceneKind

_TOP_KEYS = ("campaign", "characters")
_CAMPAIGN_KEYS = ("name", "gms", "ruleset", "visibility", "templates", "sides", "options")
_FLAG_OPTIONS = ("identify_bonus_requires_owning", "close_on_any_gm_post")
_NUMBER_OPTIONS = ("skirmish_minimum", "skirmish_per_point")  # RULES M1
_CHARACTER_KEYS = (
    "name", "player", "side", "body", "mind", "bonus_pool", "constitution", "wisdom",
    "intuition", "hp", "wp", "stamina", "dice_pool", "talents", "skills", "attack", "defense",
)  # fmt: skip
SKILL_LIMIT = 999  # a skill bonus, an attack bonus: beyond any real character
_POINTS = (
    "body",
    "mind",
    "bonus_pool",
    "constitution",
    "wisdom",
    "intuition",
    "stamina",
    "dice_pool",
)
_TALENT_KEYS = ("name", "stat", "level", "kind", "eav", "epv", "effect")
_RULESETS = tuple(kind.value for kind in SceneKind)
_VISIBILITIES: tuple[Visibility, ...] = ("hide-npcs", "open")
_STATS: tuple[Stat, ...] = STATS
_KINDS: tuple[TalentKind, ...] = ("active", "passive")
_EFFECTS: tuple[TalentEffect, ...] = ("attack", "restrain", "none")
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
    rows: list[Table] = reader.attempt(lambda: reader.tables(reader.doc, (), "characters"), [])
    kind = SceneKind(ruleset or SceneKind.DISTAT)
    read = [
        _character(reader, row, ("characters", i), sides, kind) for i, row in enumerate(rows)
    ]
    characters = tuple(c for c in read if c is not None)
    # a sheet with other mistakes still has its name checked ("": no name to compare)
    names = [" ".join(str(row.get("name", "")).split()) for row in rows]
    _check_unique_names(reader, names, ("characters",), "character")
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
    )
    return campaign, tuple(reader.warnings)


def _name_text(reader: Reader, head: Table, at: KeyPath) -> str:
    reader.required(head, at, "name", expected='"The Sunken Keep"')
    name = (reader.text(head, at, "name") or "").strip()
    if not name:
        reader.fail((*at, "name"), "the campaign's name is empty", "a name")
    return name


def _gms(reader: Reader, head: Table) -> tuple[str, ...]:
    at: KeyPath = ("campaign",)
    reader.required(head, at, "gms", expected='["gm_username"]')
    given = reader.strings(head, at, "gms") or ()
    if not given:
        reader.fail((*at, "gms"), "gms is empty", "at least one GM's forum username")
    gms = [_check_username(reader, gm, (*at, "gms", i)) for i, gm in enumerate(given)]
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
    reader.check_keys(table, at, allowed=(*_FLAG_OPTIONS, *_NUMBER_OPTIONS))
    defaults = CampaignOptions()
    flags: dict[str, Any] = {
        key: reader.flag(table, at, key, default=getattr(defaults, key)) for key in _FLAG_OPTIONS
    }
    numbers: dict[str, Any] = {
        key: reader.whole(table, at, key, minimum=1) or getattr(defaults, key)
        for key in _NUMBER_OPTIONS
    }
    return CampaignOptions(**flags, **numbers)


def _character(
    reader: Reader, row: Table, at: KeyPath, sides: tuple[str, ...], ruleset: SceneKind
) -> CharacterSheet | None:
    """One sheet, or None when it has mistakes (each of them kept in ``reader``)."""
    kept = len(reader.mistakes)
    check_misplaced(reader, row, at)
    own = {key: value for key, value in row.items() if key.casefold() not in MISPLACED}
    reader.check_keys(own, at, allowed=_CHARACTER_KEYS)
    warn_values(reader, row, at, ruleset, skip=warn_unused(reader, row, at, ruleset))
    name = reader.attempt(lambda: _character_name(reader, row, at), "?")
    player = reader.attempt(lambda: _player(reader, row, at), None)
    points: dict[str, Any] = {
        key: reader.attempt(partial(reader.whole, row, at, key, default=0, minimum=0), None)
        for key in _POINTS
    }
    rows: list[Table] = reader.attempt(lambda: reader.tables(row, at, "talents"), [])
    talents = tuple(
        reader.attempt(partial(_talent, reader, t, (*at, "talents", i), points), None)
        for i, t in enumerate(rows)
    )
    # a talent may be taken more than once: its copies stack (RULES §1.1), so no uniqueness check
    reader.attempt(lambda: _check_bonus_pool(reader, at, points), None)
    side = reader.attempt(lambda: _side(reader, row, at, sides, npc=player is None), "?")
    hp = reader.attempt(lambda: reader.whole(row, at, "hp", minimum=0), None)
    wp = reader.attempt(lambda: reader.whole(row, at, "wp", minimum=0), None)
    skills: tuple[tuple[str, int], ...] = reader.attempt(lambda: _skills(reader, row, at), ())
    attack = reader.attempt(lambda: _bonus(reader, row, at, "attack"), None)
    defense = reader.attempt(lambda: reader.whole(row, at, "defense", minimum=0), None)
    if len(reader.mistakes) > kept:
        return None
    return CharacterSheet(
        name=name, player=player, side=side, hp=hp, wp=wp, skills=skills, attack=attack,
        defense=defense, talents=tuple(t for t in talents if t is not None),
        **{key: value or 0 for key, value in points.items()},
    )  # fmt: skip


def _character_name(reader: Reader, row: Table, at: KeyPath) -> str:
    reader.required(row, at, "name", expected='"Aria"')
    return check_name(reader, reader.text(row, at, "name") or "", (*at, "name"), what="name")


def _player(reader: Reader, row: Table, at: KeyPath) -> str | None:
    player = reader.text(row, at, "player")
    return None if player is None else _check_username(reader, player, (*at, "player"))


def _bonus(reader: Reader, row: Table, at: KeyPath, key: str) -> int | None:
    """A signed bonus (``attack = 5``), at most SKILL_LIMIT either way."""
    found = reader.value(row, at, key, kind=int, expected=f"{key} = 5 (a whole number)")
    if found is not None and abs(found) > SKILL_LIMIT:
        reader.fail((*at, key), f"{key} = {found} is beyond ±{SKILL_LIMIT}",
                    f"a whole number from -{SKILL_LIMIT} to {SKILL_LIMIT}")
    return None if found is None else int(found)


def _skills(reader: Reader, row: Table, at: KeyPath) -> tuple[tuple[str, int], ...]:
    """``skills = { Stealth = 6, "Disable Device" = 4 }``: each skill's bonus."""
    table = reader.table(row, at, "skills") or {}
    found: list[tuple[str, int]] = []
    seen: set[str] = set()
    for skill in table:
        read = reader.attempt(partial(_skill, reader, table, at, skill, seen), None)
        if read is not None:
            found.append(read)
    return tuple(found)


def _skill(
    reader: Reader, table: Table, at: KeyPath, skill: str, seen: set[str]
) -> tuple[str, int]:
    where = (*at, "skills", skill)
    name = check_name(reader, skill, where, what="skill")
    if name.casefold() in seen:
        reader.fail(where, f'skill "{name}" is given twice', "each skill once")
    seen.add(name.casefold())
    bonus = _bonus(reader, table, (*at, "skills"), skill)
    assert bonus is not None
    return name, bonus


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


def _check_bonus_pool(reader: Reader, at: KeyPath, points: dict[str, Any]) -> None:
    # RULES §1.2 / D15: the pool's maximum is the highest talent level the character can buy
    if None in (points["body"], points["mind"], points["bonus_pool"]):
        return  # a number that is wrong itself was reported already
    most = max(points["body"], points["mind"]) // 2
    if points["bonus_pool"] > most:
        reader.fail(
            (*at, "bonus_pool"),
            f"bonus_pool = {points['bonus_pool']} is above the pool's maximum of {most}",
            f"at most {most}: RULES D15 caps the pool at half the points in the "
            "higher of body and mind",
        )


def _talent(reader: Reader, row: Table, at: KeyPath, points: dict[str, Any]) -> Talent:
    reader.check_keys(row, at, allowed=_TALENT_KEYS)
    for key, example in (
        ("name", '"Aggressive"'),
        ("stat", '"body" or "mind"'),
        ("level", "1 or more"),
        ("kind", '"active" or "passive"'),
    ):
        reader.required(row, at, key, expected=example)
    stat = reader.choice(row, at, "stat", choices=_STATS, default="body") or "body"
    level = reader.whole(row, at, "level", minimum=1) or 1
    # RULES §1.2: max talent level in a stat = floor(invested / 2)
    if points[stat] is not None and level > points[stat] // 2:
        reader.fail(
            (*at, "level"),
            f"level {level} needs {2 * level} points in {stat}, the sheet has {points[stat]}",
            f"level at most {points[stat] // 2}: RULES §1.2 allows half the points "
            f"invested in {stat}, rounded down",
        )
    kind = reader.choice(row, at, "kind", choices=_KINDS, default="passive") or "passive"
    effect = reader.choice(row, at, "effect", choices=_EFFECTS, default=None)
    if kind == "passive" and effect not in (None, "none"):
        reader.fail(
            (*at, "effect"),
            f'a passive talent cannot have effect = "{effect}"',
            'kind = "active", or no effect (passive talents are never used)',
        )
    return Talent(
        name=check_name(
            reader, reader.text(row, at, "name") or "", (*at, "name"), what="talent name"
        ),
        stat=stat,
        level=level,
        kind=kind,
        eav=reader.whole(row, at, "eav"),
        epv=reader.whole(row, at, "epv"),
        effect=effect,
    )


def check_name(reader: Reader, name: str, at: KeyPath, *, what: str) -> str:
    """``name`` without surrounding spaces, if tags can name it unambiguously (SPEC §2)."""
    name = " ".join(name.split())
    if not name:
        reader.fail(at, f"the {what} is empty", "a name of at least one letter")
    bad = sorted({c for c in name if c in NAME_FORBIDDEN_CHARS})
    if bad:
        reader.fail(
            at,
            f'{what} "{name}" contains {" ".join(bad)}',
            "a name without any of "
            + " ".join(sorted(NAME_FORBIDDEN_CHARS))
            + " (they separate the parts of a tag)",
        )
    if name.casefold() in RESERVED_WORDS:
        reader.fail(
            at,
            f'{what} "{name}" is a word of the tag language',
            "a name that is not a verb, maneuver or option word alone (attack, use, "
            'bonus, …): add a word, e.g. "' + name + ' Two"',
        )
    return name


def _check_username(reader: Reader, user: str, at: KeyPath) -> str:
    user = user.strip()
    if not user or any(ch.isspace() for ch in user):
        reader.fail(at, f'"{user}" is not a forum username', "a username without spaces")
    return user.removeprefix("u/")


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
                f'{what} "{name.strip()}" is listed twice '
                f"(also at {reader.where((*at, seen[key]))})",
                f"each {what} once; names compare without regard to case{hint}",
            )
        seen[key] = index
