"""The web pages' accounts and signing keys (``pbp user add``, ``pbp serve``): each call its
own short transaction. Passwords never reach the store: only their hashes."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbp.errors import InputError
from pbp.store.database import Store
from pbp.store.records import AccountRecord, record_of
from pbp.store.schema import WebAccountRow, WebKeyRow

SIGNING_KEY = "signing"
_LINK = "link:"  # a spent sign-in link's nonce


class Accounts:
    """The accounts of the local forum's web pages, in the bot's database."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def add(self, name: str, *, password_hash: str, gm: bool, at: datetime) -> AccountRecord:
        """A new account; a name already taken (case-blind) raises ``InputError``."""
        row = WebAccountRow(
            name=name, folded=name.casefold(), password_hash=password_hash, gm=gm, created_at=at
        )
        try:
            with self._store.session() as s:
                s.add(row)
                s.flush()
                return record_of(AccountRecord, row)
        except IntegrityError:
            raise InputError(f"there is already an account called {name!r}") from None

    def set_password(self, name: str, *, password_hash: str, gm: bool) -> AccountRecord:
        """A new password (and GM flag) for an existing account (``InputError`` if none)."""
        with self._store.session() as s:
            row = s.scalars(select(WebAccountRow).where(WebAccountRow.folded == name.casefold()))
            found = row.first()
            if found is None:
                raise InputError(f"there is no account called {name!r}")
            found.password_hash, found.gm = password_hash, gm
            s.flush()
            return record_of(AccountRecord, found)

    def get(self, name: str) -> AccountRecord | None:
        """The account called ``name`` (case-blind), if any."""
        with self._store.session() as s:
            row = s.scalars(
                select(WebAccountRow).where(WebAccountRow.folded == name.casefold())
            ).first()
            return None if row is None else record_of(AccountRecord, row)

    def signing_key(self, *, at: datetime) -> str:
        """The servers' signing key, made (once, whoever asks first) when there is none."""
        with self._store.session() as s:
            found = s.get(WebKeyRow, SIGNING_KEY)
            if found is not None:
                return found.value
        try:
            with self._store.session() as s:
                s.add(WebKeyRow(name=SIGNING_KEY, value=secrets.token_hex(32), created_at=at))
        except IntegrityError:
            pass  # another process made it at the same moment: theirs stands
        with self._store.session() as s:
            made = s.get(WebKeyRow, SIGNING_KEY)
            assert made is not None
            return made.value

    def spend_link(self, nonce: str, *, at: datetime) -> bool:
        """Mark a sign-in link's nonce used: True the first time, False ever after."""
        try:
            with self._store.session() as s:
                s.add(WebKeyRow(name=f"{_LINK}{nonce}", value="used", created_at=at))
        except IntegrityError:
            return False
        return True
