/* libjpeg for the eighth-size decoder's tests: JPEGs of every kind to feed it, and
 * libjpeg's own 1/8-scale decode to hold its pictures against. */
#ifndef JPEG_TEST_SUPPORT_H
#define JPEG_TEST_SUPPORT_H

#include <stddef.h>

typedef struct {
    int components;          /* 1 (grey), 3 (YCbCr, or RGB with rgb set) or 4 (CMYK) */
    int quality;
    int luma_h, luma_v;      /* the first component's sampling factors; the others 1×1 */
    int progressive;
    int restart_rows;        /* a restart marker every this many MCU rows; 0: none */
    int arithmetic;
    int rgb;                 /* store R, G, B without converting to YCbCr */
} jpeg_test_options;

/* Encodes width × height pixels (`components` bytes each) into *out (free() it).
 * Returns 0, or -1 with nothing to free. */
int jpeg_test_encode(const unsigned char *pixels, int width, int height, jpeg_test_options options,
                     unsigned char **out, size_t *out_size);

/* libjpeg's decode at scale 1/8 to RGB (or grey for a grey file) into *pixels (free() it).
 * Returns 0, or -1. */
int jpeg_test_decode_eighth(const unsigned char *data, size_t size, unsigned char **pixels,
                            int *width, int *height, int *components);

#endif
