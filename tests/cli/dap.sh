#!/bin/sh
# isekit run ... --dap: the Debug Adapter Protocol server, driven by a scripted client
# (lib/dap_client.py, lib/dap_session.py) as VS Code would drive it, and bad input on its stream.
# usage: dap.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
progs="$src/tests/dpu/programs"
lib="$src/tests/cli/lib"

# the undebugged run, and the executable the sessions run
run 0 "$tmp/plain" -- "$isekit" run dpu "$progs/recursive.s" --tasklets 4 -o "$tmp/rec.elf"
expect_in "$tmp/plain" 'fib(10) = 55'
"$isekit" objdump -t "$tmp/rec.elf" >"$tmp/syms"
fmt=$(awk '$NF == "fmt" { print "0x" $1 }' "$tmp/syms")
[ -n "$fmt" ] || { fail "no symbol fmt:"; cat "$tmp/syms"; }
run 0 "$tmp/plain" -- "$isekit" run dpu "$tmp/rec.elf" --tasklets 4

# over stdin/stdout: a breakpoint hit, registers and memory read, a step, the end; the runner's
# output (on stderr while serving) equals the undebugged run's
bounded 0 "$tmp/s1" -- python3 "$lib/dap_session.py" "$isekit" "$tmp/rec.elf" "$progs/recursive.s" "$fmt" stdio "$tmp/out1"
cmp -s "$tmp/out1" "$tmp/plain" || { fail "the debugged run's output differs:"; diff "$tmp/plain" "$tmp/out1"; cat "$tmp/s1"; }
# the same over TCP on loopback; the runner's stdout is its own again
bounded 0 "$tmp/s2" -- python3 "$lib/dap_session.py" "$isekit" "$tmp/rec.elf" "$progs/recursive.s" "$fmt" tcp "$tmp/out2"
expect_in "$tmp/out2" 'fib(10) = 55'

# pause: a program that never ends stops at the clock the client asked; leaving then ends it
printf '    .text\nmain:\n    .globl main\n    nop\nspin:\n    jump spin\n' >"$tmp/spin.s"
bounded 1 "$tmp/p1" -- python3 "$lib/dap_session.py" "$isekit" "$tmp/spin.s" - - pause "$tmp/pout"
expect_in "$tmp/pout" 'isekit run dpu: the DAP client ended the session at clock'
# a fault stops with reason exception, the state can be looked at, going on ends the run
printf '    .text\nmain:\n    .globl main\n    jnz id, 1f\n    fault 3\n1:  jump r23\n' >"$tmp/fault.s"
bounded 1 "$tmp/f1" -- python3 "$lib/dap_session.py" "$isekit" "$tmp/fault.s" - - fault "$tmp/fout"
expect_in "$tmp/fout" 'fault 3 (assertion failed)'

# an accelerator alone (a launch list drives it): a thread of its own, stepped a clock at a time
demo="$src/models/example/programs/demo.ll"
run 0 "$tmp/aplain" -- "$isekit" run example "$demo"
bounded 0 "$tmp/a1" -- python3 "$lib/dap_session.py" "$isekit" "$demo" - - accel "$tmp/aout"
cmp -s "$tmp/aout" "$tmp/aplain" || { fail "the debugged example's output differs:"; diff "$tmp/aplain" "$tmp/aout"; cat "$tmp/a1"; }

# bad framing, bad JSON, a client that leaves early: a clear message and exit 1, never a crash
printf 'Content-Length: 5\r\n\r\n{"a":' | bounded 1 "$tmp/b1" -- "$isekit" run dpu "$tmp/rec.elf" --dap
expect_in "$tmp/b1" "DAP: a message that is offset 5: unexpected end of the text: ending the session"
printf 'Content-Lenght: 5\r\n\r\n{}' | bounded 1 "$tmp/b2" -- "$isekit" run dpu "$tmp/rec.elf" --dap
expect_in "$tmp/b2" "DAP: a message without Content-Length: ending the session"
printf 'Content-Length: 99999999999\r\n\r\n' | bounded 1 "$tmp/b3" -- "$isekit" run dpu "$tmp/rec.elf" --dap
expect_in "$tmp/b3" "DAP: bad Content-Length"
printf 'Content-Length: 2\n\n{}' | bounded 1 "$tmp/b4" -- "$isekit" run dpu "$tmp/rec.elf" --dap
expect_in "$tmp/b4" "not ended by CR LF"
bounded 1 "$tmp/b5" -- "$isekit" run dpu "$tmp/rec.elf" --dap </dev/null
expect_in "$tmp/b5" "isekit run dpu: the DAP session broke off at clock 0, before the program ended"
# a client that lets the program go (terminateDebuggee false): it runs to its end
msg='{"seq":1,"type":"request","command":"disconnect","arguments":{"terminateDebuggee":false}}'
printf 'Content-Length: %d\r\n\r\n%s' ${#msg} "$msg" | bounded 0 "$tmp/d1" -- "$isekit" run dpu "$tmp/rec.elf" --dap
expect_in "$tmp/d1" 'fib(10) = 55'
expect_in "$tmp/d1" '"command":"disconnect"'
# usage
run 2 "$tmp/u1" -- "$isekit" run dpu "$tmp/rec.elf" --dap-port 70000
expect_in "$tmp/u1" '--dap-port'

# .psm programs: a source breakpoint in the .psm, its hit, a register, a step by line, the end;
# the run's own output equals the undebugged run's
psm="$src/models/picoblaze/examples/count.psm"
run 0 "$tmp/k6plain" -- "$isekit" run kcpsm6 "$psm" --stop-port 0xFF --show s0
bounded 0 "$tmp/k6" -- python3 "$lib/dap_psm.py" "$psm" 6 s0 '6 (0x06)' 7 "$tmp/k6out" -- \
    "$isekit" run kcpsm6 "$psm" --stop-port 0xFF --show s0
cmp -s "$tmp/k6out" "$tmp/k6plain" || { fail "the debugged KCPSM6 run's output differs:"; diff "$tmp/k6plain" "$tmp/k6out"; cat "$tmp/k6"; }
# EdkDSP firmware without a host: line 17 calls into pbbcelib, whose line the step stops on
fw="$src/models/edkdsp/examples/fw_seed.psm"
run 0 "$tmp/edkplain" -- "$isekit" run edkdsp --firmware "$fw" --max-clocks 2000
bounded 0 "$tmp/edk" -- python3 "$lib/dap_psm.py" "$fw" 17 s0 '0 (0x00)' '<isekit>/pbbcelib.psm:93' "$tmp/edkout" -- \
    "$isekit" run edkdsp --firmware "$fw" --max-clocks 2000
tail -n 2 "$tmp/edkplain" >"$tmp/edkplain.end"
tail -n 2 "$tmp/edkout" >"$tmp/edkout.end"
cmp -s "$tmp/edkout.end" "$tmp/edkplain.end" || { fail "the debugged firmware's end differs:"; diff "$tmp/edkplain" "$tmp/edkout"; cat "$tmp/edk"; }

# call frames: stackTrace in a callee has its callers, stepOut lands in the caller
run 0 "$tmp/cplain" -- "$isekit" run dpu "$progs/recursive.s" --tasklets 1
bounded 0 "$tmp/c1" -- python3 "$lib/dap_session.py" "$isekit" "$progs/recursive.s" "$progs/recursive.s" - calls "$tmp/cout"
cmp -s "$tmp/cout" "$tmp/cplain" || { fail "the stepped-out run's output differs:"; diff "$tmp/cplain" "$tmp/cout"; cat "$tmp/c1"; }

finish dap
