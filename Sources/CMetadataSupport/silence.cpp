// std::cerr in a failed state: see metadata_support.h for why.
#include <iostream>
#include "metadata_support.h"

void caption_silence_cxx_stderr(void) {
    std::cerr.setstate(std::ios_base::badbit);
}
