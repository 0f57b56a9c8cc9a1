"""Issue 26 item 8: a GM's `!clsoe` edited to `!close`. Commands act once, from the version of
their post first read (SPEC §2.5): the first version's reply flags the unknown command with a
did-you-mean; the edit is told that commands are read from the first version and how to close
(a new post); `pbp export --md` does not show the edited `!close` as if it closed, and a
`!close` that `!undo` took back carries a mark."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from replayed import edit, post, replay
from sample_campaigns import TEST_KEEP

from pbp.cli import app


def test_an_edit_to_close_is_told_it_did_nothing_and_how_to_close(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!group Aria, Goblin", 0),
            post("p1", "alice", "[physical: attack Goblin]", 1),
            post("g2", "gm_sam", "!clsoe", 2),
            edit("g2", "!close", 3),
        ],
    )
    (reply,) = played.to("g2")
    unknown, edited = reply.split("-----")
    assert 'There is no command "!clsoe".' in unknown and "Did you mean `!close`?" in unknown
    assert "Commands are read from the first version of a post" in edited
    assert "did nothing. To close the round, write `!close` in a new post." in edited
    assert "summary-1" not in played.replies  # nothing closed


def _site(tmp_path: Path) -> list[str]:
    (tmp_path / "keep.toml").write_text(TEST_KEEP, encoding="utf-8")
    (tmp_path / "config.toml").write_text(
        '[bot]\nusername = "pbp_bot"\n[database]\nurl = "sqlite:///pbp.db"\n'
        '[[threads]]\nid = "keep-1"\ncampaign = "keep.toml"\n',
        encoding="utf-8",
    )
    return ["--config", str(tmp_path / "config.toml")]


def test_the_transcript_marks_an_edited_close_and_an_undone_one(tmp_path: Path) -> None:
    config, runner = _site(tmp_path), CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, [args[0], *config, *args[1:]])
        assert result.exit_code == 0, result.output
        return result.stdout

    def say(author: str, text: str) -> str:
        return run("post", "-t", "keep-1", "--as", author, text).split()[1]

    say("gm_sam", "!group Aria, Goblin")
    say("alice", "[physical: attack Goblin]")
    typo = say("gm_sam", "!clsoe")
    run("poll")
    run("post", "--edit", typo, "!close")
    run("poll")
    say("gm_sam", "!close")  # closes round 1
    run("poll")
    say("alice", "[physical: attack Goblin]")
    undone = say("gm_sam", "!close")  # closes round 2 ...
    run("poll")
    say("gm_sam", "!undo")  # ... which is re-opened
    closer = say("gm_sam", "!close")
    run("poll")
    md = run("export", "keep-1", "--md")
    first = md.split("## Round 1")[1].split("## Round 2")[0]
    assert f"**{typo}**, gm_sam" in first and "(edited)" in first
    assert (
        "*Written by an edit, so it did nothing (commands act from the first version of a "
        "post): `!close`.*"
    ) in first
    second = md.split("## Round 2")[1].split("## Round 3")[0]
    assert f"closed by post {closer}" in second
    after_undone = second.split(f"**{undone}**")[1].split("**")[0]
    assert "*Its `!close` was undone (`!undo`): the round was re-opened.*" in after_undone
    assert "undone" not in second.split(f"**{closer}**")[1].split("### Results")[0]
