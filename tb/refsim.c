/* refsim.c — the C side of the co-simulation alone: the stimulus of
 * tb_traffic.c against the C model, with every end check and §15 assertion of
 * a lockstep run but no RTL (fast; for developing scenarios, and usable
 * while the RTL lacks a feature). Same options and output as tb/cosim_main.cpp.
 * Build: see tb/cosim.py (refsim). The configuration is given by -D like the
 * Verilated binary. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asw_switch.h"
#include "tb_traffic.h"

#ifndef ASW_FEATURES
#define ASW_FEATURES 0 /* contract §1: the features built, ASW_FEAT_* bits (tb/cosim.py passes it when set) */
#endif
#ifndef ASW_SAPIPE
#define ASW_SAPIPE 0 /* contract §1 SAPIPE: pipelined allocation (tb/cosim.py passes it when set) */
#endif
#ifndef ASW_SE
#define ASW_SE 0 /* contract §1 SE: Switch AR entries (tb/cosim.py passes it when set) */
#endif

int main(int argc, char **argv) {
  tb_opts o;
  tb_opts_default(&o);
  char err[512];
  const char *label = "";
  double every = 0; /* --progress S: a line on stderr every S seconds (make cosim) */
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int r = tb_parse_opt(&o, argv[i], v, err, sizeof err);
    if (r < 0) {
      fprintf(stderr, "refsim: %s\n", err);
      return 2;
    }
    if (r == 0 && !strcmp(argv[i], "--label") && v) label = v;
    else if (r == 0 && !strcmp(argv[i], "--progress") && v) every = atof(v);
    else if (r == 0 && !(v && (!strcmp(argv[i], "--fst") || !strcmp(argv[i], "--window") ||
                               !strcmp(argv[i], "--cov")))) {
      fprintf(stderr, "refsim: unknown option %s\n", argv[i]);
      return 2;
    }
    i++;
  }
  asw_config cfg = {.ports = ASW_P, .vcs = ASW_V, .buf_flits = ASW_BUF, .max_packet = ASW_LMAX,
                    .payload_bits = ASW_PW, .dest_bits = ASW_DW, .table_entries = ASW_TABLE,
                    .voq = ASW_VOQ, .iters = ASW_ITERS, .arn_entries = ASW_AE,
                    .sar_entries = ASW_SE, .sa_pipe = ASW_SAPIPE};
  asw_config_set_features(&cfg, ASW_FEATURES);
  asw_switch *ref = asw_switch_new(&cfg, err, sizeof err);
  if (!ref) {
    fprintf(stderr, "refsim: C model rejects the configuration: %s\n", err);
    return 2;
  }
  tb_traffic *tb = tb_new(&cfg, &o, err, sizeof err);
  if (!tb) {
    fprintf(stderr, "refsim: %s\n", err);
    asw_switch_free(ref);
    return 2;
  }
  printf("refsim %s P=%u V=%u BUF=%u LMAX=%u PW=%u DW=%u TABLE=%u VOQ=%u ITERS=%u AE=%u "
         "routing=%s vcmap=%s scen=%s arn=%s seed=%" PRIu64 "\n",
         label, ASW_P, ASW_V, ASW_BUF, ASW_LMAX, ASW_PW, ASW_DW, ASW_TABLE, ASW_VOQ, ASW_ITERS, ASW_AE,
         tb_routing_name(o.routing), tb_vcmap_name(o.vcmap), tb_scenario_name(o.scenario),
         tb_arn_name(o.arn), o.seed);
  asw_flit oflit[ASW_P];
  uint8_t ocr[ASW_P];
  uint32_t oarn[ASW_P];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int ok = 1;
  uint64_t c = 0;
  char msg[512] = "";
  double last = 0;
  for (; c < o.cycles; c++) {
    if (every > 0 && c && !(c & 65535)) {
      clock_gettime(CLOCK_MONOTONIC, &t1);
      const double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
      if (el - last >= every) {
        last = el;
        fprintf(stderr, "refsim: cycle %" PRIu64 " of %" PRIu64 " (%.0f %%), %.0f cycles/s\n", c,
                o.cycles, 100.0 * (double)c / (double)o.cycles, (double)c / el);
      }
    }
    asw_inputs in;
    tb_inputs(tb, c, &in);
    uint64_t up, rx_up; /* §18.1 link pins of the cycle */
    tb_link_pins(tb, &up, &rx_up);
    if (asw_switch_set_link_up(ref, up, rx_up) != ASW_OK) {
      fprintf(stderr, "refsim: %s\n", asw_switch_error(ref));
      return 2;
    }
    tb_observe(tb, ref, c, &in);
    asw_outputs out;
    memset(&out, 0, sizeof out);
    out.flit = oflit;
    out.credit_vc = ocr;
    out.arn = oarn;
    int rc = asw_switch_step(ref, &in, &out);
    if (rc != ASW_OK) {
      if (o.scenario == TB_SCEN_PROTO && rc == ASW_EPROTO && c == tb_proto_cycle(tb)) {
        printf("protocol violation at cycle %" PRIu64 " flagged: %s\n", c, asw_switch_error(ref));
        c++;
        break;
      }
      snprintf(msg, sizeof msg, "C model step error at cycle %" PRIu64 ": %s", c, asw_switch_error(ref));
      ok = 0;
      break;
    }
    tb_outputs(tb, c, &out);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (ok && o.scenario != TB_SCEN_PROTO && tb_check_end(tb, msg, sizeof msg) != 0) ok = 0;
  tb_stats st;
  tb_get_stats(tb, &st);
  char rep[512];
  tb_arn_report(tb, rep, sizeof rep);
  printf("cycles %" PRIu64 " flits %" PRIu64 " packets %" PRIu64 " reg reads %" PRIu64
         " writes %" PRIu64 " fills %" PRIu64 " drains %" PRIu64 " time %.2f s (%.0f cycles/s)\n",
         c, st.flits_sent, st.packets_sent, st.reg_reads, st.reg_writes, st.fills, st.drains, secs,
         secs > 0 ? (double)c / secs : 0.0);
  printf("%s\n", rep);
  if (o.linkfault > 0) {
    tb_link_report(tb, rep, sizeof rep);
    printf("%s\n", rep);
  }
  if (o.hash) {
    tb_hash_report(tb, rep, sizeof rep);
    printf("%s\n", rep);
  }
  if (o.gap) {
    tb_gap_report(tb, rep, sizeof rep);
    printf("%s\n", rep);
  }
  if (o.vcadapt) {
    tb_vcadapt_report(tb, rep, sizeof rep);
    printf("%s\n", rep);
  }
  tb_free(tb);
  asw_switch_free(ref);
  if (ok) {
    printf("PASS\n");
    return 0;
  }
  printf("MISMATCH at cycle %" PRIu64 ": %s\nFAIL\n", c, msg);
  return 1;
}
