"""The Reddit forum's one table of errors, and the key every reply carries."""

from __future__ import annotations

from pathlib import Path

import prawcore
import pytest
import requests
from fake_reddit import use_praw_ini
from praw.exceptions import RedditAPIException

from pbp.errors import ForumError
from pbp.forums.reddit import key_of, marked, open_reddit, translate


def _response(status: int, headers: dict[str, str] | None = None) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response.headers.update(headers or {})
    response._content = b"{}"
    return response


@pytest.mark.parametrize(
    ("error", "temporary"),
    [
        (prawcore.ServerError(_response(500)), True),
        (prawcore.ServerError(_response(502)), True),
        (prawcore.TooManyRequests(_response(429, {"retry-after": "30"})), True),
        (prawcore.RequestException(requests.ConnectionError("refused"), (), {}), True),
        (RedditAPIException([["RATELIMIT", "you are doing that too much", "ratelimit"]]), True),
        (RedditAPIException([["THREAD_LOCKED", "that thread is locked", "parent"]]), False),
        (RedditAPIException([["TOO_OLD", "that's a piece of history", "parent"]]), False),
        (prawcore.Forbidden(_response(403)), False),
        (prawcore.NotFound(_response(404)), False),
        (prawcore.BadRequest(_response(400)), False),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else str(value),
)
def test_each_reddit_error_is_temporary_or_permanent(error: Exception, temporary: bool) -> None:
    translated = translate(error)
    assert translated.temporary is temporary
    assert str(translated)


def test_a_reply_carries_its_key_invisibly_and_gives_it_back() -> None:
    text = marked("## Round 3: results\n\nAria hits.\n", "summary-3~2")
    assert text.endswith("\n\n[](#pbp:summary-3~2)")
    assert key_of(text) == "summary-3~2"
    assert key_of("Aria hits. [physical: attack Goblin]") is None


def test_a_praw_ini_without_credentials_is_a_clear_permanent_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "praw.ini").write_text("[pbp]\nuser_agent = pbp test\n", encoding="utf-8")
    use_praw_ini(monkeypatch, tmp_path)
    with pytest.raises(ForumError) as failed:
        open_reddit(site="pbp")
    assert not failed.value.temporary
    assert "client_id" in str(failed.value) and "praw.ini" in str(failed.value)
