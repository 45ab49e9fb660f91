#!/bin/sh
# isekit dpu-ld: objects in the UPMEM SDK's layout (a crt0 that leaves NR_TASKLETS, the stacks
# and the atomic bounds to the linker; a librt.a made with binutils' ar) link with no --defsym;
# isekit objdump lists archives, and refuses malformed ones clearly.
# usage: dpu_link.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
link="$src/tests/dpu/link"
rt="$src/models/dpu/runtime"

run 0 "$tmp/as" -- "$isekit" as -m dpu "$link/crt0.s" -o "$tmp/crt0.o"
run 0 "$tmp/as" -- "$isekit" as -m dpu -I "$rt" "$link/main.s" -o "$tmp/main.o"
for f in "$rt/syslib.s" "$rt/stdio.s" "$link/noinit.s"; do
    run 0 "$tmp/as" -- "$isekit" as -m dpu "$f" -o "$tmp/$(basename "$f" .s).o"
done
(cd "$tmp" && ar rcs librt.a syslib.o stdio.o noinit.o) || fail "ar rcs librt.a"

# isekit ld alone lacks what the SDK's driver and script define
run 1 "$tmp/plain" -- "$isekit" ld -m dpu "$tmp/crt0.o" "$tmp/main.o" -L "$tmp" -lrt -o "$tmp/plain.elf"
expect_in "$tmp/plain" "NR_TASKLETS"

# dpu-ld: no --defsym; runs with 1 and 16 tasklets, in both modes
for n in 1 16; do
    run 0 "$tmp/ld$n" -- "$isekit" dpu-ld "$tmp/crt0.o" "$tmp/main.o" -L "$tmp" -lrt -DNR_TASKLETS=$n -o "$tmp/p$n.elf"
done
run 0 "$tmp/run1" -- "$isekit" run dpu "$tmp/p1.elf"
expect_in "$tmp/run1" "link: 1 tasklets, sum 1, stack 48"
for mode in "" --cycles; do
    run 0 "$tmp/run16" -- "$isekit" run dpu "$tmp/p16.elf" $mode
    expect_in "$tmp/run16" "link: 16 tasklets, sum 1256, stack 48"    # sum of t*t+1, t < 16
    expect_in "$tmp/run16" "dpu: NR_TASKLETS 16, stacks of 1024 bytes"
    expect_in "$tmp/run16" "dpu:      15  "
    grep -q "dpu:      15 .* 226 (0xe2)" "$tmp/run16" || fail "tasklet 15 did not return 15*15+1:"
done
# --tasklets gives the same as -DNR_TASKLETS
run 0 "$tmp/ld16b" -- "$isekit" dpu-ld "$tmp/crt0.o" "$tmp/main.o" "$tmp/librt.a" --tasklets 16 -o "$tmp/p16b.elf"
cmp -s "$tmp/p16.elf" "$tmp/p16b.elf" || fail "--tasklets 16 and -DNR_TASKLETS=16 link differently"

# the symbols (as the SDK's dpu.lds places them) and NOBITS .mram.noinit in a small file
run 0 "$tmp/syms" -- "$isekit" objdump -t -h "$tmp/p16.elf"
expect_in "$tmp/syms" "00000010 g       *ABS*        00000000 NR_TASKLETS"
expect_in "$tmp/syms" "00000000 g       *ABS*        00000000 STACK_SIZE_TASKLET_16"
expect_in "$tmp/syms" "f00000c8 g       *ABS*        00000000 __atomic_used_addr"
expect_in "$tmp/syms" "f0000100 g       *ABS*        00000000 __atomic_end_addr"
expect_in "$tmp/syms" "000000c8 g       *ABS*        00000000 DPU_ATOMIC_DISPLACEMENT"
expect_in "$tmp/syms" "08200000 g       *ABS*        00000000 __sys_used_mram_end"
expect_in "$tmp/syms" "00010000 g       *ABS*        00000000 __sys_heap_pointer_end"
expect_in "$tmp/syms" "f00000c8 g       .atomic      00000000 __atomic_bit_done"      # the first after the reserved 200
expect_in "$tmp/syms" "f00000c9 g       .atomic      00000000 __atomic_bit___stdout_buffer_lock"
expect_in "$tmp/syms" ".mram.noinit         00200000  08000000"
s0=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_stack_thread_0$/\1/p' "$tmp/syms")
s15=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_stack_thread_15$/\1/p' "$tmp/syms")
s16=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_stack_thread_16$/\1/p' "$tmp/syms")
cache=$(sed -n 's/^\([0-9a-f]*\) g .*__sw_cache_buffer$/\1/p' "$tmp/syms")
reset=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_heap_pointer_reset$/\1/p' "$tmp/syms")
[ $((0x$s15 - 0x$s0)) -eq $((15 * 1024)) ] && [ $((0x$s16 - 0x$s0)) -eq $((16 * 1024)) ] ||
    fail "stacks not 1024 bytes apart: $s0 $s15 $s16"
