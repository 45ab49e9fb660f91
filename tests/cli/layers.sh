#!/bin/sh
# The layers (docs/layers.md): each file compiles with its target's include roots, taken from the
# build's compile_commands.json; there an include of a lower layer compiles and one of a higher
# layer, of another layer's internals or of a model does not.
isekit=$1 src=$2
. "$src/tests/cli/lib/common.sh"
build=$(dirname "$isekit")

# probe FILE HEADER yes|no [LINES]: does `#include "HEADER"` (then LINES, split at " | ")
# compile with FILE's flags?
probe() {
    python3 - "$build/compile_commands.json" "$src/$1" "$2" "$tmp/probe.c" "${4:-}" >"$tmp/cmd" || { fail "no compile command for $1"; return; }
    if sh "$tmp/cmd" >"$tmp/out" 2>&1; then got=yes; else got=no; fi
    [ "$got" = "$3" ] || { fail "$1: #include \"$2\" compiles: $got (wanted $3)"; sed 's/^/    /' "$tmp/out" | head -5; }
} <<'PY'
import json, shlex, sys
db, file, header, probe, line = sys.argv[1:]
entry = next((e for e in json.load(open(db)) if e["file"] == file), None)
if entry is None: sys.exit(1)
args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
keep, skip = [], False
for a in args:
    if skip: skip = False; continue
    if a in ("-o", "-c"): skip = True; continue
    keep.append(a)
open(probe, "w").write('#include "%s"\n%s\n' % (header, line.replace(" | ", "\n")))
print("cd %s && %s -fsyntax-only %s" % (shlex.quote(entry["directory"]), " ".join(map(shlex.quote, keep)), shlex.quote(probe)))
PY

probe src/base/num.c base/vec.h yes
probe src/base/num.c engine/system.h no
probe src/base/num.c isekit/sim.h no
probe src/engine/clock.c engine/system.h yes
probe src/engine/clock.c asm/asm.h no
probe src/engine/clock.c elf/obj.h no
probe src/engine/clock.c cli/cli.h no
probe src/elf/obj.c elf/obj.h yes
probe src/elf/obj.c engine/model_desc.h no
probe src/elf/obj.c asm/asm.h no
probe src/asm/asm.c elf/obj.h yes
probe src/asm/asm.c isekit/desc.h yes
probe src/asm/asm.c engine/model_desc.h no
probe src/asm/asm.c engine/system.h no
probe src/asm/asm.c cli/cli.h no
# the .psm front end is a layer above the tools: it sees them, they do not see it
probe src/psm/psm_asm.c asm/syntax.h yes
probe src/psm/psm_asm.c engine/system.h no
probe src/asm/asm.c psm/psm.h no
probe models/edkdsp/bce.c psm/psm.h yes
# the trace writers know formats, not the simulator; the command sees them
probe src/observe/vcd.c base/vec.h yes
probe src/observe/vcd.c isekit/sim.h no
probe src/observe/vcd.c engine/system.h no
probe src/observe/perfetto.c asm/asm.h no
probe src/cli/run_traces.c observe/vcd.h yes
probe src/engine/clock.c observe/vcd.h no
probe src/asm/asm.c observe/perfetto.h no
probe models/example/example.c isekit/model.h yes
probe models/example/example.c base/vec.h no
probe models/example/example.c asm/asm.h no
probe models/dpu/dpu_host.c asm/asm.h yes
probe models/dpu/dpu_host.c engine/system.h no
probe models/dpu/dpu_host.c cli/cli.h no
probe src/cli/main.c asm/asm.h yes
probe src/cli/main.c engine/system.h no
probe src/cli/main.c dpu.h no
probe src/cli/main.c bce_int.h no
# an embedding program gets the ABI's types from sim.h, not the model language's macros
macros="#if defined(GET) || defined(SET) || defined(PC) || defined(INT) | #error the model macros | #endif"
probe src/cli/main.c isekit/sim.h yes "isk_hdr *h; isk_context *c; | $macros"
probe models/example/example.c isekit/model.h no "$macros"

finish layers
