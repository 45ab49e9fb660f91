/* The DPU compiled in as a built-in model for dpu_exec_fuzz, and the fuzzer's table of models. */
#define ISK_BUILTIN_MODEL 1
#include "../models/dpu/dpu.c"

const struct isk_model_entry *const isk_builtin_models[] = { &isk_model_dpu, 0 };
static const char *const model_names[] = { "dpu", 0 };
const char *const *isk_builtin_model_names(void);
const char *const *isk_builtin_model_names(void) { return model_names; }
