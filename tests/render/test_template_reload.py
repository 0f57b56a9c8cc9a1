"""A campaign's template edited while the bot runs shows in the next reply; a replay, over
before anybody could edit one, compiles each template once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbp.render.environment import make_environment


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
    assert env.get_template("about.md.j2").render() == after


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
