#!/bin/sh
# isekit run SYSTEM.sys (docs/systems.md): the two-BCE example, a bare PicoBlaze with its port
# log, port wiring between processors, explicit sharing, and each class of error in a
# description at its file:line:column.
# usage: systems.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
ex="$src/models/edkdsp/examples"

# two BCEs, each its own firmware, DFU and control memory: the DFU times differ (VADD of 16 and
# VMUL of 40 at latency 12) and each CMEM word 0x80 holds its own BCE's ID
bounded 0 "$tmp/two" -- "$isekit" run "$ex/two_bces.sys" --show 'dfu0.CMEM[0x80]' --show 'dfu1.CMEM[0x80]'
expect_in "$tmp/two" '      68  pb0    out 0x40 = 0x1d'
expect_in "$tmp/two" '      92  pb1    out 0x40 = 0x35'
expect_in "$tmp/two" '     142  pb1    out 0x41 = 0x00'
expect_in "$tmp/two" 'dfu0.CMEM[0x80] = 160 (0xa0)'
expect_in "$tmp/two" 'dfu1.CMEM[0x80] = 177 (0xb1)'
expect_in "$tmp/two" 'pb1 context 0: 72 instructions, stopped at pc 0xb'

# the same with the control memories shared on purpose: the later ID is in both
sed -e "s|program = |program = $ex/|" -e 's|^param latency_vmul = 12.*|share CMEM = dfu0.CMEM|' \
    "$ex/two_bces.sys" >"$tmp/shared.sys"
bounded 0 "$tmp/shared" -- "$isekit" run "$tmp/shared.sys" --show 'dfu0.CMEM[0x80]' --show 'dfu1.CMEM[0x80]'
expect_in "$tmp/shared" 'dfu0.CMEM[0x80] = 177 (0xb1)'
expect_in "$tmp/shared" 'dfu1.CMEM[0x80] = 177 (0xb1)'

# a bare KCPSM6 running .psm: every port write logged, the run ended by its stop port
cat >"$tmp/count.psm" <<'PSM'
; count from 5 on port 10, say done on port FF
            LOAD s0, 05
loop:       OUTPUT s0, 10
            ADD s0, 01
            COMPARE s0, 08
            JUMP NZ, loop
            OUTPUT s0, FF
PSM
cat >"$tmp/count.want" <<'LOG'
       2  kcpsm6 out 0x10 = 0x05
      10  kcpsm6 out 0x10 = 0x06
      18  kcpsm6 out 0x10 = 0x07
      26  kcpsm6 out 0xff = 0x08
summary: 27 clocks, 14 instructions (0.519 per clock)
context 0: 14 instructions, stopped at pc 0x6
LOG
bounded 0 "$tmp/count" -- "$isekit" run kcpsm6 "$tmp/count.psm" --port-log --stop-port 0xFF
cmp -s "$tmp/count" "$tmp/count.want" || { fail "kcpsm6 port log:"; diff "$tmp/count.want" "$tmp/count"; }
# without a stop port it runs to the clock limit (status 3); an image loads as the source does
bounded 3 "$tmp/nostop" -- "$isekit" run kcpsm6 "$tmp/count.psm" --max-clocks 100
expect_in "$tmp/nostop" 'stopped at clock 100'
run 0 "$tmp/psm" -- "$isekit" psm -6 "$tmp/count.psm" -o "$tmp/count.hex"
bounded 0 "$tmp/hex" -- "$isekit" run kcpsm6 "$tmp/count.hex" --port-log --stop-port 0xff
cmp -s "$tmp/hex" "$tmp/count.want" || { fail "kcpsm6 image:"; diff "$tmp/count.want" "$tmp/hex"; }
run 2 "$tmp/badstop" -- "$isekit" run kcpsm6 "$tmp/count.psm" --stop-port 0xZZ
expect_in "$tmp/badstop" "--stop-port"

# one processor's output port is another's input; constants, stdin and stdout
cat >"$tmp/pa.psm" <<'PSM'
            LOAD s0, 41
            OUTPUT s0, 10
            OUTPUT s0, 11
            OUTPUT s0, 12
            OUTPUT s0, 13
PSM
cat >"$tmp/pb.psm" <<'PSM'
wait:       INPUT s1, 20
            COMPARE s1, 00
            JUMP Z, wait
            ADD s1, 01
            OUTPUT s1, 30
            INPUT s2, 21
            OUTPUT s2, 30
            INPUT s3, 22
            OUTPUT s3, 30
            FETCH s4, 07
            OUTPUT s4, 30
            OUTPUT s4, FF
