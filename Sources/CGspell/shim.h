/* gspell for the form's fields: spell-checking as the user types, in the user's language,
 * with suggestions in the field's context menu.
 *
 * gspell is opened when the fields are set up, after the first frame (dlopen), not linked:
 * linked, it and what it brings (enchant, ICU) loaded at every start and took 1.8 MB in
 * front of the first frame (`make bench`). Its three functions are declared here as
 * gspell 1.x declares them (gspell-entry.h), which keeps its headers, and the libraries
 * their flags name, out of the build. */
#include <dlfcn.h>
#include <gtk/gtk.h>

typedef struct _GspellEntry GspellEntry;

struct caption_gspell {
    GspellEntry *(*entry_get_from_gtk_entry)(GtkEntry *);
    void (*entry_basic_setup)(GspellEntry *);
    void (*entry_set_inline_spell_checking)(GspellEntry *, gboolean);
};

/* gspell's functions, or NULL when it cannot be opened (the fields then work unchecked).
 * Called on the main thread only. */
static inline const struct caption_gspell *caption_gspell(void) {
    static struct caption_gspell table;
    static int tried, loaded;
    if (!tried) {
        tried = 1;
        void *library = dlopen("libgspell-1.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!library) library = dlopen("libgspell-1.so", RTLD_NOW | RTLD_LOCAL);
        if (library) {
            *(void **)&table.entry_get_from_gtk_entry = dlsym(library, "gspell_entry_get_from_gtk_entry");
            *(void **)&table.entry_basic_setup = dlsym(library, "gspell_entry_basic_setup");
            *(void **)&table.entry_set_inline_spell_checking = dlsym(library, "gspell_entry_set_inline_spell_checking");
            loaded = table.entry_get_from_gtk_entry && table.entry_basic_setup && table.entry_set_inline_spell_checking;
        }
    }
    return loaded ? &table : NULL;
}
