"""The web pages' safety parts: password hashes, signed sessions, CSRF tokens, GM sign-in
links and a limit on sign-in attempts. Pure of the store but for what is handed in."""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

SESSION_COOKIE = "pbp_session"
SESSION_DAYS = 14
LINK_SECONDS = 60 * 60  # a GM's sign-in link works once, within the hour
_HASHER = PasswordHasher()  # argon2id, memory-hard, with its library's defaults
# a hash to verify against when the account does not exist: the same time either way
_DUMMY = _HASHER.hash(secrets.token_hex(16))


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (its salt inside)."""
    return _HASHER.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes (None: no account, checked all the
    same so that a missing account takes as long as a wrong password)."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@dataclass(slots=True)
class Session:
    """What the signed cookie holds: the user (None: nobody signed in), whether the sign-in
    came with GM rights (a GM account), and the CSRF token every form carries."""

    user: str | None = None
    gm: bool = False
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    changed: bool = False

    def data(self) -> dict[str, Any]:
        return {"u": self.user, "g": self.gm, "c": self.csrf}

    def csrf_ok(self, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token, self.csrf)


class Signer:
    """Signs the session cookie and the GM links with the servers' key; ``clock`` (seconds
    since the epoch) dates them and tells their age."""

    def __init__(self, key: str, *, clock: Callable[[], float] = time.time) -> None:
        class Dated(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(clock())

        self._sessions = URLSafeTimedSerializer(key, salt="pbp-session", signer=Dated)
        self._links = URLSafeTimedSerializer(key, salt="pbp-gm-link", signer=Dated)

    def session(self, cookie: str | None) -> Session:
        """The session a cookie carries, or a new one (unsigned, expired or malformed)."""
        if cookie:
            try:
                data = self._sessions.loads(cookie, max_age=SESSION_DAYS * 86400)
            except BadSignature:
                data = None
            if isinstance(data, dict) and isinstance(data.get("c"), str):
                user = data.get("u")
                return Session(
                    user=user if isinstance(user, str) else None,
                    gm=bool(data.get("g")),
                    csrf=data["c"],
                )
        return Session(changed=True)

    def cookie(self, session: Session) -> str:
        return self._sessions.dumps(session.data())

    def link(self, gm: str) -> str:
        """A one-time sign-in token for ``gm``."""
        return self._links.dumps({"gm": gm, "n": secrets.token_urlsafe(16)})

    def read_link(self, token: str) -> tuple[str, str] | None:
        """The GM and nonce of a token signed within the hour, else None."""
        try:
            data = self._links.loads(token, max_age=LINK_SECONDS)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        gm, nonce = data.get("gm"), data.get("n")
        return (gm, nonce) if isinstance(gm, str) and isinstance(nonce, str) else None


class LoginLimiter:
    """At most ``attempts`` failed sign-ins per ``seconds`` from one address or for one
    account name; a success clears neither (a guesser may know one password)."""

    KEPT = 10_000  # names and addresses held before those with no recent failure are dropped

    def __init__(
        self,
        *,
        attempts: int = 5,
        seconds: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.attempts, self.seconds, self._clock = attempts, seconds, clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        found = self._failures.setdefault(key, deque())
        while found and now - found[0] > self.seconds:
            found.popleft()
        return found

    def blocked(self, *keys: str) -> bool:
        return any(len(self._recent(k)) >= self.attempts for k in keys)

    def failed(self, *keys: str) -> None:
        if len(self._failures) >= self.KEPT:  # many names or addresses: forget the old ones
            for key in list(self._failures):
                if not self._recent(key):
                    del self._failures[key]
        for key in keys:
            self._recent(key).append(self._clock())
