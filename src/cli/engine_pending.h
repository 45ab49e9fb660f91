/* TEMPORARY, removed once the engine's commit lands: weak references to the engine API being
 * written at the same time (include/isekit/sim.h), so that the CLI builds before it does. */
#ifndef ISK_CLI_ENGINE_PENDING_H
#define ISK_CLI_ENGINE_PENDING_H
#include "isekit/sim.h"
#pragma weak isk_describe_activity
#pragma weak isk_request_stop
#pragma weak isk_driver_wait_until
static inline int pending_describe_activity(const isk_system *sys, char *buf, size_t cap)
{
    if (isk_describe_activity) return isk_describe_activity(sys, buf, cap);
    if (cap) *buf = 0;
    return -1;
}
static inline void pending_request_stop(isk_system *sys) { if (isk_request_stop) isk_request_stop(sys); }
static inline void pending_driver_wait_until(isk_system *sys, uint64_t c) { if (isk_driver_wait_until) isk_driver_wait_until(sys, c); }
#define isk_describe_activity pending_describe_activity
#define isk_request_stop pending_request_stop
#define isk_driver_wait_until pending_driver_wait_until
#endif
