// TIFFs as other programs write them that GdkPixbuf's loader refuses (12-, 24- and 32-bit
// integers, floating point, 16-bit CMYK, planes apart, tiles), made by ImageMagick, tiffcp
// and Pillow: each is taken, and what libtiff's path shows matches the picture it was made
// from. And the layout GIMP gives a camera's photo saved as TIFF, which is no RAW.

import CPixbuf
import CaptionTestSupport
import Foundation
import Pixbufs
import Testing

@testable import CaptionLibrary

@Suite("TIFFs through libtiff")
struct TIFFTests {
    /// One way of writing a TIFF: the tool's commands from `source` (an 8-bit PNG) to the
    /// TIFF, and from `source` to the 8-bit PNG the TIFF should look like.
    struct Maker: CustomTestStringConvertible, Sendable {
        let name: String
        /// Mean difference allowed per sample at full size: 0.6 where every step is
        /// lossless (rounding only), more through JPEG.
        let tolerance: Double
        /// Whether GdkPixbuf's own loader refuses it (some of these it reads from one
        /// writer and not another).
        var refusedByGdkPixbuf = true
        let make: @Sendable (_ source: String, _ tiff: String, _ reference: String) throws -> Void
        var testDescription: String { name }
    }

    static func convert(_ arguments: String...) throws { try ExternalPhotos.run("convert", arguments) }

    static func pillow(_ script: String) throws { try ExternalPhotos.run("python3", ["-c", script]) }