[ "$s16" = "$cache" ] && [ $((0x$reset)) -eq $((0x$cache + 16 * 8)) ] ||
    fail "sw cache / heap start: $cache $reset after the stacks end $s16"
if command -v readelf >/dev/null; then
    readelf -SW "$tmp/p16.elf" >"$tmp/readelf" 2>&1
    grep -q '\.mram\.noinit *NOBITS' "$tmp/readelf" || { fail ".mram.noinit is not NOBITS:"; cat "$tmp/readelf"; }
fi
size=$(wc -c <"$tmp/p16.elf")
[ "$size" -lt 65536 ] || fail "the executable has $size bytes: it carries .mram.noinit's zeros"

# stack sizes per tasklet; the chip's sizes
run 0 "$tmp/ldst" -- "$isekit" dpu-ld "$tmp/crt0.o" "$tmp/main.o" "$tmp/librt.a" -DNR_TASKLETS=4 \
    -DSTACK_SIZE_DEFAULT=512 -D STACK_SIZE_TASKLET_2=2048 -o "$tmp/st.elf"
run 0 "$tmp/st" -- "$isekit" objdump -t "$tmp/st.elf"
expect_in "$tmp/st" "00000800 g       *ABS*        00000000 STACK_SIZE_TASKLET_2"
expect_in "$tmp/st" "00000200 g       *ABS*        00000000 STACK_SIZE_TASKLET_3"
a0=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_stack_thread_0$/\1/p' "$tmp/st")
a3=$(sed -n 's/^\([0-9a-f]*\) g .*__sys_stack_thread_3$/\1/p' "$tmp/st")
[ $((0x$a3 - 0x$a0)) -eq $((512 + 512 + 2048)) ] || fail "tasklet 3's stack at $a3, tasklet 0's at $a0"
run 0 "$tmp/strun" -- "$isekit" run dpu "$tmp/st.elf"
expect_in "$tmp/strun" "link: 4 tasklets, sum 18, stack 48"
expect_in "$tmp/strun" "dpu: NR_TASKLETS 4, stacks of 512..2048 bytes"
run 0 "$tmp/ldb" -- "$isekit" dpu-ld "$tmp/crt0.o" "$tmp/main.o" "$tmp/librt.a" --chip v1B -o "$tmp/b.elf"
run 0 "$tmp/b" -- "$isekit" objdump -t "$tmp/b.elf"
expect_in "$tmp/b" "f0000000 g       *ABS*        00000000 __atomic_used_addr"
expect_in "$tmp/b" "0000f800 g       *ABS*        00000000 DPU_WRAM_SIZE"

# bad settings are usage errors
run 2 "$tmp/bad" -- "$isekit" dpu-ld "$tmp/crt0.o" -DNR_TASKLETS=25
expect_in "$tmp/bad" "NR_TASKLETS = 25: a v1A DPU runs 1..24 tasklets"
run 2 "$tmp/bad" -- "$isekit" dpu-ld "$tmp/crt0.o" --chip v1B --tasklets 20
expect_in "$tmp/bad" "NR_TASKLETS = 20: a v1B DPU runs 1..16 tasklets"
run 2 "$tmp/bad" -- "$isekit" dpu-ld "$tmp/crt0.o" -DNR_TASKLETS=x4
expect_in "$tmp/bad" "isekit dpu-ld: NR_TASKLETS=x4:"
run 2 "$tmp/bad" -- "$isekit" dpu-ld "$tmp/crt0.o" -DSTACK_SIZE_DEFAULT=12
expect_in "$tmp/bad" "the stack of tasklet 0 is 12 bytes: a tasklet's stack is a non-zero multiple of 8"
run 2 "$tmp/bad" -- "$isekit" dpu-ld "$tmp/crt0.o" -DSTACK_SIZE_TASKLET_5=64
expect_in "$tmp/bad" "STACK_SIZE_TASKLET_5 = 64, but NR_TASKLETS = 1 leaves tasklet 5 without a stack"
run 2 "$tmp/bad" -- "$isekit" dpu-ld -m rv32 "$tmp/crt0.o"
expect_in "$tmp/bad" "links for the dpu model only"
# stacks that do not fit the WRAM: the linker's region error
run 1 "$tmp/big" -- "$isekit" dpu-ld "$tmp/crt0.o" "$tmp/main.o" "$tmp/librt.a" --tasklets 24 --stack 4096 -o "$tmp/big.elf"
expect_in "$tmp/big" "region 'WRAM' overflowed"

