/* libjpeg for the eighth-size decoder's tests: encoding every kind of JPEG, and the reference decode. */
#include "jpeg_test_support.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
} failure;

static void give_up(j_common_ptr info)
{
    longjmp(((failure *)info->err)->escape, 1);
}

static void quiet(j_common_ptr info, int level)
{
    (void)info;
    (void)level;
}

int jpeg_test_encode(const unsigned char *pixels, int width, int height, jpeg_test_options options,
                     unsigned char **out, size_t *out_size)
{
    struct jpeg_compress_struct info;
    failure error;
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = give_up;
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = options.components;
    info.in_color_space = options.components == 1 ? JCS_GRAYSCALE : options.components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&info);
    if (options.rgb)
        jpeg_set_colorspace(&info, JCS_RGB);
    jpeg_set_quality(&info, options.quality, TRUE);
    if (options.components >= 3) {
        info.comp_info[0].h_samp_factor = options.luma_h;
        info.comp_info[0].v_samp_factor = options.luma_v;
        for (int index = 1; index < info.num_components; index++)
            info.comp_info[index].h_samp_factor = info.comp_info[index].v_samp_factor = 1;
    }
    if (options.progressive)
        jpeg_simple_progression(&info);
    info.restart_in_rows = options.restart_rows;
    info.arith_code = options.arithmetic ? TRUE : FALSE;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * (size_t)width * (size_t)options.components);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = size;
    return 0;
}

int jpeg_test_decode_eighth(const unsigned char *data, size_t size, unsigned char **pixels,
                            int *width, int *height, int *components)
{
    struct jpeg_decompress_struct info;
    failure error;
    /* volatile: set after setjmp, read after longjmp. */
    unsigned char *volatile buffer = NULL;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = give_up;
    error.base.emit_message = quiet;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    info.scale_num = 1;
    info.scale_denom = 8;
    if (info.num_components == 3)
        info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t row = (size_t)info.output_width * (size_t)info.output_components;
    buffer = malloc(row * info.output_height);
    if (!buffer)
        longjmp(error.escape, 1);
    while (info.output_scanline < info.output_height) {
        JSAMPROW line = buffer + row * info.output_scanline;
        jpeg_read_scanlines(&info, &line, 1);
    }
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    *components = info.output_components;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    *pixels = buffer;
    return 0;
}
