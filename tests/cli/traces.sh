#!/bin/sh
# Trace files (docs/traces.md): --vcd and --perfetto on the example accelerator, a KCPSM6 .psm
# program and a DPU program with several tasklets. Each VCD must load in a real parser
# (GTKWave's vcd2fst) and hold the values the model wrote; each JSON must load and have the
# tracks and events of the run.
# usage: traces.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

if ! command -v vcd2fst >/dev/null 2>&1; then
    sh "$src/scripts/deps.sh" >/dev/null 2>&1 || true
fi
if command -v vcd2fst >/dev/null 2>&1; then
    fst() { vcd2fst "$1" "$tmp/out.fst" >"$tmp/fst.log" 2>&1 || { fail "vcd2fst refuses $1:"; sed 's/^/    /' "$tmp/fst.log"; }; }
else
    echo "traces: SKIP the vcd2fst checks: vcd2fst (Debian's gtkwave) is missing and could not be installed"
    fst() { :; }
fi

# check.py vcd FILE [PATH=VALUE | PATH@TIME=VALUE]...: the VCD parses (header, identifiers,
# monotonic times, values of each variable's width) and PATH ("inst/scope/name") ends with
# VALUE (decimal, or x), or has VALUE from TIME on.
# check.py json FILE [tracks=NAME,...] [processes=NAME,...] [CAT=N | CAT>=N]...: the JSON loads;
# it has those thread names, exactly those process names and N events of category CAT
# ("instruction", "command", ...).
cat >"$tmp/check.py" <<'PY'
import json, sys
def vcd(path, wants):
    scope, ids, width, vals, hist, t, defs = [], {}, {}, {}, {}, 0, True
    toks = open(path).read().split()
    i = 0
    while i < len(toks):
        w = toks[i]
        if defs:
            if w == "$scope": scope.append(toks[i + 2]); i += 4; continue
            if w == "$upscope": scope.pop(); i += 2; continue
            if w == "$var":
                n, code, name = int(toks[i + 2]), toks[i + 3], toks[i + 4]
                assert toks[i + 5] == "$end", toks[i:i + 6]
                ids.setdefault(code, []).append("/".join(scope + [name])); width[code] = n; i += 6; continue
            if w == "$enddefinitions": defs = False; assert not scope, "unbalanced scopes"
            while toks[i] != "$end": i += 1
            i += 1; continue
        if w in ("$dumpvars", "$end"): i += 1; continue
        if w[0] == "#":
            nt = int(w[1:]); assert nt >= t, "time goes back: %d after %d" % (nt, t); t = nt; i += 1; continue
        if w[0] == "b":
            v, code = w[1:], toks[i + 1]; i += 2
            assert len(v) <= width[code] and set(v) <= set("01x"), (w, code)
            assert width[code] > 1, "vector value for a 1-bit variable " + code
        else:
            v, code = w[0], w[1:]; i += 1
            assert width[code] == 1, "scalar value for a vector " + code
        val = "x" if "x" in v else int(v, 2)
        for p in ids[code]: vals[p] = val; hist.setdefault(p, []).append((t, val))
    bad = 0
    for want in wants:
        path, value = want.split("=")
        at = None
        if "@" in path: path, at = path.split("@"); at = int(at)
        if path not in vals: print("no variable %s in %s (have %s...)" % (path, sys.argv[2], sorted(vals)[:8])); bad += 1; continue
        exp = value if value == "x" else int(value, 0)
        if at is None: got = vals[path]
        else: got = [v for (tt, v) in hist[path] if tt <= at][-1]
        if isinstance(exp, int) and isinstance(got, int): got &= (1 << 64) - 1; exp &= (1 << 64) - 1
        if got != exp: print("%s%s: %s, wanted %s" % (path, "" if at is None else " at %d" % at, got, exp)); bad += 1
    return bad
def tj(path, wants):
    d = json.load(open(path))
    ev = d["traceEvents"]; assert d["displayTimeUnit"] == "ns"
    names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    procs = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    bad = 0
    for want in wants:
        if want.startswith("processes="):
            if set(want[10:].split(",")) != procs: print("processes %s, wanted %s" % (sorted(procs), want[10:])); bad += 1
            continue
        if want.startswith("tracks="):
            for n in want[7:].split(","):
                if n not in names: print("no track %r in %s" % (n, sorted(names))); bad += 1
            continue
        op = ">=" if ">=" in want else "="
        cat, n = want.split(op)
        got = sum(1 for e in ev if e.get("cat") == cat)
        if (got < int(n)) if op == ">=" else (got != int(n)): print("%s events: %d, wanted %s%s" % (cat, got, op, n)); bad += 1
    for e in ev:
        if e["ph"] == "X": assert e["dur"] >= 0 and e["ts"] >= 0, e
    return bad
sys.exit(1 if (vcd if sys.argv[1] == "vcd" else tj)(sys.argv[2], sys.argv[3:]) else 0)
PY
check() { python3 "$tmp/check.py" "$@" >"$tmp/check.out" 2>&1 || { fail "check $*:"; sed 's/^/    /' "$tmp/check.out"; }; }