# objdump reads archives: every member, as binutils prints them
run 0 "$tmp/ar" -- "$isekit" objdump "$tmp/librt.a"
expect_in "$tmp/ar" "In archive $tmp/librt.a:"
expect_in "$tmp/ar" "syslib.o:     file format elf32-dpu"
expect_in "$tmp/ar" "stdio.o:     file format elf32-dpu"
expect_in "$tmp/ar" "noinit.o:     file format elf32-dpu"
expect_in "$tmp/ar" "<mram_read>:"
expect_in "$tmp/ar" "<printf>:"
run 0 "$tmp/art" -- "$isekit" objdump -t "$tmp/librt.a"
expect_in "$tmp/art" "__sys_big_scratch"
# malformed archives: a truncated header, a bad size, a size past the end, a member not ELF
head -c 30 "$tmp/librt.a" >"$tmp/trunc.a"
run 1 "$tmp/e1" -- "$isekit" objdump "$tmp/trunc.a"
expect_in "$tmp/e1" "trunc.a: error: truncated member header at offset 0x8 (22 bytes left, a header needs 60)"
cp "$tmp/librt.a" "$tmp/badsize.a"
printf 'x1' | dd of="$tmp/badsize.a" bs=1 seek=56 conv=notrunc 2>/dev/null
run 1 "$tmp/e2" -- "$isekit" objdump "$tmp/badsize.a"
expect_in "$tmp/e2" "member header at offset 0x8: bad size field"
cp "$tmp/librt.a" "$tmp/long.a"
printf '9999999999' | dd of="$tmp/long.a" bs=1 seek=56 conv=notrunc 2>/dev/null
run 1 "$tmp/e3" -- "$isekit" objdump "$tmp/long.a"
expect_in "$tmp/e3" "size 9999999999 extends past the end of the archive"
echo "not an object" >"$tmp/notes.txt"
(cd "$tmp" && ar rcS mixed.a syslib.o notes.txt) || fail "ar rcS mixed.a"
run 1 "$tmp/e4" -- "$isekit" objdump "$tmp/mixed.a"
expect_in "$tmp/e4" "syslib.o:     file format elf32-dpu"
expect_in "$tmp/e4" "mixed.a(notes.txt)"

# isekit run dpu takes host inputs without a host program: an MRAM buffer, words set, words and
# MRAM dumped (hostio.s sums count words at offset, and table)
python3 -c "import struct,sys; sys.stdout.buffer.write(b''.join(struct.pack('<I', 3 * i) for i in range(256)))" \
    >"$tmp/buf.bin"
hostio="$link/hostio.s"
run 0 "$tmp/io" -- "$isekit" run dpu "$hostio" --mram "$tmp/buf.bin@4KiB" --set offset=0x1000 --set count=256 \
    --set 'table[2]=100' --dump result:2 --dump table:4 --dump-mram 0x1400:8 "$tmp/out.bin"
expect_in "$tmp/io" "result[0] = 97920 (0x00017e80)"          # 3 * (0 + ... + 255)
expect_in "$tmp/io" "result[1] = 107 (0x0000006b)"            # 1 + 2 + 100 + 4
expect_in "$tmp/io" "table[2] = 100 (0x00000064)"
expect_in "$tmp/io" "table[3] = 4 (0x00000004)"
[ "$(od -An -tu4 "$tmp/out.bin" | tr -s ' ')" = " 97920 107" ] || fail "--dump-mram wrote $(od -An -tu4 "$tmp/out.bin")"
run 0 "$tmp/io2" -- "$isekit" run dpu "$hostio" --mram "$tmp/buf.bin" --set count=2 --set table=-5 --dump result:2
expect_in "$tmp/io2" "result[0] = 3 (0x00000003)"
expect_in "$tmp/io2" "result[1] = 4 (0x00000004)"
# bad usage: status 2 and a message naming the problem
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --set nosuch=1
expect_in "$tmp/e" "copy to symbol 'nosuch': the program defines no such symbol"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --dump nosuch:2
expect_in "$tmp/e" "copy from symbol 'nosuch': the program defines no such symbol"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --set 'table[4]=1'
expect_in "$tmp/e" "copy to symbol 'table': 4 bytes at offset 16 go past its 16 bytes"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --dump result:3
expect_in "$tmp/e" "copy from symbol 'result': 12 bytes at offset 0 go past its 8 bytes"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --set count=12abc
expect_in "$tmp/e" "isekit run dpu: --set count=12abc: '12abc' is not a number"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --set count=0x1_0000_0000
expect_in "$tmp/e" "is out of range (-2147483648 to 4294967295)"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --set count
expect_in "$tmp/e" "--set: 'count' is not SYMBOL=NUMBER or SYMBOL[INDEX]=NUMBER"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --mram "$tmp/buf.bin@64MiB"
expect_in "$tmp/e" "--mram: 64MiB is out of range (0 to 67108863)"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --mram "$tmp/buf.bin@0x3ffff00"
expect_in "$tmp/e" "past the end of the MRAM"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --mram "$tmp/nofile.bin"
expect_in "$tmp/e" "nofile.bin"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --dump-mram 0x3fffffc:8 "$tmp/o.bin"
expect_in "$tmp/e" "--dump-mram 0x3fffffc:8: past the end of the MRAM (67108864 bytes)"
run 2 "$tmp/e" -- "$isekit" run dpu "$hostio" --dump-mram 0:8
expect_in "$tmp/e" "--dump-mram needs OFFSET:N FILE"
[ ! -e "$tmp/o.bin" ] || fail "--dump-mram wrote a file after a usage error"

finish dpu_link
