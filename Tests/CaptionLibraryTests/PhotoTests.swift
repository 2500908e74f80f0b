// Bad photos: each is refused with one line naming the problem, by the quick check, the
// full check and a save alike, and a refused save leaves the library as it was. A photo cut
// short that a decoder still shows is no bad photo: it is accepted, with a notice.

import CPixbuf
import CaptionTestSupport
import CaptionText
import Foundation
import Pixbufs
import Synchronization
import Testing

@testable import CaptionLibrary

@Suite("Photo checks")
struct PhotoTests {
    /// Runs the quick check, the full check and a save; all must fail with `kind` (the
    /// quick check only when `quick` is true: it does not read whole files).
    func refused(
        _ path: String, _ kind: LibraryErrorKind, quick: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> LibraryError? {
        if quick {
            let inspected = #expect(throws: LibraryError.self, sourceLocation: sourceLocation) {
                try PhotoInspector.inspect(path)
            }
            #expect(inspected?.kind == kind, sourceLocation: sourceLocation)
        }
        let verified = #expect(throws: LibraryError.self, sourceLocation: sourceLocation) {
            try PhotoInspector.verify(path)
        }
        #expect(verified?.kind == kind, sourceLocation: sourceLocation)
        let scratch = Scratch()
        let library = try Library(directory: scratch.file("lib"))
        let saved = #expect(throws: LibraryError.self, sourceLocation: sourceLocation) {
            try library.add(photoAt: path, words: CaptionWords(title: "T", subtitle: "S"))
        }
        #expect(saved?.kind == kind, sourceLocation: sourceLocation)
        #expect(saved?.isAboutPhoto == true, sourceLocation: sourceLocation)
        #expect(try library.entries().isEmpty, sourceLocation: sourceLocation)
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: scratch.file("lib/photos"))) == [],
            "nothing left in photos/", sourceLocation: sourceLocation)
        #expect(saved?.message.contains("\n") == false, sourceLocation: sourceLocation)
        return saved
    }

    @Test(
        "every accepted format passes the quick and the full check with its pixel size",
        arguments: ["png", "jpeg", "bmp", "tiff"])
    func acceptedFormats(type: String) throws {
        let scratch = Scratch()
        let path = scratch.write("photo", Photos.make(width: 33, height: 17, type: type))
        let quick = try PhotoInspector.inspect(path)
        let full = try PhotoInspector.verify(path)
        #expect(quick == full)
        #expect(full.width == 33 && full.height == 17)
        #expect(full.format.rawValue == type)
    }

    @Test("a GIF passes, and a format is recognised by content, not by file name")
    func gifByContent() throws {
        let scratch = Scratch()
        let path = scratch.write("looks-like.jpg", Photos.gif)
        let info = try PhotoInspector.verify(path)
        #expect(info.format == .gif && info.width == 1 && info.height == 1)
        let entry = try Library(directory: scratch.file("lib")).add(
            photoAt: path, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(entry.photo.hasSuffix(".gif"))
    }

    @Test("a missing photo is named as not found")
    func missing() throws {
        let error = try refused("/nonexistent/photo.jpg", .photoMissing)
        #expect(error?.message == "Photo not found: /nonexistent/photo.jpg")
    }

    @Test("a folder is refused as a folder")
    func folder() throws {
        let scratch = Scratch()
        let error = try refused(scratch.path, .photoIsFolder)
        #expect(error?.message == "This is a folder, not a photo: \(scratch.path)")
    }

    @Test("a FIFO and a device are refused without reading (a FIFO would block forever)")
    func notRegular() throws {
        let scratch = Scratch()
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        _ = try refused(fifo, .photoNotRegular)
        _ = try refused("/dev/zero", .photoNotRegular)
    }

    @Test("an empty file is refused as empty")
    func empty() throws {
        let scratch = Scratch()
        let path = scratch.write("empty.jpg", [])
        let error = try refused(path, .photoEmpty)
        #expect(error?.message == "The photo file is empty: \(path)")
    }

    @Test("a text file is not an image; the message lists the formats Caption reads")
    func notAnImage() throws {
        let scratch = Scratch()
        let path = scratch.write("notes.jpg", Array("just some words, not pixels\n".utf8))
        let error = try refused(path, .notAnImage)
        #expect(
            error?.message
                == "Not an image Caption can read (JPEG, PNG, WebP, HEIF, AVIF, GIF, TIFF, BMP or camera RAW): \(path)")
    }

    @Test("an SVG drawing is refused as a vector format, never rendered")
    func svg() throws {
        let scratch = Scratch()
        let svg =
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"><rect width=\"10\" height=\"10\"/></svg>"
        let path = scratch.write("drawing.svg", Array(svg.utf8))
        let error = try refused(path, .vectorImage)
        #expect(error?.message.hasPrefix("A vector drawing (SVG)") == true)
    }

    @Test("an icon format GdkPixbuf can read (ICO) is still not accepted as a photo")
    func icoRefused() throws {
        let scratch = Scratch()
        let path = scratch.write("icon.ico", Photos.make(width: 32, height: 32, type: "ico"))
        _ = try refused(path, .notAnImage)
    }

    @Test("a WebP file is refused with 'no decoder' when GdkPixbuf has no WebP loader")
    func webpWithoutDecoder() throws {
        // The situation is built, not read from the machine: a loader cache made by
        // gdk-pixbuf-query-loaders over every installed loader but WebP's, given to a
        // `caption --add` of its own through GDK_PIXBUF_MODULE_FILE.
        let scratch = Scratch()
        let cache = try PixbufLoaders.cache(without: ["webp"], in: scratch)
        let path = try ExternalPhotos.make(.webp, in: scratch.path)
        let refused = try Caption.run(
            ["--library", scratch.file("lib"), "--add", path, "--title", "T", "--subtitle", "S"],
            environment: ["GDK_PIXBUF_MODULE_FILE": cache])
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "caption: WebP photos cannot be read here: no decoder for them is installed: \(path)\n")
        // The same file, the same binary, with the loader there: accepted.
        let withLoader = try PixbufLoaders.cache(without: [], in: scratch, name: "all.cache")
        let accepted = try Caption.run(
            ["--library", scratch.file("lib"), "--add", path, "--title", "T", "--subtitle", "S"],
            environment: ["GDK_PIXBUF_MODULE_FILE": withLoader])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test("a format Caption knows and nothing here decodes is refused by its name, never as damaged")
    func unsupportedFormatsAreNamed() throws {
        let scratch = Scratch()
        let jxl = scratch.write("photo.jxl", [0xFF, 0x0A, 0xFA, 0x7F, 0x01] + [UInt8](repeating: 0x55, count: 200))
        let error = try refused(jxl, .unsupportedFormat)
        #expect(error?.message == "JPEG XL photos are not supported: no decoder for them here: \(jxl)")
        // 32-bit floating point and CMYK go to libtiff (TIFFTests); 24-bit floating point
        // nothing here reads.
        let float = scratch.file("float24.tif")
        let gradient = scratch.file("gradient.png")
        try ExternalPhotos.run("convert", ["-size", "64x48", "gradient:red-blue", "-depth", "8", gradient])
        try ExternalPhotos.run(
            "convert",
            [gradient, "-type", "TrueColor", "-depth", "24", "-define", "quantum:format=floating-point", float])
        let floatError = try refused(float, .unsupportedFormat, quick: false)
        #expect(floatError?.message == "24-bit floating-point TIFF is not supported: \(float)")
    }

    @Test("GIFs and BMPs GdkPixbuf shows are accepted: junk after a GIF's image, an RLE BMP that gives no image size")
    func lenientGIFAndBMP() throws {
        let scratch = Scratch()
        // The image whole, then bytes that are no block instead of the trailer.
        let junk = scratch.write("junk.gif", Array(Photos.gif.dropLast()) + [0x00, 0x42, 0x42, 0x42])
        #expect(try PhotoInspector.verify(junk).format == .gif)
        let rle = scratch.file("rle.bmp")
        try ExternalPhotos.run(
            "convert", ["-size", "64x48", "gradient:red-blue", "-colors", "16", "-compress", "RLE", "BMP3:" + rle])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: rle)))
        try #require(bytes[30] == 1 || bytes[30] == 2, "RLE compression")
        bytes.replaceSubrange(34..<38, with: [0, 0, 0, 0])  // biSizeImage 0: allowed for RLE
        let path = scratch.write("rle0.bmp", bytes)
        let info = try PhotoInspector.verify(path)
        #expect(info.format == .bmp && info.width == 64 && info.height == 48)
    }

    @Test("a GIF with no colour table and a top-down run-length BMP are taken and shown as other viewers show them")
    func mendedGIFAndBMP() throws {
        let scratch = Scratch()
        // ImageMagick's run-length BMP (stored bottom up), its height made negative: the same
        // rows read top first, so the picture is the original upside down.
        let rle = scratch.file("rle.bmp")
        try ExternalPhotos.run(
            "convert",
            ["-size", "64x48", "plasma:fractal", "-seed", "5", "-colors", "16", "-compress", "RLE", "BMP3:" + rle])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: rle)))
        try #require(bytes[30] == 1 && bytes[22] == 48 && bytes[23] == 0, "RLE8, 48 rows")
        bytes.replaceSubrange(22..<26, with: [0xD0, 0xFF, 0xFF, 0xFF])  // -48
        let topDown = scratch.write("top-down.bmp", bytes)
        let original = try Pixbuf.load(path: rle).get()
        let expectedBMP = Pixbuf(taking: try #require(gdk_pixbuf_flip(original.pointer, 0)))
        // Pillow's GIF, its global colour table taken out: Pillow shows the indices as greys.
        let gif = scratch.file("plain.gif")
        let nopalette = scratch.file("no-palette.gif")
        let greys = scratch.file("greys.png")
        try ExternalPhotos.run(
            "python3",
            [
                "-c",
                """
                from PIL import Image
                Image.open('\(rle)').convert('RGB').quantize(colors=16).save('\(gif)')
                b = open('\(gif)', 'rb').read()
                table = 3 * 2 ** ((b[10] & 7) + 1)
                open('\(nopalette)', 'wb').write(b[:10] + bytes([b[10] & 0x70]) + b[11:13] + b[13 + table:])
                Image.open('\(nopalette)').convert('L').save('\(greys)')
                """,
            ])
        let expectedGIF = try Pixbuf.load(path: greys).get()
        for (path, format, expected) in [(topDown, PhotoFormat.bmp, expectedBMP), (nopalette, .gif, expectedGIF)] {
            let quick = try PhotoInspector.inspect(path)
            let full = try PhotoInspector.verify(path)
            #expect(quick == full && full.format == format && full.width == 64 && full.height == 48, "\(full)")
            let shown = try Pixbuf.load(path: path).get()
            #expect(PixbufComparison.meanDifference(shown, expected) == 0, "\(path) as other viewers show it")
            let fitted = try Pixbuf.load(path: path, fitting: (32, 32)).get()
            #expect(fitted.width == 32 && fitted.height == 24)
            let added = try Caption.run([
                "--library", scratch.file("lib"), "--add", path, "--title", "T", "--subtitle", "S",
            ])
            #expect(added.status == 0, "\(added.stderr)")
        }
    }

    @Test("a GIF whose header gives no size is damaged, said in one line (GdkPixbuf's size query is not asked)")
    func gifOfNoSize() throws {
        let scratch = Scratch()
        // GdkPixbuf's own test file: a 0 × 0 screen, a global table of two, the trailer.
        let bytes: [UInt8] = Array("GIF89a".utf8) + [0, 0, 0, 0, 0xF0, 1, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x3B]
        let path = scratch.write("zero-size.gif", bytes)
        _ = try refused(path, .photoDamaged, quick: false)
        let added = try Caption.run([
            "--library", scratch.file("cli"), "--add", path, "--title", "T", "--subtitle", "S",
        ])
        #expect(added.status != 0)
        #expect(added.stderr == "caption: The photo is damaged or incomplete: \(path)\n")
    }

    /// A whole photo of `type`, 200 × 150, from GdkPixbuf's own writers or (GIF, WebP,
    /// which it cannot write) ImageMagick and cwebp.
    func wholePhoto(_ type: String, in scratch: Scratch) throws -> [UInt8] {
        switch type {
        case "gif":
            let path = scratch.file("whole.gif")
            try ExternalPhotos.run("convert", ["-size", "200x150", "plasma:fractal", "-seed", "3", path])
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        case "webp":
            let path = try ExternalPhotos.make(.webp, in: scratch.path, width: 200, height: 150)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        default:
            return Photos.make(width: 200, height: 150, type: type)
        }
    }

    @Test(
        "a photo cut short that GdkPixbuf still shows is accepted, marked incomplete, and stored byte for byte",
        arguments: ["jpeg", "png", "gif", "webp", "bmp"])
    func truncatedButShown(type: String) throws {
        let scratch = Scratch()
        let whole = try wholePhoto(type, in: scratch)
        let wholePath = scratch.write("whole.\(type)", whole)
        #expect(try PhotoInspector.verify(wholePath).isIncomplete == false)
        #expect(try PhotoInspector.load(wholePath).notice == nil, "a whole photo gets no notice")
        let library = try Library(directory: scratch.file("lib"))
        // Three bytes short: a GIF may lack only its trailer, so this is inside its last block.
        for cut in [whole.count / 2, whole.count - 3] {
            let bytes = Array(whole.prefix(cut))
            let path = scratch.write("harbour-\(cut).\(type)", bytes)
            let info = try PhotoInspector.verify(path)
            #expect(info.isIncomplete, "cut at \(cut) of \(whole.count)")
            #expect(info.width == 200 && info.height == 150)
            let loaded = try PhotoInspector.load(path)
            #expect(loaded.notice == .incomplete)
            #expect(
                loaded.notice?.afterSaving(path)
                    == "harbour-\(cut).\(type) looks incomplete (the end of the file is missing); it was added as it is"
            )
            #expect(
                loaded.notice?.beforeSaving(path)
                    == "harbour-\(cut).\(type) looks incomplete (the end of the file is missing); it will be saved as it is"
            )
            let entry = try library.add(loaded, words: CaptionWords(title: "T", subtitle: "S"))
            let stored = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("lib/" + entry.photo))))
            #expect(stored == bytes, "the bytes as they were, not a repaired or re-encoded picture")
            #expect(entry.width == 200 && entry.height == 150)
        }
    }

    /// Cut where the first picture data starts (a BMP inside its header): nothing any
    /// decoder can make a picture of.
    static func headerOnly(_ whole: [UInt8], type: String) -> [UInt8] {
        func index(of pattern: [UInt8]) -> Int {
            (0...(whole.count - pattern.count)).first { Array(whole[$0..<($0 + pattern.count)]) == pattern } ?? 0
        }
        switch type {
        case "jpeg": return Array(whole.prefix(index(of: [0xFF, 0xDA])))  // before the scan header
        case "png": return Array(whole.prefix(index(of: Array("IDAT".utf8)) - 4))  // before the first IDAT
        case "gif": return Array(whole.prefix(index(of: [0x2C, 0, 0, 0, 0])))  // before the image descriptor
        case "webp": return Array(whole.prefix(20))  // the RIFF header and a chunk's header
        // Inside a BMP's info header: with the headers whole, its loader makes a (blank)
        // picture of the full size from them, which is shown and so is a photo.
        default: return Array(whole.prefix(30))
        }
    }

    @Test(
        "a photo cut so short that nothing decodes is refused as damaged or incomplete",
        arguments: ["jpeg", "png", "gif", "webp", "bmp"])
    func truncatedPastShowing(type: String) throws {
        let scratch = Scratch()
        let cut = Self.headerOnly(try wholePhoto(type, in: scratch), type: type)
        try #require(cut.count > 12, "the signature is there, so a decoder is asked")
        let path = scratch.write("cut.\(type)", cut)
        let error = try refused(path, .photoDamaged, quick: false)
        #expect(error?.message == "The photo is damaged or incomplete: \(path)")
    }

    @Test("a JPEG cut off inside its header is refused by the quick check too")
    func truncatedHeader() throws {
        let scratch = Scratch()
        let path = scratch.write("cut.jpg", Array(Photos.jpeg().prefix(40)))
        _ = try refused(path, .photoDamaged)
    }

    @Test("a JPEG with bytes after its end marker (camera padding) is accepted")
    func jpegPadding() throws {
        let scratch = Scratch()
        let path = scratch.write("padded.jpg", Photos.jpeg() + [UInt8](repeating: 0, count: 1000))
        #expect(try PhotoInspector.verify(path).format == .jpeg)
    }

    @Test("a photo whose decode would take over 1 GiB is refused from its header, quickly, without decoding")
    func tooManyPixels() throws {
        let scratch = Scratch()
        // 30000 × 30000 × 4 bytes would be 3.6 GB if anything decoded it.
        let path = scratch.write("huge.png", Photos.pngHeader(width: 30000, height: 30000))
        let started = Timestamp.now()
        let error = try refused(path, .photoTooManyPixels)
        #expect(
            error?.message
                == "The photo is too large to decode (30000 × 30000 pixels take 3434 MiB; at most 1024 MiB): \(path)")
        #expect(Timestamp.now().millisecondsSince1970 - started.millisecondsSince1970 < 2000)
        // Just over the limit is refused, just under is not: 16384 × 16384 × 4 is 1 GiB.
        let over = scratch.write("over.png", Photos.pngHeader(width: 16385, height: 16384))
        _ = try refused(over, .photoTooManyPixels)
        let under = scratch.write("under.png", Photos.pngHeader(width: 16384, height: 16384))
        #expect(try PhotoInspector.inspect(under).width == 16384)
    }

    @Test("the limit is memory, not pixels: a line scan of 3,158,064 × 48 (151 megapixels, 578 MiB) is taken")
    func longThinPictureIsTaken() throws {
        let scratch = Scratch()
        // A run-length BMP (8 bits a pixel, 16 grey bands), as scanners write long pictures:
        // each row runs of 255 pixels, an end of line, and an end of picture after the last.
        let width = 3_158_064
        let height = 48
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var rows: [UInt8] = []
        for row in 0..<height {
            let index = UInt8(row / 3 * 16)
            for _ in 0..<(width / 255) { rows += [255, index] }
            rows += [UInt8(width % 255), index, 0, 0]
        }
        rows += [0, 1]
        let palette: [UInt8] = (0..<256).flatMap { level -> [UInt8] in [UInt8(level), UInt8(level), UInt8(level), 0] }
        let offset = 14 + 40 + palette.count
        let header: [UInt8] =
            Array("BM".utf8) + le32(offset + rows.count) + le32(0) + le32(offset)
            + le32(40) + le32(width) + le32(height) + [1, 0, 8, 0] + le32(1) + le32(rows.count)
            + le32(2835) + le32(2835) + le32(256) + le32(0)
        let path = scratch.write("line-scan.bmp", header + palette + rows)
        let quick = try PhotoInspector.inspect(path)
        #expect(quick.width == width && quick.height == height)
        let full = try PhotoInspector.verify(path)
        #expect(full.format == .bmp && full.width == width && full.height == height)
    }

    @Test("a file over 256 MiB is refused from its size alone, without reading it")
    func tooManyBytes() throws {
        let scratch = Scratch()
        let path = scratch.write("big.png", Photos.png())
        #expect(truncate(path, off_t(PhotoInspector.maximumBytes) + 1) == 0)  // sparse: costs no disk
        let error = try refused(path, .photoTooLarge)
        #expect(error?.message == "The photo is too large (257 MiB; at most 256 MiB): \(path)")
    }

    @Test("a symbolic link to a photo is followed; a dangling one is a missing photo")
    func symbolicLinks() throws {
        let scratch = Scratch()
        let target = scratch.write("p.png", Photos.png())
        symlink(target, scratch.file("link.png"))
        #expect(try PhotoInspector.verify(scratch.file("link.png")).format == .png)
        symlink(scratch.file("gone.png"), scratch.file("dangling.png"))
        _ = try refused(scratch.file("dangling.png"), .photoMissing)
    }

    @Test("the structure walk finds the end of each format and rejects every shorter prefix of a small JPEG")
    func structureWalk() {
        let jpeg = Photos.jpeg()
        for cut in stride(from: 1, to: jpeg.count, by: 7) {
            let complete = Array(jpeg.prefix(cut)).withUnsafeBytes { JPEGSegments.isComplete($0) }
            #expect(!complete, "prefix of \(cut) bytes")
        }
        #expect(jpeg.withUnsafeBytes { JPEGSegments.isComplete($0) })
        let png = Photos.png()
        #expect(png.withUnsafeBytes { PNGChunks.isComplete($0) })
        #expect(!Array(png.dropLast(12)).withUnsafeBytes { PNGChunks.isComplete($0) })
        #expect(Photos.gif.withUnsafeBytes { PhotoStructure.gif($0) })
        #expect(
            Array(Photos.gif.dropLast()).withUnsafeBytes { PhotoStructure.gif($0) },
            "a missing trailer alone is tolerated")
        #expect(!Array(Photos.gif.dropLast(3)).withUnsafeBytes { PhotoStructure.gif($0) })
    }

    @Test("the photo checks can run on many threads at once")
    func threadSafe() throws {
        let scratch = Scratch()
        let paths = ["png", "jpeg", "bmp", "tiff"].map {
            scratch.write("p.\($0)", Photos.make(width: 300, height: 200, type: $0))
        }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<10 {
                do {
                    let info = try PhotoInspector.verify(paths[index % 4])
                    if info.width != 300 { failures.withLock { $0 += 1 } }
                    _ = try PhotoInspector.inspect(paths[(index + 1) % 4])
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
