/* Seed corpus for sysfile_fuzz: system descriptions the sandbox builds (no program files).
 * Usage: sysfile_seeds CORPUS_DIR */
#include "text_seeds.h"

/* The first byte of each seed is a space, which the harness reads as text like the rest. */
static const char *const seeds[] = {
    " [system]\nport_log = yes\nmax_clocks = 1k\n\n[instance pb0]\nmodel = kcpsm3\nports = edkdsp_bce dfu0\n"
    "out 0x41 = stop\n\n[instance dfu0]\nmodel = edkdsp_dfu\n\n[instance pb1]\nmodel = kcpsm6\n"
    "ports = edkdsp_bce dfu1\n[instance dfu1]\nmodel = edkdsp_dfu\nparam latency_vmul = 12\nshare CMEM = dfu0.CMEM\n",
    " [instance pa]\nmodel = kcpsm6\nout 0x10 = pb in 0x20   # comment\nout 0x11 = pb.SPM[7]\nout 0x12 = stop\n"
    "in 3 = 0x43\nin 4 = pb.s1\n[instance pb]\nmodel = kcpsm6\nparam scratchpad_size = 128\n",
    " [instance a]\nmodel = example\naccelerator = 0\ninterrupt 1 = p 2\nshare SHM = b.SHM\n[instance b]\n"
    "model = example\naccelerator = 1\n[instance p]\nmodel = kcpsm3\n",
    " [instance x]\nmodel = nosuch\nbogus = 1\n[instance x]\n[instanze y]\nparam = 3\n",
};

TEXT_SEEDS_MAIN("sys", seeds)
