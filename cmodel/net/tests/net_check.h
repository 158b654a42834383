/* net_check.h — the check macro shared by the network simulator's tests:
 * counts passed and failed checks; each test program prints the totals as
 * its "N passed, N failed" closing line. */
#ifndef ASW_NET_CHECK_H
#define ASW_NET_CHECK_H

#include <stdio.h>

static unsigned passed, failed;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (cond) passed++;                           \
    else {                                        \
      failed++;                                   \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
    }                                             \
  } while (0)

#endif
