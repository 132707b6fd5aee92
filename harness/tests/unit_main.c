/* harness/tests/unit_main.c - the CUnit unit-test binary (make test-unit). */
#include "unit.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 3;
    unit_reference_register();
    unit_harness_register();
    unit_conformance_register();
    unit_rowprint_register();
    unit_engine_register();
    unit_versions_register();
    unit_livefx_register();
    unit_needs_register();
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned ran = CU_get_number_of_tests_run(), failed = CU_get_number_of_tests_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    printf("\nunit: %u passed, %u failed\n", ran - failed, failed);
    return failed || asserts_failed ? 1 : 0;
}
