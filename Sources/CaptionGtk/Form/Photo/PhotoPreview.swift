// The photo preview: the photo scaled to fit with its aspect kept, or at 100 % around a
// point (the zoomed view), or a placeholder.

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
    /// The shown photo's own size (after its orientation) and name.
    private var photoSize = PixelSize(width: 0, height: 0)
    private var photoName = ""
    /// The view at 100 %, while it shows: until the whole photo is decoded, the fitted
    /// picture is enlarged in its place.
    private(set) var zoom: ZoomView?
    /// The view at 100 % closed because the photo went.
    var onZoomClosed: (() -> Void)?
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
        surfaceReady = false
        showsEmbedded = photo.source == .embedded
        StartupTrace.mark("photo-decoded")
        decodedArea = area
        photoSize = PixelSize(width: photo.width, height: photo.height)
        photoName = name
        widget.visibleChildName = "photo"
        nameTheView()
        self.area.setAccessibleRole(ATK_ROLE_IMAGE)
        self.area.queueDraw()
    }

    func clear() {
        afterPaint = []
        surface = nil
        if zoom != nil {
            zoom = nil
            onZoomClosed?()
        }
        decodedArea = PixelSize(width: 0, height: 0)
        widget.visibleChildName = "empty"
    }

    // MARK: The view at 100 %

    /// Shows the photo at 100 % around `centre` (fractions of the photo), enlarged from the
    /// fitted picture until `showWhole` brings the sharp one.
    func zoomIn(around centre: (x: Double, y: Double)) {
        guard surface != nil else { return }
        zoom = ZoomView(centre: centre)
        nameTheView()
        area.queueDraw()
    }

    /// The camera's focus point, once read: the view centres on it unless the user moved.
    func centreZoom(on point: (x: Double, y: Double)) {
        guard var zoom, !zoom.moved else { return }
        zoom.centre = point
        self.zoom = zoom
        area.queueDraw()
    }

    /// The whole photo, decoded at full size: painted from now on, without scaling.
    func showWhole(_ whole: Surface) {
        guard var zoom else { return }
        zoom.whole = whole
        self.zoom = zoom
        area.queueDraw()
    }

    /// Back to the whole photo fitted; the full-size picture is let go.
    func zoomOut() {
        guard zoom != nil else { return }
        zoom = nil
        nameTheView()
        area.queueDraw()
    }

    /// Moves the view at 100 % a third of its width or height; false at the photo's edge.
    @discardableResult
    func move(_ direction: ZoomView.Direction) -> Bool {
        guard var zoom else { return false }
        let moved = zoom.move(direction, photo: logicalPhotoSize, view: viewSize)
        self.zoom = zoom
        if moved { area.queueDraw() }
        return moved
    }

    /// Where the view at 100 % is in the photo, as a listener is told it («top left»).
    var zoomPlace: String? {
        zoom.map { ZoomView.place(of: $0.shownCentre(photo: logicalPhotoSize, view: viewSize)) }
    }

    /// The photo at 100 % in logical pixels: one photo pixel to a device pixel.
    private var logicalPhotoSize: (width: Double, height: Double) {
        let scale = Double(max(scaleFactor, 1))
        return (Double(photoSize.width) / scale, Double(photoSize.height) / scale)
    }

    private var viewSize: (width: Double, height: Double) {
        (Double(area.allocatedWidth), Double(area.allocatedHeight))
    }

    /// "Photo: harbour.jpg", or "Photo at 100 %: harbour.jpg" while zoomed.
    private func nameTheView() {
        let name = zoom == nil ? tr("Photo: {name}") : tr("Photo at 100 %: {name}")
        area.accessibleName = name.replacing("{name}", with: photoName)
    }

    var hasPhoto: Bool { surface != nil }

    /// The colour of the shown photo's middle pixel as 0xRRGGBB (tests tell photos apart by it).
    var middlePixel: UInt32? { surface.flatMap { $0.pixel(x: $0.pixelWidth / 2, y: $0.pixelHeight / 2) } }

    /// Runs `job` after the next frame that paints the photo (not inside the paint).
    func afterNextPaint(_ job: @escaping MainThread.Job) {
        afterPaint.append(job)
    }

    /// The shown surface is in the display's own memory (see `readyForDisplay`).
    private var surfaceReady = false

    private func draw(_ context: DrawingContext) {
        guard var surface else { return }
        if !surfaceReady {
            // Made here, where the window exists: the first frame of a launch is drawn from
            // a picture decoded before it did. The decoder's copy goes.
            surface = surface.readyForDisplay(on: area)
            self.surface = surface
            surfaceReady = true
        }
        if let zoom { return drawZoomed(zoom, fitted: surface, context) }
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

    /// The view at 100 %: the whole photo's pixels one to one, or the fitted picture
    /// enlarged to the same place until they come.
    private func drawZoomed(_ zoom: ZoomView, fitted: Surface, _ context: DrawingContext) {
        let photo = logicalPhotoSize
        guard photo.width > 0, photo.height > 0 else { return }
        let origin = zoom.origin(photo: photo, view: viewSize)
        if let whole = zoom.whole {
            let view = viewSize
            context.paintVisiblePart(of: whole, x: origin.x, y: origin.y, width: view.width, height: view.height)
            StartupTrace.mark("zoom-sharp")
        } else {
            let enlargement = photo.width / max(fitted.logicalSize.width, 1)
            context.paint(fitted, x: origin.x, y: origin.y, scale: enlargement)
        }
        for job in afterPaint { MainThread.post(job) }
        afterPaint = []
    }
}

