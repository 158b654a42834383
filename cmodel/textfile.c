/* textfile.c — see textfile.h. */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *asw_textfile_read(const char *path, size_t *len, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0, got;
  char *text = malloc(cap);
  int too_large = 0;
  while (text && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      if (cap > ASW_TEXTFILE_MAX) {
        too_large = 1;
        break;
      }
      char *t = realloc(text, cap * 2);
      if (!t) {
        free(text);
        text = NULL;
        break;
      }
      text = t;
      cap *= 2;
    }
  }
  int rd_err = ferror(f);
  fclose(f);
  if (!text || rd_err || too_large) {
    free(text);
    if (err && errlen) {
      if (too_large)
        snprintf(err, errlen, "%s: larger than %zu bytes", path, ASW_TEXTFILE_MAX);
      else
        snprintf(err, errlen, "%s: cannot read", path);
    }
    return NULL;
  }
  text[n] = 0;
  *len = n;
  return text;
}
