/*
 * The check counters and macros shared by the C test programs of this folder. Each program
 * is one translation unit that includes this header once after <stdio.h> and "mancala.h",
 * may use the helpers `last_error` and `rules_of`,
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

/* The last error of this thread, copied into a static buffer. */
static inline const char *last_error(void) {
    static char text[512];
    size_t needed = 0;
    if (mancala_last_error(text, sizeof text, &needed) != MANCALA_STATUS_OK) return "<unreadable>";
    return text;
}

/* A rule set parsed from `text`; a failure counts as a failed check. */
static inline MancalaRules *rules_of(const char *text) {
    MancalaRules *r = NULL;
    OK(mancala_rules_new(text, &r));
    return r;
}

#endif
