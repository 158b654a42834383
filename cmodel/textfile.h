/* textfile.h — reads a whole file into memory, for the text readers of the register
 * tables (asw_table.c) and the network configuration (net/netcfg.c). No global state. */
#ifndef ASW_TEXTFILE_H
#define ASW_TEXTFILE_H

#include <stddef.h>

/* Largest file accepted (bytes). */
#define ASW_TEXTFILE_MAX ((size_t)64 << 20)

/* Returns the file's bytes in a malloc'ed buffer with a terminating NUL after them (NUL
 * bytes inside are kept; *len counts the file's bytes), or NULL with a message naming the
 * file: "PATH: cannot open (reason)", "PATH: cannot read" or "PATH: larger than N bytes". */
char *asw_textfile_read(const char *path, size_t *len, char *err, size_t errlen);

#endif
