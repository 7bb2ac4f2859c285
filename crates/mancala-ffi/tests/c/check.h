/*
 * The check counters and macros shared by the C test programs of this folder. Each program
 * is one translation unit that includes this header once after <stdio.h> and "mancala.h",
 * and prints "N passed, N failed" from `passed` and `failed` at the end.
 */
#ifndef MANCALA_TEST_CHECK_H
#define MANCALA_TEST_CHECK_H

static int passed = 0;
static int failed = 0;

static void check(int ok, const char *what, int line) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAILED line %d: %s\n", line, what);
    }
}

#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)
#define EXPECT(call, status) check((call) == (status), #call " == " #status, __LINE__)
#define OK(call) EXPECT(call, MANCALA_STATUS_OK)
#define NUL(call) EXPECT(call, MANCALA_STATUS_NULL_POINTER)
#define DEAD(call) EXPECT(call, MANCALA_STATUS_INVALID_HANDLE)

#endif
