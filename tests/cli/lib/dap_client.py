"""A small scripted Debug Adapter Protocol client for the tests (tests/cli/dap.sh): it speaks
to `isekit ... --dap` over a pipe or to `--dap-port` over TCP, sends requests, waits for their
responses and for events, and fails loudly (exit 1, what it waited for and what came) when the
server does not answer as a client like VS Code expects."""
import base64
import json
import socket
import subprocess
import sys


class DapError(Exception):
    pass


class Client:
    def __init__(self, argv=None, port=None, stderr=None, proc=None):
        self.seq = 0
        self.events = []        # events not yet waited for, in order
        self.proc = proc
        if port is not None:
            self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            self.rfile = self.sock.makefile("rb")
            self.wfile = self.sock.makefile("wb")
        else:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
            self.rfile, self.wfile = self.proc.stdout, self.proc.stdin

    def _read(self):
        length = None
        while True:
            line = self.rfile.readline()
            if not line:
                raise DapError("the server closed the stream")
            if not line.endswith(b"\r\n"):
                raise DapError("a header line without CR LF: %r" % line)
            if line == b"\r\n":
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        if length is None:
            raise DapError("a message without Content-Length")
        body = self.rfile.read(length)
        if len(body) != length:
            raise DapError("the stream ended inside a message")
        return json.loads(body)

    def send_raw(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def request(self, command, args=None, ok=True):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command}
        if args is not None:
            msg["arguments"] = args
        data = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        while True:
            m = self._read()
            if m["type"] == "event":
                self.events.append(m)
            elif m["type"] == "response" and m["request_seq"] == self.seq:
                if m["command"] != command:
                    raise DapError("response to %s names %s" % (command, m["command"]))
                if ok is not None and m["success"] != ok:
                    raise DapError("%s: success %s (wanted %s): %s" % (command, m["success"], ok, m.get("message")))
                return m

    def event(self, name):
        """The next event called name (events before it of other names are dropped)."""
        while True:
            while self.events:
                e = self.events.pop(0)
                if e["event"] == name:
                    return e
            m = self._read()
            if m["type"] == "event":
                self.events.append(m)

    def no_more_messages(self):
        try:
            m = self._read()
        except DapError:
            return True
        raise DapError("unexpected message: %r" % m)


def b64(data):
    return base64.b64decode(data)


def check(cond, what):
    if not cond:
        raise DapError(what)
