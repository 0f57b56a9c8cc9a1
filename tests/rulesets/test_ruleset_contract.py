"""What every ruleset owes pbp, run over every registered ruleset (``pbp.rulesets.plugins``) the
way the forum contract suite runs over every forum: its refusals each have words that render,
and hide an NPC's numbers under hide-npcs; each verb's example in its scene's words reads back
as a valid tag, whose canonical text reads back to the same tag; its grammar writes and
explains every tag kind it reads; ``!undo`` of a round of its scene gives its state back; an
action whose rules raise at the close is void and the round closes all the same.

It runs over the coin ruleset of ``tests/rulesets/coin`` too, beside pbp's own:
``tests/conftest.py`` registers it before anything reads the rulesets. Where inside its own
resolution each of pbp's rulesets can fail, and what its ledger says then, is
``tests/engine/test_resolution_errors.py``."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import types
import typing
from typing import Any

import pytest
from engine_helpers import ledger, make_campaign, play, thread

from pbp.engine.problems import CouldNotResolve
from pbp.engine.registry import RULESETS
from pbp.engine.ruleset import Closer
from pbp.errors import Problem
from pbp.render.disclosure import NOTHING_HIDDEN, Hidden
from pbp.render.environment import make_environment
from pbp.render.problems import Examples, render_problem_reply
from pbp.render.registry import NPC_NUMBERS, VIEWS
from pbp.render.ruleset import RulesetViews
from pbp.rulesets import RulesetPlugin, plugins
from pbp.tags import ReadContext, format_tag, parse_post
from pbp.tags.model import SceneKind
from pbp.tags.registry import FORMATS, MEANINGS, SCENE_VERBS

PLUGINS = {plugin.name: plugin for plugin in plugins()}
KINDS = [SceneKind(kind) for plugin in plugins() for kind in plugin.kinds]
NAMES = dict(target="Goblin", other="Ogre", ally="Bram", own="Aria", task="Breach the gate",
             feature="Door", talent="Rage")  # fmt: skip
NUMBER = 4242  # a number no template writes on its own


def _refusals(plugin: RulesetPlugin) -> list[type[Problem]]:
    """The problems its engine side defines (``engine/refusals.py``), each a cause of its own."""
    module = importlib.import_module(".engine.refusals", plugin.package)
    return [
        kind for _, kind in inspect.getmembers(module, inspect.isclass)
        if issubclass(kind, Problem) and kind.__module__ == module.__name__
        and (getattr(kind, "cause", None) or "cause" not in vars(kind))
        and dataclasses.fields(kind) and not inspect.isabstract(kind)
        and (not hasattr(kind, "cause") or kind.cause)
    ]  # fmt: skip


def _sample(hint: Any, name: str) -> Any:
    """A value of the annotated type, as a reply would be given one."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)), name)
    if origin is tuple:
        return (_sample(args[0], name),) if args else ()
    if origin is typing.Literal:
        return args[0]
    if hint is bool:
        return False
    if hint is int:
        return 3
    if hint is str:
        return "Goblin" if name in ("actor", "target", "name") else name
    return hint() if callable(hint) else None


def _instance(kind: type[Problem], **given: Any) -> Problem:
    hints = typing.get_type_hints(kind)
    values = {f.name: _sample(hints[f.name], f.name) for f in dataclasses.fields(kind)
              if f.init and f.default is dataclasses.MISSING
              and f.default_factory is dataclasses.MISSING}  # fmt: skip
    values["tag"] = "[attack: Goblin]"
    return kind(**{**values, **given})


def _render(problem: Problem, kind: str, hidden: Hidden = NOTHING_HIDDEN) -> str:
    examples = Examples.named(scene=kind, **NAMES)
    return render_problem_reply([problem], env=make_environment(), examples=examples, hidden=hidden)


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_every_refusal_cause_has_words_that_render(name: str) -> None:
    plugin = PLUGINS[name]
    refusals = _refusals(plugin)
    assert refusals, f"{name} defines no refusal in engine/refusals.py"
    for kind in refusals:
        text = _render(_instance(kind), plugin.kinds[0])
        assert text.strip(), kind.__name__


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_under_hide_npcs_a_refusal_leaves_out_the_npcs_numbers(name: str) -> None:
    plugin = PLUGINS[name]
    views = plugin.part(plugin.views, RulesetViews)
    own = {getattr(k, "cause", None) or k.code: k for k in _refusals(plugin)}
    checked = 0
    for key, numbers in views.npc_numbers.items():
        kind = own.get(key)
        if kind is None or "actor" not in {f.name for f in dataclasses.fields(kind)}:
            continue  # a rule's violation: its NPC numbers are the roster's, below
        problem = _instance(kind, actor="Goblin", **dict.fromkeys(numbers, NUMBER))
        shown = _render(problem, plugin.kinds[0])
        hidden = _render(
            problem, plugin.kinds[0], Hidden(npcs=frozenset({"Goblin"}), numbers=NPC_NUMBERS)
        )
        assert str(NUMBER) in shown, (key, shown)
        assert str(NUMBER) not in hidden, (key, hidden)
        checked += 1
    assert checked or not views.npc_numbers or name == "distat", name


