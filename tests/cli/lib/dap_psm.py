"""The DAP sessions of tests/cli/dap.sh on .psm programs (KCPSM6, EdkDSP firmware): a source
breakpoint at FILE.psm:LINE, its hit on that line, registers by display name, a step by line,
then the end, whose exited event has the runner's exit status.
usage: dap_psm.py SOURCE.psm LINE REGISTER VALUE NEXT_LINE OUT -- RUNNER ARGV...
REGISTER must read VALUE at the breakpoint; the step stops on NEXT_LINE (a file:line, or a
line of SOURCE); the runner's own output (stderr during a DAP session) goes to OUT."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import Client, DapError, check  # noqa: E402

source, line, reg, value, next_line, out = sys.argv[1:7]
argv = sys.argv[sys.argv.index("--") + 1:]
line = int(line)
path = os.path.abspath(source)


def session(c):
    c.request("initialize", {"adapterID": "isekit", "linesStartAt1": True})
    c.event("initialized")
    c.request("launch", {"program": source, "stopOnEntry": True})
    bp = c.request("setBreakpoints", {"source": {"path": path}, "breakpoints": [{"line": line}]})["body"]["breakpoints"][0]
    check(bp["verified"] and bp["line"] == line, "source breakpoint: %r" % bp)
    c.request("configurationDone")
    check(c.event("stopped")["body"]["reason"] == "entry", "entry")
    c.request("continue", {"threadId": 1})
    e = c.event("stopped")["body"]
    check(e["reason"] == "breakpoint" and e["hitBreakpointIds"] == [bp["id"]], "hit: %r" % e)
    frame = c.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]
    check(frame["line"] == line and frame["source"]["path"] == path, "frame: %r" % frame)
    check(int(frame["instructionPointerReference"], 16) == int(bp["instructionReference"], 16), "pc: %r" % frame)
    scopes = c.request("scopes", {"frameId": frame["id"]})["body"]["scopes"]
    check(scopes[0]["name"] == "Registers", "scopes: %r" % scopes)
    regs = c.request("variables", {"variablesReference": scopes[0]["variablesReference"]})["body"]["variables"]
    r = next(v for v in regs if v["name"] == reg)
    check(r["value"] == value, "%s: %r" % (reg, r))
    c.request("next", {"threadId": 1})
    check(c.event("stopped")["body"]["reason"] == "step", "step")
    frame = c.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]
    where = "%s:%d" % (frame["source"]["path"], frame["line"])
    check(where == next_line or where == "%s:%s" % (path, next_line), "after the step: %r" % frame)
    c.request("setBreakpoints", {"source": {"path": path}, "breakpoints": []})
    c.request("continue", {"threadId": 1})
    code = c.event("exited")["body"]["exitCode"]
    c.event("terminated")
    c.request("disconnect", {})
    return code


try:
    with open(out, "w") as err:
        c = Client(argv + ["--dap"], stderr=err)
        code = session(c)
        status = c.proc.wait(timeout=60)
        check(code == status, "the exited event's exitCode %r, the runner's status %r" % (code, status))
        sys.exit(status)
except (DapError, StopIteration, KeyError) as e:
    print("DAP session failed: %r" % e)
    sys.exit(99)
