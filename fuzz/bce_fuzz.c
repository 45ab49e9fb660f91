// fuzz-sources: fuzz/builtin_kcpsm3.c fuzz/builtin_kcpsm6.c fuzz/builtin_edkdsp_dfu.c models/edkdsp/bce*.c models/picoblaze/pb_host.c src/psm/psm_*.c src/asm/*.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/bce_seeds.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1 -Imodels/edkdsp/include -Imodels/picoblaze/include
// fuzz-libs: -ldl -lm -lpthread -lelf
/* libFuzzer harness for arbitrary firmware on an EdkDSP BCE: PicoBlaze code that writes any
 * port with any value reaches every DFU setting, operation and error path. The first byte
 * chooses the core (bit 0: KCPSM6); then 3 bytes per 18-bit instruction. The host starts the
 * firmware, offers it one byte, and lets the system run for at most 20,000 clocks. Beyond "no
 * crash, no sanitizer report, no hang", it checks that every host call ends with a known
 * result and that an error was reported where a call failed. */
#include <stdint.h>
#include <stdlib.h>

#include "isekit/edkdsp.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static void check(int rc, const isk_diag *d)
{
    if (rc < EDK_OK || rc > EDK_ERR_FIRMWARE) abort();
    if (rc != EDK_OK && rc != EDK_ERR_FIRMWARE && !d->errors) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint32_t words[4096];
    size_t n = 0;
    for (size_t at = 1; at + 3 <= size && n < 4096; at += 3)
        words[n++] = ((uint32_t)data[at] | (uint32_t)data[at + 1] << 8 | (uint32_t)data[at + 2] << 16) & 0x3FFFF;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    edk_config cfg = { .core = data[0] & 1 ? "kcpsm6" : "kcpsm3", .timeout_clocks = 2000, .diag = &d };
    edk_bce *bce = edk_open(&cfg);
    if (!bce) abort();
    int rc = edk_set_firmware(bce, EDK_SLOT_P0, words, n);
    if (rc == EDK_OK) {
        check(edk_start(bce, EDK_SLOT_P0), &d);
        check(edk_mb2pb(bce, 0x10), &d);
        check(edk_run(bce, 20000), &d);
        check(edk_wait_dfu(bce), &d);
        size_t records;
        edk_dfu_log(bce, &records);
        float a[16];
        check(edk_read_dmem_f32(bce, EDK_MEM_A, 0, a, 16), &d);
    } else {
        check(rc, &d);
    }
    edk_close(bce);
    return 0;
}
