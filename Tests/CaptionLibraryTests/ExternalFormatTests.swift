// Photos as people have them, made by other encoders than Caption's: each is accepted by the
// quick and the full check and by `caption --add`, its bytes stored exactly, and listed.

import CPixbuf
import CaptionTestSupport
import CaptionText
import Foundation
import Pixbufs
import Testing

@testable import CaptionLibrary

/// A private GdkPixbuf loader cache: the installed loaders less some, for tests that need a
/// loader absent whatever this machine has.
enum PixbufLoaders {
    static func cache(without left: [String], in scratch: Scratch, name: String = "loaders.cache") throws -> String {
        func variable(_ name: String) throws -> String {
            let outcome = try Caption.run(["--variable=\(name)", "gdk-pixbuf-2.0"], binary: "/usr/bin/pkg-config")
            try #require(outcome.status == 0, "pkg-config: \(outcome.stderr)")
            return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let folder = try variable("gdk_pixbuf_moduledir")
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { module in
            module.hasSuffix(".so") && !left.contains { module.contains("-\($0).so") }
        }.map { folder + "/" + $0 }
        let query = try Caption.run(modules, binary: try variable("gdk_pixbuf_query_loaders"))
        try #require(query.status == 0, "gdk-pixbuf-query-loaders: \(query.stderr)")
        for module in left { try #require(!query.stdout.contains("-\(module).so")) }
        return scratch.write(name, Array(query.stdout.utf8))
    }
}

@Suite("Photos from other encoders")
struct ExternalFormatTests {
    static let kinds: [(ExternalPhotos.Kind, PhotoFormat)] = [
        (.heic, .heif), (.avif, .avif), (.webp, .webp), (.dng, .dng), (.arithmeticJPEG, .jpeg), (.restartJPEG, .jpeg),
        (.tiff16, .tiff), (.bigTIFF, .tiff), (.floatTIFF, .tiff), (.jpegWithPictureAfterEnd, .jpeg),
        (.jpegWithStrayBytes, .jpeg),
    ]

    @Test("each is accepted by the quick and the full check, with its format and size", arguments: kinds)
    func accepted(kind: ExternalPhotos.Kind, format: PhotoFormat) throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(kind, in: scratch.path, width: 320, height: 240)
        let quick = try PhotoInspector.inspect(path)
        let full = try PhotoInspector.verify(path)
        #expect(quick.format == format && full.format == format)
        if format.isRaw {
            // LibRaw gives the RAW picture's size (the test DNG's is 128 × 96).
            #expect(full.width == 128 && full.height == 96)
        } else {
            #expect(full.width == 320 && full.height == 240, "\(full.width) × \(full.height)")
        }
        #expect(quick.width == full.width && quick.height == full.height)
    }

    @Test("each is added by caption --add with its bytes kept exactly, and listed", arguments: kinds)
    func addedAndListed(kind: ExternalPhotos.Kind, format: PhotoFormat) throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(kind, in: scratch.path)
        let library = scratch.file("lib")
        let added = try Caption.run([
            "--library", library, "--add", path, "--title", "Harbour", "--subtitle", kind.rawValue,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try Caption.run(["--library", library, "--list"])
        #expect(listed.stdout.contains("Harbour") && listed.stdout.contains(kind.rawValue))
        let stored = try FileManager.default.contentsOfDirectory(atPath: library + "/photos")
        try #require(stored.count == 1)
        #expect(stored[0].hasSuffix("." + format.fileExtension))
        #expect(FileManager.default.contentsEqual(atPath: library + "/photos/" + stored[0], andPath: path))
    }

    @Test("a HEIF's size comes from its header, turned as its irot says, without decoding")
    func heifSizeFromHeader() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.heic, in: scratch.path, width: 300, height: 200)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let size = try #require(bytes.withUnsafeBytes { ISOBMFF.primarySize($0) })
        #expect(size == (300, 200))
    }

