// std::cerr in a failed state: see metadata_support.h for why.
#include <dlfcn.h>
#include <ostream>
#include "metadata_support.h"

// <iostream> is not included: its static std::ios_base::Init would build the standard
// streams and the C++ locale at every start, for streams Caption never writes to.

void caption_silence_cxx_stderr(void) {
    // The std::cerr exempi writes to is the one of the shared C++ library exempi brought
    // in, so it is looked up there. Naming std::cerr here would give another: the release
    // build links its own copy of the C++ library, for the Swift runtime (see the
    // Makefile), and that copy's streams are never set up.
    void *library = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!library)
        return;
    if (auto *cerr = static_cast<std::ostream *>(dlsym(library, "_ZSt4cerr")))
        cerr->setstate(std::ios_base::badbit);
    dlclose(library);
}
