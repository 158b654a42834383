// cosim_main.cpp — thin Verilator glue for the lockstep co-simulation: drives the
// RTL (or the Yosys netlist) and the C model with the inputs from tb_traffic.c,
// compares every output every cycle, and on the first mismatch re-runs with FST
// tracing of the last cycles before it. The configuration is fixed at build time
// (-DASW_P=... matching the Verilator -G parameters); run options are arguments.
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <unistd.h>

#include "Vasw_switch.h"
#include "clock_edge.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

extern "C" {
#include "asw_switch.h"
#include "tb_traffic.h"
}

#ifndef ASW_P
#error "build with -DASW_P=... (see mk/tb.mk)"
#endif
#ifndef ASW_FEATURES
#define ASW_FEATURES 0  // contract §1: the features built, ASW_FEAT_* bits (tb/cosim.py passes it when set)
#endif
#ifndef ASW_SAPIPE
#define ASW_SAPIPE 0  // contract §1 SAPIPE: pipelined allocation (tb/cosim.py passes it when set)
#endif
#ifndef ASW_SE
#define ASW_SE 0  // contract §1 SE: Switch AR table entries (tb/cosim.py passes it when set)
#endif
static constexpr unsigned kPwe = ASW_PW == 0 ? 1 : ASW_PW;

// ---- bit-field access to Verilator signals of any width --------------------
template <typename T>
static void put(T &sig, unsigned lsb, unsigned w, uint64_t v) {
  const uint64_t m = w >= 64 ? ~0ULL : ((1ULL << w) - 1);
  sig = static_cast<T>((static_cast<uint64_t>(sig) & ~(m << lsb)) | ((v & m) << lsb));
}
// Wide signals: whole 32-bit words at a time (a field spans at most 3 words),
// not bit by bit (the bit loops were a third of the co-simulation's time).
template <std::size_t N>
static void put(VlWide<N> &sig, unsigned lsb, unsigned w, uint64_t v) {
  for (unsigned done = 0; done < w;) {
    const unsigned bit = lsb + done, off = bit % 32;
    const unsigned n = 32 - off < w - done ? 32 - off : w - done;
    const uint32_t m = (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1)) << off;
    const uint32_t x = static_cast<uint32_t>(v >> done) << off;
    sig[bit / 32] = (sig[bit / 32] & ~m) | (x & m);
    done += n;
  }
}
template <typename T>
static uint64_t get(const T &sig, unsigned lsb, unsigned w) {
  const uint64_t m = w >= 64 ? ~0ULL : ((1ULL << w) - 1);
  return (static_cast<uint64_t>(sig) >> lsb) & m;
}
template <std::size_t N>
static uint64_t get(const VlWide<N> &sig, unsigned lsb, unsigned w) {
  uint64_t v = 0;
  for (unsigned done = 0; done < w;) {
    const unsigned bit = lsb + done, off = bit % 32;
    const unsigned n = 32 - off < w - done ? 32 - off : w - done;
    const uint32_t m = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
    v |= static_cast<uint64_t>((sig[bit / 32] >> off) & m) << done;
    done += n;
  }
  return v;
}

struct Options {
  tb_opts opt{};
  uint64_t window = 200;  // cycles of FST before a mismatch
  std::string fst = "cosim_fail.fst";
  std::string label;
  std::string cov;  // coverage data file (coverage builds)
  double progress = 0;  // --progress S: report every S seconds on stderr (0: never)
};

// Progress of a run on stderr (make cosim): a bar redrawn on a terminal, else a line
// every `every` seconds. The clock is read once per 4096 cycles.
struct Progress {
  double every = 0;
  bool tty = false, drawn = false;
  std::chrono::steady_clock::time_point t0, last;
  explicit Progress(double s) : every(s), tty(isatty(2)) {
    t0 = last = std::chrono::steady_clock::now();
  }
  void tick(uint64_t c, uint64_t total) {
    if (every <= 0 || (c & 4095) || !c) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() < every) return;
    last = now;
    const double el = std::chrono::duration<double>(now - t0).count();
    const double rate = el > 0 ? c / el : 0, left = rate > 0 ? (total - c) / rate : 0;
    const double pct = 100.0 * c / total;
    if (tty) {
      char bar[31];
      const int n = static_cast<int>(pct * 30 / 100);
      for (int i = 0; i < 30; i++) bar[i] = i < n ? '#' : '.';
      bar[30] = 0;
      std::fprintf(stderr, "\r[%s] %5.1f %% cycle %" PRIu64 "/%" PRIu64 " %.0f cycles/s, %.0f s left ",
                   bar, pct, c, total, rate, left);
      drawn = true;
    } else {
      std::fprintf(stderr, "cosim: cycle %" PRIu64 " of %" PRIu64 " (%.0f %%), %.0f cycles/s, "
                   "%.0f s left\n", c, total, pct, rate, left);
    }
    std::fflush(stderr);
  }
  ~Progress() {
    if (drawn) std::fputc('\n', stderr);
  }
};

