"""A problem's words are kept by what its template read of the examples: one problem is written
with other examples in its reply, the summary's refusal line and the ledger, and its words
must still be those of the examples of each (issue 28: one render where the words read none)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import ClassVar

import jinja2
import jinja2.runtime
import pytest

from pbp.errors import Problem
from pbp.render.problems import Examples, _Rendered, render_problem


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


# -- what a template looks up of the problem ------------------------------------------------


@dataclass(frozen=True)
class Spent(Problem):
    code: ClassVar[str] = "spent"
    actor: str = "Aria"
    left: int | None = 0
    asked: int = 1


READ = {
    # line and column are read by none of these but ``where``, and by ``through_include`` only
    # in the template it includes, and by ``through_macro`` only in a macro it imports
    "problems/spent.md.j2": (
        "{{ tag|counted }}: {{ actor }} has {% if left is none %}none{% else %}{{ left }}"
        "{% endif %} left"
    ),
    "problems/where.md.j2": "{{ tag|counted }} at {{ line }}:{{ column }}",
    "problems/through_include.md.j2": "{{ tag|counted }}{% include 'at.j2' %}",
    "at.j2": " (line {{ line }})",
    "problems/through_macro.md.j2": (
        "{% from 'macros.j2' import place with context %}{{ tag|counted }}{{ place() }}"
    ),
    "macros.j2": "{% macro place() %} (column {{ column }}){% endmacro %}",
}


def _looking_env(templates: dict[str, str] = READ) -> tuple[jinja2.Environment, list[str]]:
    env, renders = _env()
    env.loader = jinja2.DictLoader(templates)
    return env, renders


def _as(code: str) -> type[Spent]:
    return type(code.title(), (Spent,), {"code": code})


def test_a_problem_elsewhere_in_its_post_is_not_rendered_again() -> None:
    env, renders = _looking_env()
    texts = {
        render_problem(Spent(tag="[p]", line=n, column=2 * n), env=env, examples=GOBLIN)
        for n in range(1, 6)
    }
    assert texts == {"[p]: Aria has 0 left"}
    assert renders == ["[p]"]
    # another value it reads is rendered anew, and kept too
    assert render_problem(Spent(tag="[p]", left=2), env=env) == "[p]: Aria has 2 left"
    assert render_problem(Spent(tag="[p]", left=None), env=env) == "[p]: Aria has none left"
    assert render_problem(Spent(tag="[p]", left=2, line=9), env=env) == "[p]: Aria has 2 left"
    assert render_problem(Spent(tag="[p]", actor="Bram"), env=env) == "[p]: Bram has 0 left"
    assert renders == ["[p]"] * 4


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("where", ["[p] at 1:2", "[p] at 3:2", "[p] at 1:4"]),
        ("through_include", ["[p] (line 1)", "[p] (line 3)", "[p] (line 1)"]),
        ("through_macro", ["[p] (column 2)", "[p] (column 2)", "[p] (column 4)"]),
    ],
)
def test_a_place_a_template_reads_anywhere_parts_its_renders(code: str, said: list[str]) -> None:
    env, _renders = _looking_env()
    kind = _as(code)
    places = [(1, 2), (3, 2), (1, 4)]
    got = [render_problem(kind(tag="[p]", line=ln, column=col), env=env) for ln, col in places]
    assert got == said
    again = [render_problem(kind(tag="[p]", line=ln, column=col), env=env) for ln, col in places]
    assert again == said


def test_in_an_environment_with_a_context_of_its_own_every_field_parts_the_renders() -> None:
    env, renders = _looking_env()

    class Own(jinja2.runtime.Context):
        pass

    env.context_class = Own
    for n in (1, 2, 1):
        assert render_problem(Spent(tag="[p]", line=n), env=env) == "[p]: Aria has 0 left"
    assert renders == ["[p]", "[p]"]


def test_the_renders_kept_of_one_template_are_bounded() -> None:
    env, renders = _looking_env()
    kept = _Rendered(most_each=2)
    template = env.get_template("problems/spent.md.j2")

    def words(left: int) -> str:
        return kept.words(template, Spent(tag="[p]", left=left), GOBLIN, ((), ()))

    assert [words(n) for n in (1, 2, 1, 3, 2, 3)] == [
        f"[p]: Aria has {n} left" for n in (1, 2, 1, 3, 2, 3)
    ]
    # 1 and 2 kept; 3 makes 1 the oldest to go; 2 and 3 kept after
    assert renders == ["[p]"] * 3
    words(1)
    assert renders == ["[p]"] * 4


def test_a_render_kept_by_another_thread_meanwhile_is_no_error() -> None:
    # one template, two sets of names (``line`` is looked up only when the macro runs, when
    # ``left``): a lookup paused inside the kept renders while another thread keeps a new set
    # still answers
    env, _renders = _looking_env(
        {
            "problems/spent.md.j2": (
                "{% macro at() %} at {{ line }}{% endmacro %}{{ actor }}{% if left %}{{ at() }}"
                "{% endif %}"
            )
        }
    )
    kept = _Rendered()
    template = env.get_template("problems/spent.md.j2")
    assert kept.words(template, Spent(tag="[p]", left=0), GOBLIN, ((), ())) == "Aria"
    paused, resume = threading.Event(), threading.Event()

    class Slow(str):
        def __hash__(self) -> int:
            paused.set()
            resume.wait(5)
            return str.__hash__(self)

    answers: list[object] = []

    def look() -> None:
        try:
            answers.append(
                kept.words(template, Spent(tag="[p]", actor=Slow("Bo")), GOBLIN, ((), ()))
            )
        except Exception as exc:  # (what the test is about)
            answers.append(exc)

    other = threading.Thread(target=look)
    other.start()
    assert paused.wait(5)
    assert kept.words(template, Spent(tag="[p]", left=1, line=5), GOBLIN, ((), ())) == "Aria at 5"
    resume.set()
    other.join(5)
    assert answers == ["Bo"]


def test_the_words_kept_in_all_are_bounded() -> None:
    # many keys (kinds of problem), each with renders: past the bound in all, the oldest
    # quarter of the keys goes, and what stays is counted again
    env, renders = _looking_env(
        {f"problems/kind{k}.md.j2": "{{ tag|counted }} {{ left }}" for k in range(8)}
    )
    kept = _Rendered(most_words=12)
    kinds = [_as(f"kind{k}") for k in range(8)]
    for kind in kinds:
        template = env.get_template(f"problems/{kind.code}.md.j2")
        for left in range(3):
            kept.words(template, kind(tag="[p]", left=left), GOBLIN, ((), ()))
    total = sum(
        len(r) for _t, names in kept._seen.values() for v in names.values() for r in v.values()
    )
    assert total <= 12 and kept._words == total
    assert len(renders) == 24
    # the newest kind's words are still kept; the oldest's are written again
    newest = env.get_template("problems/kind7.md.j2")
    kept.words(newest, kinds[7](tag="[p]", left=2), GOBLIN, ((), ()))
    assert len(renders) == 24
    oldest = env.get_template("problems/kind0.md.j2")
    kept.words(oldest, kinds[0](tag="[p]", left=0), GOBLIN, ((), ()))
    assert len(renders) == 25
