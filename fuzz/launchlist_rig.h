/* Shared by the launch-list harnesses: a launch list is read from a path, so the input is
 * written to a memory file; the example accelerator is loaded once and each input gets a
 * fresh system, with every message discarded. */
#ifndef FUZZ_LAUNCHLIST_RIG_H
#define FUZZ_LAUNCHLIST_RIG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/launchlist.h"

typedef struct list_run {
    isk_diag d;
    isk_system *sys;
    isk_inst *acc;
    launch_list *l;          /* NULL if the list did not load (it then reported why) */
} list_run;

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

/* Load `text` as a list for a new system; max_errors as in isk_diag (0: the default). */
static void list_open(list_run *r, const void *text, size_t len, int max_errors)
{
    static isk_model *model;
    static int fd = -1;
    static char path[64];
    if (!model) {
        isk_diag d;
        isk_diag_init(&d);
        model = isk_model_load("example", &d);
        fd = memfd_create("launchlist", 0);
        if (!model || fd < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, len, 0) != (ssize_t)len) abort();
    isk_diag_init(&r->d);
    r->d.emit = discard;
    if (max_errors) r->d.max_errors = max_errors;
    isk_system_options so = { .diag = &r->d };
    r->sys = isk_system_new(&so);
    r->acc = isk_system_add(r->sys, model, "acc");
    isk_attach(r->sys, r->acc, 0);
    r->l = launch_list_load(path, r->sys, r->acc, &r->d);
    if (!r->l && !r->d.errors) abort();
}

static void list_close(list_run *r)
{
    launch_list_free(r->l);
    isk_system_free(r->sys);
}

#endif
