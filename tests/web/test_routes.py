"""Every page and form of ``pbp serve``, through Starlette's TestClient, on SQLite and
PostgreSQL: what it shows of a thread the real bot played, who may write what, and the safety
measures (CSRF, cookies, rate limit, headers, escaping)."""

from __future__ import annotations

import re

from conftest import PASSWORD, Web
from service_table import THREAD

from pbp.web.security import SESSION_COOKIE, LoginLimiter, Signer


def _played(web: Web) -> dict[str, str]:
    """Two rounds: a typo fixed by an edit, a close, and round 2 open with a deadline."""
    t = web.table
    ids = {"setup": t.post("gm_sam", "Goblins!\n!group Aria, Bram, Goblin", 1)}
    t.poll(2)
    ids["typo"] = t.post("alice", "Aria charges. [phisical: attack Goblin]", 3)
    ids["bram"] = t.post("bob", "[mental: attack Goblin]", 4)
    t.poll(5)
    t.edit(ids["typo"], "Aria charges. [physical: attack Goblin]", 6)
    t.poll(7)
    ids["close"] = t.post("gm_sam", "!close", 8)
    t.poll(9)
    t.post("gm_sam", "!deadline 2h", 10)
    t.poll(11)
    return ids


def test_every_page_answers_and_shows_the_thread(web: Web) -> None:
    _played(web)
    c = web.client
    index = c.get("/")
    assert index.status_code == 200 and "Test Keep" in index.text and "keep-1" in index.text
    assert "round 2 open" in index.text and "1 closed" in index.text
    assert c.get("/health").text == "ok\n"

    thread = c.get(f"/thread/{THREAD}")
    assert thread.status_code == 200
    assert "<h2>Round 2</h2>" in thread.text
    assert 'data-countdown="2026-11-29T12:08:00+00:00"' in thread.text  # 2h after it opened
    assert "Not acted yet: Aria, Bram" in thread.text
    assert "<svg" in thread.text and "Aria · Bram · Goblin" in thread.text  # who stands together

    history = c.get(f"/thread/{THREAD}/rounds")
    assert history.status_code == 200
    assert "<h2>Round 1</h2>" in history.text and "<table>" in history.text  # Markdown rendered
    assert "The seal matches the seed." in history.text
    assert "pbp verify round-1.txt" in history.text
    text = c.get(f"/thread/{THREAD}/rounds/1.txt")
    assert text.status_code == 200 and "Dice seal of round 1" in text.text
    assert "Dice seed of round 1" in text.text

    sheet = c.get("/sheet", params={"thread": THREAD, "name": "Aria"})
    assert sheet.status_code == 200 and "Aria" in sheet.text and "<table>" in sheet.text
    assert c.get("/login").status_code == 200


def test_unknown_things_are_404_and_no_path_is_read(web: Web) -> None:
    _played(web)
    c = web.client
    assert c.get("/thread/nope").status_code == 404
    assert c.get(f"/thread/{THREAD}/rounds", params={"page": "9"}).status_code == 404
    assert c.get(f"/thread/{THREAD}/rounds", params={"page": "x"}).status_code == 404
    assert c.get(f"/thread/{THREAD}/rounds/7.txt").status_code == 404
    assert c.get("/sheet", params={"thread": THREAD, "name": "Nobody"}).status_code == 404
    assert c.get("/static/style.css").status_code == 200
    for name in ("..%2Fapp.py", "app.py", "..%2F..%2Fpyproject.toml", "templates%2Fbase.html"):
        assert c.get(f"/static/{name}").status_code == 404


def test_the_history_is_paginated_newest_first(web: Web) -> None:
    t = web.table
    t.post("gm_sam", "Goblins!\n!group Aria, Bram, Goblin", 1)
    t.poll(2)
    for n in range(12):
        t.post("alice", "[physical: attack Goblin]", 10 + 3 * n)
        t.post("gm_sam", "!close", 11 + 3 * n)
        t.poll(12 + 3 * n)
    first = web.client.get(f"/thread/{THREAD}/rounds").text
    second = web.client.get(f"/thread/{THREAD}/rounds", params={"page": "2"}).text
    shown = [int(n) for n in re.findall(r"<h2>Round (\d+)</h2>", first)]
    assert shown == list(range(12, 2, -1)) and "page 1 of 2" in first
    assert [int(n) for n in re.findall(r"<h2>Round (\d+)</h2>", second)] == [2, 1]
    assert first.count("The seal matches the seed.") == 10


