// fuzz-sources: fuzz/builtin_example.c fuzz/builtin_kcpsm3.c fuzz/builtin_kcpsm6.c fuzz/builtin_edkdsp_dfu.c models/edkdsp/bce*.c models/edkdsp/sys_edkdsp.c src/cli/sysfile.c src/cli/ports.c src/cli/program.c src/asm/*.c src/psm/*.c models/picoblaze/pb_host.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/sysfile_seeds.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1 -Imodels/edkdsp/include -Imodels/picoblaze/include
// fuzz-libs: -ldl -lm -lpthread -lelf
/* libFuzzer harness for system descriptions (`isekit run board.sys`, docs/systems.md): the input
 * is the description. One that parses is built in the sandbox (built-in models only: example,
 * kcpsm3, kcpsm6, edkdsp_dfu; no program files, stdin or stdout; the edkdsp_bce port device)
 * and run for at most 2,000 clocks, its port log discarded. Beyond "no crash, no sanitizer
 * report, no hang", it checks that a description that fails to parse or build said why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sysfile.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16 || memchr(data, 0, size)) return 0;   /* text only, as the reader ensures */
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    sysfile *f = sysfile_parse("fuzz.sys", text, &d);
    free(text);
    if (!f) {
        if (!d.errors) abort();
        return 0;
    }
    FILE *log = fopen("/dev/null", "w");
    isk_system_options so = { .diag = &d, .explicit_sharing = 1 };
    isk_system *sys = isk_system_new(&so);
    port_wiring *w = port_wiring_new(sys, log);
    sysfile_build_options o = { .sandbox = true };
    if (sysfile_build(f, sys, w, &o, &d)) {
        for (uint64_t clocks = 0; clocks < 2000 && isk_run(sys, 500) == ISK_OK; clocks += 500)
            port_wiring_apply_stops(w);
    } else if (!d.errors) {
        abort();
    }
    port_wiring_free(w);
    isk_system_free(sys);
    sysfile_free(f);
    if (log) fclose(log);
    return 0;
}
