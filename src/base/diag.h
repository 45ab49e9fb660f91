/* Transitional: the diagnostics header is public now (isekit/diag.h). */
#include "isekit/diag.h"
