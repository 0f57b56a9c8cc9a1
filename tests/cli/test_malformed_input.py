"""Malformed input to every `pbp` command: a non-zero exit, no traceback, one line that says
what is wrong (with the file and the line where there is one).

Each case is a row: a name, the command's arguments, the files the working folder holds
(text, bytes, or ``FOLDER``), what goes to the standard input, the exit status (2 for usage,
1 for other errors; `pbp verify`'s 2 means "nothing to verify") and what the line must say.
The rows run in-process through click's CliRunner, in a fresh folder each; a few run as a
user runs them, as a subprocess of the `pbp` script, so "no traceback" is checked in what a
terminal shows.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app

REPO = Path(__file__).resolve().parents[2]

FOLDER = object()  # a folder where a file should be
MISSING = object()  # an event field left out

CAMPAIGN = (REPO / "examples" / "sunken-keep.toml").read_text(encoding="utf-8")
EVENTS = (REPO / "examples" / "sunken-keep-thread.jsonl").read_text(encoding="utf-8")
CONFIG = '[bot]\nusername = "pbp_bot"\n\n[[threads]]\nid = "keep-1"\ncampaign = "keep.toml"\n'
# line 1 [campaign], 2 name, 3 gms; 5 [[characters]], 6 name, 7 player, 8 body, 9 mind
SMALL = (
    '[campaign]\nname = "Keep"\ngms = ["gm_sam"]\n\n[[characters]]\nname = "Aria"\n'
    'player = "alice"\nbody = 6\nmind = 3\n\n[[characters]]\nname = "Goblin"\nbody = 3\n'
)
PRAISE = {
    "type": "post",
    "id": "p1",
    "author": "alice",
    "at": "2026-11-29T10:00:00Z",
    "body": "Aria swings. [physical: attack Goblin]",
}


def event(**changes: object) -> str:
    """One events line: a good post with ``changes`` (``MISSING`` leaves a field out)."""
    fields = {**PRAISE, **changes}
    return json.dumps({k: v for k, v in fields.items() if v is not MISSING}) + "\n"


def small(old: str, new: str) -> str:
    """The small campaign with one line changed."""
    assert old in SMALL
    return SMALL.replace(old, new, 1)


BROKEN_TEMPLATE: dict[str, object] = {
    "k.toml": small("\n\n[[", '\ntemplates = "tpl"\n\n[['),
    "tpl/summary.md.j2": "## Round {{ number }}\n{% if %}\n",
}


def with_config(text: str) -> dict[str, object]:
    return {"config.toml": text, "keep.toml": CAMPAIGN}


@dataclass(frozen=True)
class Case:
    """One malformed input and what `pbp` must answer."""

    name: str
    args: list[str]
    says: str  # what the message line holds
    status: int = 1
    files: dict[str, object] = field(default_factory=dict)
    stdin: bytes | None = None
    lines: int = 1  # lines of output in all (`pbp check` says "ok:" of the good file too)
    database: bool = False  # set the database up first (`pbp db upgrade`)


CASES = [
    # the command line itself
    Case("unknown option", ["--bogus"], "pbp: No such option '--bogus'", 2),
    Case("unknown command", ["nosuch"], "No such command 'nosuch'", 2),
    Case("no command", ["-v"], "Missing command", 2),
    Case("unknown db subcommand", ["db", "nosuch"], "pbp db: No such command 'nosuch'", 2),
    Case("thread show without a name", ["thread", "show"], "Missing argument 'NAME'", 2),
    Case(
        "thread show --as without a user",
        ["thread", "show", "t", "--as"],
        "'--as' requires an argument",
        2,
    ),
    Case("demo with an argument", ["demo", "x"], "unexpected extra argument (x)", 2),
    Case("run with an argument", ["run", "x"], "unexpected extra argument (x)", 2),
    # check: paths
    Case("check: nothing to check", ["check"], "nothing to check", 2),
    Case("check: no such campaign", ["check", "nope.toml"], "'nope.toml' does not exist", 2),
    Case(
        "check: campaign is a folder",
        ["check", "keep"],
        "'keep' is a directory",
        2,
        {"keep": FOLDER},
    ),
    Case("check: no such config", ["check", "--config", "nope.toml"], "does not exist", 2),
    Case(
        "check: config is a folder", ["check", "--config", "c"], "is a directory", 2, {"c": FOLDER}
    ),
    # check: campaign files
    Case(
        "campaign: empty file",
        ["check", "k.toml"],
        "k.toml: campaign: the [campaign] table is missing",
        files={"k.toml": ""},
    ),
    Case(
        "campaign: bad TOML",
        ["check", "k.toml"],
        "k.toml: line 1, column 10:",
        files={"k.toml": "[campaign\nname ="},
    ),
    Case(
        "campaign: a NUL byte",
        ["check", "k.toml"],
        "k.toml: line 2, column 10: Illegal character",
        files={"k.toml": b'[campaign]\nname = "K\x00"\n'},
    ),
    Case(
        "campaign: not UTF-8",
        ["check", "k.toml"],
        "k.toml: byte 12: the file is not UTF-8",
        files={"k.toml": b"[campaign]\nn\xff = 1\n"},
    ),
    Case(
        "campaign: nested 100,000 deep",
        ["check", "k.toml"],
        "k.toml: line 2: arrays or inline tables nested too deep",
        files={"k.toml": "[campaign]\nx = " + "[" * 100_000 + "\n"},
    ),
    Case(
        "campaign: a 5,000-digit number",
        ["check", "k.toml"],
        "k.toml: line 8: a number thousands of digits long",
        files={"k.toml": small("body = 6\n", "body = " + "9" * 5000 + "\n")},
    ),
    Case(
        "campaign: a huge body",
        ["check", "k.toml"],
        'characters[0] "Aria" .body (line 8): body = 6000 is beyond 999',
        files={"k.toml": small("body = 6\n", "body = 6000\n")},
    ),
    Case(
        "campaign: a body of 31 digits",
        ["check", "k.toml"],
        "body = a number of 31 digits is beyond 999",
        files={"k.toml": small("body = 6\n", "body = 1" + "0" * 30 + "\n")},
    ),
    Case(
        "campaign: a body in quotes",
        ["check", "k.toml"],
        ".body (line 8): body is a string",
        files={"k.toml": small("body = 6", 'body = "6"')},
    ),
    Case(
        "campaign: unknown key",
        ["check", "k.toml"],
        'unknown key "colour"',
        files={"k.toml": small("mind = 3\n", "mind = 3\ncolour = 1\n")},
    ),
    Case(
        "campaign: no gms",
        ["check", "k.toml"],
        'campaign (line 1): missing "gms"',
        files={"k.toml": small('gms = ["gm_sam"]\n', "")},
    ),
    Case(
        "campaign: a NUL in a name",
        ["check", "k.toml"],
        '.name (line 6): name "A\\x00ria" holds a NUL character',
        files={"k.toml": small('name = "Aria"', 'name = "A\\u0000ria"')},
    ),
    Case(
        "campaign: a NUL in a username",
        ["check", "k.toml"],
        'campaign.gms[0] (line 3): username "gm\\x00" holds a NUL character',
        files={"k.toml": small('gms = ["gm_sam"]', 'gms = ["gm\\u0000"]')},
    ),
    Case(
        "campaign: a name of 100,000 characters",
        ["check", "k.toml"],
        "is 100,000 characters long (expected at most 200 characters)",
        files={"k.toml": small('name = "Aria"', 'name = "' + "A" * 100_000 + '"')},
    ),
    Case(
        "campaign: a name with a bracket",
        ["check", "k.toml"],
        'name "Ari[a" contains [',
        files={"k.toml": small('name = "Aria"', 'name = "Ari[a"')},
    ),
    Case(
        "campaign: no such templates folder",
        ["check", "k.toml"],
        'campaign.templates (line 4): the templates folder "tpl" does not exist',
        files={"k.toml": small("\n\n[[", '\ntemplates = "tpl"\n\n[[')},
    ),
    Case(
        "campaign: templates is a file",
        ["check", "k.toml"],
        'the templates folder "k.toml" is a file, not a folder',
        files={"k.toml": small("\n\n[[", '\ntemplates = "k.toml"\n\n[[')},
    ),
    Case(
        "campaign: templates with a NUL",
        ["check", "k.toml"],
        "the templates folder's path holds a NUL character",
        files={"k.toml": small("\n\n[[", '\ntemplates = "t\\u0000"\n\n[[')},
    ),
    Case(
        "campaign: templates path too long",
        ["check", "k.toml"],
        "cannot be used (File name too long)",
        files={"k.toml": small("\n\n[[", '\ntemplates = "' + "t" * 5000 + '"\n\n[[')},
    ),
    Case(
        "campaign: a template that does not compile",
        ["check", "k.toml"],
        "tpl/summary.md.j2: line 2: the template does not compile: TemplateSyntaxError",
        files=BROKEN_TEMPLATE,
    ),
    Case(
        "replay: a template that does not compile",
        ["replay", "k.toml", "e.jsonl"],
        "tpl/summary.md.j2: line 2: the template does not compile",
        files={**BROKEN_TEMPLATE, "e.jsonl": EVENTS},
    ),
    Case(
        "parse: a template that does not compile",
        ["parse", "--campaign", "k.toml", "x"],
        "Invalid value for --campaign: ",
        2,
        files=BROKEN_TEMPLATE,
    ),
    # check: configuration files
    Case(
        "config: empty file",
        ["check", "--config", "config.toml"],
        "config.toml: bot: the [bot] table is missing",
        files={"config.toml": ""},
    ),
    Case(
        "config: bad TOML",
        ["check", "--config", "config.toml"],
        "config.toml: line 1,",
        files={"config.toml": "[bot\n"},
    ),
    Case(
        "config: not UTF-8",
        ["check", "--config", "config.toml"],
        "is not UTF-8 text",
        files={"config.toml": b'[bot]\nusername = "\xe9"\n'},
    ),
    Case(
        "config: poll_seconds in quotes",
        ["check", "--config", "config.toml"],
        "bot.poll_seconds (line 3): poll_seconds is a string",
        files=with_config(CONFIG.replace('"pbp_bot"\n', '"pbp_bot"\npoll_seconds = "60"\n')),
    ),
    Case(
        "config: poll_seconds of a billion years",
        ["check", "--config", "config.toml"],
        "poll_seconds = 31557600000000000 is beyond 86400",
        files=with_config(
            CONFIG.replace('"pbp_bot"\n', '"pbp_bot"\npoll_seconds = 31557600000000000\n')
        ),
    ),
    Case(
        "config: a NUL in the bot's username",
        ["check", "--config", "config.toml"],
        'bot.username (line 2): "pbp_bot\\x00" is not a forum username',
        files=with_config(CONFIG.replace('"pbp_bot"', '"pbp_bot\\u0000"')),
    ),
    Case(
        "config: a zero-width space in a thread id",
        ["check", "--config", "config.toml"],
        'threads[0] "keep\\u200b-1" .id (line 5): the thread id "keep\\u200b-1" holds a '
        "control or invisible character",
        files=with_config(CONFIG.replace('"keep-1"', '"keep\\u200b-1"')),
    ),
    Case(
        "config: unknown key",
        ["check", "--config", "config.toml"],
        'unknown key "colour"',
        files=with_config(CONFIG.replace('"pbp_bot"\n', '"pbp_bot"\ncolour = 1\n')),
    ),
    Case(
        "config: campaign file missing",
        ["check", "--config", "config.toml"],
        "nope.toml: file: the file does not exist",
        lines=2,
        files={"config.toml": CONFIG.replace("keep.toml", "nope.toml")},
    ),
    Case(
        "config: campaign is a folder",
        ["check", "--config", "config.toml"],
        "the file cannot be read (Is a directory)",
        lines=2,
        files={"config.toml": CONFIG, "keep.toml": FOLDER},
    ),
    Case(
        "config: campaign path empty",
        ["check", "--config", "config.toml"],
        'threads[0] "keep-1" .campaign (line 6): the campaign file is empty',
        files={"config.toml": CONFIG.replace("keep.toml", "")},
    ),
    Case(
        "config: campaign path with a NUL",
        ["check", "--config", "config.toml"],
        "the campaign file's path holds a NUL character",
        files={"config.toml": CONFIG.replace("keep.toml", "k\\u0000.toml")},
    ),
    Case(
        "config: campaign with bad TOML",
        ["check", "--config", "config.toml"],
        "keep.toml: line 1, column 10",
        lines=2,
        files={"config.toml": CONFIG, "keep.toml": "[campaign\nname ="},
    ),
    # the commands that read ./config.toml
    Case("poll: no config", ["poll"], "no configuration at config.toml", 2),
    Case(
        "poll: config is a folder",
        ["poll", "--config", "c"],
        "'c' is a directory",
        2,
        {"c": FOLDER},
    ),
    Case(
        "poll: no threads",
        ["poll"],
        "config.toml lists no [[threads]] to run",
        2,
        {"config.toml": '[bot]\nusername = "pbp_bot"\n'},
    ),
    Case(
        "poll: poll_seconds too large",
        ["poll"],
        "is beyond 86400",
        2,
        with_config(CONFIG.replace('"pbp_bot"\n', '"pbp_bot"\npoll_seconds = 99999999999\n')),
    ),
    Case(
        "run: no threads",
        ["run"],
        "config.toml lists no [[threads]] to run",
        2,
        {"config.toml": '[bot]\nusername = "pbp_bot"\n'},
    ),
    Case(
        "db upgrade: config not UTF-8",
        ["db", "upgrade"],
        "is not UTF-8 text",
        2,
        {"config.toml": b"\xff"},
    ),
    Case("thread list: no config", ["thread", "list"], "no configuration at config.toml", 2),
    Case(
        "thread show: no such thread",
        ["thread", "show", "keep-9"],
        "there is no thread 'keep-9'",
        files=with_config(CONFIG),
        database=True,
    ),
    # export
    Case(
        "export: neither --json nor --md",
        ["export", "keep-1"],
        "choose one of --json and --md",
        2,
        with_config(CONFIG),
    ),
    Case(
        "export: -o in a folder that does not exist",
        ["export", "keep-1", "--md", "-o", "nope/x.md"],
        "the folder nope does not exist",
        2,
        with_config(CONFIG),
    ),
    Case(
        "export: -o a folder",
        ["export", "keep-1", "--md", "-o", "out"],
        "'out' is a directory",
        2,
        {**with_config(CONFIG), "out": FOLDER},
    ),
    Case(
        "export: -o under a file",
        ["export", "keep-1", "--md", "-o", "keep.toml/x.md"],
        "keep.toml is a file, not a folder",
        2,
        with_config(CONFIG),
    ),
    Case(
        "export: no such thread",
        ["export", "keep-9", "--md"],
        "the bot has not read a thread called 'keep-9'",
        files=with_config(CONFIG),
        database=True,
    ),
    # parse and post
    Case(
        "parse: no such campaign",
        ["parse", "--campaign", "nope.toml", "x"],
        "'nope.toml' does not exist",
        2,
    ),
    Case(
        "parse: a bad campaign",
        ["parse", "--campaign", "k.toml", "x"],
        "Invalid value for --campaign: k.toml: line 1, column 10",
        2,
        {"k.toml": "[campaign\nname ="},
    ),
    Case("parse: unknown scene", ["parse", "--scene", "chess", "x"], "'chess' is not one of", 2),
    Case(
        "parse: not UTF-8 on stdin",
        ["parse"],
        "the post on the standard input is not UTF-8 text (byte 0xff at offset 6)",
        2,
        stdin=b"[move \xff]",
    ),
    Case("post: nothing to do", ["post"], "say what to do", 2, with_config(CONFIG)),
    Case(
        "post: no text",
        ["post", "--thread", "keep-1", "--as", "alice"],
        "the post's TEXT is missing",
        2,
        with_config(CONFIG),
    ),
    Case(
        "post: a NUL on stdin",
        ["post", "--thread", "keep-1", "--as", "alice", "-"],
        "the post's TEXT holds a NUL character (at character 2)",
        2,
        with_config(CONFIG),
        stdin=b"a\x00b",
    ),
    Case(
        "post: not UTF-8 on stdin",
        ["post", "--thread", "keep-1", "--as", "alice", "-"],
        "the post's TEXT on the standard input is not UTF-8 text",
        2,
        with_config(CONFIG),
        stdin=b"caf\xe9",
    ),
    Case(
        "post: edit a post that is not there",
        ["post", "--edit", "p42", "x"],
        "pbp post: there is no post p42",
        files=with_config(CONFIG),
        database=True,
    ),
    # replay: arguments
    Case("replay: no arguments", ["replay"], "Missing argument 'CAMPAIGN'", 2),
    Case(
        "replay: no such campaign",
        ["replay", "nope.toml", "e.jsonl"],
        "'nope.toml' does not exist",
        2,
        {"e.jsonl": EVENTS},
    ),
    Case(
        "replay: events is a folder",
        ["replay", "k.toml", "e"],
        "'e' is a directory",
        2,
        {"k.toml": CAMPAIGN, "e": FOLDER},
    ),
    Case(
        "replay: no such --config",
        ["replay", "k.toml", "e.jsonl", "--config", "c.toml"],
        "'c.toml' does not exist",
        2,
        {"k.toml": CAMPAIGN, "e.jsonl": EVENTS},
    ),
    Case(
        "replay: --seed not a number",
        ["replay", "k.toml", "e.jsonl", "--seed", "x"],
        "'x' is not a valid integer",
        2,
        {"k.toml": CAMPAIGN, "e.jsonl": EVENTS},
    ),
    Case(
        "replay: --seed of 5,000 digits",
        ["replay", "k.toml", "e.jsonl", "--seed", "9" * 5000],
        "…(5002 characters)…999",
        2,
        {"k.toml": CAMPAIGN, "e.jsonl": EVENTS},
    ),
    Case(
        "replay: a bad campaign",
        ["replay", "k.toml", "e.jsonl"],
        "k.toml: line 1, column 10",
        files={"k.toml": "[campaign\nname =", "e.jsonl": EVENTS},
    ),
]


def _events_case(name: str, lines: str | bytes, says: str) -> Case:
    return Case(
        f"events: {name}",
        ["replay", "k.toml", "e.jsonl"],
        says,
        files={"k.toml": CAMPAIGN, "e.jsonl": lines},
    )


CASES += [
    _events_case("empty file", "", "e.jsonl: no events to replay"),
    _events_case(
        "not UTF-8",
        event().encode() + b'{"type": "tick", "at": "\xff"}\n',
        "e.jsonl:2: not UTF-8 text (byte 0xff at column 25): save the file as UTF-8",
    ),
    _events_case(
        "100,000 nested brackets",
        "[" * 100_000 + "\n",
        "e.jsonl:1: not an event: its JSON nests too deep",
    ),
    _events_case(
        "a 5,000-digit number",
        event(n=MISSING)[:-2] + ', "n": ' + "9" * 5000 + "}\n",
        "e.jsonl:1: not an event: it holds a number thousands of digits long",
    ),
    _events_case("not JSON", event() + "{type: tick}\n", "e.jsonl:2: not valid JSON"),
    _events_case(
        "a raw NUL byte",
        event(body="a\x00b").replace("\\u0000", "\x00"),
        "e.jsonl:1: not valid JSON (Invalid control character, column",
    ),
    _events_case("a list", "[1, 2]\n", "e.jsonl:1: each line must be a JSON object"),
    _events_case("no type", event(type=MISSING), 'e.jsonl:1: missing "type"'),
    _events_case("unknown type", event(type="reply"), "e.jsonl:1: unknown event type 'reply'"),
    _events_case("no time", event(at=MISSING), 'e.jsonl:1: missing "at"'),
    _events_case("a time that is a number", event(at=5), '"at" must be a time like'),
    _events_case("not a time", event(at="yesterday"), """e.jsonl:1: "at" is not a time: 'yester"""),
    _events_case(
        "a zone past 24 hours", event(at="2026-11-29T10:00:00+25:00"), '"at" is not a time'
    ),
    _events_case(
        "the end of the calendar",
        event(author="gm_sam", body="!deadline 48h", at="9999-12-31T23:59:59Z"),
        'e.jsonl:1: "at" is 9999-12-31T23:59:59Z, out of range (pbp takes times from '
        "1970-01-01 to 8999-12-31)",
    ),
    _events_case("year one", event(at="0001-01-01T00:00:00Z"), "out of range"),
    _events_case("no id", event(id=MISSING), 'e.jsonl:1: missing "id"'),
    _events_case(
        "a number for an author", event(author=7), 'e.jsonl:1: "author" must be a string, not 7'
    ),
    _events_case(
        "half a character",
        event(body="\ud800"),
        'e.jsonl:1: "body" holds \\ud800, half of a character',
    ),
    _events_case(
        "out of time order",
        event() + event(id="p2", at="2026-11-28T10:00:00Z"),
        "e.jsonl:2: this event is at 2026-11-28T10:00:00Z, before the one on line 1",
    ),
    _events_case(
        "a post id twice",
        event() + event(at="2026-11-29T10:01:00Z"),
        "e.jsonl:2: post p1 already exists",
    ),
    _events_case(
        "an edit of no post",
        json.dumps({"type": "edit", "id": "zz", "body": "x", "at": "2026-11-29T10:00:00Z"}) + "\n",
        "e.jsonl:1: there is no post zz",
    ),
    _events_case(
        "an empty author", event(author=""), "e.jsonl:1: an author's name cannot be empty"
    ),
]

