"""A round of the Sunken Keep played from the shell, as a user runs it.

The GM sets the scene with `pbp post`, alice attacks, bob's tag has a typo he never fixes, cara
makes the same typo and fixes it with `pbp post --edit`; `pbp poll --once` reads the posts,
the GM's `!close` (read from stdin) resolves the round at the next poll, and `pbp export` and
`pbp thread show` show what happened.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]
Together = Callable[..., list[subprocess.CompletedProcess[str]]]

SET_UP = "The goblins turn on you!\n!group Aria, Goblin, Ogre\n!group Bram, Cora"
ALICE = "Aria charges. [physical: attack Goblin]"
BOB = "Bram mutters a curse. [mentl: attack Goblin]"
CARA_TYPO = "Cora glares at the Ogre. [mentl: attack Ogre]"
CARA_FIXED = "Cora glares at the Ogre. [mental: attack Ogre]"

_HEAD = re.compile(
    r"^(?P<indent> *)(?P<id>\S+)  (?P<author>\S+) · \d{4}-\d\d-\d\d \d\d:\d\d UTC(?P<rest>.*)$"
)


@dataclass
class Shown:
    """One post in `pbp thread show`'s output."""

    id: str
    author: str
    indented: bool  # printed as a reply, under the post it answers
    reply_to: str | None
    edited: bool
    body: str


def parse_thread(text: str) -> list[Shown]:
    """The posts of `pbp thread show`, in the order printed."""
    shown: list[Shown] = []
    body: list[str] = []
    for line in text.splitlines()[1:]:  # the first line counts posts and replies
        head = _HEAD.match(line)
        if head is None:
            body.append(line.strip())
            continue
        if shown:
            shown[-1].body = "\n".join(body).strip()
        body = []
        rest = head["rest"]
        to = re.search(r"· reply to (\S+)", rest)
        shown.append(
            Shown(
                id=head["id"],
                author=head["author"],
                indented=bool(head["indent"]),
                reply_to=to[1] if to else None,
                edited="· edited" in rest,
                body="",
            )
        )
    if shown:
        shown[-1].body = "\n".join(body).strip()
    return shown


def posted_id(stdout: str) -> str:
    """The id in `pbp post`'s "posted p3 in thread keep-1 as bob"."""
    found = re.match(r"posted (\S+) in thread keep-1 as \S+$", stdout.strip())
    assert found, stdout
    return found[1]


@dataclass
class Played:
    """What each step of the scenario printed."""

    ids: dict[str, str]  # who -> post id ("close" for the GM's !close)
    first_poll: str
    close_poll: str
    ledger: dict[str, Any]
    shown: str  # `pbp thread show keep-1` after the close
    again_poll: subprocess.CompletedProcess[str]
    shown_again: str
    markdown: str
    as_gm: str  # `pbp thread show keep-1 --as gm_sam`
    as_alice: str


def _stdout(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"{result.args}: {result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
    make_site: Callable[..., Path],
    pbp: Run,
    pbp_ok: Ok,
    pbp_together: Together,
) -> Played:
    site = make_site(tmp_path_factory.mktemp("shell") / "site")
    ids = {}
    for who, author, text in [
        ("gm", "gm_sam", SET_UP),
        ("alice", "alice", ALICE),
        ("bob", "bob", BOB),
        ("cara", "cara", CARA_TYPO),
    ]:
        ids[who] = posted_id(pbp_ok(site, "post", "--thread", "keep-1", "--as", author, text))
    first_poll = pbp_ok(site, "poll", "--once")
    assert pbp_ok(site, "post", "--edit", ids["cara"], CARA_FIXED).strip() == (
        f"edited {ids['cara']}"
    )
    ids["close"] = posted_id(
        pbp_ok(site, "post", "--thread", "keep-1", "--as", "gm_sam", "-", stdin="!close\n")
    )
    close_poll = pbp_ok(site, "poll", "--once")
    ledger, shown = map(
        _stdout,
        pbp_together((site, ["export", "keep-1", "--json"]), (site, ["thread", "show", "keep-1"])),
    )
    again_poll = pbp(site, "poll", "--once")
    shown_again, markdown, as_gm, as_alice = map(
        _stdout,
        pbp_together(
            (site, ["thread", "show", "keep-1"]),
            (site, ["export", "keep-1", "--md"]),
            (site, ["thread", "show", "keep-1", "--as", "gm_sam"]),
            (site, ["thread", "show", "keep-1", "--as", "alice"]),
        ),
    )
    return Played(
        ids=ids,
        first_poll=first_poll,
        close_poll=close_poll,
        ledger=json.loads(ledger),
        shown=shown,
        again_poll=again_poll,
        shown_again=shown_again,
        markdown=markdown,
        as_gm=as_gm,
        as_alice=as_alice,
    )


def _round_one(played: Played) -> dict[str, Any]:
    rounds = {r["number"]: r for r in played.ledger["rounds"]}
    assert set(rounds) == {1, 2}, "the close opens round 2"
    return rounds[1]


