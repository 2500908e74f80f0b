// Caption's libtiff path held to GdkPixbuf's TIFF loader on the TIFFs both read (made by
// ImageMagick and tiffcp): the same picture, turned the same way for every orientation.

import CPixbuf
import CaptionTestSupport
import Foundation
import Testing

@testable import Pixbufs

@Suite("libtiff's path beside GdkPixbuf's TIFF loader")
struct TIFFPictureTests {
    static func convert(_ arguments: [String]) throws { try ExternalPhotos.run("convert", arguments) }

    /// A TIFF of 90 × 60 made by `tool` with `arguments` from an 8-bit swirl of colour.
    static func make(
        _ name: String, in scratch: Scratch, _ arguments: [String], tiffcp: [String]? = nil
    ) throws
        -> String
    {
        let source = scratch.file("source.png")
        if !FileManager.default.fileExists(atPath: source) {
            try convert(["-size", "90x60", "gradient:#3060c0-#e0a040", "-swirl", "90", "-depth", "8", source])
        }
        let path = scratch.file(name)
        try convert([source] + arguments + [tiffcp == nil ? path : path + ".in.tif"])
        if let tiffcp { try ExternalPhotos.run("tiffcp", tiffcp + [path + ".in.tif", path]) }
        return path
    }

    static let layouts: [(String, [String], [String]?)] = [
        ("rgb-strips.tif", ["-depth", "8"], nil),
        ("rgb-lzw-predictor.tif", ["-depth", "8"], ["-c", "lzw:2", "-r", "7"]),
        ("rgb-tiles.tif", ["-depth", "8"], ["-t", "-w", "32", "-l", "16"]),
        ("rgb-planes-apart.tif", ["-depth", "8", "-interlace", "plane"], nil),
        ("ycbcr-jpeg.tif", ["-depth", "8"], ["-c", "jpeg", "-r", "16"]),
        ("palette.tif", ["-colors", "32", "-type", "Palette"], nil),
        ("bilevel.tif", ["-monochrome"], nil),
        ("grey-16.tif", ["-colorspace", "Gray", "-depth", "16"], nil),
        ("rgb-16.tif", ["-depth", "16"], nil),
        ("cmyk-8.tif", ["-colorspace", "CMYK", "-depth", "8"], nil),
    ]

    @Test("each picture is GdkPixbuf's, sample for sample", arguments: layouts.map(\.0))
    func sameAsGdkPixbuf(name: String) throws {
        let scratch = Scratch()
        let (_, arguments, tiffcp) = try #require(Self.layouts.first { $0.0 == name })
        let path = try Self.make(name, in: scratch, arguments, tiffcp: tiffcp)
        let expected = try Pixbuf.load(path: path).get()
        let made = try TIFFPicture.load(path: path, fitting: nil, maximumPixels: 1 << 20).get()
        let difference = try #require(PixbufComparison.meanDifference(made, expected), "\(made.width) × \(made.height)")
        #expect(difference == 0, "mean difference \(difference)")
    }

    @Test("every orientation is turned upright as GdkPixbuf's loader turns it", arguments: 1...8)
    func orientations(orientation: Int) throws {
        let scratch = Scratch()
        let names = [
            "TopLeft", "TopRight", "BottomRight", "BottomLeft", "LeftTop", "RightTop", "RightBottom", "LeftBottom",
        ]
        let turned = ["-orient", names[orientation - 1]]
        // Through libtiff's RGBA interface, against GdkPixbuf's loader on the same file.
        let rgb = try Self.make("rgb.tif", in: scratch, ["-depth", "8"] + turned)
        let expected = try Pixbuf.load(path: rgb).get().upright()
        let made = try TIFFPicture.load(path: rgb, fitting: nil, maximumPixels: 1 << 20).get().upright()
        #expect(PixbufComparison.meanDifference(made, expected) == 0, "\(made.width) × \(made.height)")
        // From the samples (12-bit grey), against GdkPixbuf's loader on the same picture in 8 bits.
        let grey = try Self.make("grey12.tif", in: scratch, ["-colorspace", "Gray", "-depth", "12"] + turned)
        let grey8 = try Self.make("grey8.tif", in: scratch, ["-colorspace", "Gray", "-depth", "8"] + turned)
        let greyExpected = try Pixbuf.load(path: grey8).get().upright()
        let greyMade = try TIFFPicture.load(path: grey, fitting: nil, maximumPixels: 1 << 20).get().upright()
        let difference = try #require(PixbufComparison.meanDifference(greyMade, greyExpected))
        #expect(difference <= 0.6, "mean difference \(difference)")
    }

    @Test("a picture over the pixel limit, or no TIFF at all, is refused with a reason and nothing decoded")
    func refusals() throws {
        let scratch = Scratch()
        let path = try Self.make("rgb.tif", in: scratch, ["-depth", "8"])
        let tooMany = #expect(throws: Pixbuf.Failure.self) {
            try TIFFPicture.load(path: path, fitting: nil, maximumPixels: 90 * 60 - 1).get()
        }
        #expect(tooMany?.message == "the picture has too many pixels")
        let text = scratch.write("notes.tif", Array("not a TIFF at all".utf8))
        let notTIFF = #expect(throws: Pixbuf.Failure.self) {
            try TIFFPicture.load(path: text, fitting: nil, maximumPixels: 1 << 20).get()
        }
        #expect(notTIFF?.message.isEmpty == false)
        #expect(throws: Pixbuf.Failure.self) { try Pixbuf.load(path: text).get() }
    }
}