PSM
cat >"$tmp/wired.sys" <<'SYS'
[instance pa]
model = kcpsm6
program = pa.psm
out 0x10 = pb in 0x20   # pb reads it on its port 0x20
out 0x11 = stdout
out 0x12 = pb.SPM[7]    # into pb's scratchpad
out 0x13 = stop

[instance pb]
model = kcpsm6
program = pb.psm
in 0x21 = 0x43
in 0x22 = stdin
out 0x30 = stdout
out 0xFF = stop
SYS
echo D | bounded 0 "$tmp/wired" -- "$isekit" run "$tmp/wired.sys"
expect_in "$tmp/wired" 'ABCDA'
expect_in "$tmp/wired" 'pb context 0: 15 instructions, stopped at pc 0xc'

# errors: each at its file:line:column, status 1 (bad usage of the command: 2)
err() {   # err NAME 'DESCRIPTION' 'EXPECTED MESSAGE'
    printf "$2" >"$tmp/$1.sys"
    cp "$tmp/count.psm" "$tmp/fw.psm"
    bounded 1 "$tmp/$1" -- "$isekit" run "$tmp/$1.sys"
    expect_in "$tmp/$1" "$tmp/$1.sys:$3"
}
err key '[instance pb]\nmodel = kcpsm6\nbogus = 1\n' \
    "3:1: error: unknown key 'bogus' in an [instance] (keys: model, program, accelerator, ports, param, share, out, in, interrupt, map)"
err syskey '[system]\nports = 3\n' "2:1: error: unknown key 'ports' in [system] (keys: max_clocks, port_log)"
err dupname '[instance pb]\nmodel = kcpsm6\n[instance pb]\nmodel = kcpsm6\n' \
    "3:11: error: a second instance 'pb' (first at line 1)"
err dupkey '[instance pb]\nmodel = kcpsm6\nmodel = kcpsm3\n' "3:1: error: a second 'model' (first at line 2)"
err badname '[instance 0pb]\n' \
    "1:11: error: '0pb' is not an instance name (letters, digits and '_', not starting with a digit)"
err header '[instanze pb]\n' "1:2: error: expected [system] or [instance NAME]"
err bracket '[instance pb\n' "1:12: error: a section header ends with ']'"
err nomodel '[instance pb]\nprogram = fw.psm\n' "1:11: error: instance 'pb' has no model (model = NAME, FILE.c or FILE.so)"
err outside 'model = kcpsm6\n' "1:1: error: 'model' outside a section: start with [system] or [instance NAME]"
err noeq '[instance pb]\nmodel\n' "2:6: error: expected '=' after 'model'"
err novalue '[instance pb]\nmodel =   # nothing\n' "2:8: error: 'model' needs a value"
err noarg '[instance pb]\nmodel = kcpsm6\nparam = 3\n' "3:7: error: 'param' needs an argument: param ARG = VALUE"
err unknownmodel '[instance pb]\nmodel = nosuchmodel\n' "2:9: error: instance 'pb': cannot load model 'nosuchmodel'"
err instance '[instance pb]\nmodel = kcpsm6\nout 0x10 = pc in 3\n' "3:12: error: unknown instance 'pc'"
err storage '[instance pb]\nmodel = kcpsm6\nout 0x10 = pb.NOPE\n' "3:15: error: "
err shareunknown '[instance d0]\nmodel = edkdsp_dfu\n[instance d1]\nmodel = edkdsp_dfu\nshare FOO = d0.CMEM\n' \
    "5:7: error: d1 (model 'edkdsp_dfu') has no storage 'FOO'"
err sharetype '[instance a]\nmodel = example\nshare SHM = d.CMEM\n[instance d]\nmodel = edkdsp_dfu\n' \
    "3:7: error: storage 'SHM' of a (signed 32 bits x 256, latency 1) does not match 'CMEM' of d (32 bits x 256, latency 0)"
err sharekind '[instance d0]\nmodel = edkdsp_dfu\n[instance d1]\nmodel = edkdsp_dfu\nshare DMA = d0.DMA\n' \
    "5:7: error: storage 'DMA' of d1 (model 'edkdsp_dfu') is not a SHARED_MEMORY"
err param '[instance pb]\nmodel = kcpsm6\nparam nope = 3\n' \
    "3:7: error: model 'kcpsm6' has no parameter 'nope'"
err paramvalue '[instance pb]\nmodel = kcpsm3\nparam scratchpad_size = 128\n' "3:25: error: "
err twice '[instance pb]\nmodel = kcpsm6\nout 0x10 = stop\nout 16 = stdout\n' \
    "4:5: error: output port 16 of pb is already wired (line 3)"
