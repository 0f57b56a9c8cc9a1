"""A problem's words are kept by what its template read of the examples: one problem is written
with other examples in its reply, the summary's refusal line and the ledger, and its words
must still be those of the examples of each (issue 28: one render where the words read none)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import jinja2

from pbp.errors import Problem
from pbp.render.problems import Examples, render_problem


@dataclass(frozen=True)
class NamesNoOne(Problem):
    code: ClassVar[str] = "names_no_one"


@dataclass(frozen=True)
class NamesTheTarget(Problem):
    code: ClassVar[str] = "names_the_target"
    aimed: bool = True


@dataclass(frozen=True)
class PrintsTheExamples(Problem):
    code: ClassVar[str] = "prints_the_examples"


TEMPLATES = {
    "problems/names_no_one.md.j2": "{{ tag|counted }} is not a tag.",
    # reads ``ex.target`` only when ``aimed``: a render that did not read it serves any examples
    "problems/names_the_target.md.j2": (
        "{{ tag|counted }}{% if aimed %}: try `[physical: attack {{ ex.target }}]`{% endif %}"
    ),
    "problems/prints_the_examples.md.j2": "{{ tag|counted }} {{ ex }}",
}


def _env() -> tuple[jinja2.Environment, list[str]]:
    renders: list[str] = []
    env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES))

    def counted(tag: str) -> str:
        renders.append(tag)
        return tag

    env.filters["counted"] = counted
    return env, renders


GOBLIN = Examples()  # target Goblin
OGRE = replace(GOBLIN, target="Ogre", other="Goblin")


def test_words_that_read_no_example_are_rendered_once_for_every_examples() -> None:
    env, renders = _env()
    problem = NamesNoOne(tag="[fight]")
    texts = {render_problem(problem, env=env, examples=ex) for ex in (GOBLIN, OGRE, GOBLIN)}
    assert texts == {"[fight] is not a tag."}
    assert renders == ["[fight]"]


def test_words_that_read_a_name_are_those_of_each_examples() -> None:
    env, renders = _env()
    problem = NamesTheTarget(tag="[hit]")
    assert render_problem(problem, env=env, examples=GOBLIN).endswith("attack Goblin]`")
    assert render_problem(problem, env=env, examples=OGRE).endswith("attack Ogre]`")
    assert render_problem(problem, env=env, examples=GOBLIN).endswith("attack Goblin]`")
    # the same target in other examples: the words kept
    same_target = replace(GOBLIN, other="Imp", ally="Cora", own="Dax")
    assert render_problem(problem, env=env, examples=same_target).endswith("attack Goblin]`")
    assert renders == ["[hit]", "[hit]"]


def test_a_render_that_did_not_reach_the_name_serves_any_examples() -> None:
    env, renders = _env()
    problem = NamesTheTarget(tag="[hit]", aimed=False)
    assert {render_problem(problem, env=env, examples=ex) for ex in (GOBLIN, OGRE)} == {"[hit]"}
    assert renders == ["[hit]"]


def test_words_that_use_the_whole_examples_are_rendered_each_time() -> None:
    env, renders = _env()
    problem = PrintsTheExamples(tag="[all]")
    first = render_problem(problem, env=env, examples=GOBLIN)
    second = render_problem(problem, env=env, examples=OGRE)
    assert first == f"[all] {GOBLIN}" and second == f"[all] {OGRE}"
    assert render_problem(problem, env=env, examples=GOBLIN) == first
    assert renders == ["[all]"] * 3


def test_a_reloaded_template_is_rendered_anew() -> None:
    env, renders = _env()
    problem = NamesNoOne(tag="[fight]")
    render_problem(problem, env=env, examples=GOBLIN)
    changed = {**TEMPLATES, "problems/names_no_one.md.j2": "{{ tag|counted }}?"}
    env.loader = jinja2.DictLoader(changed)
    env.cache = None  # (a template changed on disk is another template object)
    assert render_problem(problem, env=env, examples=GOBLIN) == "[fight]?"
    assert renders == ["[fight]", "[fight]"]
