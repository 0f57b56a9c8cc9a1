"""Problem replies: each problem type has a template ``problems/<code>.md.j2``."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import jinja2

from pbp.errors import Problem

SEPARATOR = "\n\n-----\n\n"  # a thematic break between the problems of one reply


def render_problem(problem: Problem, *, env: jinja2.Environment) -> str:
    """One problem in words: ``problems/{code}.md.j2`` with the problem's fields as variables.

    Generic on purpose: any ``Problem`` subclass with a template renders, so the engine adds
    its own problems by adding templates.
    """
    fields = {field.name: getattr(problem, field.name) for field in dataclasses.fields(problem)}
    template = env.get_template(f"problems/{problem.code}.md.j2")
    return template.render(code=problem.code, **fields).strip()


def render_problem_reply(problems: Sequence[Problem], *, env: jinja2.Environment) -> str:
    """One reply listing every problem of a post, in post order."""
    return SEPARATOR.join(render_problem(problem, env=env) for problem in problems) + "\n"