static const char *const kAssertFailed = "RTL assertion failed (see message above)";

struct Mismatch {
  uint64_t cycle;
  std::string what;
};

template <typename T>
static void zero(T &sig) {
  sig = T{};
}

// The port words start at zero; only the ports with something valid are written.
static void drive(Vasw_switch *top, const asw_inputs &in) {
  zero(top->in_valid_i);
  zero(top->in_head_i);
  zero(top->in_tail_i);
  zero(top->in_vc_i);
  zero(top->in_hdr_i);
  zero(top->in_payload_i);
  zero(top->cr_in_valid_i);
  zero(top->cr_in_vc_i);
  zero(top->arn_in_valid_i);
  zero(top->arn_in_data_i);
  zero(top->cnm_in_valid_i);
  zero(top->cnm_in_data_i);
  for (uint64_t m = in.flit_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    const asw_flit &f = in.flit[p];
    put(top->in_valid_i, p, 1, 1);
    put(top->in_head_i, p, 1, f.head);
    put(top->in_tail_i, p, 1, f.tail);
    put(top->in_vc_i, p * 3, 3, f.vc);
    put(top->in_hdr_i, p * 64, 64, f.hdr);
    put(top->in_payload_i, p * kPwe, kPwe, f.payload);
  }
  for (uint64_t m = in.credit_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    put(top->cr_in_valid_i, p, 1, 1);
    put(top->cr_in_vc_i, p * 3, 3, in.credit_vc[p]);
  }
  for (uint64_t m = in.arn_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    put(top->arn_in_valid_i, p, 1, 1);
    put(top->arn_in_data_i, p * 32, 32, in.arn[p]);
  }
  for (uint64_t m = in.cnm_mask; m; m &= m - 1) {  // §17.8 CNM lane from the peer on port p
    const unsigned p = __builtin_ctzll(m);
    put(top->cnm_in_valid_i, p, 1, 1);
    put(top->cnm_in_data_i, p * 64, 64, in.cnm[p]);
  }
  top->reg_en_i = in.reg_en;
  top->reg_we_i = in.reg_we;
  top->reg_addr_i = in.reg_addr;
  top->reg_wdata_i = in.reg_wdata;
}

// The outputs of one cycle as the switch's packed port words, built from the C model's
// (zero where nothing is valid): same() compares them with the RTL's word by word, and
// only when a word differs does compare() go field by field to name the difference.
template <typename T>
using Port = std::remove_reference_t<T>;
struct Expected {
  Port<decltype(Vasw_switch::out_valid_o)> ov{};
  Port<decltype(Vasw_switch::out_head_o)> oh{};
  Port<decltype(Vasw_switch::out_tail_o)> ot{};
  Port<decltype(Vasw_switch::out_vc_o)> ovc{};
  Port<decltype(Vasw_switch::out_hdr_o)> ohdr{};
  Port<decltype(Vasw_switch::out_payload_o)> opl{};
  Port<decltype(Vasw_switch::cr_out_valid_o)> cv{};
  Port<decltype(Vasw_switch::cr_out_vc_o)> cvc{};
  Port<decltype(Vasw_switch::arn_out_valid_o)> av{};
  Port<decltype(Vasw_switch::arn_out_data_o)> ad{};
  Port<decltype(Vasw_switch::cnm_valid_o)> qv{};
  Port<decltype(Vasw_switch::cnm_data_o)> qd{};
  Port<decltype(Vasw_switch::cnm_out_valid_o)> lv{};
  Port<decltype(Vasw_switch::cnm_out_data_o)> ld{};
  uint32_t rvalid = 0, rdata = 0;
};

