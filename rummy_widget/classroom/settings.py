"""The server's settings, passed from the command line to every worker through the
environment (uvicorn starts workers as fresh processes that import the app by name)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

PREFIX = "RUMMY_CLASSROOM_"


@dataclass
class Settings:
    database: str = "classroom.sqlite3"
    redis: str | None = None
    bots: str = "basic"
    replace_after: float = 60.0
    players: int = 4
    deals: int = 3
    origins: list[str] = field(default_factory=list)  # browser origins besides the server's
    rate: float = 20.0  # messages a second per connection, on average
    burst: int = 40
    #: A join may make a room (a trusted class); else only the teacher makes rooms.
    open_rooms: bool = False
    rooms_per_address: int = 3  # rooms one client address may make with open rooms
    max_tables: int = 25  # tables in one room
    max_connections: int = 200  # WebSockets open from one client address, in one worker
    #: ``Host`` header values the server answers (``TrustedHostMiddleware``); empty: any.
    allowed_hosts: list[str] = field(default_factory=list)

    def to_env(self) -> dict[str, str]:
        env = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value is not None:
                env[PREFIX + name.upper()] = (
                    ",".join(value) if isinstance(value, list) else str(value)
                )
        return env

    @classmethod
    def from_env(cls, environ=os.environ) -> Settings:
        settings = cls()
        for name, spec in cls.__dataclass_fields__.items():
            raw = environ.get(PREFIX + name.upper())
            if raw is None:
                continue
            default = getattr(settings, name)
            if isinstance(default, bool):
                value = raw == "True"
            elif isinstance(default, list):
                value = [item for item in raw.split(",") if item]
            elif spec.type in ("float",) or isinstance(default, float):
                value = float(raw)
            elif isinstance(default, int):
                value = int(raw)
            else:
                value = raw
            setattr(settings, name, value)
        return settings
