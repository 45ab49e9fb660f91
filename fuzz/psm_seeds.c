/* Seed corpus for psm_fuzz: small .psm sources and images written for KCPSM3 (first byte 0) and
 * KCPSM6 (first byte 1); bits 1-2 of the first byte select a .hex (2), .mem (4) or .dec (6) image.
 * Usage: psm_seeds CORPUS_DIR */
#include "text_seeds.h"

static const char *const seeds[] = {
    "\x00" "CONSTANT max, 3F\nNAMEREG s5, count\nstart: LOAD count, max\nloop: SUB count, 01\n"
    "JUMP NZ, loop\nSTORE count, (s1)\nFETCH s2, 10\nINPUT s3, (s4)\nOUTPUT s3, 2A\nCALL sub\n"
    "ADDRESS 3FF\nJUMP start\nsub: SR0 s2\nRETURN C\nRETURNI ENABLE\n",
    "\x01" "STRING msg$, \"Hello\"\nTABLE t#, [01, 02, FF]\nTABLE d#, [10, 20]'d\nOUTPUTK msg$, 4\n"
    "LOAD&RETURN s1, t#\nREGBANK B\nSTAR s0, s1\nHWBUILD s2\nJUMP@ (s4, s5)\nCALL@ (s6, s7)\n"
    "DEFAULT_JUMP fatal\nfatal: INST 3A55A\nTESTCY s1, 80\nCOMPARECY s2, 11111111'b\n",
    "\x01" "LOAD s0, timestamp_hours\nLOAD s1, datestamp_year\nLOAD s2, \"A\"\nLOAD s3, ~55\n"
    "LOAD s4, 200'd\nlab: LOAD s5, lab'upper\nLOAD s6, lab'lower\nOUTPUTK CR, 1\n",
    "\x02" "00000\n3A55A\n0D001\n",
    "\x05" "@00000000\n01234\n@00000010\n3FFFF\n",
    "\x06" " 1 2 3 262143 \n",
};

int main(int argc, char **argv)
{
    return write_text_seeds(argc, argv, "psm", seeds, sizeof seeds / sizeof *seeds);
}
