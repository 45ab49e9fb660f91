// fuzz-sources: fuzz/builtin_example.c src/cli/launchlist.c src/asm/syntax.c src/engine/*.c src/base/*.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-seeds: fuzz/launchlist_seeds.c
// fuzz-libs: -ldl -lm -lpthread
/* libFuzzer harness for launch lists (`isekit run MODEL LIST`) on the example accelerator: the
 * input is the list. A list that loads is run for at most 2,000 clocks, so the fuzzer also
 * reaches the engine through every kind of line. Beyond "no crash, no sanitizer report, no
 * hang", it checks that a list that does not load reported why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/launchlist.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static isk_model *model;
static int fd = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!model) {
        isk_diag d;
        isk_diag_init(&d);
        model = isk_model_load("example", &d);
        fd = memfd_create("launchlist", 0);
        if (!model || fd < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    d.max_errors = 64;
    isk_system_options so = { .diag = &d };
    isk_system *sys = isk_system_new(&so);
    isk_inst *acc = isk_system_add(sys, model, "acc");
    isk_attach(sys, acc, 0);
    launch_list *l = launch_list_load(path, sys, acc, &d);
    if (!l && !d.errors) abort();
    if (l && launch_list_start(l, 2000) == ISK_OK) isk_run(sys, 2000);
    launch_list_free(l);
    isk_system_free(sys);
    return 0;
}