# ---- the example accelerator: commands in slots, registers by display name ----------------
demo="$src/models/example/programs/demo.ll"
run 0 "$tmp/ex0" -- "$isekit" run example "$demo" --show GR0 --show ACR --show LR1
run 0 "$tmp/ex" -- "$isekit" run example "$demo" --show GR0 --show ACR --show LR1 --vcd "$tmp/ex.vcd" --perfetto "$tmp/ex.json"
expect_in "$tmp/ex" 'GR0 = 5 (0x5)'
expect_in "$tmp/ex" 'ACR = 30 (0x1e)'
expect_in "$tmp/ex" "--vcd $tmp/ex.vcd: "
expect_in "$tmp/ex" "--perfetto $tmp/ex.json: "
# the run is the same run with the trace files
grep -v -e '--vcd' -e '--perfetto' "$tmp/ex" >"$tmp/ex.rest"
cmp -s "$tmp/ex0" "$tmp/ex.rest" || { fail "the example's output changes with the trace files:"; diff "$tmp/ex0" "$tmp/ex.rest"; }
fst "$tmp/ex.vcd"
# the values --show prints; LR1 = 5 written in clock 0 (latency 1) is seen from clock 1; the
# first command (ldi lr1, 5: Load_LREG_IMM, instruction 6 of the model) keeps slot 0 busy in
# clock 0 only
check vcd "$tmp/ex.vcd" example/GRF/GR0=5 example/ACR=30 example/LRF/LR1=5 example/LRF/LR1@0=0 \
    example/LRF/LR1@1=5 example/slot_0/busy@0=1 example/slot_0/command@0=6 example/slot_0/busy=0 \
    example/slot_0/command=x
launches=$("$isekit" run example "$demo" --trace | grep -c ' launch ')
[ "$launches" -gt 5 ] || fail "the example launches $launches commands"
check json "$tmp/ex.json" "tracks=events,slot 0,slot 1,slot 2,slot 3" command="$launches" interrupt=1 instruction=0
# --vcd-storage: only those storages, by name or title, any case
# GR1 = -3 as its 16 bits
run 0 "$tmp/exs" -- "$isekit" run example "$demo" --vcd "$tmp/exs.vcd" --vcd-storage acr,"General Registers"
check vcd "$tmp/exs.vcd" example/ACR=30 example/GRF/GR1=0xfffd
grep -q 'LR1' "$tmp/exs.vcd" && fail "--vcd-storage ACR,GRF still writes LRF"

# ---- KCPSM6: one context, its pc, state and registers ----------------------------------------
psm="$src/models/picoblaze/examples/count.psm"
run 0 "$tmp/pb" -- "$isekit" run kcpsm6 "$psm" --stop-port 0xFF --show s0 --vcd "$tmp/pb.vcd" --perfetto "$tmp/pb.json"
expect_in "$tmp/pb" 's0 = 8 (0x8)'
insns=$(sed -n 's/^summary: [0-9]* clocks, \([0-9]*\) instructions.*/\1/p' "$tmp/pb")
[ -n "$insns" ] || fail "no instruction count in the KCPSM6 summary"
expect_in "$tmp/pb" 'stopped at pc 0x6'
fst "$tmp/pb.vcd"
check vcd "$tmp/pb.vcd" kcpsm6/REGS/s0=8 kcpsm6/context_0/pc@0=0 kcpsm6/context_0/pc=6 kcpsm6/context_0/state=0
check json "$tmp/pb.json" "tracks=context 0" instruction="$insns" port\>=1

# ---- DPU: several tasklets (contexts), DMA and stalls in cycle mode --------------------------
progs="$src/tests/dpu/programs"
run 0 "$tmp/dpu" -- "$isekit" run dpu "$progs/reduce.s" --tasklets 4 --vcd "$tmp/dpu.vcd" --vcd-storage R --perfetto "$tmp/dpu.json"
expect_in "$tmp/dpu" 'dpu:       3          2672                      0  10542340 (0xa0dd04)'
insns=$(sed -n 's/^dpu: .* mode: [0-9]* clocks, \([0-9]*\) instructions.*/\1/p' "$tmp/dpu")
fst "$tmp/dpu.vcd"
# r0 of each tasklet as the runner's table says, by the registers' display names (t1.r0 is
# written t1_r0: a viewer would split it at the dot into one more scope)
check vcd "$tmp/dpu.vcd" dpu/R/r0=10542340 dpu/R/t1_r0=10542340 dpu/R/t3_r0=10542340 dpu/context_3/state=0
check json "$tmp/dpu.json" "tracks=context 0,context 1,context 2,context 3" instruction="$insns" dma=6
run 0 "$tmp/vec" -- "$isekit" run dpu "$progs/vecadd.s" --tasklets 4 --cycles --perfetto "$tmp/vec.json" --vcd "$tmp/vec.vcd"
expect_in "$tmp/vec" 'DMA 192 reads (49152 bytes), 72 writes (16448 bytes)'
insns=$(sed -n 's/^dpu: .* mode: [0-9]* cycles, \([0-9]*\) instructions.*/\1/p' "$tmp/vec")
fst "$tmp/vec.vcd"
# a tasklet waiting for its DMA is a stall on its track; blocked (2) is in the VCD's state
check json "$tmp/vec.json" instruction="$insns" dma=264 stall\>=4
python3 - "$tmp/vec.vcd" >"$tmp/blocked" <<'PY'
import sys
t = open(sys.argv[1]).read()
code = t.split("$scope module context_1 $end", 1)[1].split("$var wire 3 ", 1)[1].split()[0]
print("blocked" if ("b10 " + code + "\n") in t else "never blocked")
PY
expect_in "$tmp/blocked" 'blocked'

