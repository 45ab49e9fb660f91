#!/bin/sh
# Line information (DWARF .debug_line) from the command line: `isekit as -g`, `build -g`,
# `objdump -l`, checked against a real parser: GNU readelf --debug-dump=decodedline on our
# executables must show the same file:line at the same addresses as our own decoder
# (objdump -l). The readelf comparison is skipped (with a note) only when readelf is missing.
# usage: lines.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
tiny="$src/tests/asm/models/tiny.c"
data="$src/tests/asm/data"

# (file basename, line, address) of every row, from readelf's decoded table or objdump -l, in
# address order (readelf lists unit by unit).
rows() {
    python3 - "$1" "$2" <<'PY'
import os, re, sys
kind, path = sys.argv[1], sys.argv[2]
out, cur = [], None
for line in open(path):
    if kind == "readelf":
        f = line.split()
        if len(f) >= 3 and re.fullmatch(r"\d+", f[1]) and re.fullmatch(r"(0x)?[0-9a-f]+", f[2]):
            out.append((os.path.basename(f[0]), int(f[1]), int(f[2], 16)))
    else:
        m = re.fullmatch(r"(\S+):(\d+)\n", line)
        if m:
            cur = (os.path.basename(m.group(1)), int(m.group(2)))
            continue
        m = re.match(r"\s*([0-9a-f]+):\t", line)
        if m and cur:
            out.append(cur + (int(m.group(1), 16),))
            cur = None
for r in sorted(out, key=lambda r: (r[2], r)): print("%s:%d 0x%x" % r)
PY
}

# same_rows EXE MODEL...: readelf and objdump -l agree on EXE (and found rows)
same_rows() {
    exe=$1; shift
    run 0 "$tmp/dump" -- "$isekit" objdump -l "$@" "$exe"
    rows objdump "$tmp/dump" >"$tmp/ours"
    [ -s "$tmp/ours" ] || fail "objdump -l shows no lines for $exe"
    if command -v readelf >/dev/null 2>&1; then
        readelf --debug-dump=decodedline "$exe" >"$tmp/re" 2>"$tmp/re.err"
        [ -s "$tmp/re.err" ] && { fail "readelf complains about $exe:"; sed 's/^/    /' "$tmp/re.err"; }
        rows readelf "$tmp/re" >"$tmp/theirs"
        cmp -s "$tmp/ours" "$tmp/theirs" || { fail "readelf and objdump -l differ on $exe:"; diff "$tmp/theirs" "$tmp/ours" | sed 's/^/    /'; }
    else
        echo "note: readelf not found; the comparison with GNU's decoder is skipped"
    fi
}

# Two files, assembled with -g and linked: lib.s's rows move with its code.
run 0 "$tmp/as1" -- "$isekit" as -g -m "$tiny" "$data/main.s" -o "$tmp/main.o"
run 0 "$tmp/as2" -- "$isekit" as -g -m "$tiny" "$data/lib.s" -o "$tmp/lib.o"
run 0 "$tmp/ld" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib.o" -o "$tmp/prog.elf"
same_rows "$tmp/prog.elf" -m "$tiny"
expect_in "$tmp/ours" "main.s:5 0x0"
expect_in "$tmp/ours" "main.s:13 0x20"
expect_in "$tmp/ours" "lib.s:5 0x24"
# objects: the listing takes the rows through their relocations
run 0 "$tmp/dumpo" -- "$isekit" objdump -l -m "$tiny" "$tmp/lib.o"
rows objdump "$tmp/dumpo" >"$tmp/libo"
expect_in "$tmp/libo" "lib.s:5 0x0"
# without -g: no .debug_line, and objdump -l lists as before
run 0 "$tmp/as3" -- "$isekit" as -m "$tiny" "$data/main.s" -o "$tmp/plain.o"
run 0 "$tmp/dump3" -- "$isekit" objdump -h -m "$tiny" "$tmp/plain.o"
grep -q debug_line "$tmp/dump3" && fail "as without -g wrote .debug_line"

# DPU: a .S through cpp (lines of the .S, not of cpp's output) with the runtime's crt0.
run 0 "$tmp/b" -- "$isekit" build -g -m dpu "$data/lines_dpu.S" "$src/models/dpu/runtime/crt0.s" -o "$tmp/dpu.elf"
same_rows "$tmp/dpu.elf"
expect_in "$tmp/ours" "lines_dpu.S:9 "
expect_in "$tmp/ours" "lines_dpu.S:15 "
expect_in "$tmp/ours" "crt0.s:"
grep -q "lines_dpu.S:1[1-4] " "$tmp/ours" && fail "a macro's body lines in the table"

# IPU: the seed's add_f32.S (tile memory addresses).
run 0 "$tmp/b" -- "$isekit" build -g -m ipu "$src/models/ipu/examples/add_f32.S" -o "$tmp/ipu.elf"
same_rows "$tmp/ipu.elf"
expect_in "$tmp/ours" "add_f32.S:12 0x4"
expect_in "$tmp/ours" "add_f32.S:21 "

# A model without relocations (the example accelerator): plain offsets, in the object too;
# a macro's two instructions at the line of its call.
run 0 "$tmp/as4" -- "$isekit" as -g -m example "$src/models/example/programs/mac.s" -o "$tmp/mac.o"
run 0 "$tmp/dump4" -- "$isekit" objdump -l -m example "$tmp/mac.o"
rows objdump "$tmp/dump4" >"$tmp/mac"
expect_in "$tmp/mac" "mac.s:10 0x0"
expect_in "$tmp/mac" "mac.s:11 0x8"
expect_in "$tmp/mac" "mac.s:14 0x14"

# .file/.loc, as compilers write them, win over the assembler's own lines.
cat >"$tmp/loc.s" <<'S'
        .file 1 "prog.c"
_start: .loc 1 40 3
        li r1, 1
        li r2, 2
        .loc 1 41
        halt
S
run 0 "$tmp/b" -- "$isekit" build -g -m "$tiny" "$tmp/loc.s" -o "$tmp/loc.elf"
same_rows "$tmp/loc.elf" -m "$tiny"
expect_in "$tmp/ours" "prog.c:40 0x0"
expect_in "$tmp/ours" "prog.c:41 0x8"
echo "_start: .loc 2 1" >"$tmp/badloc.s"
run 1 "$tmp/e" -- "$isekit" as -g -m "$tiny" "$tmp/badloc.s" -o "$tmp/x.o"
expect_in "$tmp/e" "badloc.s:1:14: error: .loc: file 2 was not declared"

finish lines