LEDGER = {"l.json": json.dumps({"rounds": [{"number": 1, "closed_by": "p1", "summary": "x"}]})}
CASES += [
    Case("verify: no such file", ["verify", "nope.txt"], "pbp verify: cannot read nope.txt", 2),
    Case("verify: a folder", ["verify", "d"], "'d' is a directory", 2, {"d": FOLDER}),
    Case(
        "verify: a file and --ledger",
        ["verify", "x.txt", "--ledger", "l.json"],
        "give either FILE or --ledger, not both",
        2,
        LEDGER,
    ),
    Case("verify: no such ledger", ["verify", "--ledger", "l.json"], "does not exist", 2),
    Case(
        "verify: ledger not JSON",
        ["verify", "--ledger", "l.json"],
        "l.json is not a pbp ledger: not JSON (Expecting value",
        2,
        {"l.json": "rounds"},
    ),
    Case(
        "verify: ledger nested 100,000 deep",
        ["verify", "--ledger", "l.json"],
        "l.json is not a pbp ledger: its JSON nests too deep",
        2,
        {"l.json": "[" * 100_000},
    ),
    Case(
        "verify: ledger with a 5,000-digit number",
        ["verify", "--ledger", "l.json"],
        "it holds a number thousands of digits long",
        2,
        {"l.json": '{"rounds": ' + "9" * 5000 + "}"},
    ),
    Case(
        "verify: ledger a list",
        ["verify", "--ledger", "l.json"],
        "l.json is not a pbp ledger: its JSON is list, not an object",
        2,
        {"l.json": "[]"},
    ),
    Case(
        "verify: a round number of 10,000 digits",
        ["verify", "s.txt"],
        "s.txt holds no round summary with its dice seed",
        2,
        {"s.txt": "Dice seed of round " + "9" * 10_000 + ": abc\n"},
    ),
]


