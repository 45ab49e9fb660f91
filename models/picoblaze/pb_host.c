/* Host code of the PicoBlaze folder: what a system around a PicoBlaze does to it. */
#include "isekit/sim.h"
#include "isekit/picoblaze.h"

isk_status pb_reset(isk_inst *pb, int run)
{
    int64_t core;                                       /* the model declares which it is */
    if (!isk_get_param_number(pb, "core", &core)) return ISK_FAILED;
    static const char *const zeroed[] = { "C", "Z", "IE", "BANK", "SHADOW", "RESET_PENDING" };
    for (unsigned i = 0; i < sizeof zeroed / sizeof *zeroed; i++)
        if (isk_write(pb, zeroed[i], 0, 0) != ISK_OK) return ISK_FAILED;
    if (isk_write(pb, "SP", 0, core == 6 ? 0 : 31) != ISK_OK) return ISK_FAILED;
    return run ? isk_start(pb, 0, 0) : isk_stop(pb, 0, 0);
}
