"""A campaign's template edited while the bot runs shows in the next reply; a replay, over
before anybody could edit one, compiles each template once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbp.render.environment import look_again, make_environment


def _edit(path: Path, text: str) -> None:
    before = path.stat().st_mtime
    path.write_text(text, encoding="utf-8")
    os.utime(path, (before + 5, before + 5))  # a later time, whatever the clock's resolution


@pytest.mark.parametrize(("reload", "after"), [(True, "edited"), (False, "first")])
def test_an_edited_override_is_read_again_only_when_reloading(
    tmp_path: Path, reload: bool, after: str
) -> None:
    override = tmp_path / "about.md.j2"
    override.write_text("first", encoding="utf-8")
    env = make_environment(tmp_path, reload=reload)
    assert env.get_template("about.md.j2").render() == "first"
    _edit(override, "edited")
    assert env.get_template("about.md.j2").render() == "first"  # looked at once a cycle
    look_again()  # the next cycle's replies
    assert env.get_template("about.md.j2").render() == after


@pytest.mark.parametrize(("reload", "after"), [(True, "the GM's"), (False, "built-in")])
def test_an_override_added_later_is_found_only_when_reloading(
    tmp_path: Path, reload: bool, after: str
) -> None:
    # an include with a fallback looks for its first name at every render: a replay
    # remembers that no folder had it, a running bot looks again (the GM may add it)
    (tmp_path / "about.md.j2").write_text(
        '{% include ["slots/physical.md.j2", "fallback.md.j2"] %}', encoding="utf-8"
    )
    (tmp_path / "fallback.md.j2").write_text("built-in", encoding="utf-8")
    env = make_environment(tmp_path, reload=reload)
    assert env.get_template("about.md.j2").render() == "built-in"
    assert env.get_template("about.md.j2").render() == "built-in"
    (tmp_path / "slots").mkdir()
    (tmp_path / "slots" / "physical.md.j2").write_text("the GM's", encoding="utf-8")
    look_again()
    assert env.get_template("about.md.j2").render() == after


def test_a_reloading_environment_looks_at_a_file_once_between_two_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "about.md.j2").write_text(
        '{% include ["slots/physical.md.j2", "fallback.md.j2"] %}', encoding="utf-8"
    )
    (tmp_path / "fallback.md.j2").write_text("built-in", encoding="utf-8")
    env = make_environment(tmp_path, reload=True)
    looked: list[str] = []
    real_getmtime, real_isfile = os.path.getmtime, os.path.isfile
    monkeypatch.setattr(os.path, "getmtime", lambda p: looked.append(str(p)) or real_getmtime(p))
    monkeypatch.setattr(os.path, "isfile", lambda p: looked.append(str(p)) or real_isfile(p))
    look_again()
    for _ in range(5):  # one reply, its template used five times
        assert env.get_template("about.md.j2").render() == "built-in"
    once = len(looked)
    assert once > 0
    for _ in range(5):
        env.get_template("about.md.j2").render()
    assert len(looked) == once  # nothing looked at again until the next look
    look_again()
    env.get_template("about.md.j2").render()
    assert len(looked) > once


def test_the_bot_reloads_by_default_and_a_replay_does_not(tmp_path: Path) -> None:
    from pbp.services.polling import BotOptions
    from pbp.services.replay import replay_run

    assert BotOptions(username="pbp_bot").reload_templates
    campaign = tmp_path / "c.toml"
    campaign.write_text('[campaign]\nname = "T"\ngms = ["gm"]\n', encoding="utf-8")
    with replay_run(campaign, seed="s") as run:
        assert not run.bot.options.reload_templates
        loaded = run.bot.campaigns.load(campaign).campaign
        assert run.bot.renderers.for_campaign(loaded, {}.get).env.auto_reload is False


BUILT_IN = "problems/action_used.md.j2"  # a template every scene has


@pytest.mark.parametrize("reload", [True, False])
def test_a_gms_override_of_a_built_in_template_is_used_from_the_next_look(
    tmp_path: Path, reload: bool
) -> None:
    env = make_environment(tmp_path, reload=reload)
    built_in = env.get_template(BUILT_IN).filename
    assert built_in is not None and not built_in.startswith(str(tmp_path))
    (tmp_path / "problems").mkdir()
    (tmp_path / BUILT_IN).write_text("the GM's words", encoding="utf-8")
    assert env.get_template(BUILT_IN).filename == built_in  # looked at once a cycle
    look_again()
    assert (env.get_template(BUILT_IN).filename == str(tmp_path / BUILT_IN)) is reload
    (tmp_path / BUILT_IN).unlink()  # taken away: the built-in again
    look_again()
    assert env.get_template(BUILT_IN).filename == built_in


def test_without_a_campaign_folder_no_file_is_looked_at_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The built-in and the rulesets' templates are package data: read once, however often
    the bot looks again."""
    env = make_environment(None, reload=True)
    about = '{% include ["slots/physical.md.j2", "slots/_action.md.j2"] %}'
    words = {"actor": "Aria", "slot": "physical", "by_post": "p1"}
    env.get_template(BUILT_IN)
    env.from_string(about).render(**words)  # each file read once: what follows reads none
    looked: list[str] = []
    real_getmtime, real_isfile = os.path.getmtime, os.path.isfile
    monkeypatch.setattr(os.path, "getmtime", lambda p: looked.append(str(p)) or real_getmtime(p))
    monkeypatch.setattr(os.path, "isfile", lambda p: looked.append(str(p)) or real_isfile(p))
    for _ in range(3):
        look_again()
        env.get_template(BUILT_IN)
        assert "already used" in env.from_string(about).render(**words)
    assert looked == []


def test_a_problems_words_follow_a_gms_change_to_a_template_they_include(tmp_path: Path) -> None:
    """A problem's words are kept for the problem (the reply, the summary and the ledger
    word one problem alike), but not past a look that may have changed a template they
    include: a GM's override of ``slots/_action.md.j2`` shows for the same problem too."""
    from pbp.engine.problems import ActionUsed
    from pbp.render.problems import render_problem

    env = make_environment(tmp_path, reload=True)
    problem = ActionUsed(tag="[physical: attack Goblin]", actor="Aria", slot="physical",
                         by_post="p1")  # fmt: skip
    assert "already used the physical action" in render_problem(problem, env=env)
    (tmp_path / "slots").mkdir()
    (tmp_path / "slots" / "_action.md.j2").write_text("Only one a round.", encoding="utf-8")
    look_again()
    assert "Only one a round." in render_problem(problem, env=env)
    _edit(tmp_path / "slots" / "_action.md.j2", "Still only one a round.")
    look_again()
    assert "Still only one a round." in render_problem(problem, env=env)


def test_the_kept_words_of_a_problem_let_an_environment_no_longer_used_go(
    tmp_path: Path,
) -> None:
    """A problem's kept words hold their template weakly: an environment the bot no longer
    uses (a campaign's templates folder moved, say) is freed with its compiled templates,
    and the words kept for a template still in use are still found."""
    import gc
    import weakref

    from pbp.engine.problems import ActionUsed
    from pbp.render.problems import render_problem

    problem = ActionUsed(tag="[physical: attack Goblin]", actor="Aria", slot="physical",
                         by_post="p1")  # fmt: skip
    kept = make_environment(tmp_path, reload=True)
    words = render_problem(problem, env=kept)
    dropped = make_environment(tmp_path / "elsewhere", reload=True)
    assert render_problem(problem, env=dropped) == words
    gone = weakref.ref(dropped)
    del dropped
    gc.collect()
    assert gone() is None
    assert render_problem(problem, env=kept) == words
