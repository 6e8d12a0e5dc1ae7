"""A static server for the tests that is quiet: no request log, and no traceback when the
browser drops a connection it no longer needs (a page closed while an image still loads gives
BrokenPipeError in the server's thread, which printed 20 lines into pytest's output)."""

from __future__ import annotations

import http.server
import sys


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # the browser went away first: nothing to report
        super().handle_error(request, client_address)
