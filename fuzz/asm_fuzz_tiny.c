/* The tiny test processor, compiled in as a built-in model for asm_fuzz (relocations,
 * PC-relative and absolute operands, an alias, a nop). */
#define ISK_BUILTIN_MODEL 1
#include "../tests/asm/models/tiny.c"
