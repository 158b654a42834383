/* asw.c — the arnswitch command-line program: `asw <subcommand> [options]`. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"switch", cmd_switch, "single-switch study: throughput and latency under synthetic traffic"},
    {"net", cmd_net, "whole-network simulation of fat-trees built from the C switch model"},
    {"sweep", cmd_sweep, "grid of net runs in parallel processes, merged results"},
    {"trace", cmd_trace, "packet traces for asw net traffic=trace:FILE: application patterns, conversion"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: asw <subcommand> [options]   (asw <subcommand> --help for its options)\n\nsubcommands:\n");
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
    fprintf(f, "  %-10s %s\n", commands[k].name, commands[k].summary);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
    if (!strcmp(argv[1], commands[k].name)) return commands[k].run(argc - 1, argv + 1);
  fprintf(stderr, "asw: unknown subcommand '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
