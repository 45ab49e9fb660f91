/* The IPU's Poplar headers (include/) for `.S` codelets: the C preprocessor of
 * `isekit as -m ipu` searches them after the user's -I. */
#include "asm/asm.h"

ASM_MODEL_INCLUDE(ipu_poplar, "ipu", IPU_ASM_INCLUDE_DIR);
