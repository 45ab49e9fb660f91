/* The tiny test model built for ABI version 3, to test that versions are not mixed. */
#define TINY_ABI 3
#include "tiny.c"
