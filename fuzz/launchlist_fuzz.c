// fuzz-sources: fuzz/builtin_example.c src/cli/launchlist.c src/asm/*.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-seeds: fuzz/launchlist_seeds.c
// fuzz-libs: -lelf -ldl -lm -lpthread
/* libFuzzer harness for launch lists (`isekit run MODEL LIST`) on the example accelerator: the
 * input is the list. A list that loads is run for at most 2,000 clocks, so the fuzzer also
 * reaches the engine through every kind of line. Beyond "no crash, no sanitizer report, no
 * hang", it checks that a list that does not load reported why. */
#include "launchlist_rig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    list_run r;
    list_open(&r, data, size, 64);
    if (r.l && launch_list_start(r.l, 2000) == ISK_OK) isk_run(r.sys, 2000);
    list_close(&r);
    return 0;
}
