/* cli.h — option-value parsing for asw subcommands. Each parser checks the
 * whole string and the range; on error it prints "asw <cmd>: --opt: ..." to
 * stderr, in the wording of every front end (cmodel/net/optval.h), and returns -1
 * (the caller exits with status 2). */
#ifndef ASW_CLI_H
#define ASW_CLI_H

#include <stdint.h>

/* Splits "--name=value" / "--name value": if argv[*k] is option `name`,
 * sets *value (consuming the next argument if needed) and returns 1; returns
 * 0 if it is another option, -1 (message printed) if the value is missing. */
int cli_match(const char *cmd, int argc, char **argv, int *k, const char *name,
              const char **value);

int cli_uint(const char *cmd, const char *opt, const char *s, uint64_t min,
             uint64_t max, uint64_t *out);
int cli_double(const char *cmd, const char *opt, const char *s, double min,
               double max, double *out);
/* s must be one of the n names; *out gets its index. */
int cli_choice(const char *cmd, const char *opt, const char *s,
               const char *const *names, unsigned n, unsigned *out);
/* s one of on, off, 1, 0 (*on 1 or 0), as asw net's switches and make cosim's. */
int cli_onoff(const char *cmd, const char *opt, const char *s, int *on);
/* "asw <cmd>: NAME: unknown key (see asw <cmd> --help)", NAME: arg up to any '='
 * (as the user wrote it: --prots or prots). Returns -1. */
int cli_unknown(const char *cmd, const char *arg);

/* Fail fast: checks, before a simulation, that the output file `path` can be
 * written (its folder exists and is writable; an existing file is writable and
 * not a folder), without truncating an existing file ("-": stdout, always
 * fine). On error prints "asw <cmd>: <opt>: cannot write <path>: <reason>"
 * (unless quiet) and returns -1. */
/* The vocabulary's two forms (docs/options.md): a copy of argv (n entries, NULL after them)
 * in which "--key value" and "--key=value" read "key=value" (- for _ in the key), except
 * the command's own options in `keep` (NULL-terminated; "NAME=" for one that takes a
 * value, copied with it). A --key without a value is copied as is. NULL if out of
 * memory; cli_kv_free frees the copy. */
char **cli_kv_args(int argc, char **argv, const char *const *keep, int *n);
void cli_kv_free(char **args, int n);
/* The name of an argument of cli_kv_args's copy as the user wrote it (--buffer-flits for
 * "--buffer-flits 8", buffer_flits for "buffer_flits=8"), for the messages. */
const char *cli_kv_name(const char *arg);
/* err, a message of netcfg's or optval.h's about `key` ("key: ..."), on stderr as
 * "asw <cmd>: <shown>: ...": the key named as the user wrote it. */
void cli_key_error(const char *cmd, const char *shown, const char *key, const char *err);

int cli_check_out(const char *cmd, const char *opt, const char *path, int quiet);

/* Progress of a long run on stderr: a bar redrawn at most 5 times a second on a
 * terminal, else a line "asw <cmd>: cycle C of T (X %), N s left" every 10 s.
 * cli_progress_cb has the signature of net_run's and study_run's callbacks
 * (ctx: the cli_progress); cli_progress_end clears the bar. */
typedef struct {
  const char *cmd;
  double start, last, every;
  int tty, drawn;
} cli_progress;
void cli_progress_init(cli_progress *p, const char *cmd);
void cli_progress_cb(void *ctx, uint64_t cycle, uint64_t total);
void cli_progress_end(cli_progress *p);

#endif
