/* GeoNames' cities, for the place a photo was taken: Debian's libgeonames0 holds the data
 * (24,361 cities in version 0.3, with coordinates and population) inside the library.
 *
 * It is opened when a place is first asked for (dlopen), not linked: a window that never
 * needs a place never loads it, and start-up never does. Its functions are declared here
 * as libgeonames 0.3 declares them (geonames.h); a city is a GVariant the caller frees. */
#include <dlfcn.h>
#include <stddef.h>

struct caption_geonames {
    int (*get_n_cities)(void);
    void *(*get_city)(int index);
    void (*city_free)(void *city);
    const char *(*city_get_name)(void *city);
    const char *(*city_get_state)(void *city);
    const char *(*city_get_country)(void *city);
    const char *(*city_get_country_code)(void *city);
    double (*city_get_latitude)(void *city);
    double (*city_get_longitude)(void *city);
    unsigned int (*city_get_population)(void *city);
};

/* The library's functions, or NULL when it is not installed (places are then unknown).
 * Called from one thread at a time: the index is made once, under a lock. */
static inline const struct caption_geonames *caption_geonames(void) {
    static struct caption_geonames table;
    static int tried, loaded;
    if (!tried) {
        tried = 1;
        void *library = dlopen("libgeonames.so.0", RTLD_NOW | RTLD_LOCAL);
        if (library) {
            *(void **)&table.get_n_cities = dlsym(library, "geonames_get_n_cities");
            *(void **)&table.get_city = dlsym(library, "geonames_get_city");
            *(void **)&table.city_free = dlsym(library, "geonames_city_free");
            *(void **)&table.city_get_name = dlsym(library, "geonames_city_get_name");
            *(void **)&table.city_get_state = dlsym(library, "geonames_city_get_state");
            *(void **)&table.city_get_country = dlsym(library, "geonames_city_get_country");
            *(void **)&table.city_get_country_code = dlsym(library, "geonames_city_get_country_code");
            *(void **)&table.city_get_latitude = dlsym(library, "geonames_city_get_latitude");
            *(void **)&table.city_get_longitude = dlsym(library, "geonames_city_get_longitude");
            *(void **)&table.city_get_population = dlsym(library, "geonames_city_get_population");
            loaded = table.get_n_cities && table.get_city && table.city_free && table.city_get_name &&
                     table.city_get_state && table.city_get_country && table.city_get_country_code &&
                     table.city_get_latitude && table.city_get_longitude && table.city_get_population;
        }
    }
    return loaded ? &table : NULL;
}
