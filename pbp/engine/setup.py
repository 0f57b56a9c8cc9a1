"""What every GM command that names the roster shares: a name resolved against the scene, a
new name checked, a refusal placed on its command line. The set-up and corrections themselves
belong to the roster's keeper (``engine.roster``) or to a ruleset."""

from __future__ import annotations

from pbp.engine.problems import BadName, NoSuchPost
from pbp.engine.roster import Roster
from pbp.errors import Problem
from pbp.tags import resolve_name
from pbp.tags.commands import Command
from pbp.tags.model import NAME_FORBIDDEN_CHARS, RESERVED_WORDS
from pbp.values import replace


def located(problem: Problem, command: Command) -> Problem:
    """``problem`` placed on ``command``'s line."""
    src = command.source
    return replace(problem, tag=src.text, line=src.line, column=src.column)


def resolve_in(roster: Roster, text: str, *, command: Command, features: bool) -> str | Problem:
    """The character (or, with ``features``, feature) of the scene ``text`` names, or why it
    names none, placed on ``command``'s line."""
    candidates = (*roster.names(), *(roster.feature_names() if features else ()))
    found = resolve_name(text, candidates=candidates)
    return found if isinstance(found, str) else located(found, command)


def new_name_problem(name: str, roster: Roster, command: Command) -> Problem | None:
    """Why ``name`` cannot be a new character or feature of the scene (None: it can)."""
    taken = {n.casefold() for n in (*roster.names(), *roster.feature_names())}
    why = (
        "empty"
        if not name.strip()
        else "characters"
        if any(c in NAME_FORBIDDEN_CHARS for c in name)
        else "reserved"
        if name.casefold() in RESERVED_WORDS
        else "taken"
        if name.casefold() in taken
        else None
    )
    return (
        None
        if why is None
        else located(BadName(tag="", name=name, why=why, command=command.word), command)
    )


def no_such_post(command: Command, post: str) -> Problem:
    """``command`` (``!void``, ``!difficulty``) names ``post``, which is not in the open
    round."""
    return located(NoSuchPost(tag="", post=post, command=command.word), command)
