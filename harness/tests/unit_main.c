/* harness/tests/unit_main.c - the CUnit unit-test binary (make test-unit): every TEST() of the
 * unit_*.c files, one suite per file. */
#include "unit.h"

void unit_add(const char *suite, const char *title, CU_TestFunc fn)
{
    if (!CU_get_registry() && CU_initialize_registry() != CUE_SUCCESS)
        return;
    CU_pSuite s = CU_get_suite(suite);
    CU_add_test(s ? s : CU_add_suite(suite, NULL, NULL), title, fn);
}

int main(void)
{
    if (!CU_get_registry() || !CU_get_registry()->uiNumberOfTests) {
        printf("unit: no test was registered\nunit: 0 passed, 1 failed\n");
        return 3;
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned ran = CU_get_number_of_tests_run(), failed = CU_get_number_of_tests_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    printf("\nunit: %u passed, %u failed\n", ran - failed, failed);
    return failed || asserts_failed ? 1 : 0;
}
