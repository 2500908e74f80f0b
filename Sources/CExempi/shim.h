/* exempi (Adobe's XMP Toolkit behind a plain C API) for the metadata module: the XMP
 * packets in JPEG, PNG, WebP, TIFF and GIF files, and the errors it reports. */
#include <exempi/xmp.h>
#include <exempi/xmperrors.h>
