"""The DAP sessions of tests/cli/dap.sh, on DPU programs with several tasklets:
usage: dap_session.py ISEKIT PROGRAM SOURCE.s FMT_ADDR MODE OUT
MODE stdio (--dap; the runner's output, which goes to stderr meanwhile, is written to OUT) or
tcp (--dap-port 0; the port is read from stderr, the runner's stdout goes to OUT): the
Must-show session; pause (a program that never ends, paused and left) or fault (a program that
faults: an exception stop, then the end) or accel (PROGRAM a launch list of the example
accelerator: the accelerator as a thread, its registers, a one-clock step, the end), over
stdio; calls (one tasklet: stackTrace inside fib's recursion shows each call site, stepOut
returns to the caller, the output written to OUT is the undebugged run's)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import Client, DapError, b64, check  # noqa: E402

isekit, elf, source, fmt_addr, mode, out = sys.argv[1:7]
argv = [isekit, "run", "example", elf] if mode == "accel" else \
    [isekit, "run", "dpu", elf, "--tasklets", "1" if mode == "calls" else "4"]


def session(c):
    init = c.request("initialize", {"adapterID": "isekit", "linesStartAt1": True})["body"]
    for cap in ("supportsConfigurationDoneRequest", "supportsReadMemoryRequest", "supportsDisassembleRequest",
                "supportsInstructionBreakpoints", "supportsSetVariable"):
        check(init.get(cap) is True, "initialize: no %s" % cap)
    c.event("initialized")
    c.request("launch", {"program": elf, "stopOnEntry": True})
    # a source breakpoint on `jltu r0, 2, .Lleaf` (fib's first line): verified once the
    # assembler emits line information, else refused with a reason
    line = next(i + 1 for i, t in enumerate(open(source)) if t.strip().startswith("jltu r0, 2"))
    sbp = c.request("setBreakpoints", {"source": {"path": os.path.abspath(source)},
                                       "breakpoints": [{"line": line}]})["body"]["breakpoints"][0]
    if not sbp["verified"]:
        check(sbp.get("message") == "no line information in the program", "source breakpoint: %r" % sbp)
    fbp = c.request("setFunctionBreakpoints", {"breakpoints": [{"name": "fib"}, {"name": "nosuch"}]})["body"]
    check(fbp["breakpoints"][0]["verified"], "fib: %r" % fbp)
    check(not fbp["breakpoints"][1]["verified"] and "nosuch" in fbp["breakpoints"][1]["message"], "nosuch: %r" % fbp)
    fib = int(fbp["breakpoints"][0]["instructionReference"], 16)
    c.request("configurationDone")
    e = c.event("stopped")["body"]
    check(e["reason"] == "entry" and e["threadId"] == 1, "entry: %r" % e)
    threads = c.request("threads")["body"]["threads"]
    check([t["name"] for t in threads[:4]] == ["dpu ctx 0", "dpu ctx 1", "dpu ctx 2", "dpu ctx 3"], "threads: %r" % threads)
    c.request("stackTrace", {"threadId": 999}, ok=False)
    c.request("frobnicate", ok=False)

    # the breakpoint at fib: tasklet 0 calls fib(10) first
    c.request("continue", {"threadId": 1})
    e = c.event("stopped")["body"]
    check(e["reason"] in ("breakpoint", "function breakpoint") and e["threadId"] == 1, "at fib: %r" % e)
    frame = c.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]
    check(frame["name"] == "fib" and int(frame["instructionPointerReference"], 16) == fib, "frame: %r" % frame)
    if sbp["verified"]:
        check(frame["line"] == line and frame["source"]["path"].endswith(os.path.basename(source)), "line: %r" % frame)

    # registers by display name: thread 1 is tasklet 0, whose Registers scope holds its own
    # registers (r0 = n = 10, r23, id) and the shared flags, and no other tasklet's (t1.r0): the
    # model names banked registers by a context prefix
    scopes = c.request("scopes", {"frameId": frame["id"]})["body"]["scopes"]
    check([s["name"] for s in scopes] == ["Registers", "Memories"], "scopes: %r" % scopes)
    ref = scopes[0]["variablesReference"]
    regs = c.request("variables", {"variablesReference": ref})["body"]["variables"]
    names = [v["name"] for v in regs]
    check({"r0", "r23", "id", "ZF[0]"} <= set(names) and not any("." in n for n in names), "tasklet 0's registers: %r" % names)
    r0 = next(v for v in regs if v["name"] == "r0")
    check(r0["value"].startswith("10 "), "r0: %r" % r0)
    other = c.request("scopes", {"frameId": 2})["body"]["scopes"][0]["variablesReference"]
    names2 = [v["name"] for v in c.request("variables", {"variablesReference": other})["body"]["variables"]]
    check({"t1.r0", "t1.r23", "t1.id", "ZF[0]"} <= set(names2) and "r0" not in names2 and
          not any(n.startswith("t2.") for n in names2), "tasklet 1's registers: %r" % names2)
    c.request("variables", {"variablesReference": ref + 4 * 999}, ok=False)      # no context 998
    c.request("setVariable", {"variablesReference": ref, "name": "r14", "value": "7"})
    again = c.request("variables", {"variablesReference": ref})["body"]["variables"]
    r14 = next(v for v in again if v["name"] == "r14")
    check(r14["value"].startswith("7 "), "r14 after setVariable: %r" % r14)
    # main prints r14 (n) after the call: put it back, or the output changes
    c.request("setVariable", {"variablesReference": ref, "name": "r14", "value": "0xa"})
    mems = c.request("variables", {"variablesReference": scopes[1]["variablesReference"]})["body"]["variables"]
    check(any(v["name"] == "Working RAM" and v["indexedVariables"] == 65536 for v in mems), "memories: %r" % mems)

    # memory by address: the printf format in WRAM; a write read back
    mem = c.request("readMemory", {"memoryReference": fmt_addr, "count": 14})["body"]
    check(b64(mem["data"]) == b"fib(%d) = %d\n\0", "readMemory: %r" % mem)
    spare = hex(int(fmt_addr, 16) - 4)      # result[23]: no tasklet of 4 writes it
    c.request("writeMemory", {"memoryReference": spare, "data": "3q2+7w=="})
    mem = c.request("readMemory", {"memoryReference": spare, "count": 4})["body"]
    check(b64(mem["data"]) == bytes([0xde, 0xad, 0xbe, 0xef]), "writeMemory read back: %r" % mem)
    c.request("writeMemory", {"memoryReference": "0xfffffff0", "data": "AA=="}, ok=False)
    dis = c.request("disassemble", {"memoryReference": hex(fib), "instructionCount": 2})["body"]["instructions"]
    check(dis[0]["instruction"].startswith("jltu r0, 2") and dis[0]["symbol"] == "fib", "disassemble: %r" % dis)

    # a step: tasklet 0 at the next instruction (r0 = 10 is no leaf)
    c.request("next", {"threadId": 1, "granularity": "instruction"})
    e = c.event("stopped")["body"]
    check(e["reason"] == "step" and e["threadId"] == 1, "step: %r" % e)
    frame = c.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]
    check(int(frame["instructionPointerReference"], 16) == fib + 8, "after the step: %r" % frame)

    # to the end: r14 was restored from the stack, so the run's result is the undebugged one
    c.request("setFunctionBreakpoints", {"breakpoints": []})
    c.request("setBreakpoints", {"source": {"path": os.path.abspath(source)}, "breakpoints": []})
    c.request("continue", {"threadId": 1})
    check(c.event("exited")["body"]["exitCode"] == 0, "exit code")
    c.event("terminated")
    c.request("continue", {"threadId": 1}, ok=False)
    c.request("disconnect", {})


def pause(c):
    c.request("initialize", {"adapterID": "isekit"})
    c.request("launch", {"program": elf})
    c.request("configurationDone")
    c.request("threads")                       # allowed while running
    c.request("variables", {"variablesReference": 1}, ok=False)     # not while running
    c.request("pause", {"threadId": 1})
    e = c.event("stopped")["body"]
    check(e["reason"] == "pause", "pause: %r" % e)
    frame = c.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]
    check(frame["name"].startswith("spin"), "paused in: %r" % frame)
    c.request("disconnect", {"terminateDebuggee": True})


def fault(c):
    c.request("initialize", {"adapterID": "isekit"})
    c.request("launch", {"program": elf})
    c.request("configurationDone")
    e = c.event("stopped")["body"]
    check(e["reason"] == "exception" and "fault 3" in e["description"], "fault: %r" % e)
    c.request("stackTrace", {"threadId": e["threadId"]})
    c.request("continue", {"threadId": 1})
    check(c.event("exited")["body"]["exitCode"] == 1, "exit code after a fault")
    c.event("terminated")
    c.request("disconnect", {})


def accel(c):
    c.request("initialize", {"adapterID": "isekit"})
    c.request("launch", {"program": elf, "stopOnEntry": True})
    c.request("configurationDone")
    check(c.event("stopped")["body"]["reason"] == "entry", "entry")
    threads = c.request("threads")["body"]["threads"]
    check([t["name"] for t in threads] == ["example"], "threads: %r" % threads)
    scopes = c.request("scopes", {"frameId": 1})["body"]["scopes"]
    regs = c.request("variables", {"variablesReference": scopes[0]["variablesReference"]})["body"]["variables"]
    check(regs[0]["name"] == "GR0" and regs[0]["value"] == "0 (0x0000)", "GR0: %r" % regs[0])
    c.request("next", {"threadId": 1})
    check(c.event("stopped")["body"]["reason"] == "step", "a clock's step")
    c.request("continue", {"threadId": 1})
    check(c.event("exited")["body"]["exitCode"] == 0, "exit code")
    c.request("disconnect", {})


def calls(c):
    c.request("initialize", {"adapterID": "isekit"})
    c.request("launch", {"program": elf})
    c.request("setFunctionBreakpoints", {"breakpoints": [{"name": "fib"}]})
    c.request("configurationDone")
    # fib(10) from main, then fib(9) from fib's first call site
    c.event("stopped")
    c.request("continue", {"threadId": 1})
    e = c.event("stopped")["body"]
    check(e["reason"] == "function breakpoint" and e["threadId"] == 1, "second fib: %r" % e)
    st = c.request("stackTrace", {"threadId": 1})["body"]
    names = [f["name"] for f in st["stackFrames"]]
    check(names == ["fib", "fib+6", "main+7", "__sys_start_thread+3"] and st["totalFrames"] == 4, "frames: %r" % st)
    lines = [t.strip() for t in open(source)]
    caller = st["stackFrames"][1]
    if caller["line"]:
        check(lines[caller["line"] - 1].startswith("call r23, fib") and caller["source"]["path"].endswith(
            os.path.basename(source)), "the call site's line: %r" % caller)
    part = c.request("stackTrace", {"threadId": 1, "startFrame": 2, "levels": 1})["body"]["stackFrames"]
    check([f["name"] for f in part] == ["main+7"], "frames 2..2: %r" % part)
    # a caller's frame has the thread's scopes (registers are not saved per frame)
    scopes = c.request("scopes", {"frameId": caller["id"]})["body"]["scopes"]
    check([s["name"] for s in scopes] == ["Registers", "Memories"], "a caller's scopes: %r" % scopes)
    # stepOut: back in fib(10) after its call, one frame fewer
    c.request("setFunctionBreakpoints", {"breakpoints": []})
    c.request("stepOut", {"threadId": 1})
    e = c.event("stopped")["body"]
    check(e["reason"] == "step" and e["threadId"] == 1, "stepOut: %r" % e)
    st = c.request("stackTrace", {"threadId": 1})["body"]
    check([f["name"] for f in st["stackFrames"]] == ["fib+7", "main+7", "__sys_start_thread+3"], "after stepOut: %r" % st)
    top = st["stackFrames"][0]
    if top["line"]:
        check(lines[top["line"] - 1].startswith("move r15, r0"), "stepOut's line: %r" % top)
    c.request("continue", {"threadId": 1})
    check(c.event("exited")["body"]["exitCode"] == 0, "exit code")
    c.request("disconnect", {})


try:
    if mode in ("pause", "fault", "accel", "calls"):
        with open(out, "w") as err:
            c = Client(argv + ["--dap"], stderr=err)
            {"pause": pause, "fault": fault, "accel": accel, "calls": calls}[mode](c)
            sys.exit(c.proc.wait(timeout=60))
    elif mode == "stdio":
        with open(out, "w") as err:
            c = Client(argv + ["--dap"], stderr=err)
            session(c)
            rc = c.proc.wait(timeout=60)
    else:
        with open(out, "w") as so:
            p = subprocess.Popen(argv + ["--dap-port", "0"], stdout=so, stderr=subprocess.PIPE)
            line = p.stderr.readline().decode()
            check("DAP server listening on 127.0.0.1:" in line, "no port: %r" % line)
            c = Client(port=int(line.rsplit(":", 1)[1]), proc=p)
            session(c)
            rc = p.wait(timeout=60)
            sys.stderr.write(p.stderr.read().decode())
    sys.exit(rc)
except (DapError, StopIteration, KeyError, subprocess.TimeoutExpired) as e:
    print("DAP session failed: %r" % e)
    sys.exit(99)
