// fuzz-sources: fuzz/builtin_example.c src/cli/launchlist.c src/asm/*.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-seeds: fuzz/launchlist_wait_seeds.c
// fuzz-libs: -lelf -ldl -lm -lpthread
/* libFuzzer harness for the waits of launch lists on the example accelerator: each input byte
 * picks a line from a menu (wait irq, wait flag, wait idle, wait N, launches at a far clock,
 * commands that interrupt, set flags, delay or loop) and the next bytes fill in its numbers.
 * The list runs as `isekit run` runs it, to a clock limit of 100,000. Every run must end, and
 * end with a report: a deadlock or failed expectation reported as an error, or, at the limit,
 * something the report can name (a wait of the list, a busy slot). The clock never passes
 * the limit. */
#include <string.h>

#include "launchlist_rig.h"

#define LIMIT 100000

static const uint8_t *in;
static size_t in_len, in_at;
static unsigned take(void) { return in_at < in_len ? in[in_at++] : 0; }
static unsigned number(void) { return take() | take() << 8; }

/* One line of the list, from the menu. */
static int line(char *out, size_t cap)
{
    static const char *const far[] = { "1000000000000", "18446744073709551615", "99999", "100000", "100001", "5" };
    unsigned pick = take();
    switch (pick % 16) {
    case 0: return snprintf(out, cap, "wait irq\n");
    case 1: return snprintf(out, cap, "wait flag SHM[%u] == %u\n", take() % 260, take());
    case 2: return snprintf(out, cap, "wait flag SHM[%u] != %u\n", take() % 256, take() % 4);
    case 3: return snprintf(out, cap, "wait idle\n");
    case 4: return snprintf(out, cap, "wait %u\n", number());
    case 5: return snprintf(out, cap, "@%s clracc\n", far[take() % 6]);
    case 6: return snprintf(out, cap, "@%u mac gr0, gr1\n", number());
    case 7: return snprintf(out, cap, "flag shm[%u], %u\n", take(), take());
    case 8: return snprintf(out, cap, "delay %u\n", number() % 4096);
    case 9: return snprintf(out, cap, "setloop %u\nconv acc, dm0[ar0], tm0[ar1]\n", number() % 4096);
    case 10: return snprintf(out, cap, "write SHM[%u] = %u\n", take(), take());
    case 11: return snprintf(out, cap, "expect clock == %u\n", number());
    case 12: return snprintf(out, cap, "ldg gr%u, %d\n", take() % 2, (int8_t)take() % 8);
    case 13: return snprintf(out, cap, "wait %s\n", far[take() % 6]);
    case 14: return snprintf(out, cap, "word 0x%06x\n", number() << 8 | take());
    default: return snprintf(out, cap, "wait flag shm[%u] == %u\nflag shm[%u], %u\n", pick >> 4, take() % 4,
                             pick >> 4, take() % 4);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in = data;
    in_len = size;
    in_at = 0;
    char text[4096];
    size_t len = 0;
    for (int i = 0; i < 32 && in_at < in_len && len + 128 < sizeof text; i++) len += (size_t)line(text + len, 128);
    list_run r;
    list_open(&r, text, len, 0);
    if (r.l && launch_list_start(r.l, LIMIT) == ISK_OK) {
        isk_status st = isk_run(r.sys, LIMIT);
        char what[512];
        if (isk_clock(r.sys) > LIMIT) abort();
        if (launch_list_failures(r.l) && !r.d.errors) abort();         /* a failure is reported */
        if (st == ISK_OK && !launch_list_beyond_limit(r.l) && !launch_list_where(r.l, what, sizeof what) &&
            isk_describe_activity(r.sys, what, sizeof what) == 0)
            abort();                                                 /* at the limit: nothing to name */
    }
    list_close(&r);
    return 0;
}
