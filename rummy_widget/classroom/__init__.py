"""The classroom: learners at real tables over the network, and the teacher's board.

``rummy-widget classroom --port 8765`` starts the server (``server.py``); learners' seats
speak ``protocol.py``; ``connect`` and ``Classroom`` are the scripting and notebook clients.
See docs/classroom.md. The names below are imported on first use, so the command line can
read its options without the ``[classroom]`` extra installed.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["Classroom", "Seat", "ServerError", "connect", "watch"]


def __getattr__(name: str):
    if name in __all__:
        return getattr(import_module(".client", __name__), name)
    raise AttributeError(name)
