/*
 * The self-checks shared by the C test programs of tests/native: each check prints one
 * line, "PASS: ..." or "FAIL: ...", and counts it in `passed` or `failed`; a program ends
 * by printing "N passed, M failed" and exits non-zero if M > 0. Include it once, after
 * navstar.h, from one translation unit.
 */
#ifndef NAVSTAR_TEST_CHECKS_H
#define NAVSTAR_TEST_CHECKS_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

static void check(int ok, const char *format, ...) {
    va_list args;
    printf("%s: ", ok ? "PASS" : "FAIL");
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

/* `got` is `want`; on a mismatch the line shows the last error message. */
static void expect_status(NavstarStatus got, NavstarStatus want, const char *what) {
    check(got == want, "%s: %s (want %s)%s%s", what, navstar_status_name((int32_t)got),
          navstar_status_name((int32_t)want), got == want ? "" : "; message: ",
          got == want ? "" : navstar_last_error_message());
}

/* `got` is the error `want`, and its message names `culprit`. */
static void expect_error(NavstarStatus got, NavstarStatus want, const char *culprit, const char *what) {
    const char *message = navstar_last_error_message();
    expect_status(got, want, what);
    check(strstr(message, culprit) != NULL, "%s: message \"%s\" names \"%s\"", what, message, culprit);
}

#endif
