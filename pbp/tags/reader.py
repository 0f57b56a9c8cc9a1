"""One bracket -> a tag, a problem, or nothing (prose) (SPEC §2).

``[VERB: BODY, OPTION …]``: the colon says the bracket is meant as a tag, so every problem in
it is reported. Without a colon a bracket is a tag only when all of it reads as one; otherwise
it is prose. An unknown first word is prose, unless it is a likely typo of a verb.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from rapidfuzz.distance import DamerauLevenshtein

from pbp.errors import Problem
from pbp.tags import distat, scenes
from pbp.tags.cursor import Names, Reject
from pbp.tags.model import COMMON_VERBS, SCENE_VERBS, VERB_ALIASES, SceneKind, Source, Tag, verbs_of
from pbp.tags.problems import VerbTypo, WrongScene

_HEAD = re.compile(r"\s*([^\W\d_]+)\s*(:?)")
ALL_VERBS: frozenset[str] = frozenset().union(*SCENE_VERBS.values()) | COMMON_VERBS

Reader = Callable[..., Tag]


def _action(verb: str) -> Reader:
    def read(body: str, *, source: Source, names: Names) -> Tag:
        return distat.read_action(verb, body, source=source, names=names)

    return read


_COMMON: dict[str, Reader] = {"roll": scenes.read_roll, "pass": distat.read_pass}
_SKIRMISH: dict[str, Reader] = {
    "attack": scenes.read_skirmish_attack, "cast": scenes.read_cast, "act": scenes.read_act,
}  # fmt: skip
# Which reader each verb of each scene uses ("attack" differs between d20 and Markhorspire).
READERS: dict[SceneKind, dict[str, Reader]] = {
    SceneKind.DISTAT: {
        "move": distat.read_move, "physical": _action("physical"),
        "mental": _action("mental"), "identify": distat.read_identify,
    },
    SceneKind.ABSTRACT: {"abstract": scenes.read_abstract, "reaction": scenes.read_reaction},
    SceneKind.D20: {
        "check": scenes.read_check, "attack": scenes.read_attack_roll, "aid": scenes.read_aid,
        "compare": scenes.read_compare, "effect": scenes.read_effect,
    },
    SceneKind.SKIRMISH: _SKIRMISH,
    SceneKind.BATTLE: _SKIRMISH,
}  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class Bracket:
    """The inside of one ``[…]`` and where it stood."""

    inner: str
    text: str  # the whole bracket as written, with its brackets
    line: int
    column: int


def read_bracket(
    bracket: Bracket, *, scene: SceneKind, names: Names, index: int
) -> Tag | Problem | None:
    """The tag a bracket holds, the problem that stops it, or None when it is prose."""
    head = _HEAD.match(bracket.inner)
    if head is None:
        return None
    word, colon = head.group(1), bool(head.group(2))
    body = bracket.inner[head.end() :]
    verb = VERB_ALIASES.get(word.lower(), word.lower())
    reader = (READERS[scene] | _COMMON).get(verb)
    if reader is None:
        problem = _not_a_verb(word, verb, colon=colon, alone=not body.strip(), scene=scene)
        return _placed(problem, bracket) if problem is not None else None
    source = Source(index=index, line=bracket.line, column=bracket.column, text=bracket.text)
    try:
        return reader(body.lstrip(" ,|/") if not colon else body, source=source, names=names)
    except Reject as rejected:
        return _placed(rejected.problem, bracket) if colon else None


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
    scored = sorted((DamerauLevenshtein.distance(folded, verb), verb) for verb in verbs_of(scene))
    best = scored[0] if scored else None
    return best[1] if best is not None and best[0] <= limit else None


def _placed(problem: Problem, bracket: Bracket) -> Problem:
    return replace(problem, tag=bracket.text, line=bracket.line, column=bracket.column)
