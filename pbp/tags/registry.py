"""The tag grammars of every ruleset, found through their plugins (``pbp/rulesets/<name>/tags.py``):
which verbs each scene kind reads and the reader of each verb, the canonical text and meaning of
each tag kind, and the verbs every scene shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from pbp.rulesets import plugins
from pbp.tags import common
from pbp.tags.format import COMMON_FORMATS
from pbp.tags.model import PassTag, RollTag, SceneKind, Source


class Tag(Protocol):
    """A tag of any kind a post may hold (``[pass]``, ``[roll]`` and every ruleset's own, each
    a frozen dataclass of its grammar): where it stood and whom it acts as."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def source(self) -> Source: ...

    @property
    def as_name(self) -> str | None: ...


# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
Reader = Callable[..., Tag]
# The reader of each verb of each scene kind ("attack" differs between d20 and Markhorspire).
_GRAMMARS = tuple((plugin, plugin.module(plugin.grammar)) for plugin in plugins())
READERS: dict[SceneKind, Mapping[str, Reader]] = {
    SceneKind(kind): grammar.READERS for plugin, grammar in _GRAMMARS for kind in plugin.kinds
}
# Verbs every scene reads, and the verbs of each scene kind. Aliases map to their verb.
COMMON_VERBS: frozenset[str] = common.VERBS
SCENE_VERBS: dict[SceneKind, frozenset[str]] = {
    SceneKind(kind): grammar.VERBS for plugin, grammar in _GRAMMARS for kind in plugin.kinds
}
VERB_ALIASES: dict[str, str] = {
    alias: verb
    for _, grammar in _GRAMMARS
    for alias, verb in getattr(grammar, "ALIASES", {}).items()
}
# The words that may stand before a name in a colonless bracket: `[attack Goblin Brute]`
LEAD_WORDS: frozenset[str] = frozenset().union(
    *(getattr(grammar, "LEAD_WORDS", frozenset()) for _, grammar in _GRAMMARS)
)
ALL_VERBS: frozenset[str] = frozenset().union(*SCENE_VERBS.values()) | COMMON_VERBS
# Every reader of a scene kind, its own and the common ones, in one table.
SCENE_READERS: dict[SceneKind, Mapping[str, Reader]] = {
    scene: {**readers, **common.READERS} for scene, readers in READERS.items()
}


def verbs_of(scene: SceneKind) -> frozenset[str]:
    """Every verb a post may use in a scene of this kind (aliases not included)."""
    return SCENE_VERBS[scene] | COMMON_VERBS


# The canonical text of each tag kind (pbp.tags.format) and what it means (`pbp parse`).
FORMATS: Mapping[type, Callable[[Any], str]] = {
    **COMMON_FORMATS,
    **{k: v for _, grammar in _GRAMMARS for k, v in grammar.FORMATS.items()},
}
MEANINGS: Mapping[type, str] = {
    PassTag: "done for the round",
    RollTag: "generic dice",
    **{k: v for _, grammar in _GRAMMARS for k, v in grammar.MEANINGS.items()},
}


def format_tag(tag: Tag) -> str:
    """The canonical text of a tag, e.g. ``[physical: attack Goblin, bonus 2]``: its
    ruleset's grammar writes it (``FORMATS``)."""
    return FORMATS[type(tag)](tag)