    @Test("a RAW that LibRaw cannot open is damaged; one cut short too")
    func damagedRaw() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.dng, in: scratch.path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The header and IFD0 only: the directories point past the end.
        for cut in [
            scratch.write("cut.dng", Array(bytes.prefix(200))),
            scratch.write("garbage.dng", Array(bytes.prefix(8)) + [UInt8](repeating: 0xEE, count: 4000)),
        ] {
            do {
                _ = try PhotoInspector.verify(cut)
                Issue.record("accepted \(cut)")
            } catch {
                #expect(error.kind == .photoDamaged && error.message == "The photo is damaged or incomplete: \(cut)")
            }
        }
    }

    @Test("a RAW cut short in its sensor data, its embedded preview all there, is a photo marked incomplete")
    func truncatedRawWithPreview() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.dng, in: scratch.path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The test DNG keeps its Bayer data last, after the preview.
        let cut = scratch.write("cut.dng", Array(bytes.dropLast(100)))
        let info = try PhotoInspector.verify(cut)
        #expect(info.isIncomplete && info.format == .dng)
        #expect(try PhotoInspector.verify(path).isIncomplete == false)
        let library = try Library(directory: scratch.file("lib"))
        let entry = try library.add(photoAt: cut, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("lib/" + entry.photo))))
                == Array(bytes.dropLast(100)))
    }

    @Test("a HEIF cut short is damaged: libheif shows nothing of it")
    func truncatedHEIF() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.heic, in: scratch.path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = scratch.write("cut.heic", Array(bytes.dropLast(100)))
        do {
            _ = try PhotoInspector.verify(cut)
            Issue.record("accepted a HEIF cut short")
        } catch {
            #expect(error.kind == .photoDamaged)
        }
    }

    @Test("the RAW preview is its embedded JPEG, fitted and turned")
    func rawPreview() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.dng, in: scratch.path, width: 320, height: 240)
        let pixbuf = try #require(RawPhoto.preview(path: path, fitting: (160, 160)))
        #expect(pixbuf.width == 160 && pixbuf.height == 120)
        #expect(RawPhoto.preview(path: scratch.file("none.dng"), fitting: (100, 100)) == nil)
    }

    @Test("a RAW is refused with 'no decoder' when LibRaw cannot be opened, and other formats never open it")
    func rawWithoutLibRaw() throws {
        let scratch = Scratch()
        let path = try ExternalPhotos.make(.dng, in: scratch.path, width: 320, height: 240)
        let head = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var asked = 0
        let missing = { () -> Bool in
            asked += 1
            return false
        }
        do {
            _ = try head.withUnsafeBytes { try PhotoInspector.recognise($0, path: path, rawAvailable: missing) }
            Issue.record("a RAW was accepted without LibRaw")
        } catch let error as LibraryError {
            #expect(error.kind == .noDecoder)
            #expect(error.message == "DNG photos cannot be read here: no decoder for them is installed: \(path)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(asked == 1)
        let jpeg = Array(Photos.jpeg().prefix(32))
        #expect(
            try jpeg.withUnsafeBytes { try PhotoInspector.recognise($0, path: "x", rawAvailable: missing) } == .jpeg)
        #expect(asked == 1)
    }
}

@Suite("New formats, damaged")
struct DamagedNewFormatTests {
    /// Cut anywhere or with bytes changed, a HEIF, AVIF, WebP, DNG or TIFF is accepted (a cut
    /// one marked incomplete) or refused with one line, quickly: never a crash (libheif,
    /// libavif, LibRaw and libtiff see every variant) nor a hang. The same generator every run.
    @Test(arguments: [ExternalPhotos.Kind.heic, .avif, .webp, .dng, .bigTIFF, .floatTIFF])
    func damagedFilesAreRefusedOrAcceptedNeverCrash(kind: ExternalPhotos.Kind) throws {
        let scratch = Scratch()
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: try ExternalPhotos.make(kind, in: scratch.path))))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(bound, 1)))
        }
        var variants: [[UInt8]] = []
        for step in 1...20 { variants.append(Array(whole.prefix(whole.count * step / 21))) }
        for _ in 0..<40 {
            var damaged = whole
            for _ in 0...next(6) { damaged[next(damaged.count)] = UInt8(next(256)) }
            variants.append(damaged)
        }
        var refused = 0
        var cutsRefused = 0
        for (index, bytes) in variants.enumerated() {
            let path = scratch.write("variant-\(index).\(kind.fileExtension)", bytes)
            let started = Date()
            let isCut = index < 20
            do {
                let info = try PhotoInspector.verify(path)
                // A cut that still shows is accepted, and never taken for a whole file
                // (a BigTIFF's strips are libtiff's to judge: it reports a short file itself).
                if isCut && kind != .bigTIFF && kind != .floatTIFF {
                    #expect(info.isIncomplete, "variant \(index) accepted as whole")
                }
            } catch {
                refused += 1
                if isCut { cutsRefused += 1 }
                #expect(
                    [.photoDamaged, .notAnImage, .unsupportedFormat, .photoTooManyPixels].contains(error.kind),
                    "variant \(index): \(error.message)")
                #expect(!error.message.contains("\n"))
            }
            #expect(Date().timeIntervalSince(started) < 10, "variant \(index) took too long")
        }
        // libheif and libavif show nothing of a file cut short: every cut is refused.
        if kind == .heic || kind == .avif { #expect(cutsRefused == 20, "\(cutsRefused) of 20 cuts refused") }
        print("\(kind): \(refused) of \(variants.count) refused, \(cutsRefused) of 20 cuts")
    }
}
