/* netprobe.c — prints the switch parameters of a network given as key=value
 * settings (one line: P V BUF LMAX PW DW TABLE VOQ ITERS AE), or the
 * network's own error message and exit status 2. tb/net/cosim_net.py uses it
 * to pick (and build) the Verilator model before the run. */
#include <stdio.h>

#include "netref.h"

int main(int argc, char **argv) {
  char err[4096] = "";
  netref *r = netref_new(argc - 1, argv + 1, NULL, err, sizeof err);
  if (!r) {
    fprintf(stderr, "make cosim-net: NET: %s\n", err);
    return 2;
  }
  asw_config c;
  netref_switch_config(r, &c);
  printf("%u %u %u %u %u %u %u %u %u %u %u %u\n", c.ports, c.vcs, c.buf_flits, c.max_packet,
         c.payload_bits, c.dest_bits, c.table_entries, c.voq, c.iters, c.arn_entries,
         c.sar_entries, asw_config_features(&c)); /* last: the §1 features (ASW_FEAT_* bits) */
  netref_free(r);
  return 0;
}
