/* The EdkDSP data-flow unit as a built-in model of the fuzz harnesses (scripts/fuzz.sh), and
 * the firmware library the BCE offers to INCLUDE, left empty. */
#define ISK_BUILTIN_MODEL 1
#define ISK_REGISTER_BUILTIN 1    /* listed by the engine as a model folder's model is */
#include "../models/edkdsp/dfu.c"

const char edk_pbbcelib_psm[] = "";
