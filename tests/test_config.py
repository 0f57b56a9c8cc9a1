"""The bot's configuration file: defaults, paths relative to the file, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbp.config import DEFAULT_DATABASE_URL, Config, load_config, parse_config
from pbp.errors import ConfigError
from pbp.services.files import load_campaign

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = '[bot]\nusername = "pbp_bot"\n'


def parse(text: str, *, folder: Path = Path("/srv/pbp"), **env: str) -> Config:
    return parse_config(text, path=folder / "config.toml", environ=env)


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse(text)
    assert caught.value.path == "/srv/pbp/config.toml"
    return caught.value


def test_example_config_loads_and_names_a_campaign_that_loads() -> None:
    config = load_config(ROOT / "config.example.toml", environ={})
    assert config.bot.username == "pbp_bot"
    assert (config.bot.poll_seconds, config.bot.ack) == (60, "errors")
    assert config.forum.kind == "local"
    assert config.forum.reddit.site == "pbp"
    assert config.forum.reddit.subreddits == ("MyPbPGame",)
    assert config.database.url == f"sqlite:///{ROOT / 'pbp.db'}"
    (thread,) = config.threads
    assert thread.id == "1abcde"
    assert thread.campaign == ROOT / "examples" / "sunken-keep.toml"
    assert load_campaign(thread.campaign).name == "The Sunken Keep"


def test_defaults_fill_every_optional_setting() -> None:
    config = parse(MINIMAL)
    assert (config.bot.poll_seconds, config.bot.ack) == (60, "errors")
    assert config.forum.kind == "local"
    assert config.forum.reddit.site is None
    assert config.threads == ()
    assert DEFAULT_DATABASE_URL == "sqlite:///pbp.db"
    assert config.database.url == "sqlite:////srv/pbp/pbp.db"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///data/pbp.db", "sqlite:////srv/pbp/data/pbp.db"),
        ("sqlite+pysqlite:///pbp.db?timeout=5", "sqlite+pysqlite:////srv/pbp/pbp.db?timeout=5"),
        ("sqlite:////var/pbp.db", "sqlite:////var/pbp.db"),
        ("sqlite:///:memory:", "sqlite:///:memory:"),
        ("postgresql+psycopg://pbp@db/pbp", "postgresql+psycopg://pbp@db/pbp"),
    ],
)
def test_relative_sqlite_paths_start_at_the_config_folder(url: str, expected: str) -> None:
    assert parse(MINIMAL + f'[database]\nurl = "{url}"\n').database.url == expected


def test_database_url_from_the_environment_wins() -> None:
    url = "postgresql+psycopg://pbp:secret@db/pbp"
    config = parse(MINIMAL + '[database]\nurl = "sqlite:///x.db"\n', PBP_DATABASE_URL=url)
    assert config.database.url == url


def test_thread_campaign_paths_start_at_the_config_folder(tmp_path: Path) -> None:
    text = MINIMAL + '[[threads]]\nid = "t1"\ncampaign = "c/keep.toml"\n'
    config = parse(text, folder=tmp_path)
    assert config.threads[0].campaign == (tmp_path / "c" / "keep.toml").resolve()


def test_reddit_forum_reads_site_and_subreddits() -> None:
    text = MINIMAL + '[forum]\nkind = "reddit"\n[forum.reddit]\nsubreddits = ["r/MyGame", "B"]\n'
    config = parse(text)
    assert config.forum.kind == "reddit"
    assert config.forum.reddit.subreddits == ("MyGame", "B")
    assert config.forum.reddit.site is None


CASES = [
    ("syntax error", MINIMAL + "poll_seconds = \n", "line 3", "", "valid TOML"),
    ("missing [bot]", '[forum]\nkind = "local"\n', "bot", "missing", "username"),
    ("missing username", "[bot]\npoll_seconds = 60\n", "bot (line 1)", '"username"', "username"),
    (
        "unknown key",
        MINIMAL + "pol_seconds = 10\n",
        "bot.pol_seconds (line 3)",
        'did you mean "poll_seconds"',
        "poll_seconds",
    ),
    ("unknown table", MINIMAL + "[thread]\nid = 1\n", "thread", 'did you mean "threads"', ""),
    ("poll too fast", MINIMAL + "poll_seconds = 2\n", "bot.poll_seconds", "below 5", "≥ 5"),
    ("poll as text", MINIMAL + 'poll_seconds = "60"\n', "bot.poll_seconds", "a string", "whole"),
    ("unknown ack", MINIMAL + 'ack = "some"\n', "bot.ack", '"some"', '"errors" | "all" | "none"'),
    (
        "unknown forum",
        MINIMAL + '[forum]\nkind = "redit"\n',
        "forum.kind",
        'did you mean "reddit"',
        '"local" | "reddit"',
    ),
    (
        "reddit without subreddits",
        MINIMAL + '[forum]\nkind = "reddit"\n',
        "forum.reddit.subreddits",
        "needs the subreddits",
        "subreddits = [",
    ),
    (
        "bad subreddit",
        MINIMAL + '[forum.reddit]\nsubreddits = ["my game"]\n',
        "forum.reddit.subreddits[0]",
        "not a subreddit name",
        "letters",
    ),
    (
        "thread without campaign",
        MINIMAL + '[[threads]]\nid = "t1"\n',
        'threads[0] "t1"',
        '"campaign"',
        "campaign =",
    ),
    (
        "thread twice",
        MINIMAL + '[[threads]]\nid = "t1"\ncampaign = "a.toml"\n' * 2,
        'threads[1] "t1" .id (line 7)',
        "listed twice",
        "each thread once",
    ),
    (
        "not a database URL",
        MINIMAL + '[database]\nurl = "pbp.db"\n',
        "database.url",
        "not a database URL",
        "sqlite:///",
    ),
]


@pytest.mark.parametrize(
    ("text", "where", "problem", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_mistake_names_the_key_the_problem_and_the_expectation(
    text: str, where: str, problem: str, expected: str
) -> None:
    error = error_of(text)
    assert where in error.where
    assert problem in error.problem
    assert expected in error.expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (MINIMAL + 'password = "hunter2"\n', "password"),
        (MINIMAL + '[forum.reddit]\nclient_secret = "x"\n', "client_secret"),
        (MINIMAL + '[forum.reddit]\nrefresh_token = "x"\n', "refresh_token"),
        (MINIMAL + '[forum.reddit]\nusername = "pbp_bot"\n', "username"),
        (MINIMAL + '[[threads]]\nid = "t"\ncampaign = "c"\ntoken = "x"\n', "token"),
    ],
)
def test_secrets_are_refused_with_a_pointer_to_praw_configuration(text: str, key: str) -> None:
    error = error_of(text)
    assert error.where.split(" (line")[0].endswith(key)
    assert "never live here" in error.problem
    assert "praw.ini" in error.expected
    assert f"praw_{key}" in error.expected


def test_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "config.toml")
    assert caught.value.path == str(tmp_path / "config.toml")
    assert "does not exist" in caught.value.problem
