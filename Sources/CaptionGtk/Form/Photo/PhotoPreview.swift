// The photo preview: the photo scaled to fit with its aspect kept, or a placeholder.

import CGtk
import CaptionLibrary
import JPEGPreview
import Localization
import Pixbufs
import StartupTrace

/// A size in device pixels.
struct PixelSize: Equatable, Sendable {
    var width: Int
    var height: Int
}

/// What decoding a photo for the preview gave.
struct DecodedPhoto: Sendable {
    /// The photo at exactly the size it is shown, already in cairo's pixel format: drawing
    /// it is a plain copy, with no scaling or conversion on the main thread.
    let surface: Surface
    /// The photo's own size, after its EXIF orientation.
    let width: Int
    let height: Int
    /// Which decoder made it.
    let source: PhotoDecoder.Source
}

enum PhotoDecoder {
    enum Source: Sendable {
        /// A large JPEG's DC terms (JPEGPreview).
        case eighth
        case gdkPixbuf
        /// A camera RAW's embedded preview (LibRaw).
        case rawPreview
        /// The small picture the photo carries of itself, shown until the photo is decoded.
        case embedded
    }

    /// Checks the file (size, format, pixel count: never decodes a bomb) and decodes it to
    /// fit `area` (device pixels; `scale` is the window's scale factor), so a 24-megapixel
    /// JPEG is scaled inside the decoder instead of being decoded whole. Runs off the main
    /// thread.
    static func decode(_ path: String, fitting area: PixelSize, scale: Int) -> Result<DecodedPhoto, LibraryError> {
        let info: PhotoInfo
        do throws(LibraryError) {
            info = try PhotoInspector.inspect(path)
        } catch {
            return .failure(error)
        }
        if info.format.isRaw {
            // The camera's own preview, already upright; the RAW's pixels are never developed.
            guard let preview = RawPhoto.preview(path: path, fitting: (area.width, area.height)) else {
                return .failure(
                    LibraryError(
                        .photoDamaged,
                        tr("This RAW photo has no preview Caption can show: {path}")
                            .replacing("{path}", with: path)))
            }
            return .success(
                DecodedPhoto(
                    surface: Surface(fit(preview, into: area), scale: scale), width: info.width,
                    height: info.height, source: .rawPreview))
        }
        var (oriented, source): (Pixbuf, Source)
        switch load(path, fitting: area, eighthWillDo: eighthWillDo(info, area)) {
        case .success(let loaded): (oriented, source) = loaded
        case .failure(let error): return .failure(error)
        }
        let rotated = (oriented.width > oriented.height) != (info.width > info.height) && info.width != info.height
        // Decoded to fit as the file stores it, a photo its camera turns a quarter would
        // have to be enlarged when the preview is the other shape; then it is decoded
        // again to fit turned. (A turned photo in a preview of its own shape just gets
        // smaller, below.)
        if rotated, enlargement(of: oriented, into: area) > 1.01,
            case .success(let again) = load(path, fitting: PixelSize(width: area.height, height: area.width))
        {
            (oriented, source) = again
        }
        // Cairo's premultiplied format, with the window's scale: what draw() paints as is.
        return .success(
            DecodedPhoto(
                surface: Surface(fit(oriented, into: area), scale: scale), width: rotated ? info.height : info.width,
                height: rotated ? info.width : info.height, source: source))
    }

    /// Whether a JPEG's eighth-size picture (its DC terms) is at least as large as `area`
    /// needs, whichever way the camera turned it: then it is all the preview needs. Only
    /// for files of a megabyte or more: JPEGPreview wins by decoding the codes faster and
    /// on two threads, while its colour conversion costs a few milliseconds more than
    /// libjpeg's, so for a small file (a smooth picture compresses to a few hundred
    /// kilobytes even at 24 megapixels) GdkPixbuf is as fast or faster.
    static let smallestEighthFile = 1 << 20

    private static func eighthWillDo(_ info: PhotoInfo, _ area: PixelSize) -> Bool {
        guard info.format == .jpeg, info.byteCount >= smallestEighthFile else { return false }
        let eighth = PixelSize(width: (info.width + 7) / 8, height: (info.height + 7) / 8)
        func fits(_ size: PixelSize) -> Bool {
            min(Double(area.width) / Double(size.width), Double(area.height) / Double(size.height)) <= 1
        }
        return fits(eighth) && fits(PixelSize(width: eighth.height, height: eighth.width))
    }

    /// The photo decoded to fit `area` as the file stores it (the decoder scales, and a
    /// JPEG skips most of its work), then turned the way its camera meant. A large JPEG is
    /// decoded from its DC terms on two threads (JPEGPreview), in about half the time of
    /// libjpeg's own 1/8 scaling; whatever that decoder does not take goes to GdkPixbuf.
    private static func load(
        _ path: String, fitting area: PixelSize,
        eighthWillDo: Bool = false
    ) -> Result<(Pixbuf, Source), LibraryError> {
        if eighthWillDo, let eighth = JPEGPreview.decodeEighth(path: path, fitting: (area.width, area.height)),
            let pixbuf = pixbuf(eighth)
        {
            return .success((pixbuf, .eighth))
        }
        // Scaled inside the incremental loader; where that loader fails (arithmetic-coded
        // JPEGs: "Suspension not allowed here"; a GIF cut short: "Not all frames of the GIF
        // image were loaded"), the whole-file one, scaled by fit() after. A truncated file
        // the eighth decoder gave up on gets here too, and shows as every viewer shows it.
        let loaded =
            Pixbuf.load(path: path, fitting: (area.width, area.height))
            .flatMapError { _ in Pixbuf.load(path: path) }
        switch loaded {
        // Turned the way its camera meant.
        case .success(let picture): return .success((picture.upright(), .gdkPixbuf))
        case .failure(let failure):
            return .failure(
                LibraryError(
                    .photoDamaged,
                    tr("The photo could not be read: {detail}").replacing("{detail}", with: failure.message)))
        }
    }

