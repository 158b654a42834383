// cosim_net.cpp — a fat-tree of RTL switches in lockstep with the same network in
// the C model (cmodel/net/). One Verilator twin per C switch: the register writes
// the table generator makes to switch s are replayed on twin s's register bus
// (one per cycle, every twin padded to the same programming length), and every
// step of C switch s drives the same inputs into twin s and compares all its
// outputs. Cycles in which the network does not step a switch are idle for it:
// the twin is stepped with no inputs and its outputs must be empty. So every
// twin sees exactly the inputs it would see in an all-RTL network. At the end,
// every twin is brought up to the last cycle the same way and its counters are
// read over the register bus and summed against the network's. The first
// difference stops the run (cycle, switch, port, field, expected, actual); the
// run is then repeated with an FST of that switch's last --window cycles.
// The switch parameters are fixed at build time (-DASW_P=... matching -G...).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vasw_switch.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "../arn/bits.h"     // setb / getb on Verilator ports of any width
#include "../clock_edge.h"  // tb_reset, tb_clock_edge (shared with tb/cosim_main.cpp)
#include "netref.h"

#ifndef ASW_P
#error "build with -DASW_P=... (see tb/net/cosim_net.py)"
#endif
#ifndef ASW_SE
#define ASW_SE 0  // §17.8 Switch AR entries (cosim_net.py passes the network's)
#endif
static constexpr unsigned kPwe = ASW_PW == 0 ? 1 : ASW_PW;

