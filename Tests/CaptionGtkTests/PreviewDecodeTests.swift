// The preview's decoding: a large JPEG from its DC terms, others through GdkPixbuf, both
// turned as the camera was held and both showing the same picture.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import Foundation
import JPEGPreview
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct PreviewDecodeTests {
    let folder = Harness.temporaryDirectory("caption-preview")

    /// GDK makes the surfaces, so the display must be open.
    init() throws { try Harness.start() }

    /// A JPEG whose left half is red and right half blue (stored as the camera wrote it),
    /// with grain so that it compresses like a photo, and an EXIF orientation when one is
    /// given.
    func photo(width: Int32, height: Int32, orientation: UInt16? = nil, name: String) throws -> String {
        let pixbuf = try #require(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = try #require(gdk_pixbuf_get_pixels(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        // One long grainy row, each line a different stretch of it (making every pixel
        // anew takes seconds in a debug build); the halves move by at most an eighth.
        let row = Int(width) * 3
        let spare = Int(width) / 8
        var grainy = [UInt8](repeating: 0, count: row + spare * 3)
        var seed: UInt32 = 7
        for index in grainy.indices {
            let red = index / 3 < Int(width) / 2 + spare / 2
            let level = [red ? 200 : 30, 40, red ? 30 : 200][index % 3]
            seed = seed &* 1_103_515_245 &+ 12345
            grainy[index] = UInt8(level + Int(seed >> 24) % 48 - 24)
        }
        grainy.withUnsafeBytes { grain in
            for y in 0..<Int(height) {
                let shift = (y &* 7_919) % spare * 3
                UnsafeMutableRawPointer(pixels + y * stride).copyMemory(
                    from: grain.baseAddress! + shift, byteCount: row)
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        #expect(gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", nil, nil, nil) != 0)
        defer { g_free(buffer) }
        var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
        if let orientation {
            // An EXIF block (big-endian TIFF, one entry: Orientation) just after the start marker.
            let tiff: [UInt8] = [
                0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0, 0, 0, 0, 0,
            ]
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            bytes.insert(contentsOf: [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload, at: 2)
        }
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    /// The colour of the decoded surface at a fraction of its width and height.
    func colour(_ photo: DecodedPhoto, x: Double, y: Double) -> (red: Int, green: Int, blue: Int) {
        let surface = photo.surface
        let colour =
            surface.pixel(x: Int(x * Double(surface.pixelWidth)), y: Int(y * Double(surface.pixelHeight))) ?? 0
        return (Int(colour >> 16 & 0xFF), Int(colour >> 8 & 0xFF), Int(colour & 0xFF))
    }

    func surfaceSize(_ photo: DecodedPhoto) -> PixelSize {
        PixelSize(
            width: photo.surface.pixelWidth, height: photo.surface.pixelHeight)
    }

    @Test func largeJPEGIsDecodedFromItsEighthToFitTheArea() throws {
        let path = try photo(width: 4000, height: 3000, name: "large.jpg")
        #expect(try fileSize(path) >= PhotoDecoder.smallestEighthFile)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 400, height: 400), scale: 1).get()
        #expect(decoded.source == .eighth)
        #expect(decoded.width == 4000 && decoded.height == 3000)
        #expect(surfaceSize(decoded) == PixelSize(width: 400, height: 300))
        let left = colour(decoded, x: 0.25, y: 0.5)
        let right = colour(decoded, x: 0.75, y: 0.5)
        #expect(left.red > 180 && left.blue < 60, "left \(left)")
        #expect(right.blue > 180 && right.red < 60, "right \(right)")
    }

    func fileSize(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// A large photo in a small file (smooth, or flat as here) is decoded by GdkPixbuf,
    /// which is as fast for it.
    @Test func largePhotoInASmallFileGoesToGdkPixbuf() throws {
        let path = folder + "/flat.jpg"
        let pixbuf = try #require(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 4000, 3000))
        gdk_pixbuf_fill(pixbuf, 0x3366_99FF)
        #expect(gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        #expect(try fileSize(path) < PhotoDecoder.smallestEighthFile)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 400, height: 400), scale: 1).get()
        #expect(decoded.source == .gdkPixbuf)
        #expect(surfaceSize(decoded) == PixelSize(width: 400, height: 300))
    }

    /// A photo only a little larger than the area is decoded by GdkPixbuf: its eighth would
    /// have to be enlarged.
    @Test func photoNotMuchLargerThanTheAreaGoesToGdkPixbuf() throws {
        let path = try photo(width: 1200, height: 900, name: "medium.jpg")
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 400, height: 400), scale: 1).get()
        #expect(decoded.source == .gdkPixbuf)
        #expect(surfaceSize(decoded) == PixelSize(width: 400, height: 300))
    }

    /// Orientation 6: the camera was turned a quarter clockwise, so the stored left half
    /// (red) is shown at the top. Both decoders must agree.
    @Test(arguments: [(Int32(4000), Int32(3000)), (Int32(400), Int32(300))])
    func sidewaysPhotoIsShownUpright(width: Int32, height: Int32) throws {
        let path = try photo(width: width, height: height, orientation: 6, name: "sideways-\(width).jpg")
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 300, height: 400), scale: 1).get()
        #expect(decoded.source == (width > 2400 ? .eighth : .gdkPixbuf))
        #expect(decoded.width == Int(height) && decoded.height == Int(width), "the size a person sees")
        let size = surfaceSize(decoded)
        #expect(size.height > size.width, "portrait: \(size)")
        let top = colour(decoded, x: 0.5, y: 0.25)
        let bottom = colour(decoded, x: 0.5, y: 0.75)
        #expect(top.red > 180 && top.blue < 60, "top \(top)")
        #expect(bottom.blue > 180 && bottom.red < 60, "bottom \(bottom)")
    }

    /// A large JPEG cut short, which the eighth decoder refuses (its scan ends early), still
    /// shows, through GdkPixbuf, at its full size: the file is a photo.
    @Test func jpegTheEighthDecoderRefusesFallsBackToGdkPixbuf() throws {
        let path = try photo(width: 4000, height: 3000, name: "cut.jpg")
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes = bytes.prefix(bytes.count * 3 / 4)
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))
        try #require(bytes.count >= PhotoDecoder.smallestEighthFile, "large enough for the eighth decoder to be asked")
        #expect(JPEGPreview.decodeEighth(path: path, fitting: (400, 400)) == nil)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 400, height: 400), scale: 1).get()
        #expect(decoded.source == .gdkPixbuf)
        #expect(decoded.width == 4000 && decoded.height == 3000)
        #expect(try PhotoInspector.verify(path).isIncomplete)
    }
    /// A photo of each format GdkPixbuf shows when cut short is previewed at its full size
    /// and gets a thumbnail: a GIF's loader gives its picture only with a warning, and the
    /// whole-file loader is asked.
    @Test(arguments: ["png", "gif", "webp", "bmp"])
    func photoCutShortIsPreviewedAndThumbnailed(type: String) throws {
        let folder = Harness.temporaryDirectory("caption-cut")
        let whole: String
        switch type {
        case "gif":
            whole = folder + "/whole.gif"
            try ExternalPhotos.run("convert", ["-size", "200x150", "plasma:fractal", "-seed", "3", whole])
        case "webp":
            whole = try ExternalPhotos.make(.webp, in: folder, width: 200, height: 150)
        default:
            whole = folder + "/whole." + type
            #expect(
                FileManager.default.createFile(
                    atPath: whole, contents: Data(Photos.make(width: 200, height: 150, type: type))))
        }
        let bytes = try #require(FileManager.default.contents(atPath: whole))
        let path = folder + "/cut." + type
        #expect(FileManager.default.createFile(atPath: path, contents: bytes.prefix(bytes.count / 2)))
        #expect(try PhotoInspector.verify(path).isIncomplete)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 100, height: 100), scale: 1).get()
        #expect(decoded.width == 200 && decoded.height == 150)
        #expect(decoded.surface.pixelWidth == 100)
        let thumbnail = try #require(Thumbnails.thumbnail(for: path))
        #expect(thumbnail.width == 128 && thumbnail.height == 96)
    }
}