    /// A picture of `picture`, turned as its EXIF orientation says.
    private static func pixbuf(_ picture: EighthImage) -> Pixbuf? {
        let pixbuf = picture.pixels.withUnsafeBytes { source in
            source.baseAddress.flatMap {
                Pixbuf.rgb(width: picture.width, height: picture.height, rows: $0, stride: picture.width * 3)
            }
        }
        return pixbuf?.turned(orientation: picture.orientation)
    }

    /// How much `pixbuf` must grow to fill `area` with its aspect kept (below 1: shrink).
    private static func enlargement(of pixbuf: Pixbuf, into area: PixelSize) -> Double {
        min(
            Double(max(area.width, 1)) / Double(pixbuf.width),
            Double(max(area.height, 1)) / Double(pixbuf.height))
    }

    /// `pixbuf` scaled to the largest size inside `area` with its aspect kept.
    private static func fit(_ pixbuf: Pixbuf, into area: PixelSize) -> Pixbuf {
        pixbuf.fitting((area.width, area.height))
    }
}

@MainActor
final class PhotoPreview {
    let widget: Stack
    private let area: Widget
    private var surface: Surface?
    /// The shown surface is the photo's embedded picture, until the photo replaces it.
    private var showsEmbedded = false
    /// Called when the widget has grown well past the size the photo was decoded for.
    var onNeedsLargerDecode: ((PixelSize) -> Void)?
    /// Run once the photo has next been painted.
    private var afterPaint: [MainThread.Job] = []
    private(set) var decodedArea = PixelSize(width: 0, height: 0)
    /// The preview's size request, in logical pixels.
    static let smallest = (width: 160, height: 96)

    init() {
        widget = Stack()
        area = Widget.drawingArea()
        let placeholder = Label(tr("No photo — press Ctrl+O"))
        placeholder.addStyleClass("dim-label")
        placeholder.addStyleClass("caption-placeholder")
        widget.addStyleClass("caption-preview")
        // Small: on a small screen the preview gives way first, before the form has to scroll.
        widget.setMinimumSize(width: Self.smallest.width, height: Self.smallest.height)
        widget.expandBothWays()
        widget.add(placeholder, name: "empty")
        widget.add(area, name: "photo")
        widget.showAll()
        area.connect(.draw) { [weak self] cairo in self?.draw(cairo) }
    }

    var scaleFactor: Int { widget.scaleFactor }

    /// The area, in device pixels, that a photo should be decoded to fit to fill the
    /// preview sharply (before the first layout, the preview's smallest size).
    var wantedArea: PixelSize {
        let width = max(widget.allocatedWidth, 360)
        let height = max(widget.allocatedHeight, 240)
        return PixelSize(width: width * scaleFactor, height: height * scaleFactor)
    }

    func show(_ photo: DecodedPhoto, area: PixelSize, name: String) {
        surface = photo.surface
        showsEmbedded = photo.source == .embedded
        StartupTrace.mark("photo-decoded")
        decodedArea = area
        widget.visibleChildName = "photo"
        self.area.accessibleName = tr("Photo: {name}").replacing("{name}", with: name)
        self.area.setAccessibleRole(ATK_ROLE_IMAGE)
        self.area.queueDraw()
    }

    func clear() {
        afterPaint = []
        surface = nil
        decodedArea = PixelSize(width: 0, height: 0)
        widget.visibleChildName = "empty"
    }

    var hasPhoto: Bool { surface != nil }

    /// The colour of the shown photo's middle pixel as 0xRRGGBB (tests tell photos apart by it).
    var middlePixel: UInt32? { surface.flatMap { $0.pixel(x: $0.pixelWidth / 2, y: $0.pixelHeight / 2) } }

    /// Runs `job` after the next frame that paints the photo (not inside the paint).
    func afterNextPaint(_ job: @escaping MainThread.Job) {
        afterPaint.append(job)
    }

    private func draw(_ context: DrawingContext) {
        guard let surface else { return }
        let width = Double(area.allocatedWidth)
        let height = Double(area.allocatedHeight)
        let (photoWidth, photoHeight) = surface.logicalSize
        guard photoWidth > 0, photoHeight > 0 else { return }
        let fill = min(width / photoWidth, height / photoHeight)
        // Decoded for this very size: a copy to whole pixels, the cheap path. Otherwise the
        // preview changed size since the decode: scaled until the next one arrives.
        let scale = abs(fill - 1) * max(photoWidth, photoHeight) < 1 ? 1 : fill
        context.paint(
            surface, x: (width - photoWidth * scale) / 2, y: (height - photoHeight * scale) / 2, scale: scale)
        StartupTrace.mark("photo-painted")
        if !showsEmbedded { StartupTrace.mark("photo-sharp") }
        for job in afterPaint { MainThread.post(job) }
        afterPaint = []
        // A window made larger than the decode: ask for a sharper one (the caller debounces).
        let wanted = wantedArea
        if wanted.width > decodedArea.width * 5 / 4 || wanted.height > decodedArea.height * 5 / 4 {
            onNeedsLargerDecode?(wanted)
        }
    }
}
