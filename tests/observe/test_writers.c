/* The trace writers (src/observe): the VCD's identifier codes and value texts, a dump's changes
 * coalesced per time and the next-time values, and the trace JSON's escaping and shape. */
#include <stdlib.h>

#include "check.h"
#include "observe/perfetto.h"
#include "observe/vcd.h"

/* What the writer wrote, once it is done with f. */
static char *contents(FILE *f)
{
    long n = ftell(f);
    char *s = calloc(1, (size_t)n + 1);
    rewind(f);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = 0;
    fclose(f);
    return s;
}

static void ids(void)
{
    char id[12];
    CHECK_STR(isk_vcd_id(0, id), "!");
    CHECK_STR(isk_vcd_id(1, id), "\"");
    CHECK_STR(isk_vcd_id(93, id), "~");
    CHECK_STR(isk_vcd_id(94, id), "!!");          /* bijective: no code is skipped or repeated */
    CHECK_STR(isk_vcd_id(95, id), "!\"");
    CHECK_STR(isk_vcd_id(94 + 93, id), "!~");
    CHECK_STR(isk_vcd_id(94 + 94, id), "\"!");
    CHECK_STR(isk_vcd_id(94 + 94 * 94 - 1, id), "~~");
    CHECK_STR(isk_vcd_id(94 + 94 * 94, id), "!!!");
    CHECK_EQ(strlen(isk_vcd_id(UINT64_MAX, id)), 10);
    /* every code of the first 10,000 is distinct and printable */
    int bad = 0;
    char prev[12] = "";
    for (uint64_t n = 0; n < 10000; n++) {
        isk_vcd_id(n, id);
        for (char *p = id; *p; p++) bad += *p < '!' || *p > '~';
        /* shortlex order: longer, or as long and greater */
        bad += !(strlen(id) > strlen(prev) || (strlen(id) == strlen(prev) && strcmp(id, prev) > 0));
        strcpy(prev, id);
    }
    CHECK_EQ(bad, 0);
}

static void values(void)
{
    char t[72];
    CHECK_STR(isk_vcd_value_text(1, false, 1, t), "1");
    CHECK_STR(isk_vcd_value_text(2, false, 1, t), "0");           /* masked to the width */
    CHECK_STR(isk_vcd_value_text(0, true, 1, t), "x");
    CHECK_STR(isk_vcd_value_text(0, false, 8, t), "b0 ");
    CHECK_STR(isk_vcd_value_text(5, false, 8, t), "b101 ");
    CHECK_STR(isk_vcd_value_text((uint64_t)-3, false, 8, t), "b11111101 ");   /* a signed cell */
    CHECK_STR(isk_vcd_value_text(0, true, 32, t), "bx ");
    CHECK_EQ(strlen(isk_vcd_value_text(UINT64_MAX, false, 64, t)), 66);
}

static void dump(void)
{
    FILE *f = tmpfile();
    isk_vcd *v = isk_vcd_new(f, "1ns");
    isk_vcd_scope(v, "acc 0");
    int busy = isk_vcd_var(v, "busy", 1, 0);
    int reg = isk_vcd_var(v, "GR0", 16, 7);
    int cmd = isk_vcd_var(v, "command", 32, 0);
    isk_vcd_init_x(v, cmd);
    isk_vcd_upscope(v);
    isk_vcd_begin(v);
    isk_vcd_time(v, 3);
    isk_vcd_set(v, busy, 1);
    isk_vcd_set(v, cmd, 2);
    isk_vcd_set(v, reg, 9);
    isk_vcd_set(v, reg, 7);               /* back to its value: no change at 3 */
    isk_vcd_set_next(v, busy, 0);         /* busy through clock 3 */
    isk_vcd_set_next_x(v, cmd);
    isk_vcd_time(v, 4);
    isk_vcd_set(v, busy, 1);              /* launched again at 4: stays 1 */
    isk_vcd_set(v, cmd, 5);
    isk_vcd_set_next(v, busy, 0);
    isk_vcd_time(v, 2);                   /* a late event stays at the current time */
    CHECK_EQ(isk_vcd_now(v), 4);
    isk_vcd_time(v, 9);                   /* the fall at 5, then 9 */
    isk_vcd_set(v, reg, (uint64_t)-1);
    CHECK(isk_vcd_finish(v, 12));
    char *s = contents(f);
    CHECK_CONTAINS(s, "$timescale 1ns $end\n$scope module acc_0 $end\n$var wire 1 ! busy $end\n"
                      "$var wire 16 \" GR0 $end\n$var wire 32 # command $end\n$upscope $end\n");
    CHECK_CONTAINS(s, "$enddefinitions $end\n#0\n$dumpvars\n0!\nb111 \"\nbx #\n$end\n"
                      "#3\n1!\nb10 #\n#4\nb101 #\n#5\n0!\n#9\nb1111111111111111 \"\n#12\n");
    CHECK(!strstr(s, "#2\n"));
    free(s);
}

static void json(void)
{
    FILE *f = tmpfile();
    isk_tj *t = isk_tj_new(f);
    isk_tj_name(t, 1, -1, "acc\"0", 1);
    isk_tj_name(t, 1, 2, "slot 0", 2);
    isk_tj_event(t, 'X', 1, 2, "mac gr0, gr1", "command", 5);
    isk_tj_arg_hex(t, "word", 0x1f);
    isk_tj_arg_i64(t, "v", -2);
    isk_tj_end(t, 3);
    isk_tj_event(t, 'i', 1, 0, "tab\there", "note", 6);
    isk_tj_end(t, 0);
    isk_tj_stats st;
    CHECK(isk_tj_finish(t, &st));
    CHECK_EQ(st.events, 6);
    char *s = contents(f);
    CHECK_EQ(st.bytes, strlen(s));
    CHECK_CONTAINS(s, "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"acc\\\"0\"}}");
    CHECK_CONTAINS(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":5,\"cat\":\"command\",\"name\":\"mac gr0, gr1\","
                      "\"args\":{\"word\":\"0x1f\",\"v\":-2},\"dur\":3}");
    CHECK_CONTAINS(s, "\"name\":\"tab\\u0009here\",\"s\":\"t\"}\n]}\n");
    free(s);
}

int main(void)
{
    ids();
    values();
    dump();
    json();
    return CHECK_DONE();
}
