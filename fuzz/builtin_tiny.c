/* The tiny test processor as a built-in model of the fuzz harnesses (scripts/fuzz.sh):
 * relocations, PC-relative and absolute operands, an alias, a nop. */
#define ISK_BUILTIN_MODEL 1
#define ISK_REGISTER_BUILTIN 1    /* listed by the engine as a model folder's model is */
#include "../tests/asm/models/tiny.c"