def _replies_to(shown: list[Shown], post_id: str) -> list[Shown]:
    return [p for p in shown if p.reply_to == post_id]


def test_the_polls_report_what_they_read_and_posted(played: Played) -> None:
    # the cheat-sheet, the GM's set-up said back, the typo's error reply, cara's error reply
    assert played.first_poll.strip() == "read 4 new post versions; posted or edited 4 replies"
    # cara's edit and the GM's close: the edited error reply, the round's summary and the
    # cheat sheet's turn board turned to round 2; under hide-npcs, the summary in full for the GM
    assert played.close_poll.strip() == (
        "read 2 new post versions; posted or edited 3 replies; sent 1 private message"
    )


def test_the_gms_close_post_closes_round_one(played: Played) -> None:
    first = _round_one(played)
    assert first["closed_by"] == played.ids["close"]
    assert "Round 1: results" in first["summary"]
    assert played.ledger["rounds"][-1]["closed_by"] is None  # round 2 waits for its posts


def test_the_valid_actions_resolve_with_an_outcome(played: Played) -> None:
    actions = {a["post"]: a for a in _round_one(played)["actions"]}
    assert set(actions) == {played.ids["alice"], played.ids["cara"]}
    aria = actions[played.ids["alice"]]
    assert (aria["actor"], aria["verb"], aria["maneuver"], aria["target"]) == (
        "Aria",
        "physical",
        "attack",
        "Goblin",
    )
    assert aria["outcome"] in {"success", "failure"}
    assert isinstance(aria["active"], int) and isinstance(aria["passive"], int)


def test_the_unfixed_typo_is_rejected_with_its_post_id(played: Played) -> None:
    rejected = played.ledger["rejected"]
    assert [(r["post"], r["round"], r["tag"], r["code"]) for r in rejected] == [
        (played.ids["bob"], 1, "[mentl: attack Goblin]", "verb_typo")
    ]
    assert "mental" in rejected[0]["error"]  # the reply says what was meant
    assert _round_one(played)["not_acted"] == ["Bram"]


def test_the_typo_fixed_by_an_edit_before_the_close_resolves(played: Played) -> None:
    cora = next(a for a in _round_one(played)["actions"] if a["post"] == played.ids["cara"])
    assert (cora["actor"], cora["tag"], cora["target"]) == ("Cora", "[mental: attack Ogre]", "Ogre")
    assert cora["outcome"] in {"success", "failure"}
    assert played.ids["cara"] not in {r["post"] for r in played.ledger["rejected"]}


def test_the_error_reply_to_the_fixed_post_is_edited_not_repeated(played: Played) -> None:
    shown = parse_thread(played.shown)
    cara = next(p for p in shown if p.id == played.ids["cara"])
    assert cara.edited and cara.body == CARA_FIXED
    (reply,) = _replies_to(shown, played.ids["cara"])
    assert reply.author == "pbp_bot" and reply.edited
    assert "Fixed" in reply.body and "mentl" not in reply.body


def test_thread_show_prints_each_bot_reply_under_the_post_it_answers(played: Played) -> None:
    shown = parse_thread(played.shown)
    order = [p.id for p in shown]
    for post_id in (played.ids["bob"], played.ids["close"]):
        (reply,) = _replies_to(shown, post_id)
        assert reply.indented and reply.author == "pbp_bot"
        assert order.index(reply.id) == order.index(post_id) + 1
    (typo,) = _replies_to(shown, played.ids["bob"])
    assert '"mentl" is not a tag word' in typo.body and "**mental**" in typo.body
    (summary,) = _replies_to(shown, played.ids["close"])
    assert summary.body.startswith("## Round 1: results")
    assert "`[mentl: attack Goblin]` (" + played.ids["bob"] + ")" in summary.body
    sheets = [p for p in shown if p.author == "pbp_bot" and not p.indented]
    assert [s.body.splitlines()[0] for s in sheets] == ["## The Sunken Keep: round 1 is open"]
    assert _replies_to(shown, played.ids["alice"]) == []  # a good post gets no reply
    (done,) = _replies_to(shown, played.ids["gm"])  # the GM's set-up, said back
    assert done.body.splitlines()[2:] == [
        "- Now standing together: Aria, Goblin, Ogre.",
        "- Now standing together: Bram, Cora.",
    ]
    assert played.shown.splitlines()[0] == "Thread keep-1: 5 posts, 5 replies by the bot"


def test_polling_again_posts_nothing_new(played: Played) -> None:
    assert played.again_poll.returncode == 0, played.again_poll.stderr
    assert played.again_poll.stdout.strip() == (
        "read 0 new post versions; posted or edited 0 replies"
    )
    assert played.again_poll.stderr == ""
    assert played.shown_again == played.shown


def test_the_markdown_export_is_a_transcript_of_the_round(played: Played) -> None:
    md = played.markdown
    assert md.startswith("# The Sunken Keep: thread keep-1\n")
    assert f"## Round 1 (closed by post {played.ids['close']})" in md
    assert "## Round 1: results" in md  # the summary as posted
    assert "## Round 2 (open)" in md
    assert f"- post {played.ids['bob']} (round 1): `[mentl: attack Goblin]`" in md


