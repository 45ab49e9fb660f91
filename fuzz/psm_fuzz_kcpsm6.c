/* KCPSM6 compiled in as a built-in model for psm_fuzz. */
#define ISK_BUILTIN_MODEL 1
#include "../models/picoblaze/kcpsm6.c"
