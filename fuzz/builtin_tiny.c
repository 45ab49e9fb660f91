/* The tiny test processor as a built-in model of the fuzz harnesses (scripts/fuzz.sh):
 * relocations, PC-relative and absolute operands, an alias, a nop. */
#define ISK_BUILTIN_MODEL 1
#include "../tests/asm/models/tiny.c"
