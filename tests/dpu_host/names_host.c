/* A host program whose own functions have the names of functions inside libdpu.so: the library
 * exports only the API (host_api/libdpu.map), so its internal calls still reach its own
 * functions and this program's definitions are never called. Without the map, the dynamic
 * linker would bind the library's calls to these, and the run would abort. */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>

#define NOT_MINE(name)                                                                     \
    void name(void);                                                                        \
    void name(void)                                                                         \
    {                                                                                       \
        fprintf(stderr, "libdpu.so called the host program's " #name "\n");                \
        abort();                                                                            \
    }
NOT_MINE(isk_xcalloc)
NOT_MINE(isk_xrealloc)
NOT_MINE(dpu_program_open)
NOT_MINE(isk_model_load)
NOT_MINE(isk_system_new)

int main(void)
{
    struct dpu_set_t set, dpu;
    DPU_ASSERT(dpu_alloc(1, NULL, &set));
    DPU_ASSERT(dpu_load(set, "./helloworld", NULL));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH(set, dpu) { DPU_ASSERT(dpu_log_read(dpu, stdout)); }
    DPU_ASSERT(dpu_free(set));
    return 0;
}