err notproc '[instance d]\nmodel = edkdsp_dfu\nprogram = fw.psm\n' \
    "3:1: error: program: instance 'd' is not a processor (model 'edkdsp_dfu' declares no PROCESSOR)"
err notacc '[instance pb]\nmodel = kcpsm6\naccelerator = 0\n' \
    "3:1: error: accelerator: instance 'pb' is not an accelerator (model 'kcpsm6' declares no SLOTS)"
err accnum '[instance a]\nmodel = example\naccelerator = 0\n[instance b]\nmodel = example\naccelerator = 0\n' \
    "6:15: error: accelerator 0 is already 'a' (line 3)"
err device '[instance pb]\nmodel = kcpsm6\nports = nodevice x\n' "3:9: error: unknown port device 'nodevice'"
err devicearg '[instance pb]\nmodel = kcpsm3\nports = edkdsp_bce pb\n' \
    "3:9: error: edkdsp_bce DFU: pb (model 'kcpsm3') has no storage or register named 'AG_BANK'"
err target '[instance pb]\nmodel = kcpsm6\nout 1 = somewhere\n' \
    "3:9: error: out goes to stop, stdout, INSTANCE.STORAGE[INDEX] or INSTANCE in PORT, not 'somewhere'"
err port '[instance pb]\nmodel = kcpsm6\nin x1 = 3\n' "3:4: error: port: "
err line '[instance a]\nmodel = example\ninterrupt 40 = a\n' "3:11: error: interrupt line: 40 is out of range (0 to 31)"
err lineproc '[instance a]\nmodel = example\ninterrupt 1 = a\n' \
    "3:15: error: interrupt: instance 'a' is not a processor (model 'example' declares no PROCESSOR)"
err mapnotproc '[instance a]\nmodel = example\nmap 0x1000 = a.SHM\n' \
    "3:1: error: map: instance 'a' is not a processor (model 'example' declares no PROCESSOR)"
err mapaddr '[instance pb]\nmodel = kcpsm6\nmap 0x1_0000_0000_0000_0000 = pb.SHM\n' "3:5: error: map address: "
err mapdot '[instance pb]\nmodel = kcpsm6\nmap 0x1000 = SHM\n' "3:14: error: map ADDR = INSTANCE.STORAGE, not 'SHM'"
err mapinst '[instance pb]\nmodel = kcpsm6\nmap 0x1000 = acc.SHM\n' "3:14: error: unknown instance 'acc'"
err mapstorage '[instance pb]\nmodel = kcpsm6\nmap 0x1000 = a.NOPE\n[instance a]\nmodel = example\n' \
    "3:14: error: a (model 'example') has no storage 'NOPE'"
err mapoverlap '[instance pb]\nmodel = kcpsm6\nmap 0x10000 = a.SHM\nmap 0x103fc = a.LDM\n[instance a]\nmodel = example\n' \
    "4:15: error: a.LDM at [0x103fc, 0x113fc) overlaps a.SHM mapped at [0x10000, 0x10400)"
err program '[instance pb]\nmodel = kcpsm6\nprogram = missing.psm\n' \
    "3:11: error: instance 'pb': cannot load program 'missing.psm'"
printf 'LOAD s0, 05\nBOGUS s1\n' >"$tmp/bad.psm"
err psmerror '[instance pb]\nmodel = kcpsm6\nprogram = bad.psm\n' "3:11: error: instance 'pb': cannot load program 'bad.psm'"
expect_in "$tmp/psmerror" "$tmp/bad.psm:2:1: error:"
err portlog '[system]\nport_log = maybe\n[instance pb]\nmodel = kcpsm6\n' "2:12: error: port_log is yes or no, not 'maybe'"
printf '# nothing\n' >"$tmp/empty.sys"
bounded 1 "$tmp/empty" -- "$isekit" run "$tmp/empty.sys"
expect_in "$tmp/empty" "$tmp/empty.sys: error: no [instance NAME] section: nothing to simulate"
# a binary file is refused as such
head -c 64 "$isekit" >"$tmp/bin.sys"
bounded 1 "$tmp/bin" -- "$isekit" run "$tmp/bin.sys"
expect_in "$tmp/bin" "binary"
# isekit info lists the port devices the model folders registered
run 0 "$tmp/info" -- "$isekit" info
expect_in "$tmp/info" "edkdsp_bce   the EdkDSP BCE's glue: a PicoBlaze's ports to a DFU (ports = edkdsp_bce DFU)"
run 2 "$tmp/extra" -- "$isekit" run "$ex/two_bces.sys" extra.psm
expect_in "$tmp/extra" "a system description brings its own programs"

finish systems
