#!/usr/bin/python3
"""Serves a built normlab site (build-web/site) on 127.0.0.1, sending a file's precompressed copy
(NAME.gz, written by the build: web/site_files.cmake) with Content-Encoding: gzip to a browser
whose Accept-Encoding takes gzip, and the file itself otherwise; Vary: Accept-Encoding either way.

  scripts/serve-site.py [--port PORT] [--bind ADDR] DIR     (PORT 0: a free port)

Prints one line, "serving DIR on http://ADDR:PORT/", once it listens (scripts/run.sh --web, the web
tests). Python's standard library only.
"""
import argparse
import functools
import http.server
import os
import sys

TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
         ".json": "application/json", ".ttf": "font/ttf", ".html": "text/html; charset=utf-8"}


class Handler(http.server.SimpleHTTPRequestHandler):
    def accepts_gzip(self):
        for part in self.headers.get("Accept-Encoding", "").split(","):
            token, _, params = part.strip().partition(";")
            if token.strip().lower() in ("gzip", "*") and params.replace(" ", "") not in ("q=0", "q=0.0"):
                return True
        return False

    def guess_type(self, path):
        return TYPES.get(os.path.splitext(path)[1], None) or super().guess_type(path)

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        gz = path + ".gz"
        if not os.path.isfile(path) or not os.path.isfile(gz) or not self.accepts_gzip():
            return super().send_head()
        f = open(gz, "rb")
        size = os.fstat(f.fileno()).st_size
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(size))
        self.send_header("Last-Modified", self.date_time_string(int(os.path.getmtime(gz))))
        self.end_headers()
        return f

    def end_headers(self):
        self.send_header("Vary", "Accept-Encoding")  # a cache keeps both forms apart
        super().end_headers()

    def log_message(self, fmt, *args):
        pass  # quiet: the browser's console is where loading is watched


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("dir")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.dir, "app.html")):
        sys.exit(f"serve-site: {a.dir} holds no app.html: build it with scripts/build-web.sh")
    handler = functools.partial(Handler, directory=a.dir)
    server = http.server.ThreadingHTTPServer((a.bind, a.port), handler)
    print(f"serving {a.dir} on http://{a.bind}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
