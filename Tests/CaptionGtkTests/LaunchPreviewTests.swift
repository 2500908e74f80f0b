// The command line's photo in the window's first frame: its embedded picture (an Exif
// thumbnail as exiftool writes one) while the photo decodes, then the photo, and the work
// that waits for the photo held until the photo itself is painted.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import Dispatch
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct LaunchPreviewTests {
    let folder = Harness.temporaryDirectory("caption-launch")

    /// A JPEG of one colour (0xRRGGBB).
    func makeJPEG(_ name: String, colour: UInt32, width: Int32, height: Int32, bars: Int32 = 0) -> String {
        let path = folder + "/" + name
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height)!
        gdk_pixbuf_fill(pixbuf, 0x0000_00FF)
        let inside = gdk_pixbuf_new_subpixbuf(pixbuf, 0, bars, width, height - 2 * bars)!
        gdk_pixbuf_fill(inside, colour << 8 | 0xFF)
        g_object_unref(UnsafeMutableRawPointer(inside))
        let saved = gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        precondition(saved != 0, "could not write \(path)")
        return path
    }

    /// A magenta 1600 × 1000 photo whose Exif thumbnail (exiftool) is green, 160 × 120 with
    /// black bars above and below, as cameras pad a thumbnail of another shape.
    func photoWithThumbnail(_ name: String, orientation: Int = 1) throws -> String {
        let photo = makeJPEG(name, colour: 0xD018D0, width: 1600, height: 1000)
        let thumbnail = makeJPEG(name + "-thumb.jpg", colour: 0x18D018, width: 160, height: 120, bars: 10)
        var arguments = ["-q", "-overwrite_original", "-ThumbnailImage<=" + thumbnail]
        if orientation != 1 { arguments.append("-Orientation#=\(orientation)") }
        try ExternalPhotos.run("exiftool", arguments + [photo])
        return photo
    }

    func near(_ colour: UInt32?, _ expected: UInt32) -> Bool {
        guard let colour else { return false }
        return [16, 8, 0].allSatisfy { shift in
            abs(Int((colour >> UInt32(shift)) & 0xFF) - Int((expected >> UInt32(shift)) & 0xFF)) <= 12
        }
    }

    /// The thumbnail without its bars, in the photo's shape and turn: scaled into the
    /// preview it takes the place the photo will take.
    @Test func embeddedPictureTakesThePhotosShapeAndTurn() throws {
        try Harness.start()
        for (orientation, shape) in [(1, 1.6), (6, 1 / 1.6)] {
            let path = try photoWithThumbnail("shape-\(orientation).jpg", orientation: orientation)
            let info = try PhotoInspector.inspect(path)
            let picture = try #require(PhotoDecoder.embedded(path, info: info, scale: 1))
            let surface = picture.surface
            let width = surface.pixelWidth
            let height = surface.pixelHeight
            #expect(picture.source == .embedded)
            #expect(abs(Double(width) / Double(height) - shape) < 0.03, "\(width)×\(height), turn \(orientation)")
            #expect(
                orientation == 1
                    ? (picture.width, picture.height) == (1600, 1000) : (picture.width, picture.height) == (1000, 1600))
            // No bar left at any edge.
            for (x, y) in [(width / 2, 1), (width / 2, height - 2), (1, height / 2), (width - 2, height / 2)] {
                #expect(near(surface.pixel(x: x, y: y), 0x18D018), "at \(x),\(y) of \(width)×\(height)")
            }
        }
    }

    @Test func photoWithoutEmbeddedPictureHasNone() throws {
        try Harness.start()
        let path = makeJPEG("plain.jpg", colour: 0xD018D0, width: 1600, height: 1000)
        #expect(PhotoDecoder.embedded(path, info: try PhotoInspector.inspect(path), scale: 1) == nil)
    }

    /// While the photo decodes, the preview shows its thumbnail, and the work that waits for
    /// the photo (spell-checking, the offers) waits; then the photo replaces the thumbnail,
    /// and that work runs.
    @Test func launchShowsTheEmbeddedPictureUntilThePhotoIsDecoded() throws {
        let path = try photoWithThumbnail("launch.jpg")
        let hold = DispatchSemaphore(value: 0)
        LaunchPreview.beforeDecoding = { hold.wait() }
        defer { LaunchPreview.beforeDecoding = nil }
        try Harness.start()
        LaunchPreview.start(path)
        var waited = false
        LaunchPreview.afterPhoto { waited = true }
        let window = try Harness.makeWindow(library: folder + "/launch")
        defer { Harness.close(window) }
        window.form.enqueue([path])
        let preview = window.form.photos.preview
        #expect(Harness.spin { preview.hasPhoto }, "nothing shown")
        #expect(near(preview.middlePixel, 0x18D018), "shown first: \(String(preview.middlePixel ?? 0, radix: 16))")
        // Proves the work waits for the photo: started by the thumbnail's paint instead, it
        // would run within a frame or two, well inside these 300 ms.
        Harness.pump(milliseconds: 300)
        #expect(!waited, "the waiting work ran before the photo was painted")
        hold.signal()
        #expect(Harness.spin { near(preview.middlePixel, 0xD018D0) }, "the photo never replaced its thumbnail")
        #expect(Harness.spin { waited }, "the waiting work never ran")
    }

    /// What a launch gave, in order, from its decoding thread.
    final class Stages: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func add(_ stage: LaunchPreview.Stage) {
            lock.withLock {
                switch stage {
                case .embedded: names.append("embedded")
                case .decoded: names.append("decoded")
                }
            }
        }
        var seen: [String] { lock.withLock { names } }
    }

    /// Held for registering: the photo's small picture comes at once, the photo itself
    /// only once the application has registered, and not at all in a second instance,
    /// which hands the photo to the window already open.
    @Test func theDecodeWaitsForRegisteringAndASecondInstanceSkipsIt() throws {
        try Harness.start()
        for wanted in [true, false] {
            let path = try photoWithThumbnail("held-\(wanted).jpg")
            LaunchPreview.start(path, holdingDecode: true)
            let launch = try #require(LaunchPreview.take(path, scale: GtkApp.screenScale))
            let stages = Stages()
            launch.follow { stages.add($0) }.forEach(stages.add)
            #expect(Harness.spin { stages.seen == ["embedded"] }, "\(stages.seen)")
            // Proves the decode waits for registering: started at once, this 1600 × 1000 photo
            // would be decoded well within these 300 ms.
            Harness.pump(milliseconds: 300)
            #expect(stages.seen == ["embedded"], "decoded before registering")
            LaunchPreview.decodeOnceRegistered(wanted: wanted)
            if wanted {
                #expect(Harness.spin { stages.seen == ["embedded", "decoded"] }, "\(stages.seen)")
            } else {
                // Proves a second instance skips the decode: let go, this 1600 × 1000 photo
                // would be decoded well within these 300 ms.
                Harness.pump(milliseconds: 300)
                #expect(stages.seen == ["embedded"], "a second instance decoded the photo")
            }
            LaunchPreview.settle()
        }
    }

    /// No embedded picture: the first thing shown is the photo.
    @Test func launchWithoutEmbeddedPictureShowsThePhoto() throws {
        let path = makeJPEG("launch-plain.jpg", colour: 0xD018D0, width: 1600, height: 1000)
        try Harness.start()
        LaunchPreview.start(path)
        let window = try Harness.makeWindow(library: folder + "/launch-plain")
        defer { Harness.close(window) }
        window.form.enqueue([path])
        let preview = window.form.photos.preview
        #expect(Harness.spin { preview.hasPhoto }, "nothing shown")
        #expect(near(preview.middlePixel, 0xD018D0))
    }
}