def _write(folder: Path, files: dict[str, object]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is FOLDER:
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            assert isinstance(content, str)
            path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_malformed_input_is_one_line_and_no_traceback(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBP_DATABASE_URL", raising=False)
    _write(tmp_path, case.files)
    runner = CliRunner()
    if case.database:
        assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    result = runner.invoke(app, case.args, input=case.stdin, prog_name="pbp")
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), output
    assert "Traceback" not in output and "unexpected error" not in output, output
    assert result.exit_code == case.status, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == case.lines, output
    assert sum(case.says in line for line in lines) == 1, output
    assert len(lines[-1]) < 1200, "a message quotes a long value whole"


# (name, args, files, what stderr says): run as the `pbp` script, as a user types them
AS_A_USER = [
    (
        "events at the end of the calendar",
        ["replay", "k.toml", "e.jsonl"],
        {
            "k.toml": CAMPAIGN,
            "e.jsonl": event(author="gm_sam", body="!deadline 48h", at="9999-12-31T23:59:59Z"),
        },
        "out of range",
    ),
    (
        "100,000 nested brackets",
        ["replay", "k.toml", "e.jsonl"],
        {"k.toml": CAMPAIGN, "e.jsonl": "[" * 100_000 + "\n"},
        "nests too deep",
    ),
    (
        "a ledger of 100,000 nested brackets",
        ["verify", "--ledger", "l.json"],
        {"l.json": "[" * 100_000},
        "nests too deep",
    ),
    (
        "events not UTF-8",
        ["replay", "k.toml", "e.jsonl"],
        {"k.toml": CAMPAIGN, "e.jsonl": b"\xff\xfe{}\n"},
        "e.jsonl:1: not UTF-8 text",
    ),
    (
        "export into no folder",
        ["export", "keep-1", "--md", "-o", "/nonexistent/dir/x.md"],
        with_config(CONFIG),
        "the folder /nonexistent/dir does not exist",
    ),
    (
        "a campaign nested 100,000 deep",
        ["replay", "k.toml", "e.jsonl"],
        {"k.toml": "x = " + "{a=" * 100_000, "e.jsonl": EVENTS},
        "nested too deep",
    ),
]


@pytest.fixture(scope="module")
def as_a_user(
    tmp_path_factory: pytest.TempPathFactory,
    pbp_together: Callable[..., list[subprocess.CompletedProcess[str]]],
) -> dict[str, tuple[int, str, str]]:
    """Every AS_A_USER row run at once, each in its own folder: (status, stdout, stderr)."""
    folders = []
    for name, _args, files, _says in AS_A_USER:
        folder = tmp_path_factory.mktemp(name.replace(" ", "-").replace(",", ""))
        _write(folder, files)
        folders.append(folder)
    done = pbp_together(*[(folder, row[1]) for folder, row in zip(folders, AS_A_USER, strict=True)])
    return {
        row[0]: (r.returncode, r.stdout, r.stderr) for row, r in zip(AS_A_USER, done, strict=True)
    }


@pytest.mark.slow
@pytest.mark.parametrize("row", AS_A_USER, ids=[row[0] for row in AS_A_USER])
def test_a_user_sees_one_line_and_no_traceback(
    row: tuple[str, list[str], dict[str, object], str],
    as_a_user: dict[str, tuple[int, str, str]],
) -> None:
    name, _args, _files, says = row
    status, out, err = as_a_user[name]
    assert status in (1, 2), err
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], err
