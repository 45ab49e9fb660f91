/* Seed corpus for launchlist_fuzz: launch lists for the example accelerator using every kind of
 * line. Usage: launchlist_seeds CORPUS_DIR */
#include "text_seeds.h"

/* Each seed starts with a space where the other text harnesses have their selector byte. */
static const char *const seeds[] = {
    " init DM0[0] = 1, 2, 3\ninit TM0[0] = 4, 5, 6\nsetar ar0, 0\nsetar ar1, 0\nsetloop 3\n"
    "conv acc, dm0[ar0], tm0[ar1]\nwait irq\nexpect ACR == 32\n",
    " ldg gr0, 7\nldg gr1, 2\n@5 mac gr0, gr1\nwait 3\nexpect clock == 8\nwrite SHM[3] = 7\n"
    "flag shm[4], 9\nwait flag SHM[4] == 9\nword 0xc00112\nwait idle\n",
    " # comment\n; another\n// and another\nldi lr1, -5   # trailing\nmove gr0, lr1\nexpect GR0 == -5\n",
};

int main(int argc, char **argv)
{
    return write_text_seeds(argc, argv, "launchlist", seeds, sizeof seeds / sizeof *seeds);
}
