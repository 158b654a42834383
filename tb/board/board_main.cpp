// board_main.cpp — whole-board simulation (tb/board/README.md): the board system
// (rtl/system/asw_system.sv, Verilator) with its UART line connected to a TCP socket on
// 127.0.0.1, so that the host tool (sw/asw_board.py --port socket://127.0.0.1:PORT) talks
// to it exactly as to a board. Bytes from the socket are sent on the board's RX line at
// BOARD_DIV clocks per bit (8N1); bytes the board sends on its TX line are decoded at
// mid-bit and written to the socket. Bounded: stops after --connections client
// connections have closed (exit 0), or after --max-seconds of wall time or --max-cycles
// (exit 3, "time limit"). --ferr-byte C:N sends byte N (1-based) of client connection C
// (1-based) with its stop bit 0, a UART framing error on the board's RX line (test_board.py
// checks the bridge's reply to it).
//
//   board_sim [--port N (0: any free port)] [--port-file F] [--connections N]
//             [--max-seconds S] [--max-cycles N] [--ferr-byte C:N] [--trace-uart]
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vasw_system.h"
#include "verilated.h"

#ifndef BOARD_DIV
#error "BOARD_DIV (UART clocks per bit) must be defined"
#endif

static void die(const char *msg) {
  std::fprintf(stderr, "board-sim: %s\n", msg);
  std::exit(2);
}