def test_a_player_signs_in_posts_edits_and_deletes_and_the_bot_answers_in_place(
    web: Web,
) -> None:
    t = web.table
    t.post("gm_sam", "Goblins!\n!group Aria, Bram, Goblin", 1)
    t.poll(2)
    c = web.sign_in("alice")
    assert "Write as alice" in c.get(f"/thread/{THREAD}").text
    csrf = web.csrf(c, f"/thread/{THREAD}")
    made = c.post(
        "/post", data={"thread": THREAD, "body": "[phisical: attack Goblin]", "csrf": csrf}
    )
    assert made.status_code == 303
    post_id = made.headers["location"].rsplit("#", 1)[1]
    assert t.forum.get(post_id).author == "alice"  # the local forum's own post
    t.poll(3)
    page = c.get(f"/thread/{THREAD}").text
    assert "Did you mean <strong>physical</strong>?" in page  # the bot's reply, in place
    edit = c.get(f"/post/{post_id}/edit")
    assert edit.status_code == 200 and "[phisical: attack Goblin]" in edit.text
    done = c.post(f"/post/{post_id}/edit", data={"body": "[physical: attack Goblin]", "csrf": csrf})
    assert done.status_code == 303 and t.forum.get(post_id).body == "[physical: attack Goblin]"
    t.poll(4)
    page = c.get(f"/thread/{THREAD}").text
    assert "Acted: Aria" in page and "<code>[physical: attack Goblin]</code>" in page
    assert c.post(f"/post/{post_id}/delete", data={"csrf": csrf}).status_code == 303
    assert t.forum.get(post_id).deleted


def test_nobody_writes_as_someone_else_or_without_the_form_token(web: Web) -> None:
    t = web.table
    theirs = t.post("bob", "[mental: attack Goblin]", 1)
    t.poll(2)
    anonymous = web.new_client()
    token = web.csrf(anonymous)
    assert (
        anonymous.post("/post", data={"thread": THREAD, "body": "hi", "csrf": token}).status_code
        == 403
    )
    c = web.sign_in("alice")
    csrf = web.csrf(c, f"/thread/{THREAD}")
    assert c.post(f"/post/{theirs}/edit", data={"body": "x", "csrf": csrf}).status_code == 403
    assert c.post(f"/post/{theirs}/delete", data={"csrf": csrf}).status_code == 403
    assert c.get(f"/post/{theirs}/edit").status_code == 403
    assert c.post("/post", data={"thread": THREAD, "body": "no token"}).status_code == 403
    assert (
        c.post(
            "/post", data={"thread": THREAD, "body": "bad token", "csrf": csrf + "x"}
        ).status_code
        == 403
    )
    assert c.post("/post", data={"thread": "other", "body": "x", "csrf": csrf}).status_code == 404
    assert t.forum.get(theirs).body == "[mental: attack Goblin]"
    assert c.post("/logout", data={"csrf": csrf}).status_code == 303
    assert "Write as alice" not in c.get(f"/thread/{THREAD}").text


def test_what_users_write_is_escaped(web: Web) -> None:
    c = web.sign_in("alice")
    csrf = web.csrf(c, "/")
    body = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))"
    assert c.post("/post", data={"thread": THREAD, "body": body, "csrf": csrf}).status_code == 404
    web.table.post("alice", body, 1)
    web.table.poll(2)
    page = c.get(f"/thread/{THREAD}").text
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="javascript:' not in page


def test_sign_in_failures_are_rate_limited(web: Web) -> None:
    c = web.new_client()
    token = web.csrf(c)
    for _ in range(5):
        wrong = c.post("/login", data={"name": "alice", "password": "nope", "csrf": token})
        assert wrong.status_code == 401
    right = c.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": token})
    assert right.status_code == 429  # even the right password, until the window passes
    assert c.post("/login", data={"name": "nobody", "password": PASSWORD}).status_code == 403


