/* Opens exempi when first needed: see exempi_shim.h. */
#include "exempi_shim.h"
#include "library_opener.h"

static struct caption_exempi functions;
static const char *const names[] = {
#define CAPTION_EXEMPI_NAME(name) #name,
    CAPTION_EXEMPI_FUNCTIONS(CAPTION_EXEMPI_NAME)
#undef CAPTION_EXEMPI_NAME
};
_Static_assert(sizeof functions == sizeof names / sizeof *names * sizeof(void *), "one pointer a function");
static struct caption_library_opener opener = CAPTION_LIBRARY_OPENER(CAPTION_EXEMPI_SONAME, names, &functions);

const char *caption_exempi_open(void) { return caption_library_open(&opener); }

const struct caption_exempi *caption_exempi_functions(void) { return &functions; }