def _words(kind: SceneKind) -> Any:
    """The scene's words (``scenes/<kind>/tags.j2``), its examples naming ``NAMES``."""
    return (
        make_environment()
        .get_template(f"scenes/{kind.value}/tags.j2")
        .make_module({"ex": Examples.named(scene=kind.value, **NAMES)})
    )


def _example_tags(kind: SceneKind) -> list[tuple[str, str]]:
    words = _words(kind)
    return [(verb, str(words.example(verb)).strip("`")) for verb in sorted(SCENE_VERBS[kind])]


def _context(kind: SceneKind) -> ReadContext:
    return ReadContext(
        scene=kind,
        characters=("Aria", "Bram", "Goblin", "Ogre"),
        features=("Door",),
        tasks=("Breach the gate",),
        talents=("Rage",),
    )


def _unsourced(tag: Any) -> Any:
    return dataclasses.replace(tag, source=None)


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_every_verbs_example_reads_back_as_a_valid_tag_in_its_scene(kind: SceneKind) -> None:
    for verb, text in _example_tags(kind):
        parsed = parse_post(text, context=_context(kind))
        assert not parsed.problems, (verb, text, parsed.problems)
        (tag,) = parsed.tags
        again = parse_post(format_tag(tag), context=_context(kind))
        assert [_unsourced(t) for t in again.tags] == [_unsourced(tag)], (verb, text)


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_its_grammar_writes_and_explains_every_tag_kind_it_reads(name: str) -> None:
    plugin = PLUGINS[name]
    grammar = plugin.module(plugin.grammar)
    readers = [getattr(r, "func", r) for r in grammar.READERS.values()]  # a partial's function
    kinds = {typing.get_type_hints(reader).get("return") for reader in readers}
    for kind in {k for hint in kinds for k in (typing.get_args(hint) or (hint,))}:
        assert kind in FORMATS and kind in MEANINGS, kind


UNDO_ROUND = [
    ("post", "p1", "gm_sam", 0, "!encounter {kind}{setup}"),
    ("post", "p2", "alice", 1, "{tag}"),
]


def test_every_scene_kind_has_views() -> None:
    assert sorted(VIEWS) == sorted(KINDS)


def _rows(kind: SceneKind, *, close: bool = False) -> list[tuple[str, str, str, int, str]]:
    """A round of the scene: the GM opens it, Aria writes its first example (and the GM closes
    it)."""
    tag = str(_words(kind).first()).strip("`")  # the scene's first example
    # the example names the scene's task when it has tasks: the GM sets it up
    setup = f"\n!task {NAMES['task']} dc 40" if NAMES["task"] in tag else ""
    rows = [(t, i, a, m, b.format(kind=kind.value, setup=setup, tag=tag))
            for t, i, a, m, b in UNDO_ROUND]  # fmt: skip
    return rows + ([("post", "p3", "gm_sam", 2, "!close")] if close else [])


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_undo_gives_the_scene_back_as_the_round_found_it(kind: SceneKind) -> None:
    run = play(_rows(kind), campaign=make_campaign("open"))
    assert run.problems_said("p2") == (), _rows(kind)[1]
    before = run.state
    run.feed([("post", "p3", "gm_sam", 2, "!close")])
    assert "Aria" not in run.closed(1).not_acted  # her tag acted in the round
    run.feed([("post", "p4", "gm_sam", 3, "!undo")])
    assert run.state.scene_kind is kind
    assert run.state.rulesets == before.rulesets
    assert run.state.scene == before.scene


class RulesRaise(KeyError):
    """What the faked rules raise: nothing a ruleset expects."""


def _raises(*_: object) -> Any:
    raise RulesRaise("something the rules did not expect")


@pytest.mark.parametrize("step", ["take", "finish"])  # at its turn, or with the rest after
@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_an_action_whose_rules_raise_is_void_and_the_round_closes(
    kind: SceneKind, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset, made = RULESETS[kind], []
    real = ruleset.closer

    def failing(state: Any, dice: Any) -> Closer:  # its resolution raises at that step
        closer = real(state, dice)
        monkeypatch.setattr(type(closer), step, _raises)
        made.append(closer)
        return closer

    monkeypatch.setattr(ruleset, "closer", failing)
    run = thread(_rows(kind, close=True), campaign=make_campaign("open"))
    assert made, f"the close never asked the {kind} ruleset to resolve"
    (voided,) = [r for r in run.reports[1].rejected if r.post_id == "p2"]
    assert voided.problem == CouldNotResolve(
        tag=voided.tag, line=1, column=1, error="RulesRaise: 'something the rules did not expect'"
    )
    assert run.state.round is not None and run.state.round.number == 2  # the next one opened
    summary = str(run.summaries[1])
    assert "could not resolve this action" in summary and "GM settles it by hand" in summary
    closed = ledger(run)["rounds"][0]
    assert all(action["post"] != "p2" for action in closed.get("actions", ()))  # it did not act
