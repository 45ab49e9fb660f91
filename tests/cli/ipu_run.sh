#!/bin/sh
# isekit run ipu: the examples of models/ipu/examples end to end (a MultiVertex on six workers,
# a Vertex with f32 in and out of CSV and .npy files, the same with a misaligned output raising
# its exception), both chips, an executable linked by isekit ld, a SupervisorVertex using a
# worker instruction, a runaway worker at --max-clocks, --trace, and bad input: an unknown
# vertex, a description naming an unknown tensor, a .npy of the wrong dtype, bad usage.
# usage: ipu_run.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
ex="$src/models/ipu/examples"
cp "$ex"/* "$tmp/"

# MultiVertex: out = a + b over 20 elements, workers 0 and 1 take one element more
sed 's/vector_add_out.npy/out.csv/' "$ex/vector_add.toml" >"$tmp/va.toml"
bounded 0 "$tmp/va" -- "$isekit" run ipu "$ex/vector_add.S" --state "$tmp/va.toml"
expect_in "$tmp/va" "vertex __runCodelet_VectorAdd (MultiVertex): entry 0x4c000"
expect_in "$tmp/va" "worker 5: exit success"
expect_in "$tmp/va" "vertex: success, 275 tile cycles (the longest worker's)"
expect_in "$tmp/va" "tensor out (u32[20] at 0x8"
[ "$(tr '\n' ' ' <"$tmp/out.csv")" = "1 12 23 34 45 56 67 78 89 100 111 122 133 144 155 166 177 188 199 210 " ] ||
    fail "out.csv: $(cat "$tmp/out.csv")"
# ipu1: the same from 0x40000, region 1 at 0x60000; the .npy goes to -o DIR
mkdir "$tmp/o1"
bounded 0 "$tmp/va1" -- "$isekit" run ipu "$ex/vector_add.S" --state "$ex/vector_add.toml" --chip ipu1 -o "$tmp/o1"
expect_in "$tmp/va1" "entry 0x40000, state 0x6"
head -c 8 "$tmp/o1/vector_add_out.npy" | od -c | grep -q 'N   U   M   P   Y 001' || fail "no .npy v1 written"
[ "$(wc -c <"$tmp/o1/vector_add_out.npy")" -eq 208 ] || fail ".npy: 128 bytes of header and 80 of data"

# an executable linked by isekit ld starts at ipu1's 0x40000: it runs on ipu1, not on ipu2;
# linked with --region-start TMEM=0x4C000, it runs on ipu2
run 0 "$tmp/b" -- "$isekit" build -m ipu "$ex/vector_add.S" -o "$tmp/va.elf"
bounded 0 "$tmp/e1" -- "$isekit" run ipu "$tmp/va.elf" --state "$tmp/va.toml" --chip ipu1
expect_in "$tmp/e1" "vertex: success"
bounded 1 "$tmp/e2" -- "$isekit" run ipu "$tmp/va.elf" --state "$tmp/va.toml"
expect_in "$tmp/e2" "is not in ipu2's region 0 (0x4c000-0x7ffff): give the objects or sources"
run 0 "$tmp/b2" -- "$isekit" build -m ipu --region-start TMEM=0x4C000 "$ex/vector_add.S" -o "$tmp/va2.elf"
bounded 0 "$tmp/e3" -- "$isekit" run ipu "$tmp/va2.elf" --state "$tmp/va.toml"
expect_in "$tmp/e3" "vertex: success"

# Vertex, f32: RNE sums, overflow to inf, a denormal; CSV in, CSV out
sed 's/add_f32_out.npy/f.csv/' "$ex/add_f32.toml" >"$tmp/f.toml"
bounded 0 "$tmp/f" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/f.toml"
expect_in "$tmp/f" "worker 0: exit success, 160 tile cycles"
[ "$(tr '\n' ' ' <"$tmp/f.csv")" = "2 0 0 inf 0.300000012 2.80259693e-45 " ] || fail "f.csv: $(cat "$tmp/f.csv")"
# the output 4 mod 8: st64step raises MISALIGNED, the vertex fails with exit status 1
bounded 1 "$tmp/mis" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/add_f32_misaligned.toml"
expect_in "$tmp/mis" "worker 0: exception INVALID_ADDR (8) at 0x4c02c, clock 72, after 70 tile cycles: st64step: store at 0x80004 is not 8-byte aligned (MISALIGNED_EA0)"
expect_in "$tmp/mis" "vertex: FAILED"

# --trace: every issue with its context and disassembly
bounded 0 "$tmp/tr" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/f.toml" --trace -q
expect_in "$tmp/tr" "    66  w0  4c028:  58002003  f32v2add \$a0:1, \$a0:1, \$a2:3"
expect_in "$tmp/tr" "     3  sup 4c04c:  41800002  sync 2"

# a SupervisorVertex with a worker instruction: the supervisor's exception, with its address
printf '.globl S\nS:  setzi $m1, 1\n    f32v2add $a0:1, $a0:1, $a0:1\n    br $lr\n' >"$tmp/s.s"
printf 'vertex = "S"\nkind = "SupervisorVertex"\n' >"$tmp/s.toml"
bounded 1 "$tmp/s" -- "$isekit" run ipu "$tmp/s.s" --state "$tmp/s.toml"
expect_in "$tmp/s" "supervisor: exception at 0x4c004, clock"
# a worker that never exits: --max-clocks ends the run, exit status 3
printf '.globl L\nL:  bri L\n' >"$tmp/l.s"
printf 'vertex = "L"\n' >"$tmp/l.toml"
bounded 3 "$tmp/l" -- "$isekit" run ipu "$tmp/l.s" --state "$tmp/l.toml" --max-clocks 10k
expect_in "$tmp/l" "worker 0: still running at 0x4c000"
expect_in "$tmp/l" "the run reached --max-clocks (10000 clocks) first"
# the same worker stopped by Ctrl-C: the report says so, exit status 130 (not the limit's 3)
interrupted "$tmp/li" -- "$isekit" run ipu "$tmp/l.s" --state "$tmp/l.toml"
expect_in "$tmp/li" "the run was interrupted (Ctrl-C) at clock"
expect_in "$tmp/li" "worker 0: still running at 0x4c000"

# bad input
bounded 1 "$tmp/nv" -- "$isekit" run ipu "$ex/vector_add.S" --state "$tmp/va.toml" --vertex Nope
expect_in "$tmp/nv" "vertex 'Nope' is not in"
expect_in "$tmp/nv" "its entry points: __runCodelet_VectorAdd"
printf 'vertex = "L"\n\n[[field]]\nkind = "span"\ntensor = "missing"\n' >"$tmp/bad.toml"
bounded 1 "$tmp/bt" -- "$isekit" run ipu "$tmp/l.s" --state "$tmp/bad.toml"
expect_in "$tmp/bt" "bad.toml:5:10: error: tensor: no [tensor.missing] in this description"
sed 's/add_f32_b.csv/o1\/vector_add_out.npy/' "$ex/add_f32.toml" >"$tmp/dt.toml"
bounded 1 "$tmp/dt" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/dt.toml"
expect_in "$tmp/dt" "vector_add_out.npy: dtype '<u4' does not match the tensor's f32"
expect_in "$tmp/dt" "dt.toml:10:1: note: tensor 'b' (f32) reads it"
bounded 2 "$tmp/us" -- "$isekit" run ipu "$ex/add_f32.S"
expect_in "$tmp/us" "need --state STATE.toml"
bounded 2 "$tmp/ch" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/f.toml" --chip ipu3
expect_in "$tmp/ch" "--chip: 'ipu3' is not ipu1 or ipu2"
bounded 2 "$tmp/pa" -- "$isekit" run ipu "$ex/add_f32.S" --state "$tmp/f.toml" --param chips=ipu1
expect_in "$tmp/pa" "--param chips=ipu1: model 'ipu' has no parameter 'chips'"

finish ipu_run
