/* cfgcheck.c — rejects an illegal switch configuration before anything is built:
 * prints the C model's message naming the parameter and exits 2. */
#include <stdio.h>
#include <stdlib.h>

#include "asw_switch.h"

int main(int argc, char **argv) {
  if (argc != 10) {
    fprintf(stderr, "usage: cfgcheck P V BUF LMAX PW DW TABLE VOQ ITERS\n");
    return 2;
  }
  unsigned v[9];
  for (int i = 0; i < 9; i++) {
    char *end = NULL;
    unsigned long x = strtoul(argv[i + 1], &end, 10);
    if (!*argv[i + 1] || *end || x > 0xFFFFFFFFul) {
      fprintf(stderr, "cfgcheck: not a number: '%s'\n", argv[i + 1]);
      return 2;
    }
    v[i] = (unsigned)x;
  }
  asw_config c = {.ports = v[0], .vcs = v[1], .buf_flits = v[2], .max_packet = v[3],
                  .payload_bits = v[4], .dest_bits = v[5], .table_entries = v[6],
                  .voq = v[7], .iters = v[8]};
  char err[256];
  if (asw_config_check(&c, err, sizeof err) != ASW_OK) {
    fprintf(stderr, "illegal configuration: %s\n", err);
    return 2;
  }
  return 0;
}
