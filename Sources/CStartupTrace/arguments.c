/* The command line for the Swift runtime, as glibc gives it to constructors. */

#include "CStartupTrace.h"

static char **arguments;
static int argument_count;

/* glibc calls constructors with main's argc, argv and environment. */
__attribute__((constructor(101))) static void caption_keep_arguments(int argc, char **argv, char **environment)
{
    (void)environment;
    argument_count = argc;
    arguments = argv;
}

/* CommandLine.arguments asks the runtime for argv through this function. The runtime's own
 * (in the static standard library, with the release build) finds argv at start by reading
 * and parsing /proc/self/maps, some hundreds of microseconds before main; defined here, the
 * linker takes this one and leaves that part of the runtime out. Same name, calling
 * convention and meaning as the runtime's. */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count)
{
    *count = argument_count;
    return arguments;
}
