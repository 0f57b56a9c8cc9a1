"""One bracket -> a tag, a problem, or nothing (prose) (SPEC §2).

``[VERB: BODY, OPTION …]``: the colon says the bracket is meant as a tag, so every problem in
it is reported. Without a colon a bracket is a tag only when all of it reads as one; otherwise
it is prose. An unknown first word is prose, unless it is a likely typo of a verb.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from rapidfuzz.distance import DamerauLevenshtein

from pbp.errors import Problem
from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.markdown import CODE
from pbp.tags.model import SceneKind, Source
from pbp.tags.names import resolve_name
from pbp.tags.problems import AmbiguousName, CodeInTag, UnknownName, VerbTypo, WrongScene
from pbp.tags.registry import (
    ALL_VERBS,
    LEAD_WORDS,
    SCENE_READERS,
    SCENE_VERBS,
    VERB_ALIASES,
    Tag,
    verbs_of,
)
from pbp.values import replace

_HEAD = re.compile(r"\s*([^\W\d_]+)\s*(:?)")


class Bracket(NamedTuple):
    """The inside of one ``[…]`` and where it stood (a named tuple: one is built a bracket)."""

    inner: str
    text: str  # the whole bracket as written, with its brackets
    line: int
    column: int


def read_bracket(
    bracket: Bracket,
    *,
    scene: SceneKind,
    names: Names,
    index: int,
    readings: dict[str, object] | None,
) -> Tag | Problem | None:
    """The tag a bracket holds, the problem that stops it, or None when it is prose.

    Reading is pure, and a thread repeats its tags (the same attack, edits, every read of a
    post): what the inside of a bracket reads as is kept in ``readings`` (those of the scene
    and roster, from ``readings_of``) and only placed anew. ``readings=None`` reads the bracket
    afresh (the answer is the same).
    """
    if CODE in bracket.inner:
        return _with_code(bracket, scene=scene)
    source = Source(index=index, line=bracket.line, column=bracket.column, text=bracket.text)
    kept = _UNREAD if readings is None else readings.get(bracket.inner, _UNREAD)
    if kept is _UNREAD:
        found = _read_inside(bracket.inner, scene=scene, names=names, source=source)
        if readings is not None:
            if len(readings) >= READINGS_KEPT:
                readings.clear()
            readings[bracket.inner] = found
    else:
        found = cast("Tag | Problem | None", kept)
        if found is not None and not isinstance(found, Problem):
            found = replace(found, source=source)
    if isinstance(found, Problem):
        return _placed(found, bracket)
    return found


READINGS_KEPT = 1024  # distinct bracket insides kept a roster; past that they are dropped
ROSTERS_KEPT = 16  # scenes and rosters whose readings are kept; past that all are dropped
_UNREAD = object()
_ROSTERS: dict[tuple[SceneKind, Names], dict[str, object]] = {}
_last: tuple[SceneKind, Names, dict[str, object]] | None = None


def readings_of(scene: SceneKind, names: Names) -> dict[str, object]:
    """What the brackets read against ``scene`` and ``names`` were found to hold, kept.

    A thread reads post after post against the same scene and roster: when ``names`` is the
    very roster of the last call, its readings are at hand without hashing the roster.
    """
    global _last
    if _last is not None and _last[1] is names and _last[0] is scene:
        return _last[2]
    key = (scene, names)
    readings = _ROSTERS.get(key)
    if readings is None:
        if len(_ROSTERS) >= ROSTERS_KEPT:
            _ROSTERS.clear()
        readings = _ROSTERS[key] = {}
    _last = (scene, names, readings)
    return readings


def forget_readings() -> None:
    """Empty the kept readings (benchmarks measure reading without them); the rosters stay."""
    for readings in _ROSTERS.values():
        readings.clear()
    if _last is not None:
        _last[2].clear()


def _read_inside(
    inner: str, *, scene: SceneKind, names: Names, source: Source
) -> Tag | Problem | None:
    head = _HEAD.match(inner)
    if head is None:
        return None
    word, colon = head.group(1), bool(head.group(2))
    body = inner[head.end() :]
    lowered = word.lower()
    verb = VERB_ALIASES.get(lowered, lowered)
    reader = SCENE_READERS[scene].get(verb)
    if reader is None:
        if not colon and body.strip() and verb not in ALL_VERBS:
            return _colonless_typo(word, body, scene=scene, names=names, source=source)
        # without a colon, a verb of another scene is a tag when a name follows (`[attack
        # Goblin Brute]` in a Distat scene): its author meant it (issue 15)
        meant = colon or _names_someone(body, names=names)
        return _not_a_verb(word, verb, colon=meant, alone=not body.strip(), scene=scene)
    try:
        return reader(body.lstrip(" ,|/") if not colon else body, source=source, names=names)
    except Reject as rejected:
        # without a colon, a bracket that does not read whole is prose, unless all that stops
        # it is a name that could be several names, or a typo of one (`[p attack gob]` with
        # two goblins): then the candidates are worth a reply
        return rejected.problem if colon or _near_name(rejected.problem) else None


def _colonless_typo(
    word: str, body: str, *, scene: SceneKind, names: Names, source: Source
) -> Problem | None:
    """A bracket without a colon whose first word is a likely typo of a verb: the typo, with
    the corrected tag, when the rest reads as a valid tag of that verb (`[phsyical attack
    Goblin]`); prose otherwise (`[phsyical attack the air]`) (RULES §7)."""
    suggestion = typo_of(word, scene=scene)
    if suggestion is None:
        return None
    try:
        SCENE_READERS[scene][suggestion](body.lstrip(" ,|/"), source=source, names=names)
    except Reject:
        return None
    return VerbTypo(tag="", word=word, suggestion=suggestion, scene=scene.value)


NEAR_NAME_LENGTH = 3  # a shorter name written is too little to say the tag was meant


def _near_name(problem: Problem) -> bool:
    """Whether ``problem`` is a name that could be several names, or a typo of one name."""
    if isinstance(problem, AmbiguousName):
        return len(problem.name) >= NEAR_NAME_LENGTH
    return isinstance(problem, UnknownName) and bool(problem.near)


def _names_someone(body: str, *, names: Names) -> bool:
    """Whether ``body`` starts with a character's name (after a maneuver word: `attack NAME`):
    the whole name, the start of one or more names, or a typo of one."""
    cursor = Cursor(body.lstrip(" ,|/"))
    if cursor.peek_word() in LEAD_WORDS:
        cursor.take_word()
    cursor.skip_space()
    if cursor.exact_name(names.characters):
        return True
    written = cursor.take_word()
    if len(written) <= NEAR_NAME_LENGTH:
        return False
    found = resolve_name(written, candidates=names.characters)
    return isinstance(found, str) or _near_name(found)


def _with_code(bracket: Bracket, *, scene: SceneKind) -> Problem | None:
    """A bracket holding a code span: a problem when it starts with a verb (or a typo of one),
    else prose (issue 15: such a tag was dropped without a word)."""
    head = _HEAD.match(bracket.inner)
    if head is None:
        return None
    word = head.group(1)
    verb = VERB_ALIASES.get(word.lower(), word.lower())
    if verb not in ALL_VERBS:
        verb = typo_of(word, scene=scene) or ""
    return _placed(CodeInTag(tag="", verb=verb), bracket) if verb else None


def _not_a_verb(
    word: str, verb: str, *, colon: bool, alone: bool, scene: SceneKind
) -> Problem | None:
    if verb in ALL_VERBS:
        if not colon:
            return None
        where = tuple(kind.value for kind, verbs in SCENE_VERBS.items() if verb in verbs)
        return WrongScene(
            tag="", verb=verb, scene=scene.value, scenes=where, verbs=tuple(sorted(verbs_of(scene)))
        )
    if not (colon or alone):
        return None
    suggestion = typo_of(word, scene=scene)
    if suggestion is None:
        return None
    return VerbTypo(tag="", word=word, suggestion=suggestion, scene=scene.value)


def typo_of(word: str, *, scene: SceneKind) -> str | None:
    """The verb of the scene ``word`` is likely a typo of (SPEC §2), or None."""
    folded = word.lower()
    limit = 2 if len(folded) >= 5 else 1
    best = min(
        ((DamerauLevenshtein.distance(folded, verb), verb) for verb in verbs_of(scene)),
        default=None,
    )
    return best[1] if best is not None and best[0] <= limit else None


def _placed(problem: Problem, bracket: Bracket) -> Problem:
    return replace(problem, tag=bracket.text, line=bracket.line, column=bracket.column)
