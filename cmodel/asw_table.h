/* asw_table.h — programs a switch's registers from a small text table.
 *
 * One directive per line; '#' starts a comment; numbers are decimal or 0x
 * hexadecimal (a leading 0 is not octal). Directives:
 *   reg NAME|ADDR VALUE        any register write (NAME: ROUTE_CTRL, VC_CTRL,
 *                              THRESH, LFSR_SEED, DEFAULT_PORT, CNT_CLEAR)
 *   fwd DEST PORT [lookahead=L] [cset=C] [multipath]   FWD[DEST], valid
 *   cset C PORTS               CSET[C]; PORTS like 0,2,5-7 (or "none")
 *   sl2vc OUT SL VC            SL2VC[OUT][SL]
 *   route MODE [trigger=T] [stage=S] [stage_mask=M]
 *                              ROUTE_CTRL; MODE det|oblivious|adaptive,
 *                              T noth|th|2th (defaults: noth, 1, 0xff); a K/delta
 *                              restriction is a choice of candidate sets (§7.2)
 * The whole table is checked (syntax and register legality, on a scratch
 * switch of the same configuration) before anything is written, so a bad
 * table leaves the switch untouched.
 */
#ifndef ASW_TABLE_H
#define ASW_TABLE_H

#include <stddef.h>

#include "asw_switch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Applies the table in `text` (name is used in messages). Returns ASW_OK,
 * or ASW_EINVAL with "name:line: problem" in err. */
int asw_table_apply(asw_switch *sw, const char *text, const char *name,
                    char *err, size_t errlen);

/* Same for a file. ASW_EINVAL also if the file cannot be read. */
int asw_table_load(asw_switch *sw, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
