/* "plugin": the smallest accelerator, a counter, for the test that a model folder plugs in. */
#include <isekit/model.h>

STATE_BEGIN
    DECLARE_REGISTER(UINT(16)) COUNT;
STATE_END

ACC_FUNCTION(Add, k)
{
    SET(COUNT, GET(COUNT) + k);
}

MODEL_BEGIN(plugin, "a counter added by the folder tests/models/plugin")
    WORD_BITS(8);
    SLOTS(1);
    REG(COUNT, "Counter");
    KIND_INT("k4");
    INSTRUCTION("0001-kkkk", Add, "add {k:k4}");
MODEL_END