// cnm_mask/cnm: the §17.4 CNM registers of the cycle (asw_switch_cnm).
static Expected expected(const asw_outputs &out, uint64_t cnm_mask, const uint64_t *cnm) {
  Expected e;
  for (uint64_t m = out.flit_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    const asw_flit &f = out.flit[p];
    put(e.ov, p, 1, 1);
    put(e.oh, p, 1, f.head);
    put(e.ot, p, 1, f.tail);
    put(e.ovc, p * 3, 3, f.vc);
    put(e.ohdr, p * 64, 64, f.hdr);
    put(e.opl, p * kPwe, kPwe, ASW_PW ? f.payload : 0);
  }
  for (uint64_t m = out.credit_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    put(e.cv, p, 1, 1);
    put(e.cvc, p * 3, 3, out.credit_vc[p]);
  }
  for (uint64_t m = out.arn_mask; m; m &= m - 1) {
    const unsigned p = __builtin_ctzll(m);
    put(e.av, p, 1, 1);
    put(e.ad, p * 32, 32, out.arn[p]);
  }
  for (uint64_t m = cnm_mask; m; m &= m - 1) {  // §17.4 CNM register of output p
    const unsigned p = __builtin_ctzll(m);
    put(e.qv, p, 1, 1);
    put(e.qd, p * 64, 64, cnm[p]);
  }
  for (uint64_t m = out.cnm_mask; m; m &= m - 1) {  // §17.8 CNM lane to the peer on port p
    const unsigned p = __builtin_ctzll(m);
    put(e.lv, p, 1, 1);
    put(e.ld, p * 64, 64, out.cnm[p]);
  }
  e.rvalid = out.reg_rvalid;
  e.rdata = out.reg_rvalid ? out.reg_rdata : 0;
  return e;
}

static bool same(Vasw_switch *top, const Expected &e) {
  return !(e.ov != top->out_valid_o || e.oh != top->out_head_o || e.ot != top->out_tail_o ||
           e.ovc != top->out_vc_o || e.ohdr != top->out_hdr_o || e.opl != top->out_payload_o ||
           e.cv != top->cr_out_valid_o || e.cvc != top->cr_out_vc_o ||
           e.av != top->arn_out_valid_o || e.ad != top->arn_out_data_o ||
           e.qv != top->cnm_valid_o || e.qd != top->cnm_data_o ||
           e.lv != top->cnm_out_valid_o || e.ld != top->cnm_out_data_o ||
           e.rvalid != top->reg_rvalid_o || e.rdata != top->reg_rdata_o);
}

// Names the first differing field, port by port; false and `what` filled if one differs.
static bool compare(Vasw_switch *top, const Expected &e, uint32_t read_addr, std::string &what) {
  char buf[256];
  // field of port p, w bits wide, in the expected and the RTL's port words
  auto check = [&](const char *field, unsigned p, const auto &exp, const auto &act, unsigned w) {
    const uint64_t x = get(exp, p * w, w), a = get(act, p * w, w);
    if (x == a) return true;
    std::snprintf(buf, sizeof buf, "port %u field %s expected 0x%" PRIx64 " actual 0x%" PRIx64,
                  p, field, x, a);
    what = buf;
    return false;
  };
  for (unsigned p = 0; p < ASW_P; p++)
    if (!check("out_valid", p, e.ov, top->out_valid_o, 1) ||
        !check("out_head", p, e.oh, top->out_head_o, 1) ||
        !check("out_tail", p, e.ot, top->out_tail_o, 1) ||
        !check("out_vc", p, e.ovc, top->out_vc_o, 3) ||
        !check("out_hdr", p, e.ohdr, top->out_hdr_o, 64) ||
        !check("out_payload", p, e.opl, top->out_payload_o, kPwe) ||
        !check("cr_out_valid", p, e.cv, top->cr_out_valid_o, 1) ||
        !check("cr_out_vc", p, e.cvc, top->cr_out_vc_o, 3) ||
        !check("arn_out_valid", p, e.av, top->arn_out_valid_o, 1) ||
        !check("arn_out_data", p, e.ad, top->arn_out_data_o, 32) ||
        !check("cnm_valid", p, e.qv, top->cnm_valid_o, 1) ||
        !check("cnm_data", p, e.qd, top->cnm_data_o, 64) ||
        !check("cnm_out_valid", p, e.lv, top->cnm_out_valid_o, 1) ||
        !check("cnm_out_data", p, e.ld, top->cnm_out_data_o, 64))
      return false;
  if (check("reg_rvalid", 0, e.rvalid, top->reg_rvalid_o, 1) &&
      check("reg_rdata", 0, e.rdata, top->reg_rdata_o, 32))
    return true;
  char addr[48];
  std::snprintf(addr, sizeof addr, " (read of register 0x%05x)", read_addr);
  what += addr;
  return false;
}

