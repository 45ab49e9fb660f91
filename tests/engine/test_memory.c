/* Memory on demand (src/engine/memory.c): big storages cost the pages touched; instances running
 * the same program share its decoded entries, and one that rewrites its code sees its own code
 * only; systems on different threads share safely; instances free in any order. */
#include <pthread.h>
#include <stdio.h>

#include "asm/syntax.h"
#include "check.h"
#include "engine/system.h"
#include "isekit/sim.h"

static int64_t word(const isk_model *m, const char *text)
{
    isk_encoded e;
    char err[200];
    int at;
    if (!isk_syntax_encode(m, text, NULL, &e, err, sizeof err, &at)) {
        fprintf(stderr, "cannot encode '%s': %s\n", text, err);
        exit(1);
    }
    return (int64_t)e.word;
}

/* A DPU with `move r3, value; stop` in its IRAM. */
static isk_inst *dpu_with(isk_system *sys, isk_model *m, const char *name, int value)
{
    isk_inst *d = isk_system_add(sys, m, name);
    char text[40];
    snprintf(text, sizeof text, "move r3, %d", value);
    const int64_t code[2] = { word(m, text), word(m, "stop") };
    CHECK_EQ(isk_storage_load(d, isk_model_find_storage(m, "IRAM"), 0, code, 2), ISK_OK);
    return d;
}

static int64_t r3(isk_inst *d)
{
    int64_t v = -1;
    CHECK_EQ(isk_read(d, "R", 3, &v), ISK_OK);
    return v;
}

/* Restart thread 0 of each DPU at 0 and run the system to the end. */
static void rerun(isk_system *sys, isk_inst *a, isk_inst *b)
{
    CHECK_EQ(isk_start(a, 0, 0), ISK_OK);
    if (b) CHECK_EQ(isk_start(b, 0, 0), ISK_OK);
    CHECK_EQ(isk_run(sys, 0), ISK_STOPPED);
}

static void test_share_and_write(isk_model *m, int free_first)
{
    isk_system *s1 = isk_system_new(NULL), *s2 = isk_system_new(NULL);
    isk_inst *a = dpu_with(s1, m, "a", 5), *b = dpu_with(s1, m, "b", 5), *c = dpu_with(s2, m, "c", 5);
    isk_inst *other = dpu_with(s2, m, "other", 6);
    CHECK(isk_dcache_shared(a) == NULL);             /* nothing decoded yet */
    CHECK_EQ(isk_run(s1, 0), ISK_STOPPED);
    CHECK_EQ(isk_run(s2, 0), ISK_STOPPED);
    CHECK_EQ(r3(a), 5);
    CHECK_EQ(r3(b), 5);
    CHECK_EQ(r3(c), 5);
    CHECK_EQ(r3(other), 6);
    /* the first instance of a program decodes on its own; the second makes the image, and it
     * and every later one map it, across systems */
    CHECK(isk_dcache_shared(a) == NULL);
    CHECK(isk_dcache_shared(b) != NULL);
    CHECK(isk_dcache_shared(b) == isk_dcache_shared(c));
    CHECK(isk_dcache_shared(other) == NULL);         /* other words: a program of its own, seen once */
    isk_inst *other2 = dpu_with(s2, m, "other2", 6);
    CHECK_EQ(isk_run(s2, 0), ISK_STOPPED);
    CHECK_EQ(r3(other2), 6);
    CHECK(isk_dcache_shared(other2) != NULL && isk_dcache_shared(other2) != isk_dcache_shared(b));

    /* b rewrites its first instruction: b runs its new code, a and c the old one */
    CHECK_EQ(isk_write(b, "IRAM", 0, word(m, "move r3, 7")), ISK_OK);
    rerun(s1, a, b);
    rerun(s2, c, other);
    CHECK_EQ(r3(a), 5);
    CHECK_EQ(r3(b), 7);
    CHECK_EQ(r3(c), 5);
    CHECK_EQ(r3(other), 6);
    /* ... and back: b runs the old code again */
    CHECK_EQ(isk_write(b, "IRAM", 0, word(m, "move r3, 5")), ISK_OK);
    rerun(s1, a, b);
    CHECK_EQ(r3(b), 5);

    /* a reset (a parameter set) drops the image; the next run shares again, this time the
     * image b made */
    CHECK_EQ(isk_set_param(b, "mode", "cycle"), ISK_OK);
    CHECK(isk_dcache_shared(b) == NULL);
    CHECK_EQ(isk_set_param(a, "mode", "cycle"), ISK_OK);
    CHECK_EQ(isk_write(a, "R", 3, 0), ISK_OK);
    rerun(s1, a, NULL);
    CHECK_EQ(r3(a), 5);
    CHECK(isk_dcache_shared(a) != NULL && isk_dcache_shared(a) == isk_dcache_shared(c));

    if (free_first) {
        isk_system_free(s1);
        CHECK_EQ(r3(c), 5);
        rerun(s2, c, NULL);                           /* the image outlives the first system */
        CHECK_EQ(r3(c), 5);
        isk_system_free(s2);
    } else {
        isk_system_free(s2);
        rerun(s1, a, b);
        CHECK_EQ(r3(a), 5);
        isk_system_free(s1);
    }
}

