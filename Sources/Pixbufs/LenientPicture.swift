// Files every viewer shows that GdkPixbuf's loaders refuse on a point of form, mended in
// memory for the loader: a GIF with no colour table at all, and a BMP stored top row first
// with run-length compression (which the format reserves for pictures stored bottom up).

import CPixbuf

enum LenientPicture {
    /// What the loader is given instead of the file, and whether its picture comes out upside
    /// down.
    struct Mended {
        var bytes: [UInt8]
        var upsideDown: Bool
    }

    /// The file's bytes mended, or nil when they are none of the files mended here.
    static func mend(_ bytes: [UInt8]) -> Mended? {
        if let gif = greyTableAdded(bytes) { return Mended(bytes: gif, upsideDown: false) }
        if let bmp = storedBottomUp(bytes) { return Mended(bytes: bmp, upsideDown: true) }
        return nil
    }

    /// A GIF whose header has no global colour table and whose first picture has no local
    /// one: the GIF specification leaves the colours to the decoder, and Pillow (like most
    /// viewers) shows the indices as grey levels; a global table of 256 greys does the same.
    static func greyTableAdded(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 13, bytes.starts(with: Array("GIF8".utf8)), bytes[10] & 0x80 == 0 else { return nil }
        // The first picture's descriptor, past any extension blocks.
        var at = 13
        while at < bytes.count, bytes[at] == 0x21 {
            at += 2
            while at < bytes.count, bytes[at] != 0 { at += Int(bytes[at]) + 1 }
            at += 1
        }
        guard at + 10 <= bytes.count, bytes[at] == 0x2C, bytes[at + 9] & 0x80 == 0 else { return nil }
        var mended = Array(bytes[..<13])
        // A global table of 2^(7 + 1) entries; the colour resolution left as it was.
        mended[10] = bytes[10] & 0x70 | 0x80 | 0x07
        for level in 0..<256 { mended += [UInt8(level), UInt8(level), UInt8(level)] }
        return mended + bytes[13...]
    }

    /// A BMP whose height is negative (top row first) and whose compression is run-length
    /// (BI_RLE8 or BI_RLE4): the same bytes with the height positive, which the loader reads
    /// as a picture stored bottom up, so its picture is this one upside down.
    static func storedBottomUp(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 34, bytes[0] == 0x42, bytes[1] == 0x4D else { return nil }
        let headerSize = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        guard headerSize >= 40 else { return nil }
        let height = Int32(
            bitPattern: UInt32(bytes[22]) | UInt32(bytes[23]) << 8 | UInt32(bytes[24]) << 16
                | UInt32(bytes[25]) << 24)
        let compression = Int(bytes[30]) | Int(bytes[31]) << 8
        guard height < 0, height != Int32.min, compression == 1 || compression == 2 else { return nil }
        var mended = bytes
        let positive = UInt32(-height)
        for index in 0..<4 { mended[22 + index] = UInt8(positive >> (8 * UInt32(index)) & 0xFF) }
        return mended
    }

    /// The picture of a mended file, decoded from memory, fitted inside `area` when given.
    static func load(_ mended: Mended, fitting area: (width: Int, height: Int)?) -> Pixbuf? {
        let decoded = mended.bytes.withUnsafeBytes { bytes in
            Pixbuf.decode(bytes, longestSide: area.map { max($0.width, $0.height) })
        }
        guard var picture = decoded else { return nil }
        if mended.upsideDown {
            guard let flipped = gdk_pixbuf_flip(picture.pointer, 0) else { return nil }
            picture = Pixbuf(taking: flipped)
        }
        if let area, picture.width > area.width || picture.height > area.height {
            picture = picture.fitting(area)
        }
        return picture
    }
}
