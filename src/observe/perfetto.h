/* A writer of Chrome trace-event JSON, the format Perfetto's UI (ui.perfetto.dev) and
 * chrome://tracing load: {"traceEvents":[...],"displayTimeUnit":"ns"}. Events are written as
 * they come; nothing is kept in memory. It knows nothing of the simulator: processes and
 * threads (tracks) by number, complete ("X") and instant ("i") events with arguments.
 *
 *     isk_tj *t = isk_tj_new(f);
 *     isk_tj_name(t, 1, -1, "acc0", 0);  isk_tj_name(t, 1, 2, "slot 0", 2);
 *     isk_tj_event(t, 'X', 1, 2, "MAC", "command", 5);  isk_tj_arg_u64(t, "word", 0x12);
 *     isk_tj_end(t, 3);                 // dur 3 (X); instants pass 0
 *     isk_tj_finish(t, &stats);         // closes the array; false after a write error
 */
#ifndef ISK_OBSERVE_PERFETTO_H
#define ISK_OBSERVE_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct isk_tj isk_tj;

isk_tj *isk_tj_new(FILE *f);
/* Metadata: the name of process pid (tid < 0) or of its thread tid, and the order of the
 * tracks (sort_index). */
void isk_tj_name(isk_tj *t, int pid, int tid, const char *name, int sort_index);
/* Start an event: ph 'X' (complete) or 'i' (instant, thread scope); ts in the JSON's unit
 * (microseconds). Arguments follow, then isk_tj_end. */
void isk_tj_event(isk_tj *t, char ph, int pid, int tid, const char *name, const char *cat, uint64_t ts);
void isk_tj_arg_str(isk_tj *t, const char *key, const char *value);
void isk_tj_arg_u64(isk_tj *t, const char *key, uint64_t value);
void isk_tj_arg_hex(isk_tj *t, const char *key, uint64_t value);    /* as a string "0x..." */
void isk_tj_arg_i64(isk_tj *t, const char *key, int64_t value);
/* End the event: its duration for 'X' (ignored for 'i'). */
void isk_tj_end(isk_tj *t, uint64_t dur);

typedef struct isk_tj_stats { uint64_t events; uint64_t bytes; } isk_tj_stats;
/* Close the JSON and free the writer: false if the file had a write error. */
bool isk_tj_finish(isk_tj *t, isk_tj_stats *stats);
void isk_tj_free(isk_tj *t);

/* A string as a JSON string literal, quotes included (control characters escaped). */
void isk_json_string(FILE *f, const char *s);

#endif
