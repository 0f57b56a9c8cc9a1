"""Issue 26 item 9: `pbp post --thread nope …` does not quietly start a thread the bot will
never read: it is refused with the threads the bot runs and an example, unless `--new` asks
for it, the post binds the thread (`!campaign NAME`) or the thread exists already."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_a_post_to_a_thread_the_bot_does_not_run_is_refused(site: Path, pbp: Any) -> None:
    refused = pbp(site, "post", "--thread", "nope", "--as", "alice", "[move: Gate]")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith(
        "pbp post: the bot does not run a thread 'nope', so it would never read this post "
        "(it runs: keep-1)."
    )
    assert 'pbp post --thread keep-1 --as alice "[move: Gate]"' in refused.stderr
    assert "[[threads]]" in refused.stderr and "--new" in refused.stderr
    listed = pbp(site, "thread", "list")
    assert "nope" not in listed.stdout  # nothing was posted

    assert pbp(site, "post", "--thread", "keep-1", "--as", "alice", "hi").returncode == 0
    forced = pbp(site, "post", "--thread", "nope", "--as", "alice", "--new", "hi")
    assert forced.returncode == 0 and "posted p2 in thread nope" in forced.stdout
    again = pbp(site, "post", "--thread", "nope", "--as", "alice", "again")
    assert again.returncode == 0  # the thread exists: it was asked for


def test_a_thread_bound_with_campaign_is_marked_in_the_list(site: Path, pbp: Any) -> None:
    bind = pbp(site, "post", "--thread", "keep-2", "--as", "gm_sam", "!campaign The Sunken Keep")
    assert bind.returncode == 0, bind.stderr
    assert pbp(site, "poll", "--once").returncode == 0
    listed = pbp(site, "thread", "list").stdout
    # the GM's post, the cheat-sheet and the answer to `!campaign`
    assert "keep-2: 3 posts  (run by the bot: bound by gm_sam with !campaign)" in listed
    # a campaign runs in one thread at a time (SPEC §1): keep-1 was told, and is read no more
    assert "keep-1: 1 post  (no longer read: its campaign moved to keep-2)" in listed, listed
    later = pbp(site, "post", "--thread", "keep-2", "--as", "alice", "[move: Gate]")
    assert later.returncode == 0  # bound: the bot reads it
