/* writes 4 bytes past the end of the buffer: the guard page -> FAIL, mode overrun */
#include "bad.h"
#include <string.h>
BAD_TARGET(if (r) *r = l; if (b) memset((char *)b + l, 0, 4); return 0)