// §17.4 coverage of a run: samples (from the C model's QCN counters, CNT_CLEAR
// accounted for), CNMs compared on the outputs, and their q: 1..62 or saturated (63).
struct QcnCov {
  uint64_t samples = 0, cnms = 0, qsat = 0, qmid = 0;
  uint32_t last_samples[ASW_P] = {}, last_sent[ASW_P] = {};
  uint64_t sent = 0;  // cnm_sent counter total (equals cnms at the end)
};
static void qcn_account(const asw_switch *ref, QcnCov &q) {
  for (unsigned p = 0; p < ASW_P; p++) {
    uint32_t s = 0, c = 0;
    asw_reg_read(ref, ASW_REG_QCN_COUNTER(p, 1), &s);
    asw_reg_read(ref, ASW_REG_QCN_COUNTER(p, 0), &c);
    // a counter below its last value was cleared (the clearing cycle's increments are
    // lost in both the switch and this total, so the counts are lower bounds)
    q.samples += s >= q.last_samples[p] ? s - q.last_samples[p] : s;
    q.sent += c >= q.last_sent[p] ? c - q.last_sent[p] : c;
    q.last_samples[p] = s;
    q.last_sent[p] = c;
  }
}

// One complete run. trace_from < 0: no waveform. Returns true on PASS.
static bool run(const Options &o, int64_t trace_from, Mismatch &mm, uint64_t &cycles_run,
                tb_stats &stats, std::string &end_msg, std::string &arn_line, QcnCov &qcov) {
  asw_config cfg{};
  cfg.ports = ASW_P;
  cfg.vcs = ASW_V;
  cfg.buf_flits = ASW_BUF;
  cfg.max_packet = ASW_LMAX;
  cfg.payload_bits = ASW_PW;
  cfg.dest_bits = ASW_DW;
  cfg.table_entries = ASW_TABLE;
  cfg.voq = ASW_VOQ;
  cfg.iters = ASW_ITERS;
  cfg.arn_entries = ASW_AE;
  asw_config_set_features(&cfg, ASW_FEATURES);
  cfg.sar_entries = ASW_SE;
  cfg.sa_pipe = ASW_SAPIPE;
  char err[256] = "";
  asw_switch *ref = asw_switch_new(&cfg, err, sizeof err);
  if (!ref) {
    std::fprintf(stderr, "cosim: C model rejects the configuration: %s\n", err);
    std::exit(2);
  }
  tb_traffic *tb = tb_new(&cfg, &o.opt, err, sizeof err);
  if (!tb) {
    std::fprintf(stderr, "cosim: %s\n", err);
    std::exit(2);
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  auto top = std::make_unique<Vasw_switch>(ctx.get(), "top");
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tfp;
  if (trace_from >= 0) ctx->traceEverOn(true);
#endif
  // Asynchronous reset, released after the first clock edge (tb/clock_edge.h: that edge
  // loads cycle 0's inputs into the input registers).
  tb_reset(top.get());
  // One clock edge: the input registers take the cycle's inputs, the switch ends the
  // previous cycle (its assertions about that cycle fire here); then it shows cycle c.
  uint64_t edges = 0;
  auto edge = [&]() {
    tb_clock_edge(top.get(), edges++, [&](uint64_t time) {
#if VM_TRACE
      if (tfp) tfp->dump(time);
#else
      (void)time;
#endif
    });
  };

  asw_flit oflit[ASW_P];
  uint8_t ocr[ASW_P];
  uint32_t oarn[ASW_P];
  uint64_t olane[ASW_P];
  asw_outputs out{};
  bool ok = true;
  uint64_t c = 0;
  uint32_t read_addr = 0;  // address of the read issued in the previous cycle
  bool proto_seen = false;
  Progress prog(trace_from < 0 ? o.progress : 0);
  for (; c < o.opt.cycles; c++) {
    prog.tick(c, o.opt.cycles);
#if VM_TRACE
    if (trace_from >= 0 && !tfp && static_cast<int64_t>(c) >= trace_from) {
      tfp = std::make_unique<VerilatedFstC>();
      top->trace(tfp.get(), 99);
      tfp->open(o.fst.c_str());
    }
#endif
    asw_inputs in;
    tb_inputs(tb, c, &in);
    uint64_t up, rx_up;  // §18.1 link pins of the cycle, both sides
    tb_link_pins(tb, &up, &rx_up);
    if (asw_switch_set_link_up(ref, up, rx_up) != ASW_OK) {
      std::fprintf(stderr, "cosim: %s\n", asw_switch_error(ref));
      std::exit(2);
    }
    for (unsigned p = 0; p < ASW_P; p++) {
      put(top->link_up_i, p, 1, up >> p & 1u);
      put(top->link_rx_up_i, p, 1, rx_up >> p & 1u);
    }
    tb_observe(tb, ref, c, &in);
    drive(top.get(), in);
    edge();
    if (c > 0 && ctx->gotError()) {
      mm = {c - 1, kAssertFailed};
      ok = false;
      break;
    }
    // §17.4: the CNM registers of this cycle (the C model's state at its start)
    uint64_t cnm[ASW_P];
    const uint64_t cnm_mask = asw_switch_cnm(ref, cnm);
    for (uint64_t m = cnm_mask; m; m &= m - 1) {
      const unsigned q = ASW_CNM_FB(cnm[__builtin_ctzll(m)]);
      qcov.cnms++;
      if (q == 63) qcov.qsat++;
      else qcov.qmid++;
    }
    if (o.opt.qcn) qcn_account(ref, qcov);
    std::memset(&out, 0, sizeof out);
    out.flit = oflit;
    out.credit_vc = ocr;
    out.arn = oarn;
    out.cnm = olane;
    const int rc = asw_switch_step(ref, &in, &out);
    if (rc != ASW_OK) {
      // Let the RTL end the same cycle: its assertions must flag it as well.
      edge();
      const bool rtl_flag = ctx->gotError();
      if (o.opt.scenario == TB_SCEN_PROTO && rc == ASW_EPROTO && rtl_flag &&
          c == tb_proto_cycle(tb)) {
        proto_seen = true;
        std::printf("protocol violation at cycle %" PRIu64 " flagged by both: %s\n", c,
                    asw_switch_error(ref));
        c++;
        break;
      }
      mm = {c, std::string("C model step error: ") + asw_switch_error(ref) +
                   (rtl_flag ? " (RTL assertion too)" : " (RTL did not flag it)")};
      ok = false;
      break;
    }
    const Expected e = expected(out, cnm_mask, cnm);
    if (!same(top.get(), e)) {
      std::string what;
      if (compare(top.get(), e, read_addr, what))
        what = "output port words differ, but no field does (harness error)";
      mm = {c, what};
      ok = false;
      break;
    }
    tb_outputs(tb, c, &out);
    read_addr = in.reg_en && !in.reg_we ? in.reg_addr : 0;
  }
  if (ok && !proto_seen && c > 0) {  // the last cycle's end: its assertions
    edge();
    if (ctx->gotError()) {
      mm = {c - 1, kAssertFailed};
      ok = false;
    }
  }
  cycles_run = c;
#if VM_TRACE
  if (tfp) tfp->close();
#endif
  tb_get_stats(tb, &stats);
  char rep[512];
  tb_arn_report(tb, rep, sizeof rep);
  arn_line = rep;
  if (o.opt.linkfault > 0) {
    tb_link_report(tb, rep, sizeof rep);
    arn_line += "\n";
    arn_line += rep;
  }
  if (o.opt.hash) {
    tb_hash_report(tb, rep, sizeof rep);
    arn_line += "\n";
    arn_line += rep;
  }
  if (o.opt.gap) {
    tb_gap_report(tb, rep, sizeof rep);
    arn_line += "\n";
    arn_line += rep;
  }
  if (o.opt.vcadapt) {
    tb_vcadapt_report(tb, rep, sizeof rep);
    arn_line += "\n";
    arn_line += rep;
  }
  if (o.opt.sar) {
    tb_sar_report(tb, rep, sizeof rep);
    arn_line += "\n";
    arn_line += rep;
  }
  if (ok && o.opt.scenario == TB_SCEN_PROTO) {
    if (!proto_seen) {
      ok = false;
      mm = {c, "the injected protocol violation was not flagged"};
    }
  } else if (ok) {
    char msg[256];
    if (tb_check_end(tb, msg, sizeof msg) != 0) {
      end_msg = msg;
      ok = false;
      mm = {c, std::string("end check: ") + msg};
    }
  }
  top->final();
#if VM_COVERAGE
  if (!o.cov.empty()) ctx->coveragep()->write(o.cov.c_str());
#endif
  tb_free(tb);
  asw_switch_free(ref);
  return ok;
}

static void usage() {
  std::fprintf(stderr,
               "usage: cosim [--routing det|obl|ada|th|2th] [--vcmap id|sl|obqa|afi|obqa-afi]\n"
               "             [--scen %s]\n"
               "             [--arn off|arn|afi|adaptive-th-afi] [--hcdth N] [--lcdth N] [--fcth N]\n"
               "             [--crt N] [--ttl N] [--up MASK] [--stage N] [--linkfault R]\n"
               "             [--seed N] [--cycles N] [--window N] [--fst FILE] [--label S] [--progress S]\n",
               tb_scenario_list());
}

int main(int argc, char **argv) {
  Options o;
  tb_opts_default(&o.opt);
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
    char err[512];
    const int r = tb_parse_opt(&o.opt, argv[i], v, err, sizeof err);
    if (r < 0) {
      std::fprintf(stderr, "cosim: %s\n", err);
      return 2;
    }
    if (r > 0) {
      i++;
      continue;
    }
    auto need = [&]() {
      if (!v) {
        std::fprintf(stderr, "cosim: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      i++;
      return std::string(v);
    };
    auto number = [&](const std::string &s) {
      char *end = nullptr;
      errno = 0;
      const unsigned long long n = std::strtoull(s.c_str(), &end, 0);
      if (s.empty() || *end || errno || s[0] == '-') {
        std::fprintf(stderr, "cosim: %s: not a number: '%s'\n", a.c_str(), s.c_str());
        std::exit(2);
      }
      return static_cast<uint64_t>(n);
    };
    if (a == "--window") {
      o.window = number(need());
    } else if (a == "--fst") {
      o.fst = need();
    } else if (a == "--cov") {
      o.cov = need();
    } else if (a == "--label") {
      o.label = need();
    } else if (a == "--progress") {
      o.progress = std::strtod(need().c_str(), nullptr);
    } else {
      usage();
      return 2;
    }
  }
  std::printf("cosim %s P=%u V=%u BUF=%u LMAX=%u PW=%u DW=%u TABLE=%u VOQ=%u ITERS=%u AE=%u "
              "SE=%u routing=%s vcmap=%s scen=%s arn=%s seed=%" PRIu64 "\n",
              o.label.c_str(), ASW_P, ASW_V, ASW_BUF, ASW_LMAX, ASW_PW, ASW_DW, ASW_TABLE,
              ASW_VOQ, ASW_ITERS, ASW_AE, ASW_SE, tb_routing_name(o.opt.routing), tb_vcmap_name(o.opt.vcmap),
              tb_scenario_name(o.opt.scenario), tb_arn_name(o.opt.arn), o.opt.seed);
  Mismatch mm{};
  uint64_t cycles = 0;
  tb_stats st{};
  std::string end_msg, arn_line;
  const auto t0 = std::chrono::steady_clock::now();
  QcnCov qcov;
  const bool ok = run(o, -1, mm, cycles, st, end_msg, arn_line, qcov);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cycles %" PRIu64 " flits %" PRIu64 " packets %" PRIu64 " reg reads %" PRIu64
              " writes %" PRIu64 " fills %" PRIu64 " drains %" PRIu64 " time %.2f s (%.0f cycles/s)\n",
              cycles, st.flits_sent, st.packets_sent, st.reg_reads, st.reg_writes, st.fills,
              st.drains, secs,
              secs > 0 ? cycles / secs : 0.0);
  std::printf("%s\n", arn_line.c_str());
  if (o.opt.qcn) {
    const uint64_t q0 = qcov.samples > qcov.sent ? qcov.samples - qcov.sent : 0;
    std::printf("qcn samples %" PRIu64 " q0 %" PRIu64 " cnms %" PRIu64 " qmid %" PRIu64
                " qsat %" PRIu64 "\n", qcov.samples, q0, qcov.cnms, qcov.qmid, qcov.qsat);
  }
  if (ok) {
    std::printf("PASS\n");
    return 0;
  }
  std::printf("MISMATCH at cycle %" PRIu64 ": %s\n", mm.cycle, mm.what.c_str());
#if VM_TRACE
  if (mm.what.rfind("end check", 0) != 0) {
    Mismatch again{};
    uint64_t c2 = 0;
    tb_stats st2{};
    std::string m2, a2;
    QcnCov q2;
    const int64_t from = mm.cycle > o.window ? static_cast<int64_t>(mm.cycle - o.window) : 0;
    run(o, from, again, c2, st2, m2, a2, q2);
    std::printf("waveform of cycles %" PRId64 "..%" PRIu64 " in %s\n", from, c2, o.fst.c_str());
  }
#endif
  std::printf("FAIL\n");
  return 1;
}
