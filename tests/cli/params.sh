#!/bin/sh
# Model parameters from the command line: `isekit info` lists them, --param values are checked
# against the model's declarations (bad usage, status 2), a user's model declares its own.
# usage: params.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# info lists each parameter with its type, default, what it accepts and its help
run 0 "$tmp/dfu" -- "$isekit" info edkdsp_dfu
expect_in "$tmp/dfu" 'parameters (--param NAME=VALUE):'
expect_in "$tmp/dfu" 'memory_words   integer      default 1024      a power of two from 1 to 65536'
expect_in "$tmp/dfu" 'word_format    enumeration  default fp32      one of: fp32, int32'
expect_in "$tmp/dfu" 'VMUL pipeline latency, clocks'
run 0 "$tmp/dpu" -- "$isekit" info dpu
expect_in "$tmp/dpu" 'chip             enumeration  default v1A         one of: v1A, v1B'
run 0 "$tmp/k3" -- "$isekit" info kcpsm3
expect_in "$tmp/k3" 'interrupt_vector  integer      default 0x3FF  the integer 0x3FF'

# a value the model does not accept, an unknown name, no '=': usage errors naming what it takes
run 2 "$tmp/p1" -- "$isekit" run dpu --param mode=fast "$src/tests/dpu/programs/vecadd.s"
expect_in "$tmp/p1" "isekit run dpu: --param mode=fast: 'mode' is one of: functional, cycle"
run 2 "$tmp/p2" -- "$isekit" run dpu --param tasklets=16 "$src/tests/dpu/programs/vecadd.s"
expect_in "$tmp/p2" "isekit run dpu: --param tasklets=16: model 'dpu' has no parameter 'tasklets' (its parameters: chip, mode, timing, logic_mhz, memory_mhz, t_rcd, t_ras, t_rp, t_cl, t_bl, row_bytes, pipeline_stages, uncertain)"
run 2 "$tmp/p3" -- "$isekit" run example --param nokey "$src/models/example/programs/demo.ll"
expect_in "$tmp/p3" "isekit run: --param nokey: write KEY=VALUE"
run 2 "$tmp/p4" -- "$isekit" run edkdsp --param latency_vmul=0 --firmware "$src/models/edkdsp/examples/fw_seed.psm"
expect_in "$tmp/p4" "isekit run edkdsp: --param latency_vmul=0: 'latency_vmul' is an integer from 1 to 1000"
run 2 "$tmp/p5" -- "$isekit" run edkdsp --param pb.scratchpad_size=128 --firmware "$src/models/edkdsp/examples/fw_seed.psm"
expect_in "$tmp/p5" "'scratchpad_size' is the integer 64"
# the same value on KCPSM6, and a good DFU value, run
run 0 "$tmp/p6" -- "$isekit" run edkdsp --core kcpsm6 --param pb.scratchpad_size=128 --param memory_words=0x1000 \
    --max-clocks 1000 --firmware "$src/models/edkdsp/examples/fw_seed.psm"

# a user's model declares typed parameters and reads them (its reset copies them into registers)
cat >"$tmp/pm.c" <<'EOF'
#include <isekit/model.h>

STATE_BEGIN
    DECLARE_REGISTER(UINT(16, 0)) DEPTH;
    DECLARE_REGISTER(UINT(8, 0)) SHAPE;
    DECLARE_REGISTER(UINT(1, 0)) FAST;
STATE_END

static void pm_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    SET(DEPTH, GET_PARAM("depth"));
    SET(SHAPE, GET_PARAM("shape"));
    SET(FAST, GET_PARAM("fast"));
}

ACC_FUNCTION(NOP) {}

MODEL_BEGIN(pm, "typed parameters")
    WORD_BITS(8);
    SLOTS(1);
    PARAM_INT("depth", 16, 1, 1024, "queue depth", .pow2 = 1);
    PARAM_ENUM("shape", "ring", "line ring star", "how the nodes connect");
    PARAM_BOOL("fast", 0, "skip the slow path");
    PARAM("note", "old style");
    ON_RESET(pm_reset);
    REG(DEPTH, "Depth");
    REG(SHAPE, "Shape");
    REG(FAST, "Fast");
    INSTRUCTION("00000000", NOP, "nop");
MODEL_END
EOF
printf 'nop\nwait idle\n' >"$tmp/pm.ll"
run 0 "$tmp/pm_info" -- "$isekit" info "$tmp/pm.c"
expect_in "$tmp/pm_info" 'depth  integer      default 16         a power of two from 1 to 1024'
expect_in "$tmp/pm_info" 'shape  enumeration  default ring       one of: line, ring, star'
expect_in "$tmp/pm_info" 'fast   boolean      default no         yes or no (or true/false, on/off, 1/0)'
expect_in "$tmp/pm_info" 'note   text         default old style  any text'
run 0 "$tmp/pm_run" -- "$isekit" run "$tmp/pm.c" "$tmp/pm.ll" --param depth=0x100 --param shape=STAR \
    --param fast=on --param note=anything --show DEPTH --show SHAPE --show FAST
expect_in "$tmp/pm_run" 'DEPTH = 256'
expect_in "$tmp/pm_run" 'SHAPE = 2'
expect_in "$tmp/pm_run" 'FAST = 1'
run 2 "$tmp/pm_bad" -- "$isekit" run "$tmp/pm.c" "$tmp/pm.ll" --param depth=100
expect_in "$tmp/pm_bad" "isekit run: --param depth=100: 'depth' is a power of two from 1 to 1024"

# a bad declaration is a load error at its line of the description
sed 's/PARAM_ENUM("shape", "ring"/PARAM_ENUM("shape", "ball"/' "$tmp/pm.c" >"$tmp/pm2.c"
run 1 "$tmp/pm2" -- "$isekit" info "$tmp/pm2.c"
expect_in "$tmp/pm2" "pm2.c:23: error: model 'pm': parameter 'shape': its default ball is refused: 'shape' is one of: line, ring, star"

finish params
