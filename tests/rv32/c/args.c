/* The command line through semihosting SYS_GET_CMDLINE (picolibc's crt0-semihost splits it
   into argv). The test passes it explicitly to both simulators. */
#include <stdio.h>

int main(int argc, char **argv)
{
    printf("argc %d\n", argc);
    for (int i = 0; i < argc; i++) printf("argv[%d] = '%s'\n", i, argv[i]);
    return argc;
}
