/* What the modelled instruction classes do (data/behaviours.tsv lists them; gen_isa.py marks
 * their table lines). Parameters are the operands in the order the syntax writes them. */
#ifndef ISEKIT_MODEL_IPU_INSNS_H
#define ISEKIT_MODEL_IPU_INSNS_H

#include "ipu.h"

/* A class without a behaviour yet: the issuing context raises "not modelled yet: MNEMONIC". */
#define IPU_UNMODELLED(v, mn, ...) \
    BEHAVIOUR(v, __VA_ARGS__) { RAISE(IPU_EXC_UNMODELLED, "not modelled yet: %s", mn); }

#endif
