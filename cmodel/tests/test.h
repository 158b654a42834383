/* test.h — minimal test harness for the C model's tests. A test is a
 * function; it fails if any CHECK in it fails. test_main.c lists them. */
#ifndef ASW_TEST_H
#define ASW_TEST_H

#include <stdio.h>

extern int test_failed_checks; /* checks failed in the current test */
extern int test_quick;         /* --quick: shorter long-running tests */
extern const char *test_tmpdir; /* --tmpdir: where tests may write files */

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      if (test_failed_checks++ < 10)                                     \
        fprintf(stderr, "    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

#define CHECKF(cond, ...)                                                \
  do {                                                                   \
    if (!(cond)) {                                                       \
      if (test_failed_checks++ < 10) {                                   \
        fprintf(stderr, "    %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__);                                    \
        fprintf(stderr, "\n");                                           \
      }                                                                  \
    }                                                                    \
  } while (0)

typedef struct {
  const char *name;
  void (*fn)(void);
} test_case;

#endif