namespace {

// The per-port outputs of a switch, as one row of values.
enum Field { OV, OH, OT, OVC, OHDR, OPAY, CRV, CRVC, ARV, ARD, LV, LD, kFields };
const char *const kFieldName[kFields] = {"out_valid",    "out_head",  "out_tail",
                                         "out_vc",       "out_hdr",   "out_payload",
                                         "cr_out_valid", "cr_out_vc", "arn_out_valid",
                                         "arn_out_data", "cnm_out_valid", "cnm_out_data"};

void expected_row(const asw_outputs *o, unsigned p, uint64_t r[kFields]) {
  std::memset(r, 0, sizeof(uint64_t) * kFields);
  if (!o) return;
  if ((o->flit_mask >> p) & 1) {
    const asw_flit &f = o->flit[p];
    r[OV] = 1, r[OH] = f.head, r[OT] = f.tail, r[OVC] = f.vc, r[OHDR] = f.hdr;
    r[OPAY] = ASW_PW ? f.payload : 0;
  }
  if ((o->credit_mask >> p) & 1) r[CRV] = 1, r[CRVC] = o->credit_vc[p];
  if ((o->arn_mask >> p) & 1) r[ARV] = 1, r[ARD] = o->arn[p];
  // §17.8 CNM lane (SE = 0: never valid)
  if ((o->cnm_mask >> p) & 1) r[LV] = 1, r[LD] = o->cnm ? o->cnm[p] : 0;
}

void actual_row(const Vasw_switch *t, unsigned p, uint64_t r[kFields]) {
  r[OV] = getb(t->out_valid_o, p, 1);
  r[OH] = getb(t->out_head_o, p, 1);
  r[OT] = getb(t->out_tail_o, p, 1);
  r[OVC] = getb(t->out_vc_o, p * 3, 3);
  r[OHDR] = getb(t->out_hdr_o, p * 64, 64);
  r[OPAY] = getb(t->out_payload_o, p * kPwe, kPwe);
  r[CRV] = getb(t->cr_out_valid_o, p, 1);
  r[CRVC] = getb(t->cr_out_vc_o, p * 3, 3);
  r[ARV] = getb(t->arn_out_valid_o, p, 1);
  r[ARD] = getb(t->arn_out_data_o, p * 32, 32);
  r[LV] = getb(t->cnm_out_valid_o, p, 1);
  r[LD] = getb(t->cnm_out_data_o, p * 64, 64);
}

// The inputs of one cycle (in may be NULL: idle), register access included.
void drive(Vasw_switch *t, const asw_inputs *in) {
  for (unsigned p = 0; p < ASW_P; p++) {
    const bool fv = in && ((in->flit_mask >> p) & 1);
    const asw_flit f = fv ? in->flit[p] : asw_flit{};
    setb(t->in_valid_i, p, 1, fv);
    setb(t->in_head_i, p, 1, f.head);
    setb(t->in_tail_i, p, 1, f.tail);
    setb(t->in_vc_i, p * 3, 3, f.vc);
    setb(t->in_hdr_i, p * 64, 64, f.hdr);
    setb(t->in_payload_i, p * kPwe, kPwe, f.payload);
    const bool cv = in && ((in->credit_mask >> p) & 1);
    setb(t->cr_in_valid_i, p, 1, cv);
    setb(t->cr_in_vc_i, p * 3, 3, cv ? in->credit_vc[p] : 0);
    const bool av = in && ((in->arn_mask >> p) & 1);
    setb(t->arn_in_valid_i, p, 1, av);
    setb(t->arn_in_data_i, p * 32, 32, av ? in->arn[p] : 0);
    const bool lv = in && ((in->cnm_mask >> p) & 1);  // §17.8 CNM lane from the peer
    setb(t->cnm_in_valid_i, p, 1, lv);
    setb(t->cnm_in_data_i, p * 64, 64, lv ? in->cnm[p] : 0);
  }
  t->reg_en_i = in ? in->reg_en : 0;
  t->reg_we_i = in ? in->reg_we : 0;
  t->reg_addr_i = in ? in->reg_addr : 0;
  t->reg_wdata_i = in ? in->reg_wdata : 0;
}

// Register reads of the final sweep (contract §11, §15.8, §16.2, §18.4): every counter, occupancy,
// credit count, the ARN state, the BUBBLE registers and counters, the configuration registers.
std::vector<uint32_t> sweep_addrs() {
  std::vector<uint32_t> a = {ASW_REG_ID,        ASW_REG_PARAM0,       ASW_REG_PARAM1,
                             ASW_REG_PARAM2,    ASW_REG_ROUTE_CTRL,   ASW_REG_VC_CTRL,
                             ASW_REG_THRESH,    ASW_REG_LFSR_SEED,    ASW_REG_DEFAULT_PORT,
                             ASW_REG_REG_ERRORS};
  const unsigned nq = ASW_VOQ ? ASW_P : 1;
  for (unsigned p = 0; p < ASW_P; p++) {
    for (unsigned k = 0; k < 8; k++) a.push_back(ASW_REG_COUNTER(p, k));
    for (unsigned v = 0; v < ASW_V; v++) {
      a.push_back(ASW_REG_CRED(p, v));
      for (unsigned q = 0; q < nq; q++) a.push_back(ASW_REG_OCC(p, v, q));
    }
  }
  for (uint32_t r = ASW_REG_LINK_DOWN(0); r < ASW_REG_LINK_COUNTER(ASW_LCNT_NUM); r++)
    a.push_back(r);  // §18.4, always mapped
  for (unsigned p = 0; p < ASW_P; p++) {  // §16.2, always mapped: ring registers and counters
    a.push_back(ASW_REG_BUBBLE(p));
    for (unsigned k = 0; k < ASW_BCNT_NUM; k++) a.push_back(ASW_REG_BUBBLE_COUNTER(p, k));
  }
  // §17.4, always mapped: QCN registers, counters and queue lengths
  for (uint32_t r = ASW_REG_QCN_CTRL; r <= ASW_REG_QCN_SEED; r++) a.push_back(r);
  for (unsigned p = 0; p < ASW_P; p++) {
    for (unsigned k = 0; k < 2; k++) a.push_back(ASW_REG_QCN_COUNTER(p, k));
    a.push_back(ASW_REG_QCN_QLEN(p));
  }
  if (ASW_SE) {  // §17.8: registers, counters, table view
    for (uint32_t r = ASW_REG_SAR_CTRL; r <= ASW_REG_SAR_SEED; r++) a.push_back(r);
    a.push_back(ASW_REG_PARAM3);
    for (unsigned p = 0; p < ASW_P; p++)
      for (unsigned k = 0; k < ASW_SCNT_NUM; k++) a.push_back(ASW_REG_SAR_COUNTER(p, k));
    for (unsigned e = 0; e < ASW_SE; e++)
      for (unsigned w = 0; w < 2; w++) a.push_back(ASW_REG_SAR_ENTRY(e, w));
  }
  if (ASW_AE) {
    for (uint32_t r = ASW_REG_ARN_CTRL; r <= ASW_REG_ARN_TTL; r++) a.push_back(r);
    for (unsigned p = 0; p < ASW_P; p++) {
      for (unsigned k = 0; k < ASW_ACNT_NUM; k++) a.push_back(ASW_REG_ARN_COUNTER(p, k));
      for (unsigned w = 0; w < 2; w++) a.push_back(ASW_REG_ROOT(p, w));
    }
    for (unsigned e = 0; e < ASW_AE; e++)
      for (unsigned w = 0; w < 4; w++) a.push_back(ASW_REG_ARN_ENTRY(e, w));
  }
  return a;
}

struct Twin {
  std::unique_ptr<Vasw_switch> top;
  uint64_t cycle = 0;  // twin cycles done (programming included)
  uint32_t read_addr = 0;  // register read issued in the previous cycle (messages)
  // §17.4: the C switch's CNM registers after its last step (this twin's next cycle)
  uint64_t cnm_mask = 0;
  uint64_t cnm[ASW_P] = {};
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  uint64_t up = ~0ULL, rx_up = ~0ULL;  // §18.1 link pins (bits < P used)
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst;
#endif
};

struct Mismatch {
  bool found = false;
  unsigned sw = 0;
  uint64_t twin_cycle = 0;
  std::string what;
};

struct Stats {
  uint64_t twin_cycles = 0, flits = 0, credits = 0, arns = 0, idle = 0, reads = 0;
  uint64_t link_changes = 0, fm_writes = 0;  // §18.6: pin changes, writes during the run
  uint64_t cnms = 0, cnm_qsat = 0;  // §17.4 CNMs compared, of which q = 63
  uint64_t lane = 0;                // §17.8 words compared on the CNM lanes (cnm_out)
};

// One run of the network with its twins. trace_sw < 0: no waveform.
class Harness {
 public:
  Harness(std::vector<char *> settings, int trace_sw, uint64_t trace_from, std::string fst)
      : settings_(std::move(settings)), trace_sw_(trace_sw), trace_from_(trace_from),
        fst_(std::move(fst)) {}
  ~Harness() {
    tw_.clear();
    ctx_.reset();
    netref_free(net_);
  }
  Harness(const Harness &) = delete;
  Harness &operator=(const Harness &) = delete;

