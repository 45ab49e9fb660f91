/* KCPSM3 as a built-in model of the fuzz harnesses (scripts/fuzz.sh). */
#define ISK_BUILTIN_MODEL 1
#include "../models/picoblaze/kcpsm3.c"
