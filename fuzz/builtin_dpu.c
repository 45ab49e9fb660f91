/* The UPMEM DPU as a built-in model of the fuzz harnesses (scripts/fuzz.sh). */
#define ISK_BUILTIN_MODEL 1
#include "../models/dpu/dpu.c"
