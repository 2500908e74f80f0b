// Two pictures compared sample by sample, for the tests that hold a decoder to another's
// output.

import CPixbuf
import Pixbufs

public enum PixbufComparison {
    /// The mean difference of two pictures' red, green and blue samples (0 to 255), with or
    /// without alpha either; nil when their sizes differ.
    public static func meanDifference(_ a: Pixbuf, _ b: Pixbuf) -> Double? {
        guard a.width == b.width, a.height == b.height, let one = gdk_pixbuf_read_pixels(a.pointer),
            let other = gdk_pixbuf_read_pixels(b.pointer)
        else { return nil }
        let channels = (Int(gdk_pixbuf_get_n_channels(a.pointer)), Int(gdk_pixbuf_get_n_channels(b.pointer)))
        let strides = (Int(gdk_pixbuf_get_rowstride(a.pointer)), Int(gdk_pixbuf_get_rowstride(b.pointer)))
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for part in 0..<3 {
                    let left = Int(one[y * strides.0 + x * channels.0 + part])
                    let right = Int(other[y * strides.1 + x * channels.1 + part])
                    total += abs(left - right)
                }
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }
}
