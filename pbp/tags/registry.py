"""The one tags module that names the rulesets: which verbs each scene kind reads and the reader
of each verb (``pbp/tags/rulesets/<name>.py`` hold them), and the verbs every scene shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pbp.tags import common
from pbp.tags.model import PassTag, RollTag, SceneKind
from pbp.tags.rulesets import abstract, d20, distat, markhor

# Every tag kind a post may hold.
Tag = (
    distat.MoveTag
    | distat.ActionTag
    | distat.IdentifyTag
    | PassTag
    | abstract.AbstractTag
    | abstract.ReactionTag
    | d20.CheckTag
    | d20.AttackRollTag
    | d20.AidTag
    | d20.CompareTag
    | d20.EffectTag
    | RollTag
    | markhor.SkirmishAttackTag
    | markhor.CastTag
    | markhor.ActTag
)
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
Reader = Callable[..., Tag]
# The reader of each verb of each scene kind ("attack" differs between d20 and Markhorspire).
READERS: dict[SceneKind, Mapping[str, Reader]] = {
    SceneKind.DISTAT: distat.READERS,
    SceneKind.ABSTRACT: abstract.READERS,
    SceneKind.D20: d20.READERS,
    SceneKind.SKIRMISH: markhor.READERS,
    SceneKind.BATTLE: markhor.READERS,
}
# Verbs every scene reads, and the verbs of each scene kind. Aliases map to their verb.
COMMON_VERBS: frozenset[str] = common.VERBS
SCENE_VERBS: dict[SceneKind, frozenset[str]] = {
    SceneKind.DISTAT: distat.VERBS,
    SceneKind.ABSTRACT: abstract.VERBS,
    SceneKind.D20: d20.VERBS,
    SceneKind.SKIRMISH: markhor.VERBS,
    SceneKind.BATTLE: markhor.VERBS,
}
VERB_ALIASES: dict[str, str] = {**distat.ALIASES}
# The words that may stand before a name in a colonless bracket: `[attack Goblin Brute]`
LEAD_WORDS: frozenset[str] = distat.LEAD_WORDS
ALL_VERBS: frozenset[str] = frozenset().union(*SCENE_VERBS.values()) | COMMON_VERBS
# Every reader of a scene kind, its own and the common ones, in one table.
SCENE_READERS: dict[SceneKind, Mapping[str, Reader]] = {
    scene: {**readers, **common.READERS} for scene, readers in READERS.items()
}


def verbs_of(scene: SceneKind) -> frozenset[str]:
    """Every verb a post may use in a scene of this kind (aliases not included)."""
    return SCENE_VERBS[scene] | COMMON_VERBS