/// Where the view at 100 % is: the point of the photo at its centre, and the whole photo's
/// pixels once decoded. Geometry in logical pixels.
struct ZoomView {
    enum Direction: String, CaseIterable { case left, right, up, down }

    /// The point of the photo at the view's centre, as fractions of its width and height.
    var centre: (x: Double, y: Double)
    /// The photo at full size, while it is shown.
    var whole: Surface?
    /// The user moved the view: the focus point, read later, no longer takes it there.
    var moved = false

    init(centre: (x: Double, y: Double)) {
        self.centre = centre
    }

    /// Where the photo's top left goes in the view: `centre` in the middle, except that
    /// an edge of a photo larger than the view never comes inside it, and a photo smaller
    /// than the view is centred.
    func origin(photo: (width: Double, height: Double), view: (width: Double, height: Double)) -> (x: Double, y: Double)
    {
        (
            Self.origin(centre.x, photo: photo.width, view: view.width),
            Self.origin(centre.y, photo: photo.height, view: view.height)
        )
    }

    private static func origin(_ centre: Double, photo: Double, view: Double) -> Double {
        guard photo > view else { return (view - photo) / 2 }
        return min(0, max(view - photo, view / 2 - centre * photo))
    }

    /// The point of the photo shown at the view's centre (a centre asked for near an edge
    /// shows as if at the edge), as fractions of its width and height.
    func shownCentre(
        photo: (width: Double, height: Double), view: (width: Double, height: Double)
    ) -> (x: Double, y: Double) {
        let shown = origin(photo: photo, view: view)
        return ((view.width / 2 - shown.x) / photo.width, (view.height / 2 - shown.y) / photo.height)
    }

    /// Which of the photo's nine parts (thirds across and down) a point is in, in words.
    static func place(of point: (x: Double, y: Double)) -> String {
        let column = point.x < 1 / 3 ? 0 : point.x < 2 / 3 ? 1 : 2
        let row = point.y < 1 / 3 ? 0 : point.y < 2 / 3 ? 1 : 2
        let names = [
            [tr("top left"), tr("top"), tr("top right")],
            [tr("left"), tr("centre"), tr("right")],
            [tr("bottom left"), tr("bottom"), tr("bottom right")],
        ]
        return names[row][column]
    }

    /// Moves a third of the view in `direction`, as far as the photo's edge; false when the
    /// view already was at that edge.
    mutating func move(
        _ direction: Direction, photo: (width: Double, height: Double), view: (width: Double, height: Double)
    ) -> Bool {
        let before = origin(photo: photo, view: view)
        var (x, y) = shownCentre(photo: photo, view: view)
        switch direction {
        case .left: x -= view.width / 3 / photo.width
        case .right: x += view.width / 3 / photo.width
        case .up: y -= view.height / 3 / photo.height
        case .down: y += view.height / 3 / photo.height
        }
        let previous = centre
        centre = (x, y)
        let after = origin(photo: photo, view: view)
        guard abs(after.x - before.x) >= 0.5 || abs(after.y - before.y) >= 0.5 else {
            centre = previous
            return false
        }
        moved = true
        return true
    }
}
