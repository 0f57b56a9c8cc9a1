"""`pbp` loads a subcommand's module only when it runs: the help and `pbp parse` stay light,
and a replay on SQLite never loads what only PostgreSQL needs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pbp.cli import app
from pbp.cli.app import SUBCOMMANDS, LazyGroup

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEAVY = ("sqlalchemy", "alembic", "praw", "prawcore", "apscheduler", "jinja2", "markdown_it")

# Runs `pbp ARGS...` in a fresh interpreter and prints which of the modules HEAVY names it
# imported (a module counts as imported when it or any module inside it is).
# (when the process ends: `pbp` ends it at once after its command, the functions registered
# with atexit run)
CHILD = """
import atexit, json, sys
from pbp.cli import main

@atexit.register
def report():
    heavy = sorted(n for n in json.loads(HEAVY)
                   if any(m == n or m.startswith(n + ".") for m in sys.modules))
    print("\\nIMPORTED " + json.dumps(heavy), file=sys.stderr)

sys.argv = ["pbp", *sys.argv[1:]]
main()
"""


def imported(*args: str, heavy: tuple[str, ...] = HEAVY) -> tuple[list[str], str]:
    """The modules of ``heavy`` that `pbp ARGS` imports, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD.replace("HEAVY", repr(json.dumps(heavy))), *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    line = done.stderr.rsplit("IMPORTED ", 1)[-1]
    return json.loads(line), done.stdout


def test_the_help_lists_every_command_without_loading_the_store_or_the_bot() -> None:
    heavy, output = imported("--help")
    assert heavy == []
    for name in SUBCOMMANDS:
        assert f"  {name} " in output


def test_parse_reads_a_clean_post_without_the_database_the_bot_or_the_templates() -> None:
    heavy, output = imported("parse", "[physical: attack Goblin]")
    assert heavy == []
    assert "[physical: attack Goblin]" in output


def test_parse_loads_the_templates_only_to_show_a_problem_reply() -> None:
    heavy, output = imported("parse", "[physical: atack Goblin]")
    assert heavy == ["jinja2"]
    assert "is not something a `physical` action does" in output


def test_parse_loads_markdown_it_only_for_a_post_with_markdown() -> None:
    heavy, output = imported("parse", "`code` then **[move: Door]**")
    assert heavy == ["markdown_it"]
    assert "[move: Door]" in output


def test_a_command_that_needs_the_database_still_loads_it() -> None:
    heavy, _ = imported("db", "status", "--config", "/nonexistent/config.toml")
    assert "sqlalchemy" in heavy


def test_an_idle_poll_loads_neither_the_store_nor_the_bot(
    site: Path, pbp_ok: Callable[..., str]
) -> None:
    ok = pbp_ok
    ok(site, "post", "-t", "keep-1", "--as", "gm_sam", "!group Aria, Goblin")
    ok(site, "poll", "--once")  # reads the post, answers
    ok(site, "poll", "--once")  # sees its own replies
    heavy, output = imported("poll", "--once", "--config", str(site / "config.toml"))
    assert heavy == []
    assert output == "read 0 new post versions; posted or edited 0 replies\n"
    ok(site, "post", "-t", "keep-1", "--as", "alice", "Aria swings. [physical: attack Goblin]")
    heavy, output = imported("poll", "--once", "--config", str(site / "config.toml"))
    assert "sqlalchemy" in heavy
    assert output.startswith("read 1 new post version;")


def test_a_replay_on_sqlite_does_not_load_the_postgresql_dialect() -> None:
    campaign, events = EXAMPLES / "sunken-keep.toml", EXAMPLES / "sunken-keep-thread.jsonl"
    heavy, output = imported(
        "replay", str(campaign), str(events), "--json", "--seed", "1",
        heavy=("sqlalchemy.dialects.sqlite", "sqlalchemy.dialects.postgresql"),
    )  # fmt: skip
    assert heavy == ["sqlalchemy.dialects.sqlite"]
    assert '"rounds"' in output


def test_a_distat_replay_loads_no_other_rulesets_checks_or_resolution() -> None:
    campaign, events = EXAMPLES / "sunken-keep.toml", EXAMPLES / "sunken-keep-thread.jsonl"
    # the modules that read, fill and resolve the other rulesets' tags (their rulesets load)
    others = tuple(
        f"pbp.rulesets.{ruleset}.engine.{part}"
        for ruleset, parts in (("d20", ("tags", "resolve", "refusals", "sheets")),
                               ("abstract", ("tags", "resolve", "refusals", "sheets")),
                               ("markhor", ("tags", "resolve", "refusals")))
        for part in parts
    )  # fmt: skip
    heavy, output = imported(
        "replay", str(campaign), str(events), "--json", "--seed", "1",
        heavy=(*others, "pbp.rulesets.distat.engine.tags", "pbp.rulesets.d20.engine.ruleset"),
    )  # fmt: skip
    assert heavy == ["pbp.rulesets.d20.engine.ruleset", "pbp.rulesets.distat.engine.tags"]
    assert '"rounds"' in output


