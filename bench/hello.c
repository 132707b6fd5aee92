/* bench/hello.c - the floor of a Wine run: a Windows console program that prints one line and exits.
 * Built with x86_64-w64-mingw32-gcc -O2 (mk/bench.mk) and started in the same prefix as etwconf.exe. */
#include <stdio.h>

int main(void)
{
    puts("hello");
    return 0;
}
