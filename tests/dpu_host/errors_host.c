/* Bad use gets the SDK's error codes and a message saying what and which DPU (stderr is
 * captured and checked): a missing binary, a bad profile, an unknown symbol, a copy out of a
 * symbol, a DPU fault, a launch without a program. */
#include <dpu.h>
#include <string.h>
#include <unistd.h>

#include "check_host.h"

static char *captured(FILE *f)
{
    static char text[8192];
    fflush(stderr);
    long n = ftell(f);
    rewind(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = 0;
    (void)n;
    rewind(f);
    return text;
}

#define CHECK_MSG(f, needle) do { const char *t_ = captured(f); checks++; if (!strstr(t_, needle)) { failures++; \
    printf("%s:%d: stderr lacks \"%s\"; it is:\n%s\n", __FILE__, __LINE__, needle, t_); } } while (0)

int main(void)
{
    FILE *err = tmpfile();
    if (!err || dup2(fileno(err), 2) < 0) return 2;
    struct dpu_set_t set, dpu;
    uint32_t i;

    CHECK_EQ(dpu_alloc(1, "nrDpus=4,colour=blue", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_MSG(err, "profile: unknown key 'colour'");
    CHECK_EQ(dpu_alloc(1, "mode=fast", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_MSG(err, "mode");
    CHECK_EQ(dpu_alloc(1, "nrThreads=0", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_MSG(err, "nrThreads");

    CHECK_EQ(dpu_alloc(DPU_ALLOCATE_ALL, "nrDpus=4,nrDpusPerRank=2,cycles=1", &set), DPU_OK);
    uint32_t n = 0;
    dpu_get_nr_dpus(set, &n);
    CHECK_EQ(n, 4);
    CHECK_EQ(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_INVALID_DPU_SET);
    CHECK_MSG(err, "rank 0, DPU 0 has no program");
    CHECK_EQ(dpu_load(set, "./no-such-dpu-program", NULL), DPU_ERR_ELF_NO_SUCH_FILE);
    CHECK_MSG(err, "no-such-dpu-program");
    CHECK_EQ(dpu_load(set, VECADD_BINARY, NULL), DPU_OK);
    uint32_t v = 1;
    CHECK_EQ(dpu_copy_to(set, "nonesuch", 0, &v, 4), DPU_ERR_UNKNOWN_SYMBOL);
    CHECK_MSG(err, "symbol 'nonesuch': the program defines no such symbol");
    CHECK_EQ(dpu_copy_to(set, "n", 2, &v, 4), DPU_ERR_INVALID_SYMBOL_ACCESS);
    CHECK_MSG(err, "4 bytes at offset 2 go past its 4 bytes");
    CHECK_EQ(dpu_copy_from(set, "n", 0, &v, 4), DPU_ERR_INVALID_DPU_SET);
    CHECK_EQ(dpu_launch(set, (dpu_launch_policy_t)7), DPU_ERR_INVALID_LAUNCH_POLICY);

    /* DPU 2 faults, the others run the vector add to the end */
    DPU_FOREACH(set, dpu, i)
        if (i == 2) CHECK_EQ(dpu_load(dpu, FAULT_BINARY, NULL), DPU_OK);
    CHECK_EQ(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_DPU_FAULT);
    CHECK_MSG(err, "rank 1, DPU 0: tasklet 0 faulted at pc 0x");
    bool done = false, fault = false;
    CHECK_EQ(dpu_status(set, &done, &fault), DPU_OK);
    CHECK(done && fault);
    DPU_FOREACH(set, dpu, i) {
        CHECK_EQ(dpu_status(dpu, &done, &fault), DPU_OK);
        CHECK_EQ(fault, i == 2);
    }
    CHECK_EQ(dpu_free(set), DPU_OK);
    CHECK(strcmp(dpu_error_to_string(DPU_ERR_DPU_FAULT), "the DPU is in fault") == 0);
    fclose(err);
    return DONE();
}
