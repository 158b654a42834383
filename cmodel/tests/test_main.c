/* test_main.c — runs every C-model test; prints failures and one line
 * "<label>: N passed, N failed". Options: --label NAME, --quick (shorter
 * long-running tests, for the sanitizer build), --only SUBSTRING, --tmpdir
 * DIR (for files tests write; default "."). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "test.h"

int test_failed_checks;
int test_quick;
const char *test_tmpdir = ".";

/* test_large_switch_idle_cost runs first: it measures resident memory, and
 * the C library stops mapping large blocks lazily once others were freed. */
#define TESTS(X)                                 \
  X(test_large_switch_idle_cost)                 \
  X(test_lfsr_recurrence)                        \
  X(test_lfsr_mirror_form)                       \
  X(test_lfsr_period)                            \
  X(test_lfsr_init)                              \
  X(test_ibuf_packet_chain)                      \
  X(test_ibuf_free_list)                         \
  X(test_ibuf_voq_lists)                         \
  X(test_ibuf_protocol)                          \
  X(test_islip_single_and_pointers)              \
  X(test_islip_iterations)                       \
  X(test_islip_desynchronises)                   \
  X(test_islip_vc_choice)                        \
  X(test_islip_vc_voq_served)                     \
  X(test_islip_vs_reference)                     \
  X(test_route_deterministic_and_sl2vc)          \
  X(test_route_oblivious)                        \
  X(test_route_cset)                             \
  X(test_route_adaptive_noth_th)                 \
  X(test_route_adaptive_2th)                     \
  X(test_route_vc_maps)                          \
  X(test_credits_block)                          \
  X(test_regs_reset_values)                      \
  X(test_regs_legal_writes)                      \
  X(test_regs_illegal_writes)                    \
  X(test_table_good)                             \
  X(test_table_bad)                              \
  X(test_config_ranges)                          \
  X(test_zero_load_latency)                      \
  X(test_back_to_back_single_flit)               \
  X(test_back_to_back)                           \
  X(test_cut_through_bubbles)                    \
  X(test_register_bus_timing)                    \
  X(test_counters_and_occupancy)                 \
  X(test_protocol_errors_named)                  \
  X(test_rc_sees_cycle_start_credits)            \
  X(test_protocol_violations_change_nothing)     \
  X(test_determinism_and_reset)                  \
  X(test_config_lock)                            \
  X(test_idle)                                   \
  X(test_conservation_random_configs)            \
  X(test_random_traffic_scoreboard)              \
  X(test_hol_limit)                              \
  X(test_islip_near_full_load)                   \
  X(test_multipath_hotspot)                      \
  X(test_arn_registers)                          \
  X(test_cd_hysteresis)                          \
  X(test_arn_table_unit)                         \
  X(test_arn_options_unit)                       \
  X(test_arn_options_switch)                     \
  X(test_arn_root_detection)                     \
  X(test_arn_input_controller)                   \
  X(test_arn_mark_adapted)                       \
  X(test_arn_off_is_plain_switch)                \
  X(test_arn_idle_accounting)                    \
  X(test_arn_three_switches)                     \
  X(test_arn_random_studies)                     \
  X(test_arn_hot_flags_vs_shadow)                \
  X(test_bubble_registers)                       \
  X(test_bubble_rule_directed)                   \
  X(test_bubble_rule_random)                     \
  X(test_bubble_ring_deadlock) \
  X(test_pfc_registers)                          \
  X(test_pfc_timeline)                           \
  X(test_pfc_lossless_random)                    \
  X(test_features_registers)                         \
  X(test_features_equivalence)                       \
  X(test_named_configs)                              \
  X(test_link_registers)                         \
  X(test_link_output_discard)                    \
  X(test_link_cut_while_idle)                    \
  X(test_link_input_padding)                     \
  X(test_link_routing)                         \
  X(test_qcn_arithmetic)                         \
  X(test_qcn_registers)                          \
  X(test_qcn_timeline)                           \
  X(test_route_hash)                             \
  X(test_port_gap_registers)                     \
  X(test_vcadapt_legality)                       \
  X(test_vcadapt_primary_and_fallback)           \
  X(test_vcadapt_fallback_kinds)                 \
  X(test_vcadapt_fallback_bubble)                \
  X(test_sar_legality)                          \
  X(test_sar_forward_and_snoop)                 \
  X(test_sar_timer)                             \
  X(test_sar_level_decay)                       \
  X(test_sar_steer)                             \
  X(test_sar_local_cnm)                         \
  X(test_port_gap_timeline)                      \
  X(test_port_gap_shared_output)                 \
  X(test_port_gap_rewrite)                       \
  X(test_qcn_random_shadow)

#define DECLARE(name) void name(void);
TESTS(DECLARE)
#define ENTRY(name) {#name, name},
static const test_case tests[] = {TESTS(ENTRY)};

int main(int argc, char **argv) {
  const char *label = "cmodel", *only = NULL;
  for (int k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--label") && k + 1 < argc) label = argv[++k];
    else if (!strcmp(argv[k], "--quick")) test_quick = 1;
    else if (!strcmp(argv[k], "--only") && k + 1 < argc) only = argv[++k];
    else if (!strcmp(argv[k], "--tmpdir") && k + 1 < argc) test_tmpdir = argv[++k];
    else {
      fprintf(stderr, "usage: %s [--label NAME] [--quick] [--only SUBSTRING] [--tmpdir DIR]\n", argv[0]);
      return 2;
    }
  }
  int passed = 0, failed = 0;
  for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
    if (only && !strstr(tests[k].name, only)) continue;
    test_failed_checks = 0;
    clock_t t0 = clock();
    tests[k].fn();
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (test_failed_checks) {
      failed++;
      fprintf(stderr, "  FAIL %s (%d failed checks)\n", tests[k].name, test_failed_checks);
    } else {
      passed++;
    }
    if (s > 2.0) fprintf(stderr, "  (%s took %.1f s)\n", tests[k].name, s);
  }
  printf("%s: %d passed, %d failed\n", label, passed, failed);
  return failed ? 1 : 0;
}
