/* Many DPUs: no state is shared between instances, and systems run on several threads at once.
 * Also the engine's two paths agree: a DPU alone in its system runs on the REVOLVER fast path,
 * two DPUs in one system go clock by clock through the general loop; the cycle counts, the
 * instruction counts per tasklet and the results must be the same. */
#include <pthread.h>

#include "dpu_harness.h"
#include "../../models/dpu/dpu_host.h"

static isk_model *model;
static isk_obj *vecadd_exe;     /* built once, 16 tasklets; only read by the threads */

typedef struct outcome {
    uint64_t cycles, insns[DPU_THREADS], dma_cycles;
    char out[128];
    bool ok;
} outcome;

static void collect(isk_system *sys, isk_inst *dpu, const dpu_program *p, outcome *o)
{
    struct isk_state *S = (struct isk_state *)(void *)isk_inst_state(dpu);
    o->cycles = isk_clock(sys);
    for (int t = 0; t < DPU_THREADS; t++) o->insns[t] = isk_context_of(dpu, t)->insns;
    o->dma_cycles = S->dma_cycles;
    char *text = dpu_program_stdout(dpu, p, NULL);
    snprintf(o->out, sizeof o->out, "%s", text);
    free(text);
}

/* One system per call, `ndpus` DPUs in it running vecadd in cycle mode. */
static void run_system(isk_model *model, int ndpus, outcome *o, isk_diag *diag)
{
    isk_system_options so = { .diag = diag };
    isk_system *sys = isk_system_new(&so);
    dpu_program p[2];
    isk_inst *dpu[2];
    o->ok = true;
    for (int i = 0; i < ndpus; i++) {
        char name[16];
        snprintf(name, sizeof name, "dpu%d", i);
        dpu[i] = isk_system_add(sys, model, name);
        isk_set_param(dpu[i], "mode", "cycle");
        o->ok &= dpu_program_from_obj(&p[i], isk_obj_clone(vecadd_exe), diag) == 0;
        o->ok &= dpu_program_load(dpu[i], &p[i], diag) == 0;
    }
    o->ok &= isk_run(sys, 0) == ISK_STOPPED;
    collect(sys, dpu[0], &p[0], o);
    if (ndpus == 2) {
        outcome second;
        collect(sys, dpu[1], &p[1], &second);
        o->ok &= memcmp(second.insns, o->insns, sizeof o->insns) == 0 && strcmp(second.out, o->out) == 0;
    }
    for (int i = 0; i < ndpus; i++) dpu_program_close(&p[i]);
    isk_system_free(sys);
}

static void test_paths_agree(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    outcome alone, pair;
    run_system(model, 1, &alone, &diag);
    run_system(model, 2, &pair, &diag);
    CHECK(alone.ok);
    CHECK(pair.ok);
    CHECK_STR(alone.out, "vecadd: 4096 elements, 0 errors, sum 33550336\n");
    CHECK_EQ(pair.cycles, alone.cycles);
    CHECK_EQ(pair.dma_cycles, alone.dma_cycles);
    for (int t = 0; t < DPU_THREADS; t++) CHECK_EQ(pair.insns[t], alone.insns[t]);
    printf("vecadd, 16 tasklets, cycle mode: %llu cycles alone (fast path) and in a pair (clock by clock)\n",
           (unsigned long long)alone.cycles);
}

#define THREADS 4
#define PER_THREAD 4

/* Each thread loads the model for itself: a model's reference count is not atomic, so the
 * threads do not share one (the engine documents systems, not models, as thread-independent). */
static void *worker(void *arg)
{
    outcome *o = arg;
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("dpu", &diag);
    for (int i = 0; i < PER_THREAD && m; i++) run_system(m, 1, &o[i], &diag);
    isk_model_release(m);
    return NULL;
}

static void test_threads(void)
{
    static outcome o[THREADS][PER_THREAD];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, worker, o[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < THREADS; i++)
        for (int j = 0; j < PER_THREAD; j++) {
            CHECK(o[i][j].ok);
            CHECK_STR(o[i][j].out, "vecadd: 4096 elements, 0 errors, sum 33550336\n");
            CHECK_EQ(o[i][j].cycles, o[0][0].cycles);
        }
    printf("%d DPUs on %d threads: identical results\n", THREADS * PER_THREAD, THREADS);
}

int main(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    model = isk_model_load("dpu", &diag);
    CHECK(model != NULL);
    if (!model) return CHECK_DONE();
    const char *path = ISEKIT_SOURCE_DIR "/tests/dpu/programs/vecadd.s";
    vecadd_exe = dpu_build(model, &path, 1, 16, 0, &diag);
    CHECK(vecadd_exe != NULL);
    if (vecadd_exe) {
        test_paths_agree();
        test_threads();
    }
    isk_obj_free(vecadd_exe);
    isk_model_release(model);
    return CHECK_DONE();
}
