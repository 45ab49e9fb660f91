/* The smallest semihosted program: one line through printf, exit status 0 from main. */
#include <stdio.h>

int main(void)
{
    printf("hello from rv32\n");
    return 0;
}