int main(int argc, char **argv) {
  int port = 0, connections = 1;
  double max_seconds = 300;
  unsigned long long max_cycles = 0;
  std::string port_file;
  bool trace = false;
  long ferr_conn = 0, ferr_byte = 0;  // --ferr-byte C:N (0: none)
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto need = [&](void) -> const char * {
      if (i + 1 >= argc) die(("option " + a + " needs a value").c_str());
      return argv[++i];
    };
    if (a == "--port") port = std::atoi(need());
    else if (a == "--port-file") port_file = need();
    else if (a == "--connections") connections = std::atoi(need());
    else if (a == "--max-seconds") max_seconds = std::atof(need());
    else if (a == "--max-cycles") max_cycles = std::strtoull(need(), nullptr, 0);
    else if (a == "--ferr-byte") {
      const char *v = need();
      char *end = nullptr;
      ferr_conn = std::strtol(v, &end, 10);
      if (*end != ':' || ferr_conn < 1) die("--ferr-byte needs C:N, C and N >= 1");
      ferr_byte = std::strtol(end + 1, &end, 10);
      if (*end != '\0' || ferr_byte < 1) die("--ferr-byte needs C:N, C and N >= 1");
    } else if (a == "--trace-uart") {
      trace = true;
    } else {
      die(("unknown option " + a).c_str());
    }
  }
  if (port < 0 || port > 65535 || connections < 1 || max_seconds <= 0)
    die("bad --port, --connections or --max-seconds");

  int ls = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(ls, (sockaddr *)&sa, sizeof sa) != 0) die("cannot bind 127.0.0.1 (port in use?)");
  if (listen(ls, 1) != 0) die("listen failed");
  socklen_t sl = sizeof sa;
  getsockname(ls, (sockaddr *)&sa, &sl);
  port = ntohs(sa.sin_port);
  fcntl(ls, F_SETFL, O_NONBLOCK);
  std::printf("board-sim: listening on 127.0.0.1:%d (UART %d clocks per bit)\n", port, BOARD_DIV);
  std::fflush(stdout);
  if (!port_file.empty()) {
    std::string tmp = port_file + ".tmp";
    FILE *f = std::fopen(tmp.c_str(), "w");
    if (!f) die("cannot write --port-file");
    std::fprintf(f, "%d\n", port);
    std::fclose(f);
    std::rename(tmp.c_str(), port_file.c_str());
  }

  Verilated::commandArgs(argc, argv);
  Vasw_system top;
  top.clk_i = 0;
  top.rst_ni = 0;
  top.uart_rx_i = 1;
  top.eval();

  int cs = -1, closed = 0;
  std::deque<uint8_t> to_board;
  std::vector<uint8_t> to_host;
  // host -> board serializer
  int txbit = -1;           // -1 idle, 0 start, 1..8 data, 9 stop
  int txcnt = 0;
  uint8_t txbyte = 0;
  bool txferr = false;                    // this byte's stop bit is 0 (--ferr-byte)
  unsigned long long queued = 0, sent = 0, ferr_abs = 0;  // bytes to the board, 1-based
  long conn_bytes = 0;                    // bytes received on the current connection
  // board -> host deserializer
  int rxbit = -1, rxcnt = 0;
  uint8_t rxbyte = 0;
  int prev_line = 1;
  auto t0 = std::chrono::steady_clock::now();
  unsigned long long cyc = 0;
  for (;; cyc++) {
    // one clock cycle: inputs settle, rising edge
    top.rst_ni = cyc >= 4;
    top.clk_i = 0;
    top.eval();
    top.clk_i = 1;
    top.eval();
    // host -> board line
    if (txbit < 0 && !to_board.empty()) {
      txbyte = to_board.front();
      to_board.pop_front();
      txferr = ++sent == ferr_abs;
      if (txferr) std::fprintf(stderr, "board-sim: byte %llu to the board sent with stop bit 0\n", sent);
      txbit = 0;
      txcnt = 0;
    }
    if (txbit >= 0) {
      top.uart_rx_i = txbit == 0 ? 0 : txbit == 9 ? !txferr : (txbyte >> (txbit - 1)) & 1;
      if (++txcnt == BOARD_DIV) {
        txcnt = 0;
        if (++txbit == 10) txbit = -1;
      }
    } else {
      top.uart_rx_i = 1;
    }
    // board -> host line
    int line = top.uart_tx_o;
    if (rxbit < 0) {
      if (prev_line && !line) {
        rxbit = 0;
        rxcnt = BOARD_DIV / 2;
      }
    } else if (--rxcnt == 0) {
      rxcnt = BOARD_DIV;
      if (rxbit >= 1 && rxbit <= 8) rxbyte = (uint8_t)((rxbyte >> 1) | (line << 7));
      if (rxbit == 9) {
        if (line) to_host.push_back(rxbyte);
        else std::fprintf(stderr, "board-sim: framing error on the board's TX line\n");
        if (trace) std::fprintf(stderr, "board-sim: cycle %llu board sent %02x\n", cyc, rxbyte);
        rxbit = -1;
      } else {
        rxbit++;
      }
    }
    prev_line = line;

    if ((cyc & 255) == 0) {
      bool busy = txbit >= 0 || rxbit >= 0 || !to_board.empty() || (top.led_o & 2);
      if (cs < 0) {
        int c = accept(ls, nullptr, nullptr);
        if (c >= 0) {
          cs = c;
          conn_bytes = 0;
          fcntl(cs, F_SETFL, O_NONBLOCK);
          setsockopt(cs, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        } else if (!busy) {
          pollfd p{ls, POLLIN, 0};
          poll(&p, 1, 2);
        }
      }
      if (cs >= 0) {
        if (!to_host.empty()) {
          ssize_t n = send(cs, to_host.data(), to_host.size(), MSG_NOSIGNAL);
          if (n > 0) to_host.erase(to_host.begin(), to_host.begin() + n);
        }
        pollfd p{cs, POLLIN, 0};
        if (poll(&p, 1, (busy || !to_host.empty()) ? 0 : 2) > 0) {
          uint8_t buf[256];
          ssize_t n = recv(cs, buf, sizeof buf, 0);
          if (n > 0) {
            if (trace)
              for (ssize_t i = 0; i < n; i++)
                std::fprintf(stderr, "board-sim: cycle %llu host sent %02x\n", cyc, buf[i]);
            if (closed + 1 == ferr_conn && conn_bytes < ferr_byte && conn_bytes + n >= ferr_byte)
              ferr_abs = queued + (unsigned long long)(ferr_byte - conn_bytes);
            conn_bytes += n;
            queued += (unsigned long long)n;
            to_board.insert(to_board.end(), buf, buf + n);
          } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            close(cs);
            cs = -1;
            to_host.clear();
            if (++closed >= connections) {
              std::printf("board-sim: %d connection(s) closed after %llu cycles, exiting\n",
                          closed, cyc);
              break;
            }
          }
        }
      }
      if ((cyc & 0xFFFF) == 0) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s > max_seconds || (max_cycles && cyc > max_cycles)) {
          std::fprintf(stderr, "board-sim: time limit (%.0f s, %llu cycles), exiting\n", s, cyc);
          top.final();
          return 3;
        }
      }
    }
  }
  top.final();
  close(ls);
  return 0;
}
