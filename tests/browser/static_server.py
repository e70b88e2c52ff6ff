"""A static file server for the JupyterLite site, as a teacher would run one, that logs bytes.

Usage: python tests/browser/static_server.py DIRECTORY PORT LOG

It is `python -m http.server` bound to loopback, plus one line per response in LOG
("<status> <bytes> <path>"), so a test can say how many bytes a learner's browser fetched.
"""

from __future__ import annotations

import functools
import http.server
import sys


class LoggingHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 (the base class's own attribute)
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }
    log_file = None

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def end_headers(self):
        """Log the response's status and body length, then send the headers."""
        length = 0
        for line in self._headers_buffer:
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        if self.log_file is not None:
            self.log_file.write(f"{getattr(self, '_status', 0)} {length} {self.path}\n")
            self.log_file.flush()
        super().end_headers()

    def log_message(self, format, *args):  # quiet: the log file says what matters
        pass


def main(argv: list[str]) -> None:
    directory, port, log = argv
    with open(log, "a", encoding="utf-8") as out:
        LoggingHandler.log_file = out
        handler = functools.partial(LoggingHandler, directory=directory)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), handler)
        print(f"serving {directory} on http://127.0.0.1:{port}", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