/* Systems on threads: each builds DPUs of the same program and runs them. */
typedef struct job { isk_model *m; int value, ok; } job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int round = 0; round < 20; round++) {
        isk_system *sys = isk_system_new(NULL);
        isk_inst *d[4];
        for (int i = 0; i < 4; i++) {
            char name[8];
            snprintf(name, sizeof name, "d%d", i);
            d[i] = dpu_with(sys, j->m, name, j->value + (i & 1));
        }
        j->ok += isk_run(sys, 0) == ISK_STOPPED;
        for (int i = 0; i < 4; i++) j->ok += r3(d[i]) == j->value + (i & 1);
        isk_system_free(sys);
    }
    return NULL;
}

static void test_threads(isk_model *m)
{
    job jobs[3] = { { m, 1, 0 }, { m, 1, 0 }, { m, 2, 0 } };   /* 1 and 2 share the words "move r3, 2" */
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 3; i++) CHECK_EQ(jobs[i].ok, 20 * 5);
}

/* Resident memory of the process, in KiB (Linux: /proc/self/statm). */
static long resident_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, pages = -1;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &pages) != 2) pages = -1;
        fclose(f);
    }
    return pages < 0 ? -1 : pages * 4;   /* statm counts 4 KiB pages on x86-64/aarch64 Linux */
}

/* 64 DPUs cost what they touch: a write at the end of each 64 MiB MRAM, the program's few
 * decoded entries; not their MRAMs (4 GiB) nor their decode caches (16 MiB) nor their WRAMs. */
static void test_on_demand(isk_model *m)
{
    const long before = resident_kib();
    isk_system *sys = isk_system_new(NULL);
    isk_inst *d[64];
    for (int i = 0; i < 64; i++) {
        char name[8];
        snprintf(name, sizeof name, "d%d", i);
        d[i] = dpu_with(sys, m, name, 3);
        CHECK_EQ(isk_write(d[i], "MRAM", (64u << 20) - 1, i), ISK_OK);
    }
    CHECK_EQ(isk_run(sys, 0), ISK_STOPPED);
    for (int i = 0; i < 64; i++) {
        int64_t v = -1;
        CHECK_EQ(isk_read(d[i], "MRAM", (64u << 20) - 1, &v), ISK_OK);
        CHECK_EQ(v, i);
        CHECK_EQ(isk_read(d[i], "MRAM", 12345, &v), ISK_OK);
        CHECK_EQ(v, 0);
        CHECK_EQ(r3(d[i]), 3);
    }
    const long grew = resident_kib() - before;
#if defined(__linux__)
    printf("64 DPUs: resident memory grew by %ld KiB\n", grew);
    CHECK(before > 0 && grew < 64 * 256);   /* 256 KiB per DPU at most (was 760; about 110, 140 under ASan) */
#endif
    isk_system_free(sys);
}

#if defined(__linux__)
/* The kilobytes of the mapping holding `at` that are the process's own (Anonymous: in
 * /proc/self/smaps): in a decode cache mapped from a shared image, the pages copied on write.
 * -1 if the mapping is not found. */
static long own_kib(const void *at)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    long kib = -1;
    bool in = false;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) in = (uintptr_t)at >= lo && (uintptr_t)at < hi;
        else if (in && sscanf(line, "Anonymous: %ld kB", &kib) == 1) break;
    }
    if (f) fclose(f);
    return kib;
}

/* Two DPUs running one loop on 16 threads with timing=detailed, each alone in its system (the
 * model's own stretch of issues): the register-file rule's registers come with the shared
 * decoded entries (PROCESSOR .entry_spare), so the second DPU's cache, mapped from the image,
 * stays the image's: no page of it is its own (a run-time write of the entries' spare word made
 * one). The first DPU decoded on its own, so its page of entries is: the measure sees a copy. */
static void test_detailed_shares(isk_model *m)
{
    const int64_t code[3] = { word(m, "move r3, 100"), word(m, "sub r3, r3, 1, nz, 1"), word(m, "stop") };
    isk_system *sys[2];
    isk_inst *d[2];
    for (int i = 0; i < 2; i++) {
        sys[i] = isk_system_new(NULL);
        d[i] = isk_system_add(sys[i], m, "d");
        CHECK_EQ(isk_set_param(d[i], "mode", "cycle"), ISK_OK);
        CHECK_EQ(isk_set_param(d[i], "timing", "detailed"), ISK_OK);
        CHECK_EQ(isk_storage_load(d[i], isk_model_find_storage(m, "IRAM"), 0, code, 3), ISK_OK);
        for (uint32_t t = 1; t < 16; t++) CHECK_EQ(isk_start(d[i], t, 0), ISK_OK);
        CHECK_EQ(isk_run(sys[i], 0), ISK_STOPPED);
        CHECK_EQ(r3(d[i]), 0);
    }
    CHECK(isk_dcache_shared(d[0]) == NULL && isk_dcache_shared(d[1]) != NULL);
    CHECK(own_kib(d[0]->dcache) > 0);
    CHECK_EQ(own_kib(d[1]->dcache), 0);
    for (int i = 0; i < 2; i++) isk_system_free(sys[i]);
}
#endif

int main(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("dpu", &diag);
    CHECK(m != NULL);
    if (!m) return CHECK_DONE();
    test_on_demand(m);
    test_share_and_write(m, 1);
    test_share_and_write(m, 0);
    test_threads(m);
#if defined(__linux__)
    test_detailed_shares(m);
#endif
    isk_model_release(m);
    return CHECK_DONE();
}
