// The window previews photos made by other encoders: HEIF, AVIF, WebP, a DNG's embedded
// preview, arithmetic-coded and restart-marker JPEGs, 16-bit, floating-point (through
// libtiff) and Big TIFF; turned as the camera was held; and a large HEIC or RAW never
// stalls the main loop.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ExternalFormatPreviewTests {
    let folder = Harness.temporaryDirectory("caption-formats")

    init() throws { try Harness.start() }

    nonisolated static let kinds: [(ExternalPhotos.Kind, PhotoDecoder.Source)] = [
        (.heic, .gdkPixbuf), (.avif, .gdkPixbuf), (.webp, .gdkPixbuf), (.dng, .rawPreview),
        (.arithmeticJPEG, .gdkPixbuf), (.restartJPEG, .gdkPixbuf), (.tiff16, .gdkPixbuf), (.bigTIFF, .gdkPixbuf),
        (.floatTIFF, .gdkPixbuf), (.jpegWithPictureAfterEnd, .gdkPixbuf), (.jpegWithStrayBytes, .gdkPixbuf),
    ]

    func surfaceSize(_ photo: DecodedPhoto) -> PixelSize {
        PixelSize(
            width: photo.surface.pixelWidth, height: photo.surface.pixelHeight)
    }

    /// The mean brightness of a surface's corner, to tell a picture from a blank.
    func brightness(_ photo: DecodedPhoto, x: Double, y: Double) -> Int {
        let surface = photo.surface
        let colour =
            surface.pixel(x: Int(x * Double(surface.pixelWidth - 1)), y: Int(y * Double(surface.pixelHeight - 1)))
        guard let colour else { return -1 }
        return (Int(colour >> 16 & 0xFF) + Int(colour >> 8 & 0xFF) + Int(colour & 0xFF)) / 3
    }

    @Test(arguments: kinds)
    func previewsEachFormatFittedToTheArea(kind: ExternalPhotos.Kind, source: PhotoDecoder.Source) throws {
        let path = try ExternalPhotos.make(kind, in: folder, width: 640, height: 480)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 320, height: 320), scale: 1).get()
        #expect(decoded.source == source)
        #expect(surfaceSize(decoded) == PixelSize(width: 320, height: 240))
        // The test picture runs from blue to orange: its corners differ.
        #expect(abs(brightness(decoded, x: 0, y: 0) - brightness(decoded, x: 1, y: 1)) > 20)
    }

    /// A RAW taken with the camera turned a quarter (LibRaw's flip 6, from the DNG's
    /// Orientation 6) is previewed upright: portrait.
    @Test func rawPreviewIsTurnedAsTheCameraWasHeld() throws {
        let preview = try ExternalPhotos.make(.restartJPEG, in: folder, width: 400, height: 300, name: "preview.jpg")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: preview)))
        let path = folder + "/sideways.dng"
        try Data(ExternalPhotos.dng(preview: bytes, previewWidth: 400, previewHeight: 300, orientation: 6))
            .write(to: URL(fileURLWithPath: path))
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 300, height: 300), scale: 1).get()
        #expect(decoded.source == .rawPreview)
        #expect(surfaceSize(decoded) == PixelSize(width: 225, height: 300))
        #expect(decoded.width == 96 && decoded.height == 128, "the RAW's size, turned")
    }

    /// A DNG laid out as cameras write it (a small RGB thumbnail in IFD0, the JPEG preview
    /// and the raw picture in SubIFDs): the preview is still its JPEG, and the thumbnail is
    /// the embedded picture shown meanwhile, turned as the camera was held.
    @Test func dngThumbnailIsShownWhileItsPreviewDecodes() throws {
        let preview = try ExternalPhotos.make(.restartJPEG, in: folder, width: 400, height: 300, name: "camera.jpg")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: preview)))
        let green = Array([[UInt8]](repeating: [40, 200, 40], count: 160 * 120).joined())
        let path = folder + "/camera.dng"
        try Data(
            ExternalPhotos.dng(
                preview: bytes, previewWidth: 400, previewHeight: 300, orientation: 6, thumbnail: green,
                thumbnailSize: (160, 120))
        ).write(to: URL(fileURLWithPath: path))
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 300, height: 300), scale: 1).get()
        #expect(decoded.source == .rawPreview)
        #expect(surfaceSize(decoded) == PixelSize(width: 225, height: 300))
        // The JPEG preview (a gradient), not the one-colour thumbnail.
        #expect(abs(brightness(decoded, x: 0, y: 0) - brightness(decoded, x: 1, y: 1)) > 20)
        let embedded = try #require(PhotoDecoder.embedded(path, info: try PhotoInspector.inspect(path), scale: 1))
        #expect(embedded.source == .embedded)
        #expect(surfaceSize(embedded) == PixelSize(width: 120, height: 160))
        #expect(embedded.width == 96 && embedded.height == 128, "the RAW's size, turned")
        #expect(abs(brightness(embedded, x: 0.5, y: 0.5) - (40 + 200 + 40) / 3) < 6)
    }

    /// A HEIC with a thumbnail, as phones write them (heif-enc -t): the thumbnail is the
    /// embedded picture shown while GdkPixbuf's loader decodes the photo; without one, none.
    @Test func heicThumbnailIsShownWhileThePhotoDecodes() throws {
        let source = try ExternalPhotos.make(.restartJPEG, in: folder, width: 640, height: 400, name: "phone.jpg")
        let path = folder + "/phone.heic"
        try ExternalPhotos.run("heif-enc", ["-q", "60", "-t", "160", "-o", path, source])
        let info = try PhotoInspector.inspect(path)
        let embedded = try #require(PhotoDecoder.embedded(path, info: info, scale: 1))
        #expect(embedded.source == .embedded)
        #expect(surfaceSize(embedded) == PixelSize(width: 160, height: 100))
        #expect(embedded.width == 640 && embedded.height == 400)
        // The test picture, small: its corners differ.
        #expect(abs(brightness(embedded, x: 0, y: 0) - brightness(embedded, x: 1, y: 1)) > 20)
        let plain = try ExternalPhotos.make(.heic, in: folder, width: 640, height: 400, name: "plain.heic")
        #expect(PhotoDecoder.embedded(plain, info: try PhotoInspector.inspect(plain), scale: 1) == nil)
    }

    /// A HEIF whose primary picture carries an irot (a phone held sideways) is shown
    /// upright: libheif's loader turns it, and intake reads the turned size from the header.
    @Test func heifTurnedByItsIrotIsShownUpright() throws {
        let plain = try ExternalPhotos.make(.heic, in: folder, width: 400, height: 300, name: "plain.heic")
        let turned = try #require(
            ExternalPhotos.heifTurned(Array(try Data(contentsOf: URL(fileURLWithPath: plain))), angle: 1))
        let path = folder + "/turned.heic"
        try Data(turned).write(to: URL(fileURLWithPath: path))
        let info = try PhotoInspector.verify(path)
        #expect(info.width == 300 && info.height == 400, "\(info.width) × \(info.height)")
        #expect(try PhotoInspector.inspect(path).width == 300)
        let decoded = try PhotoDecoder.decode(path, fitting: PixelSize(width: 300, height: 300), scale: 1).get()
        #expect(surfaceSize(decoded) == PixelSize(width: 225, height: 300))
        #expect(decoded.width == 300 && decoded.height == 400)
    }

    /// Each opens in the window and shows.
    @Test(arguments: [ExternalPhotos.Kind.heic, .avif, .dng, .arithmeticJPEG])
    func opensInTheWindow(kind: ExternalPhotos.Kind) throws {
        let window = try Harness.makeWindow(library: folder + "/library-\(kind.rawValue)")
        defer { gtk_widget_destroy(window.widget) }
        let path = try ExternalPhotos.make(kind, in: folder)
        Harness.waitForPhoto(window) { window.form.openPhoto(path) }
        #expect(window.form.view.preview.hasPhoto)
        #expect(window.form.photos.loadedPhoto != nil)
    }

    /// A 24-megapixel HEIC and a RAW with a 45-megapixel preview are checked and decoded
    /// off the main thread: the loop keeps turning.
    @Test(arguments: ["heic", "raw"])
    func largePhotoOfNewFormatsNeverBlocksTheMainLoop(kind: String) throws {
        let path: String
        if kind == "heic" {
            path = try ExternalPhotos.make(.heic, in: folder, width: 6000, height: 4000)
        } else {
            let jpeg = try ExternalPhotos.make(.restartJPEG, in: folder, width: 8192, height: 5464, name: "45mp.jpg")
            path = folder + "/45mp.dng"
            try Data(
                ExternalPhotos.dng(
                    preview: Array(try Data(contentsOf: URL(fileURLWithPath: jpeg))),
                    previewWidth: 8192, previewHeight: 5464)
            ).write(to: URL(fileURLWithPath: path))
        }
        let window = try Harness.makeWindow(library: folder + "/library-large-\(kind)")
        defer { gtk_widget_destroy(window.widget) }
        let (longest, settled) = Harness.longestMainLoopGap(opening: path, in: window, seconds: 60)
        print("largePhotoOfNewFormatsNeverBlocksTheMainLoop(\(kind)): longest main-loop gap \(Int(longest * 1000)) ms")
        #expect(settled)
        #expect(window.form.view.preview.hasPhoto)
        #expect(longest < Harness.mainLoopGapLimit, "the main loop stalled for \(Int(longest * 1000)) ms")
    }
}
