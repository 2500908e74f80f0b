/* The "loaded" start-up mark, made by a constructor before main (loaded.c). */
#ifndef CAPTION_STARTUP_TRACE_H
#define CAPTION_STARTUP_TRACE_H

/* Referenced from Swift so that the linker keeps loaded.c and its constructor. */
int caption_startup_trace_linked(void);

#endif
