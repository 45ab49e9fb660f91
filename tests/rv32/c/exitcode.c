/* A nonzero exit status through exit(): output written before it must still appear, and the
   status is the simulator's (and qemu's) exit status. Nothing after exit() runs. */
#include <stdio.h>
#include <stdlib.h>

static void later(void) { printf("atexit handler ran\n"); }

int main(void)
{
    atexit(later);
    printf("exiting with 3\n");
    exit(3);
    printf("not reached\n");
    return 0;
}
