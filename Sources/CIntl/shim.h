/* gettext and setlocale from the C library: Swift's Glibc module does not export libintl. */
#include <libintl.h>
#include <locale.h>

static inline const char *caption_gettext(const char *msgid) { return gettext(msgid); }
static inline const char *caption_ngettext(const char *singular, const char *plural, unsigned long n) {
    return ngettext(singular, plural, n);
}
