"""The teacher key: made from ``secrets``, shown once, kept in the store only as a digest.

The key opens every hand (the board's "Show every hand", a spectator's open hands), the
results and the room controls. The store holds its SHA-256 digest, so a copy of the database
does not give it away; the command line prints the key only when it is made (the first start
with a new database, or ``--rotate-key``). A teacher who lost it rotates it: the old key stops
working and the new one is printed.
"""

from __future__ import annotations

import secrets

from .store import Store, digest

#: The settings row of the key's digest, and the row where earlier versions kept it in clear.
DIGEST, CLEAR = "teacher_key_digest", "teacher_key"


def new_key() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def prepare(store: Store, rotate: bool = False) -> str | None:
    """Make sure the store has a key's digest; the key itself when it was made now (to be
    printed once), else None. A key earlier versions kept in clear is digested and removed."""
    clear = store.get_setting(CLEAR)
    if clear is not None:
        store.put_setting(DIGEST, digest(clear))
        store.put_setting(CLEAR, None)
    if rotate or not store.get_setting(DIGEST):
        key = new_key()
        store.put_setting(DIGEST, digest(key))
        return key
    return None


def stored_digest(store: Store) -> str:
    return store.get_setting(DIGEST) or ""


def matches(given: object, stored: str) -> bool:
    """Whether ``given`` is the key whose digest is ``stored``: in constant time, and False
    for anything that is not a string (never an exception)."""
    if not isinstance(given, str) or not given or not stored:
        return False
    return secrets.compare_digest(digest(given), stored)
