/* The UPMEM DPU as a built-in model of the fuzz harnesses (scripts/fuzz.sh). */
#define ISK_BUILTIN_MODEL 1
#define ISK_REGISTER_BUILTIN 1    /* listed by the engine as a model folder's model is */
#include "../models/dpu/dpu.c"
