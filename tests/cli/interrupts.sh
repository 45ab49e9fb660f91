#!/bin/sh
# Interrupt lines in a system described in a file (docs/systems.md `interrupt LINE`): a timer
# accelerator raises its line 2, routed to input 5 of a processor that sleeps until a line wakes
# it; the processor then reports its pending lines on a port. Both models are written here, as
# a user would write them.
# usage: interrupts.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

cat >"$tmp/timer.c" <<'C'
/* A timer accelerator: `wait N` counts N clocks, then raises interrupt line 2. */
#include <isekit/model.h>

STATE_BEGIN
    DECLARE_REGISTER(UINT(16)) COUNT;
STATE_END

ACC_FUNCTION(Wait, n)
{
    for (int64_t k = 1; k <= n; k++) {
        SET(COUNT, k);
        FinishCycle();
    }
    InterruptLine(2);
}

MODEL_BEGIN(timer, "a timer that raises line 2 after N clocks")
    WORD_BITS(16);
    SLOTS(1);
    REG(COUNT, "count");
    INSTRUCTION("0001-nnnnnnnnnnnn", Wait, "wait {n}");
MODEL_END
C
cat >"$tmp/sleeper.c" <<'C'
/* A processor that starts the timer, sleeps until an interrupt line wakes it, and reports the
 * pending lines on a port. */
#include <isekit/model.h>

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 16) ROM;
STATE_END

BEHAVIOUR(Start, n)   { LAUNCH(0, 0x1000 | n); }
BEHAVIOUR(Sleep)      { SLEEP_CONTEXT(CONTEXT); }
BEHAVIOUR(Report, p)  { OUTPUT(p, PENDING_LINES); ACK_LINE(5); }
BEHAVIOUR(Halt)       { STOP_CONTEXT(CONTEXT); }

MODEL_BEGIN(sleeper, "sleeps until an interrupt line wakes it")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .code_bytes = 2, .pc_unit_bytes = 2);
    ELF_FORMAT(.machine = 0x7e8, .elfclass = 32);
    REGION(.name = "ROM", .base = 0, .size = 16 * 2, .sections = ".text .text.*", .storage = "ROM", .code = 1);
    MEMORY(ROM, "code");
    INSTRUCTION("0001-nnnnnnnnnnnn", Start, "start {n}");
    INSTRUCTION("0010-0000-0000-0000", Sleep, "sleep");
    INSTRUCTION("0011-0000-pppppppp", Report, "report {p}");
    INSTRUCTION("0100-0000-0000-0000", Halt, "halt");
MODEL_END
C
printf '        start 10\n        sleep\n        report 7\n        halt\n' >"$tmp/wake.s"

# system NAME ROUTE: a description with the timer's line 2 routed as ROUTE ("" = not routed)
system() {
    { printf '[instance cpu]\nmodel = %s\nprogram = %s\n\n' "$tmp/sleeper.c" "$tmp/wake.s"
      printf '[instance timer]\nmodel = %s\naccelerator = 0\n' "$tmp/timer.c"
      [ -n "$2" ] && printf 'interrupt 2 = %s\n' "$2"; } >"$tmp/$1.sys"
}

# the line reaches input 5: the sleeper wakes in the clock after the timer's last, and sees it
system routed "cpu 5"
bounded 0 "$tmp/routed" -- "$isekit" run "$tmp/routed.sys" --port-log
expect_in "$tmp/routed" '      11  cpu    out 0x07 = 0x20'
expect_in "$tmp/routed" 'summary: 13 clocks, 4 instructions'
expect_in "$tmp/routed" 'cpu context 0: 4 instructions, stopped at pc 0x3'
# the same run traced: the line raised, delivered, the context woken
bounded 0 "$tmp/trace" -- "$isekit" run "$tmp/routed.sys" --trace
expect_in "$tmp/trace" '       1  cpu    context 0 running -> sleeping at pc 0x2'
expect_in "$tmp/trace" '      10  timer  interrupt line 2 raised'
expect_in "$tmp/trace" '      10  cpu    interrupt line 5 raised at its input'
expect_in "$tmp/trace" '      11  cpu    context 0 sleeping -> running at pc 0x2'

# without INPUT the line keeps its number
system same "cpu"
bounded 0 "$tmp/same" -- "$isekit" run "$tmp/same.sys" --port-log
expect_in "$tmp/same" '      11  cpu    out 0x07 = 0x04'

# not routed: nothing wakes the sleeper once the timer is done
system unrouted ""
bounded 1 "$tmp/unrouted" -- "$isekit" run "$tmp/unrouted.sys" --port-log
expect_in "$tmp/unrouted" 'deadlock: cpu context 0 sleeps at pc 0x2'

finish interrupts