def test_cookies_and_headers(web: Web) -> None:
    answer = web.client.get("/")
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie or "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP: a browser would drop a Secure cookie
    csp = answer.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert answer.headers["x-content-type-options"] == "nosniff"
    secure = web.new_client()
    secure.base_url = secure.base_url.copy_with(scheme="https")
    assert "Secure" in secure.get("/").headers["set-cookie"]
    forged = web.new_client()
    forged.cookies.set(SESSION_COOKIE, "eyJ1IjoiZ21fc2FtIn0.forged")
    assert "Sign in" in forged.get("/").text  # an unsigned cookie is nobody


def test_a_gm_sees_the_full_status_the_preview_and_the_private_messages(web: Web) -> None:
    _played(web)
    web.table.post("alice", "[physical: attack Goblin]", 12)
    web.table.poll(13)
    player = web.sign_in("alice", web.new_client())
    assert player.get(f"/thread/{THREAD}/private").status_code == 403
    page = player.get(f"/thread/{THREAD}").text
    assert "Preview of the close" not in page and "Full status" not in page
    for gm in ("gm_sam", "root"):  # a campaign's GM by name, and a GM account
        c = web.sign_in(gm, web.new_client())
        page = c.get(f"/thread/{THREAD}").text
        assert "GM view" in page and "Full status (GM)" in page
        assert "Preview of the close (GM)" in page and "Round 2" in page
        assert c.get(f"/thread/{THREAD}/private").status_code == 200


def test_a_gm_link_signs_in_once(web: Web) -> None:
    _played(web)
    token = web.site.signer.link("gm_sam")
    c = web.new_client()
    page = c.get("/link", params={"token": token})
    assert page.status_code == 200 and "Sign in as gm_sam" in page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    assert c.post("/link", data={"token": token, "csrf": csrf}).status_code == 303
    assert "Full status (GM)" in c.get(f"/thread/{THREAD}").text
    other = web.new_client()
    again = other.post("/link", data={"token": token, "csrf": web.csrf(other)})
    assert again.status_code == 403 and "used already" in again.text
    assert other.get("/link", params={"token": token[:-2] + "xx"}).status_code == 403


def test_a_gm_link_expires_after_the_hour(web: Web) -> None:
    now = [1_800_000_000.0]
    key = web.accounts.signing_key(at=web.table.clock())
    web.site.signer = Signer(key, clock=lambda: now[0])
    token = web.site.signer.link("gm_sam")
    c = web.new_client()
    csrf = web.csrf(c)
    now[0] += 60 * 60 + 1
    page = c.get("/link", params={"token": token})
    assert page.status_code == 403 and "over an hour old" in page.text
    assert c.post("/link", data={"token": token, "csrf": csrf}).status_code == 403
    now[0] -= 2  # within the hour it still works
    assert c.post("/link", data={"token": token, "csrf": csrf}).status_code == 303


def test_no_redirect_leaves_the_site(web: Web) -> None:
    c = web.new_client()
    for url in ("/login?next=https://evil.example/", "/login?next=//evil.example/"):
        token = web.csrf(c, url)
        answer = c.post(url, data={"name": "alice", "password": PASSWORD, "csrf": token,
                                   "next": "https://evil.example/"})  # fmt: skip
        assert answer.status_code == 303 and answer.headers["location"] == "/"
    token = web.csrf(c)
    out = c.post("/logout?next=https://evil.example/", data={"csrf": token})
    assert out.status_code == 303 and out.headers["location"] == "/"


def test_the_sign_in_limiter_forgets_addresses_without_recent_failures() -> None:
    now = [0.0]
    limiter = LoginLimiter(attempts=2, seconds=10, clock=lambda: now[0])
    limiter.KEPT = 3
    limiter.failed("ip:a", "name:x")
    limiter.failed("ip:a", "name:x")
    assert limiter.blocked("ip:a")
    now[0] = 20
    limiter.failed("ip:b", "name:y")
    limiter.failed("ip:c", "name:z")  # the third key: a and x, old, are dropped
    assert set(limiter._failures) <= {"ip:b", "name:y", "ip:c", "name:z"}
    assert not limiter.blocked("ip:a")
