/* asw_config.c — the switch configuration of the public API (contract §1): defaults, the
 * optional features by name and as a mask, and the legality check asw_switch_new applies.
 * No switch state: the checks read the configuration only. */
#include <stdio.h>
#include <string.h>
#include "asw_switch.h"

void asw_config_default(asw_config *c) {
  c->ports = 8;
  c->vcs = 2;
  c->buf_flits = 32;
  c->max_packet = 16;
  c->payload_bits = 32;
  c->dest_bits = 16;
  c->table_entries = 256;
  c->voq = 1;
  c->iters = 1;
  c->arn_entries = 8;
  c->sar_entries = 0;
  c->sa_pipe = 0;
  asw_config_set_features(c, 0); /* §1: every optional feature off */
}

/* The features in PARAM2/PARAM3 bit order (§11), their names and fields. */
static const char *const feat_names[ASW_FEAT_COUNT] = {
    "bubble",    "pfc",      "qcn",      "link_faults", "vc_adaptive", "route_hash",
    "port_rate", "oblivious", "adaptive", "counters",    "readback"};

static unsigned *feat_field(asw_config *c, unsigned k) {
  unsigned *f[ASW_FEAT_COUNT] = {&c->bubble,      &c->pfc,        &c->qcn,       &c->link_faults,
                                 &c->vc_adaptive, &c->route_hash, &c->port_rate, &c->oblivious,
                                 &c->adaptive,    &c->counters,   &c->readback};
  return f[k];
}

const char *asw_feature_name(unsigned k) { return k < ASW_FEAT_COUNT ? feat_names[k] : NULL; }

unsigned asw_config_features(const asw_config *c) {
  unsigned m = 0;
  for (unsigned k = 0; k < ASW_FEAT_COUNT; k++)
    m |= (*feat_field((asw_config *)c, k) != 0) << k;
  return m;
}

void asw_config_set_features(asw_config *c, unsigned mask) {
  for (unsigned k = 0; k < ASW_FEAT_COUNT; k++) *feat_field(c, k) = mask >> k & 1u;
}

int asw_config_set_feature(asw_config *c, const char *name, unsigned on) {
  for (unsigned k = 0; k < ASW_FEAT_COUNT; k++)
    if (name && !strcmp(name, feat_names[k])) {
      *feat_field(c, k) = on != 0;
      return ASW_OK;
    }
  return ASW_EINVAL;
}

#define CFG_ERR(...)                                \
  do {                                              \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return ASW_EINVAL;                              \
  } while (0)

int asw_config_check(const asw_config *c, char *err, size_t errlen) {
  if (!c) CFG_ERR("config is NULL");
  if (c->ports < 2 || c->ports > 64)
    CFG_ERR("P (ports) = %u out of range 2..64", c->ports);
  if (c->vcs < 1 || c->vcs > 8)
    CFG_ERR("V (vcs) = %u out of range 1..8", c->vcs);
  if (c->max_packet < 1 || c->max_packet > 255)
    CFG_ERR("LMAX (max_packet) = %u out of range 1..255", c->max_packet);
  if (c->buf_flits < c->max_packet || c->buf_flits > 16384)
    CFG_ERR("BUF (buf_flits) = %u out of range LMAX..16384 = %u..16384",
            c->buf_flits, c->max_packet);
  if ((unsigned long)c->vcs * c->buf_flits > 65536)
    CFG_ERR("V*BUF = %u*%u exceeds 65536 buffer slots per port", c->vcs,
            c->buf_flits);
  if (c->payload_bits > 64)
    CFG_ERR("PW (payload_bits) = %u out of range 0..64", c->payload_bits);
  if (c->dest_bits < 1 || c->dest_bits > 16)
    CFG_ERR("DW (dest_bits) = %u out of range 1..16", c->dest_bits);
  if (c->table_entries < 1 || c->table_entries > (1u << c->dest_bits))
    CFG_ERR("TABLE (table_entries) = %u out of range 1..2^DW = 1..%u",
            c->table_entries, 1u << c->dest_bits);
  if (c->voq > 1) CFG_ERR("VOQ = %u out of range 0..1", c->voq);
  if (c->iters < 1 || c->iters > 4)
    CFG_ERR("ITERS (iters) = %u out of range 1..4", c->iters);
  if (c->arn_entries > 32)
    CFG_ERR("AE (arn_entries) = %u out of range 0..32", c->arn_entries);
  if (c->sar_entries > 32)
    CFG_ERR("SE (sar_entries) = %u out of range 0..32", c->sar_entries);
  if (c->sa_pipe > 1) CFG_ERR("SAPIPE (sa_pipe) = %u out of range 0..1", c->sa_pipe);
  if (c->sa_pipe && c->iters != 1)
    CFG_ERR("SAPIPE (sa_pipe) = 1 needs ITERS (iters) = 1, not %u (§8.1: one grant phase)",
            c->iters);
  if (c->sa_pipe && c->vc_adaptive)
    CFG_ERR("SAPIPE (sa_pipe) = 1 excludes vc_adaptive (§8.1)");
  for (unsigned k = 0; k < ASW_FEAT_COUNT; k++)
    if (*feat_field((asw_config *)c, k) > 1)
      CFG_ERR("%s = %u out of range 0..1 (0 off, 1 on)", feat_names[k],
              *feat_field((asw_config *)c, k));
  return ASW_OK;
}