  // 0 pass, 1 mismatch/failure, 2 bad settings.
  int run();
  const Mismatch &mismatch() const { return mm_; }
  const Stats &stats() const { return st_; }
  const netref_counts &counts() const { return counts_; }
  uint64_t prog() const { return prog_; }
  unsigned switches() const { return static_cast<unsigned>(tw_.size()); }
  const std::string &error() const { return err_; }

 private:
  static void on_write(void *ctx, unsigned s, uint32_t addr, uint32_t data) {
    auto *h = static_cast<Harness *>(ctx);
    if (s >= h->tw_.size()) h->tw_.resize(s + 1);
    h->tw_[s].writes.emplace_back(addr, data);
  }
  // §18.6: the pins of switch s change in network cycle `cycle`: the twin first idles up to
  // it with the old ones.
  static void on_link(void *ctx, unsigned s, uint64_t cycle, uint64_t up, uint64_t rx_up) {
    auto *h = static_cast<Harness *>(ctx);
    if (h->mm_.found || !h->step_to(s, h->prog_ + cycle)) return;  // on_step reports it
    h->tw_[s].up = up;
    h->tw_[s].rx_up = rx_up;
    h->st_.link_changes++;
  }
  static int on_step(void *ctx, unsigned s, uint64_t cycle, const asw_inputs *in,
                     const asw_outputs *out, char *err, size_t errlen) {
    auto *h = static_cast<Harness *>(ctx);
    if (in->reg_en && in->reg_we) h->st_.fm_writes++;  // the fabric manager's (§18.6)
    if (h->mm_.found || !h->step_to(s, h->prog_ + cycle) || !h->tick(s, in, out)) {
      std::snprintf(err, errlen, "%s", h->mm_.what.c_str());
      return 1;
    }
    return 0;
  }
  bool tick(unsigned s, const asw_inputs *in, const asw_outputs *out);
  bool step_to(unsigned s, uint64_t twin_cycle);
  bool fail(unsigned s, const std::string &what);
  bool fail_at(unsigned s, uint64_t twin_cycle, const std::string &what);
  bool sweep(unsigned s);
  void edge(unsigned s);