# ---- a system of four instances (two PicoBlazes, two DFUs): a scope and a process each ------
run 0 "$tmp/sys" -- "$isekit" run "$src/models/edkdsp/examples/two_bces.sys" --vcd "$tmp/sys.vcd" --perfetto "$tmp/sys.json"
expect_in "$tmp/sys" 'pb0 context 0: 60 instructions, stopped at pc 0xb'
expect_in "$tmp/sys" 'pb1 context 0: 72 instructions, stopped at pc 0xb'
fst "$tmp/sys.vcd"
check vcd "$tmp/sys.vcd" pb0/context_0/pc=11 pb1/context_0/pc=11 dfu0/slot_0/busy=0 dfu1/slot_0/busy=0
check json "$tmp/sys.json" processes=pb0,pb1,dfu0,dfu1 instruction=132 command\>=2

# ---- bad usage ---------------------------------------------------------------------------------
run 1 "$tmp/b1" -- "$isekit" run example "$demo" --vcd "$tmp/no/such/dir/x.vcd"
expect_in "$tmp/b1" "isekit run: --vcd $tmp/no/such/dir/x.vcd: cannot write: No such file or directory"
run 1 "$tmp/b2" -- "$isekit" run example "$demo" --vcd "$tmp/b2.vcd" --vcd-storage GRF,NOPE
expect_in "$tmp/b2" "isekit run: --vcd-storage NOPE: no instance has a storage of that name"
run 1 "$tmp/b3" -- "$isekit" run example "$demo" --vcd-storage GRF
expect_in "$tmp/b3" "isekit run: --vcd-storage without --vcd"
run 1 "$tmp/b5" -- "$isekit" run example "$demo" --perfetto "$tmp/b5.json" --vcd-storage GRF
expect_in "$tmp/b5" "isekit run: --vcd-storage without --vcd"
run 2 "$tmp/b4" -- "$isekit" run example "$demo" --perfetto
expect_in "$tmp/b4" "option '--perfetto' needs a value"
run 0 "$tmp/h" -- "$isekit" run --help
expect_in "$tmp/h" '--vcd FILE'
expect_in "$tmp/h" '--perfetto FILE'

# ---- the IPU vertex runner (supervisor + six workers): the values the vertex wrote (each worker's
# exit status, cycles and its element index $m0 after the loop), a track per context ----------
ex="$src/models/ipu/examples"
mkdir "$tmp/ipu_out"
bounded 0 "$tmp/ipu" -- "$isekit" run ipu "$ex/vector_add.S" --state "$ex/vector_add.toml" -o "$tmp/ipu_out" \
    --vcd "$tmp/ipu.vcd" --vcd-storage EXIT_STATUS,CYCLES,M --perfetto "$tmp/ipu.json"
expect_in "$tmp/ipu" 'worker 1: exit success, 275 tile cycles'
ipu_insns=$(sed -n 's/^vertex: success, .* \([0-9]*\) instructions in .*/\1/p' "$tmp/ipu")
fst "$tmp/ipu.vcd"
check vcd "$tmp/ipu.vcd" tile/EXIT_STATUS/w0_exit_status=1 tile/EXIT_STATUS/w5_exit_status=1 \
    tile/CYCLES/w1_cycles=275 tile/M/w0_\$m0=24 tile/M/w1_\$m0=25 tile/context_1/state=0
check json "$tmp/ipu.json" "tracks=context 0,context 1,context 2,context 3,context 4,context 5,context 6" \
    processes=tile instruction="$ipu_insns"
[ "${ipu_insns:-0}" -gt 200 ] || fail "the IPU run's instruction count: '$ipu_insns'"

# ---- names with dots stay one variable through a real parser: vcd2fst, then fst2vcd ----
grep -q ' t1\.r0 ' "$tmp/dpu.vcd" && fail "the DPU VCD still names a variable t1.r0"
if command -v fst2vcd >/dev/null 2>&1; then
    vcd2fst "$tmp/dpu.vcd" "$tmp/dots.fst" >/dev/null 2>&1 && fst2vcd "$tmp/dots.fst" >"$tmp/dots.vcd" 2>/dev/null
    expect_in "$tmp/dots.vcd" ' t1_r0 $end'
    check vcd "$tmp/dots.vcd" dpu/R/t1_r0=10542340 dpu/R/t3_r0=10542340
fi

finish traces
