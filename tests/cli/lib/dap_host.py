"""A DAP session on a run a host program drives (tests/cli/debug.sh): EdkDSP with host_seed.c.
usage: dap_host.py ISEKIT FIRMWARE HOST OUT
Stop on entry, an instruction breakpoint at main_loop (byte address 0x4, pc 0x1) hit inside the
host's first wait, the registers by name, a step, the end; the runner's output (stderr while
serving) goes to OUT."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import Client, check  # noqa: E402

isekit, fw, host, out = sys.argv[1:5]
with open(out, "w") as err:
    c = Client([isekit, "debug", "edkdsp", "--firmware", fw, "--host", host, "--dap"], stderr=err)
    c.request("initialize", {"adapterID": "isekit", "linesStartAt1": True})
    c.event("initialized")
    c.request("launch", {"program": fw, "stopOnEntry": True})
    bp = c.request("setInstructionBreakpoints", {"breakpoints": [{"instructionReference": "0x4"}]})["body"]
    check(bp["breakpoints"][0]["verified"], "breakpoint: %r" % bp)
    c.request("configurationDone")
    e = c.event("stopped")["body"]
    check(e["reason"] == "entry", "entry: %r" % e)
    c.request("continue", {"threadId": e["threadId"]})
    e = c.event("stopped")["body"]
    check(e["reason"] in ("breakpoint", "instruction breakpoint"), "at main_loop: %r" % e)
    frame = c.request("stackTrace", {"threadId": e["threadId"]})["body"]["stackFrames"][0]
    check(int(frame["instructionPointerReference"], 16) == 4, "frame: %r" % frame)
    scopes = c.request("scopes", {"frameId": frame["id"]})["body"]["scopes"]
    regs = c.request("variables", {"variablesReference": scopes[0]["variablesReference"]})["body"]["variables"]
    check(("s0", "3 (0x03)") in [(v["name"], v["value"]) for v in regs], "registers: %r" % regs)
    c.request("next", {"threadId": e["threadId"]})
    e = c.event("stopped")["body"]
    check(e["reason"] == "step", "step: %r" % e)
    c.request("setInstructionBreakpoints", {"breakpoints": []})
    c.request("continue", {"threadId": e["threadId"]})
    check(c.event("exited")["body"]["exitCode"] == 0, "exit code")
    c.event("terminated")
    c.request("disconnect")
    c.proc.wait(timeout=60)
    check(c.proc.returncode == 0, "the runner's status %r" % c.proc.returncode)