# -- mistakes a user makes -------------------------------------------------------------------


USAGE_ERRORS = {
    "no-text": (["--thread", "keep-1", "--as", "alice"], "the post's TEXT is missing"),
    "edit-and-thread": (["--thread", "keep-1", "--edit", "p1", "new text"], "say what to do"),
    "no-as": (["--thread", "keep-1", "some text"], "needs both --thread THREAD and --as USER"),
}


@dataclass
class Mistakes:
    """Each mistaken command's result, and the folders they ran in."""

    usage: dict[str, subprocess.CompletedProcess[str]]
    usage_site: Path
    delete: subprocess.CompletedProcess[str]
    show: subprocess.CompletedProcess[str]
    no_config: subprocess.CompletedProcess[str]
    empty: Path


@pytest.fixture(scope="module")
def mistakes(
    tmp_path_factory: pytest.TempPathFactory, make_site: Callable[..., Path], pbp_together: Together
) -> Mistakes:
    base = tmp_path_factory.mktemp("mistakes")
    usage_site, site = make_site(base / "usage"), make_site(base / "site")
    empty = base / "empty"
    empty.mkdir()
    *usage, delete, show, no_config = pbp_together(
        *[(usage_site, ["post", *args]) for args, _ in USAGE_ERRORS.values()],
        (site, ["post", "--delete", "p42"]),
        (site, ["thread", "show", "keep-9"]),
        (empty, ["poll", "--once"]),
    )
    return Mistakes(
        usage=dict(zip(USAGE_ERRORS, usage, strict=True)),
        usage_site=usage_site,
        delete=delete,
        show=show,
        no_config=no_config,
        empty=empty,
    )


@pytest.mark.parametrize("case", list(USAGE_ERRORS))
def test_post_usage_errors_exit_2_with_a_clear_message(mistakes: Mistakes, case: str) -> None:
    result = mistakes.usage[case]
    assert result.returncode == 2
    assert USAGE_ERRORS[case][1] in result.stderr
    assert "(usage: pbp post [OPTIONS] [TEXT]; see pbp post --help)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1  # the mistake and the usage, one line
    assert not (mistakes.usage_site / "pbp.db").exists()  # refused before touching anything


def test_deleting_an_unknown_post_names_it(mistakes: Mistakes) -> None:
    assert mistakes.delete.returncode == 1
    assert mistakes.delete.stderr.strip() == "pbp post: there is no post p42"


def test_showing_an_unknown_thread_says_how_to_start_it(mistakes: Mistakes) -> None:
    assert mistakes.show.returncode == 1
    assert "there is no thread 'keep-9'" in mistakes.show.stderr
    assert "pbp post --thread keep-9 --as USER TEXT" in mistakes.show.stderr


def test_a_missing_config_file_says_to_copy_the_example(mistakes: Mistakes) -> None:
    assert mistakes.no_config.returncode == 2
    assert "no configuration at config.toml" in mistakes.no_config.stderr
    assert "copy config.example.toml" in mistakes.no_config.stderr
    assert list(mistakes.empty.iterdir()) == []  # no database left behind


def test_the_exports_carry_round_ones_seal_and_pbp_verify_checks_it(
    played: Played, tmp_path: Path, pbp: Run
) -> None:
    (tmp_path / "thread.md").write_text(played.markdown, encoding="utf-8")
    (tmp_path / "ledger.json").write_text(json.dumps(played.ledger), encoding="utf-8")
    for args in (["verify", "thread.md"], ["verify", "--ledger", "ledger.json"]):
        result = pbp(tmp_path, *args)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.splitlines()[0].endswith("; the seal matches the seed"), args
    forged = re.sub(r"(Dice seal of round 1: `)[0-9a-f]{64}", r"\g<1>" + "0" * 64, played.markdown)
    assert forged != played.markdown
    (tmp_path / "forged.md").write_text(forged, encoding="utf-8")
    result = pbp(tmp_path, "verify", "forged.md")
    assert result.returncode == 1
    assert "the seal does not match" in result.stdout.splitlines()[0]


def test_thread_show_as_the_gm_adds_the_summary_with_every_number_only_the_gm_gets(
    played: Played,
) -> None:
    thread, inbox = played.as_gm.split(
        "Private messages to gm_sam (1), only gm_sam can read these:\n"
    )
    assert thread == played.shown_again
    head, body = inbox.lstrip("\n").split("\n", 1)
    assert re.fullmatch(r"m1  Round 1 in full · keep-1 · \d{4}-\d\d-\d\d \d\d:\d\d UTC", head)
    assert "## Round 1: results" in body
    (public,) = [p.body for p in parse_thread(played.shown) if p.reply_to == played.ids["close"]]
    # the thread hides the Goblin's number; the GM's copy shows it
    assert "| Aria | physical attack → Goblin | Body 7 vs ? |" in public
    assert "| Aria | physical attack → Goblin | Body 7 vs 3 |" in body
    assert played.as_alice.endswith("No private messages to alice from this thread.\n")
