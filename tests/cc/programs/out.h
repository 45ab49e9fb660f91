/* The same program on the PicoBlaze (isekit cc: port 1, then port FF ends the run) and on the
 * host (printf): each byte written in two hex digits on a line. */
#ifdef __ISEKIT_CC__
#define OUT(v) __output(1, (v))
#define DONE() __output(0xFF, 0)
#else
#include <stdio.h>
#define OUT(v) printf("%02x\n", (unsigned)(unsigned char)(v))
#define DONE() ((void)0)
#endif
