#include "harness/out/winetest.h"
int etw_cmd_export_wine(int argc, char **argv) { (void)argc; (void)argv; return 2; }
