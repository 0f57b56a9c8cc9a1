"""Why a d20 Advanced request cannot be carried out. Errors carry fields and a ``code``."""

from __future__ import annotations

from pbp.errors import PbpError


class D20Error(PbpError):
    """A d20 request the rules refuse. ``code`` names the cause (and its reply template)."""

    code: str = "d20_refused"

    def __init__(self, *, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}")


class TakeNotAllowed(D20Error):
    """Take 1, 10 or 20 is not allowed here (RULES A3, A4). ``take`` is the number asked for."""

    def __init__(self, *, take: int, code: str, detail: str) -> None:
        self.take = take
        super().__init__(code=code, detail=detail)


class PoolNotUsable(D20Error):
    """A dice pool cannot be used for this check (RULES A8)."""


class RoundBudgetExceeded(D20Error):
    """An activity does not fit in what is left of the round (RULES A11)."""
