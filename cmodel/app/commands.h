/* commands.h — subcommands of the `asw` program. Each takes the arguments
 * after the subcommand name (argv[0] is the subcommand name) and returns the
 * process exit status: 0 success, 1 run-time failure, 2 bad usage. Every
 * subcommand accepts --help. Add a prototype here and a row to the table in
 * asw.c for a new subcommand. */
#ifndef ASW_COMMANDS_H
#define ASW_COMMANDS_H

int cmd_switch(int argc, char **argv); /* single-switch study (switch_cmd.c) */
int cmd_net(int argc, char **argv);    /* network simulation (net_cmd.c) */
int cmd_sweep(int argc, char **argv);  /* parallel grid of net runs (sweep_cmd.c) */
int cmd_trace(int argc, char **argv);  /* packet traces: patterns, conversion (trace_cmd.c) */

#endif
