// Photo files made by other encoders than Caption's own, for the tests of every module:
// Debian's heif-enc (libheif), avifenc (libavif), cwebp (libwebp), cjpeg (libjpeg-turbo) and
// ImageMagick, all installed by `make test-deps`. A DNG is built here, byte by byte, around
// a JPEG preview from cjpeg (Debian has no DNG writer): a little-endian TIFF whose IFD0 is
// the preview (NewSubFileType 1, JPEG-compressed YCbCr, as cameras and Adobe's converter
// store it) and whose SubIFD is a 16-bit Bayer CFA picture, with DNGVersion 1.4.

import Foundation

public enum ExternalPhotos {
    public enum Kind: String, CaseIterable, Sendable {
        case heic, avif, webp, dng
        case arithmeticJPEG, restartJPEG
        /// 16-bit integer samples; 32-bit floating-point ones (GdkPixbuf's loader refuses them,
        /// libtiff reads them); BigTIFF.
        case tiff16, floatTIFF, bigTIFF
        /// A JPEG with a second picture after its EOI and an MPF segment, as Ultra HDR
        /// (gain map) and portrait photos are.
        case jpegWithPictureAfterEnd
        /// A JPEG with bytes between two segments that are no marker.
        case jpegWithStrayBytes

        public var fileExtension: String {
            switch self {
            case .heic: return "heic"
            case .avif: return "avif"
            case .webp: return "webp"
            case .dng: return "dng"
            case .tiff16, .floatTIFF, .bigTIFF: return "tif"
            default: return "jpg"
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Makes a photo of `kind`, `width` × `height`, in `folder`; its path.
    public static func make(
        _ kind: Kind, in folder: String, width: Int = 320, height: Int = 240,
        name: String? = nil
    ) throws -> String {
        let target = folder + "/" + (name ?? "\(kind.rawValue)-\(width)x\(height).\(kind.fileExtension)")
        let source = folder + "/.source-\(width)x\(height).ppm"
        if !FileManager.default.fileExists(atPath: source) {
            // A gradient with some texture: real encoders have something to compress.
            try run(
                "convert",
                [
                    "-size", "\(width)x\(height)", "gradient:#3060c0-#e0a040", "-swirl", "90",
                    "-depth", "8", source,
                ])
        }
        switch kind {
        case .heic:
            try run("heif-enc", ["-q", "60", "-o", target, try png(source, folder)])
        case .avif:
            try run("avifenc", ["-s", "10", "-j", "1", try png(source, folder), target])
        case .webp:
            try run("cwebp", ["-quiet", try png(source, folder), "-o", target])
        case .arithmeticJPEG:
            try run("cjpeg", ["-arithmetic", "-outfile", target, source])
        case .restartJPEG:
            try run("cjpeg", ["-restart", "1", "-outfile", target, source])
        case .tiff16:
            try run("convert", [source, "-depth", "16", target])
        case .floatTIFF:
            try run(
                "convert",
                [try png(source, folder), "-depth", "32", "-define", "quantum:format=floating-point", target])
        case .bigTIFF:
            try run("convert", [source, "TIFF64:" + target])
        case .jpegWithPictureAfterEnd:
            let first = try jpeg(source, folder)
            let second = try jpeg(source, folder, quality: 40)
            // APP2 "MPF\0" after SOI, as phones write it (the index itself is not needed
            // to show the first picture).
            let mpf: [UInt8] = [0xFF, 0xE2, 0x00, 0x0A] + Array("MPF".utf8) + [0, 0x49, 0x49]
            try Data([0xFF, 0xD8] + mpf + first.dropFirst(2) + second).write(to: URL(fileURLWithPath: target))
        case .jpegWithStrayBytes:
            var bytes = try jpeg(source, folder)
            // After the first segment (APP0, from 2 to 4 + its length).
            let end = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
            bytes.insert(contentsOf: [0x00, 0x12, 0x34], at: end)
            try Data(bytes).write(to: URL(fileURLWithPath: target))
        case .dng:
            let preview = try jpeg(source, folder)
            try Data(dng(preview: preview, previewWidth: width, previewHeight: height))
                .write(to: URL(fileURLWithPath: target))
        }
        return target
    }

    private static func png(_ source: String, _ folder: String) throws -> String {
        let png = source + ".png"
        if !FileManager.default.fileExists(atPath: png) { try run("convert", [source, png]) }
        return png
    }

    private static func jpeg(_ source: String, _ folder: String, quality: Int = 85) throws -> [UInt8] {
        let out = folder + "/.jpeg-\(quality)-\(UUID().uuidString).jpg"
        try run("cjpeg", ["-quality", String(quality), "-outfile", out, source])
        defer { try? FileManager.default.removeItem(atPath: out) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Runs a Debian tool; throws with its error output when it fails. Through `Tool.run`
    /// (posix_spawn), not Foundation's Process and Pipe, whose file descriptors are closed
    /// twice when many tests run programs at once: the second close can take another
    /// thread's file (a photo GdkPixbuf was reading, seen as "Couldn't recognize the image
    /// file format" for a file that was whole).
    public static func run(_ program: String, _ arguments: [String]) throws {
        let outcome = try Tool.run(program, arguments)
        guard outcome.status == 0 else { throw Failure(description: "\(program) failed: " + outcome.stderr) }
    }

    /// A minimal DNG: see the top of this file. The raw picture is `rawSize` (128 × 96),
    /// whatever the preview's size (LibRaw reports the raw picture's size; the preview is
    /// what is shown).
    /// With `thumbnail` (8-bit RGB, `thumbnailSize`), laid out as cameras' and Adobe's
    /// converter's DNGs are: IFD0 that small uncompressed thumbnail, and the JPEG preview
    /// and the raw picture in SubIFDs.
    public static func dng(
        preview: [UInt8], previewWidth: Int, previewHeight: Int,
        orientation: UInt16 = 1, thumbnail: [UInt8]? = nil, thumbnailSize: (width: Int, height: Int) = (256, 171),
        rawSize: (width: Int, height: Int) = (128, 96)
    ) -> [UInt8] {
        let (rawWidth, rawHeight) = rawSize
        var raw = [UInt8](repeating: 0, count: rawWidth * rawHeight * 2)
        for index in 0..<raw.count { raw[index] = UInt8(truncatingIfNeeded: index * 7 / 3) }
        typealias Entry = (tag: UInt16, type: UInt16, count: UInt32, value: [UInt8])
        func short(_ values: UInt16...) -> [UInt8] { values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        func long(_ values: UInt32...) -> [UInt8] {
            values.flatMap { v in (0..<4).map { UInt8(v >> (8 * UInt32($0)) & 0xFF) } }
        }
        func longs(_ values: [Int]) -> [UInt8] { values.flatMap { long(UInt32($0)) } }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + (bytes.count % 2 == 1 ? [0] : []) }
        /// A directory at `start`, with its long values right after it.
        func directory(_ entries: [Entry], at start: Int) -> [UInt8] {
            let sorted = entries.sorted { $0.tag < $1.tag }
            var head = short(UInt16(sorted.count))
            var extra: [UInt8] = []
            let extraStart = start + 2 + 12 * sorted.count + 4
            for entry in sorted {
                head += short(entry.tag, entry.type) + long(entry.count)
                if entry.value.count <= 4 {
                    head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    head += long(UInt32(extraStart + extra.count))
                    extra += entry.value
                    if extra.count % 2 == 1 { extra.append(0) }
                }
            }
            return head + long(0) + extra
        }
        let identity = (0..<9).flatMap { $0 % 4 == 0 ? long(1, 1) : long(0, 1) }  // ColorMatrix1, SRATIONAL
        /// What IFD0 holds besides its picture.
        func dngEntries(subs: [Int]) -> [Entry] {
            [
                (271, 2, 8, ascii("Caption")), (272, 2, 5, ascii("Test")), (274, 3, 1, short(orientation)),
                (330, 4, UInt32(subs.count), longs(subs)),
                (50706, 1, 4, [1, 4, 0, 0]), (50707, 1, 4, [1, 1, 0, 0]), (50708, 2, 12, ascii("Caption DNG")),
                (50721, 10, 9, identity),
            ]
        }
        func previewEntries(previewAt: Int) -> [Entry] {
            [
                (254, 4, 1, long(1)), (256, 4, 1, long(UInt32(previewWidth))), (257, 4, 1, long(UInt32(previewHeight))),
                (258, 3, 3, short(8, 8, 8)), (259, 3, 1, short(7)), (262, 3, 1, short(6)),
                (273, 4, 1, long(UInt32(previewAt))),
                (277, 3, 1, short(3)), (278, 4, 1, long(UInt32(previewHeight))),
                (279, 4, 1, long(UInt32(preview.count))),
            ]
        }
        func thumbnailEntries(thumbnailAt: Int, count: Int) -> [Entry] {
            let (width, height) = thumbnailSize
            return [
                (254, 4, 1, long(1)), (256, 4, 1, long(UInt32(width))), (257, 4, 1, long(UInt32(height))),
                (258, 3, 3, short(8, 8, 8)), (259, 3, 1, short(1)), (262, 3, 1, short(2)),
                (273, 4, 1, long(UInt32(thumbnailAt))), (277, 3, 1, short(3)), (278, 4, 1, long(UInt32(height))),
                (279, 4, 1, long(UInt32(count))), (284, 3, 1, short(1)),
            ]
        }
        func rawEntries(rawAt: Int) -> [Entry] {
            [
                (254, 4, 1, long(0)), (256, 4, 1, long(UInt32(rawWidth))), (257, 4, 1, long(UInt32(rawHeight))),
                (258, 3, 1, short(16)), (259, 3, 1, short(1)), (262, 3, 1, short(32803)),
                (273, 4, 1, long(UInt32(rawAt))),
                (277, 3, 1, short(1)), (278, 4, 1, long(UInt32(rawHeight))), (279, 4, 1, long(UInt32(raw.count))),
                (33421, 3, 2, short(2, 2)), (33422, 1, 4, [0, 1, 1, 2]), (50717, 4, 1, long(65535)),
            ]
        }
        let header = Array("II".utf8) + short(42) + long(8)
        guard let thumbnail else {
            // IFD0 the preview, its SubIFD the raw picture. Sizes do not depend on the
            // offsets, so lay out once with zeros, then for real.
            func first(sub: Int, previewAt: Int) -> [Entry] {
                previewEntries(previewAt: previewAt) + dngEntries(subs: [sub])
            }
            let sub = 8 + directory(first(sub: 0, previewAt: 0), at: 8).count
            let previewAt = sub + directory(rawEntries(rawAt: 0), at: sub).count
            let rawAt = previewAt + padded(preview).count
            return header + directory(first(sub: sub, previewAt: previewAt), at: 8)
                + directory(rawEntries(rawAt: rawAt), at: sub) + padded(preview) + raw
        }
        func first(subs: [Int], thumbnailAt: Int) -> [Entry] {
            thumbnailEntries(thumbnailAt: thumbnailAt, count: thumbnail.count) + dngEntries(subs: subs)
        }
        let previewIFD = 8 + directory(first(subs: [0, 0], thumbnailAt: 0), at: 8).count
        let rawIFD = previewIFD + directory(previewEntries(previewAt: 0), at: previewIFD).count
        let thumbnailAt = rawIFD + directory(rawEntries(rawAt: 0), at: rawIFD).count
        let previewAt = thumbnailAt + padded(thumbnail).count
        let rawAt = previewAt + padded(preview).count
        return header + directory(first(subs: [previewIFD, rawIFD], thumbnailAt: thumbnailAt), at: 8)
            + directory(previewEntries(previewAt: previewAt), at: previewIFD)
            + directory(rawEntries(rawAt: rawAt), at: rawIFD) + padded(thumbnail) + padded(preview) + raw
    }
}

extension ExternalPhotos {
    /// A HEIF from heif-enc with an `irot` property added to its primary item (`angle`
    /// quarter turns anticlockwise), as phones store a photo taken sideways: heif-enc
    /// writes none. The property is appended to `ipco`, associated in `ipma`, the
    /// enclosing boxes grow, and `iloc`'s offsets into `mdat` (after `meta`) move by as
    /// much. nil when the file is not laid out as heif-enc lays it out.
    public static func heifTurned(_ bytes: [UInt8], angle: UInt8) -> [UInt8]? {
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        func type(_ at: Int) -> String { String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) }
        func children(_ start: Int, _ end: Int) -> [(String, Int, Int)] {
            var found: [(String, Int, Int)] = []
            var at = start
            while at + 8 <= end {
                let size = u32(at)
                guard size >= 8, at + size <= end else { return [] }
                found.append((type(at), at, size))
                at += size
            }
            return found
        }
        guard let meta = children(0, bytes.count).first(where: { $0.0 == "meta" }),
            let mdat = children(0, bytes.count).first(where: { $0.0 == "mdat" }), mdat.1 > meta.1
        else { return nil }
        let inMeta = children(meta.1 + 12, meta.1 + meta.2)
        guard let pitm = inMeta.first(where: { $0.0 == "pitm" }), let iprp = inMeta.first(where: { $0.0 == "iprp" }),
            let iloc = inMeta.first(where: { $0.0 == "iloc" })
        else { return nil }
        let primary = bytes[pitm.1 + 8] == 0 ? u16(pitm.1 + 12) : u32(pitm.1 + 12)
        let inIprp = children(iprp.1 + 8, iprp.1 + iprp.2)
        guard let ipco = inIprp.first(where: { $0.0 == "ipco" }), let ipma = inIprp.first(where: { $0.0 == "ipma" })
        else { return nil }
        let propertyCount = children(ipco.1 + 8, ipco.1 + ipco.2).count
        let irot: [UInt8] = [0, 0, 0, 9] + Array("irot".utf8) + [angle & 3]
        // ipma: find the primary item's entry and add the association.
        let version = bytes[ipma.1 + 8]
        let wide = bytes[ipma.1 + 11] & 1 == 1
        var at = ipma.1 + 16
        var insertAt = -1
        var countAt = -1
        for _ in 0..<u32(ipma.1 + 12) {
            let item = version < 1 ? u16(at) : u32(at)
            at += version < 1 ? 2 : 4
            let count = Int(bytes[at])
            if item == primary { countAt = at }
            at += 1 + count * (wide ? 2 : 1)
            if item == primary { insertAt = at }
        }
        guard insertAt > 0 else { return nil }
        let association: [UInt8] =
            wide
            ? [0x80 | UInt8((propertyCount + 1) >> 8), UInt8((propertyCount + 1) & 0xFF)]
            : [0x80 | UInt8(propertyCount + 1)]
        let delta = irot.count + association.count
        var out = bytes
        func grow(_ box: Int, by amount: Int) {
            let size = u32(box) + amount
            out.replaceSubrange(
                box..<(box + 4),
                with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        }
        // Sizes and counts first, at the original positions; then the insertions from the
        // back, so the earlier one's position still holds.
        grow(ipma.1, by: association.count)
        grow(ipco.1, by: irot.count)
        grow(iprp.1, by: delta)
        grow(meta.1, by: delta)
        out[countAt] += 1
        // iloc comes before iprp in heif-enc's files, so its position is unchanged.
        guard iloc.1 < iprp.1 else { return nil }
        let ilocVersion = bytes[iloc.1 + 8]
        let offsetSize = Int(bytes[iloc.1 + 12] >> 4)
        let lengthSize = Int(bytes[iloc.1 + 12] & 15)
        let baseSize = Int(bytes[iloc.1 + 13] >> 4)
        let indexSize = ilocVersion >= 1 ? Int(bytes[iloc.1 + 13] & 15) : 0
        var p = iloc.1 + 14
        let items = ilocVersion < 2 ? u16(p) : u32(p)
        p += ilocVersion < 2 ? 2 : 4
        func read(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func write(_ at: Int, _ size: Int, _ value: Int) {
            for index in 0..<size { out[at + index] = UInt8(value >> (8 * (size - 1 - index)) & 0xFF) }
        }
        for _ in 0..<items {
            p += ilocVersion < 2 ? 2 : 4
            var method = 0
            if ilocVersion >= 1 {
                method = u16(p) & 15
                p += 2
            }
            p += 2  // data reference index
            let base = read(p, baseSize)
            if method == 0 && base > mdat.1 { write(p, baseSize, base + delta) }
            p += baseSize
            let extents = u16(p)
            p += 2
            for _ in 0..<extents {
                p += indexSize
                let offset = read(p, offsetSize)
                if method == 0 && base == 0 && offset >= mdat.1 { write(p, offsetSize, offset + delta) }
                p += offsetSize + lengthSize
            }
        }
        out.insert(contentsOf: association, at: insertAt)
        out.insert(contentsOf: irot, at: ipco.1 + ipco.2)
        return out
    }
}