def test_a_replay_without_dice_notation_does_not_load_its_parser() -> None:
    campaign, events = EXAMPLES / "sunken-keep.toml", EXAMPLES / "sunken-keep-thread.jsonl"
    assert "[roll:" not in events.read_text()
    heavy, _ = imported(
        "replay", str(campaign), str(events), "--seed", "1",
        heavy=("pbp.rules.dice.notation", "pbp.tags.dice"),
    )  # fmt: skip
    assert heavy == ["pbp.tags.dice"]
    heavy, output = imported("parse", "[roll: 2D6 + 3]", heavy=("pbp.rules.dice.notation",))
    assert heavy == ["pbp.rules.dice.notation"] and "2d6+3" in output


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_each_summary_in_the_help_is_the_commands_own_first_line(name: str) -> None:
    group = LazyGroup(name="probe", lazy=SUBCOMMANDS)
    with click.Context(group) as ctx:
        listed = group.summary_of(name, 1000)
        command = group.get_command(ctx, name)
    assert command is not None and command.name == name
    assert listed == command.get_short_help_str(1000)


def test_the_command_list_is_the_same_before_and_after_the_commands_load() -> None:
    lazy = LazyGroup(name="pbp", lazy=SUBCOMMANDS)
    loaded = LazyGroup(name="pbp", lazy=SUBCOMMANDS)
    with click.Context(loaded) as ctx:
        for name in SUBCOMMANDS:
            loaded.get_command(ctx, name)
        after = loaded.get_help(ctx)
    with click.Context(lazy) as ctx:
        before = lazy.get_help(ctx)
    assert before == after


def test_an_unknown_command_is_refused_with_the_usual_message() -> None:
    result = CliRunner().invoke(app, ["frobnicate"])
    assert result.exit_code == 2
    assert "No such command 'frobnicate'" in result.output


def test_the_collector_rests_while_a_command_loads_and_is_on_again_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc
    import importlib

    seen: list[bool] = []
    load = importlib.import_module

    def loading(name: str) -> object:
        seen.append(gc.isenabled())
        return load(name)

    monkeypatch.setattr(importlib, "import_module", loading)
    group = LazyGroup(name="pbp", lazy={"parse": SUBCOMMANDS["parse"]})
    assert gc.isenabled()
    assert group.get_command(click.Context(group), "parse") is not None
    assert seen == [False] and gc.isenabled()  # a long `pbp run` collects as ever
    gc.disable()  # a caller's own choice stays
    try:
        group = LazyGroup(name="pbp", lazy={"parse": SUBCOMMANDS["parse"]})
        group.get_command(click.Context(group), "parse")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_a_command_loads_goes_to_the_oldest_generation_and_is_still_collected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc
    import importlib
    import weakref

    class Node:
        pass

    made: list[object] = []
    load = importlib.import_module

    def loading(name: str) -> object:
        kept = [Node()]  # (tracked by the collector, as a module's objects are)
        cycle = Node()
        cycle.me = cycle  # type: ignore[attr-defined]  # garbage once the load is done
        made.extend([kept, weakref.ref(cycle)])
        return load(name)

    monkeypatch.setattr(importlib, "import_module", loading)
    group = LazyGroup(name="pbp", lazy={"parse": SUBCOMMANDS["parse"]})
    group.get_command(click.Context(group), "parse")
    kept, cycle = made
    assert any(o is kept for o in gc.get_objects(generation=2))
    assert not any(o is kept for o in gc.get_objects(generation=0))
    assert gc.get_freeze_count() == 0 and cycle() is not None
    gc.collect()
    assert cycle() is None  # not frozen: garbage among them is collected as ever

    made.clear()
    mine = [["the caller's"]]
    gc.freeze()  # a caller that froze objects itself: they stay frozen (not listed)
    try:
        assert not any(o is mine for o in gc.get_objects())
        group = LazyGroup(name="pbp", lazy={"parse": SUBCOMMANDS["parse"]})
        group.get_command(click.Context(group), "parse")
        assert not any(o is mine for o in gc.get_objects())
        assert any(o is made[0] for o in gc.get_objects(generation=0))
    finally:
        gc.unfreeze()