    static let makers: [Maker] = [
        Maker(name: "12-bit grey (ImageMagick)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-colorspace", "Gray", "-depth", "12", tiff)
            try convert(source, "-colorspace", "Gray", "-depth", "8", reference)
        },
        Maker(name: "12-bit grey in 32 × 32 tiles (tiffcp)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-colorspace", "Gray", "-depth", "12", tiff + ".strips.tif")
            try ExternalPhotos.run("tiffcp", ["-t", "-w", "32", "-l", "32", tiff + ".strips.tif", tiff])
            try convert(source, "-colorspace", "Gray", "-depth", "8", reference)
        },
        Maker(name: "24-bit RGB (ImageMagick)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-depth", "24", tiff)
            try convert(source, reference)
        },
        Maker(name: "16-bit floating-point RGB (ImageMagick)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-depth", "16", "-define", "quantum:format=floating-point", tiff)
            try convert(source, reference)
        },
        Maker(name: "32-bit floating-point RGB (ImageMagick)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-depth", "32", "-define", "quantum:format=floating-point", tiff)
            try convert(source, reference)
        },
        Maker(name: "32-bit floating-point RGB, planes apart (ImageMagick)", tolerance: 0.6) {
            source, tiff, reference in
            try convert(
                source, "-depth", "32", "-define", "quantum:format=floating-point", "-interlace", "plane", tiff)
            try convert(source, reference)
        },
        Maker(name: "32-bit floating-point grey, 0 to 255 (Pillow)", tolerance: 0.6) { source, tiff, reference in
            try pillow(
                "from PIL import Image; im = Image.open('\(source)').convert('L'); im.save('\(reference)'); "
                    + "im.convert('F').save('\(tiff)')")
        },
        Maker(name: "32-bit signed grey (Pillow)", tolerance: 0.6) { source, tiff, reference in
            try pillow(
                "from PIL import Image; im = Image.open('\(source)').convert('L'); im.save('\(reference)'); "
                    + "im.convert('I').save('\(tiff)')")
        },
        Maker(name: "16-bit CMYK (ImageMagick)", tolerance: 0.6) { source, tiff, reference in
            try convert(source, "-colorspace", "CMYK", "-depth", "16", tiff)
            try convert(source, reference)
        },
        Maker(name: "16-bit RGB, planes apart (ImageMagick)", tolerance: 0.6, refusedByGdkPixbuf: false) {
            source, tiff, reference in
            try convert(source, "-depth", "16", "-interlace", "plane", tiff)
            try convert(source, reference)
        },
        Maker(name: "CMYK in JPEG strips (tiffcp)", tolerance: 6, refusedByGdkPixbuf: false) {
            source, tiff, reference in
            try convert(source, "-colorspace", "CMYK", "-depth", "8", tiff + ".plain.tif")
            try ExternalPhotos.run("tiffcp", ["-c", "jpeg", "-r", "16", tiff + ".plain.tif", tiff])
            try convert(source, reference)
        },
    ]

    /// The test picture: a swirl of colour, 120 × 80, as an 8-bit PNG.
    static func source(in scratch: Scratch) throws -> String {
        let path = scratch.file("source.png")
        try convert("-size", "120x80", "gradient:#3060c0-#e0a040", "-swirl", "90", "-depth", "8", path)
        return path
    }

    @Test("each TIFF GdkPixbuf refuses is taken by both checks and caption --add, with its size", arguments: makers)
    func taken(maker: Maker) throws {
        let scratch = Scratch()
        let tiff = scratch.file("photo.tif")
        try maker.make(try Self.source(in: scratch), tiff, scratch.file("reference.png"))
        if maker.refusedByGdkPixbuf {
            #expect(throws: Pixbuf.Failure.self, "GdkPixbuf's own loader refuses it") {
                try Pixbuf.load(path: tiff, maximumPixels: 0).get()
            }
        }
        let quick = try PhotoInspector.inspect(tiff)
        let full = try PhotoInspector.verify(tiff)
        #expect(quick == full)
        #expect(full.format == .tiff && full.width == 120 && full.height == 80, "\(full)")
        let added = try Caption.run([
            "--library", scratch.file("lib"), "--add", tiff, "--title", "T", "--subtitle", maker.name,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.isEmpty, "libtiff's warnings stay off standard error: \(added.stderr)")
    }

    @Test("libtiff's picture of each matches the picture it was made from, whole and fitted", arguments: makers)
    func picture(maker: Maker) throws {
        let scratch = Scratch()
        let tiff = scratch.file("photo.tif")
        let reference = scratch.file("reference.png")
        try maker.make(try Self.source(in: scratch), tiff, reference)
        let whole = try Pixbuf.load(path: tiff).get()
        let expected = try Pixbuf.load(path: reference).get()
        let wholeDifference = try #require(
            PixbufComparison.meanDifference(whole, expected), "\(whole.width) × \(whole.height)")
        #expect(wholeDifference <= maker.tolerance, "mean difference \(wholeDifference)")
        // Fitted: averaged down by the decoder, near GdkPixbuf's own scaling of the reference.
        let fitted = try Pixbuf.load(path: tiff, fitting: (60, 60)).get()
        let scaled = expected.scaled(width: 60, height: 40)
        let fittedDifference = try #require(
            PixbufComparison.meanDifference(fitted, scaled), "\(fitted.width) × \(fitted.height)")
        #expect(fittedDifference <= maker.tolerance + 3, "mean difference \(fittedDifference)")
    }

    @Test("a TIFF whose samples nothing here reads is named, and one cut short is damaged, never a crash")
    func refusalsSayWhy() throws {
        let scratch = Scratch()
        let source = try Self.source(in: scratch)
        let float24 = scratch.file("float24.tif")
        try Self.convert(source, "-depth", "24", "-define", "quantum:format=floating-point", float24)
        let unsupported = #expect(throws: LibraryError.self) { try PhotoInspector.verify(float24) }
        #expect(unsupported?.kind == .unsupportedFormat)
        #expect(unsupported?.message == "24-bit floating-point TIFF is not supported: \(float24)")
        let whole = scratch.file("whole.tif")
        try Self.convert(source, "-colorspace", "Gray", "-depth", "12", "-compress", "zip", whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = scratch.write("cut.tif", Array(bytes.prefix(bytes.count * 2 / 3)))
        let damaged = #expect(throws: LibraryError.self) { try PhotoInspector.verify(cut) }
        #expect(damaged?.kind == .photoDamaged)
        #expect(throws: Pixbuf.Failure.self) { try Pixbuf.load(path: cut).get() }
    }

    /// A TIFF as GIMP 2.9 saved a Nikon D1X's photo (exiv2's ReaganLargeTiff.tiff): IFD0 the
    /// whole picture (NewSubfileType 0, LZW with a predictor, from tiffcp) with the camera's
    /// Make, and a SubIFD holding a larger uncompressed thumbnail. IFD0 is written anew at
    /// the end, pointing at the strips tiffcp wrote.
    static func editedNikonPhoto(in scratch: Scratch, source: String) throws -> String {
        let lzw = scratch.file("lzw.tif")
        try ExternalPhotos.run("tiffcp", ["-c", "lzw:2", "-r", "128", source + ".tif", lzw])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: lzw)))
        try #require(bytes[0] == 0x49, "little-endian")
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func align() { if bytes.count % 2 == 1 { bytes.append(0) } }
        let first = u32(4)
        var entries: [(tag: Int, field: [UInt8])] = (0..<u16(first)).map { index in
            let at = first + 2 + index * 12
            return (u16(at), Array(bytes[at..<(at + 12)]))
        }
        // The thumbnail: 32 × 20 grey pixels, uncompressed, in its own directory.
        align()
        let thumbnail = bytes.count
        bytes += [UInt8](repeating: 0x80, count: 32 * 20)
        align()
        let sub = bytes.count
        let subEntries: [[UInt8]] = [
            le16(254) + le16(4) + le32(1) + le32(1), le16(256) + le16(3) + le32(1) + le32(32),
            le16(257) + le16(3) + le32(1) + le32(20), le16(258) + le16(3) + le32(1) + le32(8),
            le16(259) + le16(3) + le32(1) + le32(1), le16(262) + le16(3) + le32(1) + le32(1),
            le16(273) + le16(4) + le32(1) + le32(thumbnail), le16(277) + le16(3) + le32(1) + le32(1),
            le16(278) + le16(3) + le32(1) + le32(20), le16(279) + le16(4) + le32(1) + le32(32 * 20),
        ]
        bytes += le16(subEntries.count) + subEntries.flatMap { $0 } + le32(0)
        let make = bytes.count
        bytes += Array("NIKON CORPORATION".utf8) + [0]
        align()
        entries.removeAll { $0.tag == 254 }
        entries += [
            (254, le16(254) + le16(4) + le32(1) + le32(0)),
            (271, le16(271) + le16(2) + le32(18) + le32(make)),
            (330, le16(330) + le16(4) + le32(1) + le32(sub)),
        ]
        entries.sort { $0.tag < $1.tag }
        let directory = bytes.count
        bytes += le16(entries.count) + entries.flatMap(\.field) + le32(0)
        bytes.replaceSubrange(4..<8, with: le32(directory))
        return scratch.write("edited-nikon.tif", bytes)
    }

    @Test("a camera's photo saved as TIFF by an editor, with a thumbnail SubIFD, is a TIFF, not a NEF")
    func editedCameraTIFFIsTaken() throws {
        let scratch = Scratch()
        let source = try Self.source(in: scratch)
        try Self.convert(source, "-depth", "8", "-type", "TrueColor", source + ".tif")
        let path = try Self.editedNikonPhoto(in: scratch, source: source)
        let quick = try PhotoInspector.inspect(path)
        let full = try PhotoInspector.verify(path)
        #expect(quick.format == .tiff && full.format == .tiff)
        #expect(full.width == 120 && full.height == 80)
        let added = try Caption.run([
            "--library", scratch.file("lib"), "--add", path, "--title", "T", "--subtitle", "S",
        ])
        #expect(added.status == 0, "\(added.stderr)")
    }
}
