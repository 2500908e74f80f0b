/* gspell for the form's fields: spell-checking as the user types, in the user's language,
 * with suggestions in the field's context menu. */
#include <gspell/gspell.h>