  std::vector<char *> settings_;
  int trace_sw_;
  uint64_t trace_from_;
  std::string fst_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::vector<Twin> tw_;
  uint64_t prog_ = 0;
  netref *net_ = nullptr;
  netref_counts counts_{};
  Mismatch mm_;
  Stats st_;
  std::string err_;
};

std::string twin_where(unsigned s, uint64_t twin_cycle, uint64_t prog) {
  char b[128];
  if (twin_cycle < prog)
    std::snprintf(b, sizeof b, "programming cycle %" PRIu64 " (twin cycle %" PRIu64 "), switch %u",
                  twin_cycle, twin_cycle, s);
  else
    std::snprintf(b, sizeof b, "cycle %" PRIu64 " (twin cycle %" PRIu64 "), switch %u",
                  twin_cycle - prog, twin_cycle, s);
  return b;
}

bool Harness::fail(unsigned s, const std::string &what) { return fail_at(s, tw_[s].cycle, what); }

bool Harness::fail_at(unsigned s, uint64_t twin_cycle, const std::string &what) {
  if (!mm_.found) {
    mm_.found = true;
    mm_.sw = s;
    mm_.twin_cycle = twin_cycle;
    mm_.what = twin_where(s, twin_cycle, prog_) + " (stage " +
               std::to_string(netref_stage(net_, s)) + "): " + what;
  }
  return false;
}

const char *const kAssertFailed = "RTL assertion failed (see the message above)";

// One clock edge of twin s (tb/cosim_top.sv: the switch behind registered input pins):
// the input registers take the pins driven for its next cycle, the switch ends the cycle
// before (its assertions about that cycle fire here). The first edge is taken in reset.
void Harness::edge(unsigned s) {
  Twin &t = tw_[s];
  tb_clock_edge(t.top.get(), t.cycle, [&](uint64_t time) {
#if VM_TRACE
    if (t.fst) t.fst->dump(time);
#else
    (void)time;
#endif
  });
}

// One cycle of twin s: inputs (NULL: none), clock edge, compare with out (NULL: all
// empty).
bool Harness::tick(unsigned s, const asw_inputs *in, const asw_outputs *out) {
  Twin &t = tw_[s];
  Vasw_switch *top = t.top.get();
#if VM_TRACE
  if (static_cast<int>(s) == trace_sw_ && !t.fst && t.cycle >= trace_from_) {
    t.fst = std::make_unique<VerilatedFstC>();
    top->trace(t.fst.get(), 99);
    t.fst->open(fst_.c_str());
  }
#endif
  drive(top, in);
  for (unsigned p = 0; p < ASW_P; p++) {
    setb(top->link_up_i, p, 1, t.up >> p & 1u);
    setb(top->link_rx_up_i, p, 1, t.rx_up >> p & 1u);
  }
  edge(s);
  if (t.cycle > 0 && ctx_->gotError())
    return fail_at(s, t.cycle - 1, kAssertFailed);
  uint64_t e[kFields], a[kFields];
  for (unsigned p = 0; p < ASW_P; p++) {
    expected_row(out, p, e);
    actual_row(top, p, a);
    for (unsigned f = 0; f < kFields; f++)
      if (e[f] != a[f]) {
        char b[160];
        std::snprintf(b, sizeof b, "port %u field %s expected 0x%" PRIx64 " actual 0x%" PRIx64, p,
                      kFieldName[f], e[f], a[f]);
        return fail(s, b);
      }
    st_.flits += e[OV];
    st_.credits += e[CRV];
    st_.arns += e[ARV];
    st_.lane += e[LV];
  }
  for (unsigned p = 0; p < ASW_P; p++) {  // §17.4 CNM registers
    const uint64_t ev = (t.cnm_mask >> p) & 1, ed = ev ? t.cnm[p] : 0;
    const uint64_t av = getb(top->cnm_valid_o, p, 1), ad = getb(top->cnm_data_o, p * 64, 64);
    if (ev != av || ed != ad) {
      char b[160];
      std::snprintf(b, sizeof b, "port %u field cnm_valid/cnm_data expected %" PRIu64 "/0x%016"
                    PRIx64 " actual %" PRIu64 "/0x%016" PRIx64, p, ev, ed, av, ad);
      return fail(s, b);
    }
    st_.cnms += ev;
    st_.cnm_qsat += ev && ASW_CNM_FB(ed) == 63;
  }
  // after a step of the C switch (out given) its CNM registers are the next cycle's
  t.cnm_mask = out ? netref_cnm(net_, s, t.cnm) : 0;
  const uint64_t rv = out ? out->reg_rvalid : 0, rd = rv ? out->reg_rdata : 0;
  if (rv != top->reg_rvalid_o || rd != top->reg_rdata_o) {
    char b[128];
    std::snprintf(b, sizeof b, "field reg_rvalid/reg_rdata expected %" PRIu64 "/0x%08" PRIx64
                  " actual %u/0x%08x (read of register 0x%05x)", rv, rd, top->reg_rvalid_o,
                  top->reg_rdata_o, t.read_addr);
    return fail(s, b);
  }
  t.read_addr = in && in->reg_en && !in->reg_we ? in->reg_addr : 0;
  t.cycle++;
  st_.twin_cycles++;
  return true;
}

// Steps twin s with no inputs until it has done `twin_cycle` cycles.
bool Harness::step_to(unsigned s, uint64_t twin_cycle) {
  while (tw_[s].cycle < twin_cycle) {
    if (!tick(s, nullptr, nullptr)) return false;
    st_.idle++;
  }
  return true;
}

// After the run: C switch s and twin s stepped together through a read of every
// register of sweep_addrs() (one per cycle), all outputs compared as before.
bool Harness::sweep(unsigned s) {
  static const std::vector<uint32_t> addrs = sweep_addrs();
  asw_flit oflit[ASW_P];
  uint8_t ocr[ASW_P];
  uint32_t oarn[ASW_P];
  for (size_t k = 0; k <= addrs.size(); k++) {
    asw_inputs in{};
    in.reg_en = k < addrs.size();
    in.reg_addr = in.reg_en ? addrs[k] : 0;
    asw_outputs out{};
    out.flit = oflit;
    out.credit_vc = ocr;
    out.arn = oarn;
    if (netref_step(net_, s, &in, &out) != ASW_OK) return fail(s, "C switch step failed");
    if (!tick(s, &in, &out)) return false;
    st_.reads += in.reg_en;
  }
  return true;
}

int Harness::run() {
  char err[8192] = "";
  net_observer obs{this, on_write, on_step, on_link};
  net_ = netref_new(static_cast<int>(settings_.size()), settings_.data(), &obs, err, sizeof err);
  if (!net_) {
    err_ = err;
    return 2;
  }
  asw_config c{};
  netref_switch_config(net_, &c);
  const unsigned want[] = {ASW_P, ASW_V, ASW_BUF, ASW_LMAX, ASW_PW, ASW_DW, ASW_TABLE, ASW_VOQ,
                           ASW_ITERS, ASW_AE, ASW_SE, ASW_FEATURES};
  const unsigned got[] = {c.ports,        c.vcs, c.buf_flits, c.max_packet, c.payload_bits,
                          c.dest_bits, c.table_entries, c.voq, c.iters, c.arn_entries,
                          c.sar_entries, asw_config_features(&c)};
  if (std::memcmp(want, got, sizeof want) != 0) {
    err_ = "the network's switch parameters differ from this build's (rebuild via cosim_net.py)";
    return 2;
  }
  tw_.resize(netref_switches(net_));
  ctx_ = std::make_unique<VerilatedContext>();
  ctx_->fatalOnError(false);
#if VM_TRACE
  if (trace_sw_ >= 0) ctx_->traceEverOn(true);
#endif
  for (size_t s = 0; s < tw_.size(); s++) {
    Twin &t = tw_[s];
    const std::string name = "sw" + std::to_string(s);  // one scope name per model
    t.top = std::make_unique<Vasw_switch>(ctx_.get(), name.c_str());
    prog_ = std::max<uint64_t>(prog_, t.writes.size());
    // Asynchronous reset, released after the first clock edge (tb/clock_edge.h: that
    // edge loads the first cycle's inputs into the input registers).
    tb_reset(t.top.get());
  }
  int rc = 0;
  // Programming: twin s replays its writes one per cycle, then idles up to prog_.
  for (unsigned s = 0; s < tw_.size() && !rc; s++) {
    for (const auto &w : tw_[s].writes) {
      asw_inputs in{};
      in.reg_en = in.reg_we = 1;
      in.reg_addr = w.first;
      in.reg_wdata = w.second;
      if (!tick(s, &in, nullptr)) {
        rc = 1;
        break;
      }
    }
    if (!rc && !step_to(s, prog_)) rc = 1;
  }
  if (!rc && netref_run(net_, err, sizeof err) != 0) {
    rc = 1;
    if (!mm_.found) err_ = err;  // a failure of the network itself
  }
  netref_counts_get(net_, &counts_);
  // Every twin up to the last cycle the network ran, then the register sweep.
  for (unsigned s = 0; s < tw_.size() && !rc; s++)
    if (!step_to(s, prog_ + counts_.cycles_run) || !sweep(s)) rc = 1;
  // The last cycle's end: its assertions.
  for (unsigned s = 0; s < tw_.size() && !rc; s++) {
    drive(tw_[s].top.get(), nullptr);
    edge(s);
    if (tw_[s].cycle > 0 && ctx_->gotError()) {
      fail_at(s, tw_[s].cycle - 1, kAssertFailed);
      rc = 1;
    }
  }
  for (auto &t : tw_) {
#if VM_TRACE
    if (t.fst) t.fst->close();
#endif
    t.top->final();
  }
  return rc;
}

void usage() {
  std::fprintf(stderr,
               "usage: cosim_net [--window N] [--fst FILE] [--label S] [--progress S] key=value ...\n"
               "  key=value: the network's settings (see `asw net --help`)\n");
}

}  // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  uint64_t window = 200;
  std::string fst = "cosim_net_fail.fst", label = "cosim_net";
  std::vector<char *> settings;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if ((a == "--window" || a == "--fst" || a == "--label" || a == "--progress") && i + 1 < argc) {
      const char *v = argv[++i];
      if (a == "--window") window = std::strtoull(v, nullptr, 0);
      else if (a == "--progress") netref_progress(std::strtod(v, nullptr));
      else if (a == "--fst") fst = v;
      else label = v;
    } else if (a.find('=') != std::string::npos && a[0] != '-') {
      settings.push_back(argv[i]);
    } else {
      usage();
      return 2;
    }
  }
  std::printf("cosim_net %s: P=%u V=%u BUF=%u LMAX=%u PW=%u DW=%u TABLE=%u VOQ=%u ITERS=%u AE=%u"
              "%s\n", label.c_str(), ASW_P, ASW_V, ASW_BUF, ASW_LMAX, ASW_PW, ASW_DW, ASW_TABLE,
              ASW_VOQ, ASW_ITERS, ASW_AE, ASW_SE ? (" SE=" + std::to_string(ASW_SE)).c_str() : "");
  const auto t0 = std::chrono::steady_clock::now();
  auto hp = std::make_unique<Harness>(settings, -1, 0, fst);
  Harness &h = *hp;
  const int rc = h.run();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc == 2) {
    std::fprintf(stderr, "cosim_net: %s\n", h.error().c_str());
    return 2;
  }
  const netref_counts &c = h.counts();
  const Stats &st = h.stats();
  std::printf("cycles %" PRIu64 " switches %u programming %" PRIu64 " twin-cycles %" PRIu64
              " (idle %" PRIu64 ") flits %" PRIu64 " credits %" PRIu64 " arn-msgs %" PRIu64
              " reg-reads %" PRIu64 " packets %" PRIu64 "/%" PRIu64 " time %.2f s (%.0f cycles/s)\n",
              c.cycles_run, h.switches(), h.prog(), st.twin_cycles, st.idle, st.flits, st.credits,
              st.arns, st.reads, c.packets_delivered, c.packets_generated, secs,
              secs > 0 ? c.cycles_run / secs : 0.0);
  std::printf("counters route_errors %" PRIu64 " credit_stalls %" PRIu64 " adaptive %" PRIu64 "\n",
              c.route_errors, c.credit_stalls, c.adaptive_decisions);
  std::printf("arn roots %" PRIu64 " sent %" PRIu64 " received %" PRIu64 " consumed %" PRIu64
              " expired %" PRIu64 " adapted %" PRIu64 " in_dropped %" PRIu64 " out_dropped %" PRIu64
              " evicted %" PRIu64 " at_end_nodes %" PRIu64 "\n",
              c.arn[ASW_ACNT_ROOTS], c.arn[ASW_ACNT_SENT], c.arn[ASW_ACNT_RECEIVED],
              c.arn[ASW_ACNT_CONSUMED], c.arn[ASW_ACNT_EXPIRED], c.arn[ASW_ACNT_ADAPTED],
              c.arn[ASW_ACNT_IN_DROPPED], c.arn[ASW_ACNT_OUT_DROPPED], c.arn[ASW_ACNT_EVICTED],
              c.arn_at_nodes);
  std::printf("link changes %" PRIu64 " fm_writes %" PRIu64 " flits_discarded %" PRIu64
              " packets_discarded %" PRIu64 " packets_cut %" PRIu64 " flits_padded %" PRIu64 "\n",
              st.link_changes, st.fm_writes, c.link[ASW_LCNT_FLITS_DISCARDED],
              c.link[ASW_LCNT_PACKETS_DISCARDED], c.link[ASW_LCNT_PACKETS_CUT],
              c.link[ASW_LCNT_FLITS_PADDED]);
  std::printf("qcn cnms %" PRIu64 " cnm_qsat %" PRIu64 " lane %" PRIu64 "\n", st.cnms,
              st.cnm_qsat, st.lane);
  if (rc == 0) {
    std::printf("PASS\n");
    return 0;
  }
  const Mismatch mm = h.mismatch();
  const uint64_t prog = h.prog();
  if (!mm.found) {
    std::printf("ERROR (network): %s\nFAIL\n", h.error().c_str());
    return 1;
  }
  std::printf("MISMATCH at %s\n", mm.what.c_str());
#if VM_TRACE
  {
    const uint64_t from = mm.twin_cycle > window ? mm.twin_cycle - window : 0;
    hp.reset();  // one network at a time
    Harness again(settings, static_cast<int>(mm.sw), from, fst);
    again.run();
    std::printf("waveform of switch %u, twin cycles %" PRIu64 "..%" PRIu64
                " (network cycle = twin cycle - %" PRIu64 ", time = 2 x twin cycle) in %s\n",
                mm.sw, from, mm.twin_cycle, prog, fst.c_str());
  }
#endif
  std::printf("FAIL\n");
  return 1;
}
