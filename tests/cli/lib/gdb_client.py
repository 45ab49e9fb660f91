#!/usr/bin/env python3
"""A scripted gdb remote-protocol client for isekit's stub (--gdb 0), as gdb would drive it.

usage: gdb_client.py SCENARIO OUT -- ISEKIT ARGS...   (the stub's stdout and stderr go to OUT)
Scenarios:
  dpu BREAK FMT  the DPU's recursive.elf: break at BREAK (an address), continue, registers,
                 threads, a step, memory at FMT ("fib("), the breakpoint removed, continue to W00
  spin           a program that never ends: continue, Ctrl-C (0x03) stops it with SIGINT, kill
Every reply is checked; a failure raises (exit status 1) naming the packet."""
import re
import socket
import subprocess
import sys
import time


class Stub:
    def __init__(self, cmd, out):
        self.log = open(out, "w")
        self.p = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.PIPE, text=True)
        line = self.p.stderr.readline()
        m = re.search(r"gdb stub listening on 127\.0\.0\.1:(\d+)", line)
        if not m:
            raise SystemExit("no port announced: %r" % line)
        self.s = socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=20)
        self.buf = b""
        self.ack = True

    def _recv(self):
        data = self.s.recv(65536)
        if not data:
            raise SystemExit("the stub closed the connection")
        self.buf += data

    def packet(self):
        while True:
            if self.buf[:1] == b"+":
                self.buf = self.buf[1:]
                continue
            m = re.match(rb"\$([^#]*)#([0-9a-f]{2})", self.buf)
            if m:
                self.buf = self.buf[m.end():]
                body = m.group(1)
                if sum(body) & 0xFF != int(m.group(2), 16):
                    raise SystemExit("bad checksum on %r" % body)
                if self.ack:
                    self.s.sendall(b"+")
                return body.decode()
            self._recv()

    def send(self, text):
        body = text.encode()
        self.s.sendall(b"$%s#%02x" % (body, sum(body) & 0xFF))

    def ask(self, text, expect=None):
        self.send(text)
        r = self.packet()
        if expect is not None and not re.fullmatch(expect, r):
            raise SystemExit("%s: got %r, expected %r" % (text, r, expect))
        return r

    def finish(self):
        self.s.close()
        rc = self.p.wait(timeout=20)
        self.log.write(self.p.stderr.read())
        self.log.close()
        return rc


def le32(hexs):
    return int.from_bytes(bytes.fromhex(hexs), "little")


def dpu(st, brk, fmt):
    st.ask("qSupported:multiprocess+;swbreak+;hwbreak+", r"PacketSize=[0-9a-f]+;QStartNoAckMode\+;vContSupported\+")
    st.ask("QStartNoAckMode", "OK")
    st.ack = False
    st.ask("?", r"T05thread:1;")
    st.ask("qAttached", "1")
    st.ask("qC", "QC1")
    threads = st.ask("qfThreadInfo", r"m1(,[0-9a-f]+)*")
    assert len(threads[1:].split(",")) >= 4, threads
    st.ask("qsThreadInfo", "l")
    g = st.ask("g", r"[0-9a-f]{200}")          # r0..r23 and pc, 4 bytes each
    assert le32(g[192:200]) == 0x80000000, g   # the pc before the first clock: the first instruction
    st.ask("Z0,%x,8" % brk, "OK")
    st.ask("Z0,1,8", "E01")                    # no instruction's address
    stop = st.ask("c", r"T05thread:[0-9a-f]+;")
    thread = int(stop.split(":")[1][:-1], 16)
    st.ask("Hg%x" % thread, "OK")
    assert le32(st.ask("p18")) == brk          # register 24 is the pc
    g = st.ask("g")
    r0 = le32(g[0:8])
    assert r0 == 10 + (thread - 1) % 8 or r0 < 10 + (thread - 1) % 8, g   # fib's argument
    st.ask("P0=%s" % (r0).to_bytes(4, "little").hex(), "OK")   # write it back: unchanged run
    st.ask("vCont?", r"vCont;c;C;s;S")
    st.ask("vCont;s:%x" % thread, r"T05thread:%x;" % thread)
    assert le32(st.ask("p18")) == brk + 8, "a step is one instruction"
    text = bytes.fromhex(st.ask("m%x,4" % fmt, r"[0-9a-f]{8}"))
    assert text == b"fib(", text
    st.ask("M%x,1:46" % fmt, "OK")             # 'F': the program prints Fib(10) = 55
    st.ask("m%x,1" % fmt, "46")
    st.ask("mffffffff00,4", "E14")
    st.ask("z0,%x,8" % brk, "OK")
    st.ask("Z2,%x,4" % fmt, "")                # watchpoints: not offered
    st.ask("c", "W00")
    st.send("k")


def spin(st):
    st.ask("?", r"T05thread:1;")
    st.send("c")
    time.sleep(0.3)
    st.s.sendall(b"\x03")
    st.packet() == "T02thread:1;" or sys.exit("Ctrl-C: no SIGINT stop")
    st.ask("s", r"T05thread:1;")
    st.send("k")


def main():
    scenario, out = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    sep = rest.index("--")
    args, cmd = rest[:sep], rest[sep + 1:]
    st = Stub(cmd, out)
    if scenario == "dpu":
        dpu(st, int(args[0], 0), int(args[1], 0))
    else:
        spin(st)
    sys.exit(st.finish())


if __name__ == "__main__":
    main()
