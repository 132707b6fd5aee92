/* harness/tests/bad/common.h - the API surface the bad targets export (Windows names): the
 * types of spec/abi.h, and EXPORT for each function a bad target defines. */
#include "spec/abi.h"
#define EXPORT __attribute__((visibility("default")))
