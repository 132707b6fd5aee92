/* harness/tests/bad/common.h - the API surface every bad target exports (Windows names). Each
 * bad target defines BAD_BEHAVIOUR(ret) to say what every function does. */
#include "spec/abi.h"
#define EXPORT __attribute__((visibility("default")))
#define BAD_API(ret, name, params, ...) EXPORT ret name params { __VA_ARGS__ }
