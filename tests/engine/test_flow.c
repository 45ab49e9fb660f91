/* INSTRUCTION .flow: the mark a debugger's call stack reads (a call, a return or neither)
 * comes back from isk_model_instruction as declared, and a value outside the enumeration is
 * refused with a message naming the instruction. */
#define ISK_BUILTIN_MODEL 1
#include <string.h>

#include "check.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

STATE_BEGIN
    DECLARE_REGISTER(INT(8)) R;
STATE_END

ACC_FUNCTION(Nop) {}

MODEL_BEGIN(marked, "a call, a return and a plain instruction")
    WORD_BITS(8);
    SLOTS(1);
    REG(R, "R");
    INSTRUCTION("0000-0001", Nop, "call", .flow = ISK_FLOW_CALL);
    INSTRUCTION("0000-0010", Nop, "ret", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("0000-0011", Nop, "nop");
MODEL_END

static int bad_line;
MODEL_BEGIN(bad_flow, "a flow that is none of the three")
    WORD_BITS(8);
    SLOTS(1);
    REG(R, "R");
    bad_line = __LINE__; INSTRUCTION("0000-0001", Nop, "jmp", .flow = 7);
MODEL_END

static int flow_of_syntax(const isk_model *m, const char *syntax)
{
    for (int i = 0; i < isk_model_instruction_count(m); i++)
        if (strcmp(isk_model_instruction(m, i)->syntax, syntax) == 0) return isk_model_instruction(m, i)->flow;
    return -1;
}

int main(void)
{
    loaded l;
    load(&l, &isk_model_marked);
    CHECK(l.m != NULL);
    if (l.m) {
        CHECK(flow_of_syntax(l.m, "call") == ISK_FLOW_CALL);
        CHECK(flow_of_syntax(l.m, "ret") == ISK_FLOW_RETURN);
        CHECK(flow_of_syntax(l.m, "nop") == ISK_FLOW_NONE);
    }
    unload(&l);

    load(&l, &isk_model_bad_flow);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "INSTRUCTION \"0000-0001\" .flow = 7: a flow is ISK_FLOW_CALL, ISK_FLOW_RETURN or 0");
    char where[64];
    snprintf(where, sizeof where, "test_flow.c:%d", bad_line);
    CHECK_CONTAINS(l.out.text, where);
    unload(&l);
    return CHECK_DONE();
}
