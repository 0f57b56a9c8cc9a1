"""`pbp demo` shows every post of the example thread in order, each reply of the bot under
the post it answers (issue: what the table sees, item 14)."""

from __future__ import annotations

import re

from pbp.services.demo import CAMPAIGN, THREAD, demo_text, examples_dir
from pbp.services.events_file import read_events


def test_every_post_shows_in_order_and_each_reply_under_the_post_it_answers() -> None:
    text = demo_text()
    heads = re.findall(r"^=== (\S+) (by|edited|deleted)", text, re.MULTILINE)
    events = [e for e in read_events(examples_dir() / THREAD) if hasattr(e, "post_id")]
    assert [post for post, _ in heads] == [e.post_id for e in events]
    current = None
    for line in text.splitlines():
        if line.startswith("=== "):
            current = line.split()[1]
        answered = re.match(r"  --- pbp (?:replies|edits its reply) to (\S+):", line)
        if answered:
            assert answered.group(1) == current, line
    assert (examples_dir() / CAMPAIGN).is_file()
