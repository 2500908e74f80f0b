// The photo preview: the photo scaled to fit with its aspect kept, or a placeholder.

import CGtk
import CaptionLibrary
import JPEGPreview
import Localization
import StartupTrace

/// A size in device pixels.
struct PixelSize: Equatable, Sendable {
    var width: Int
    var height: Int
}

/// A cairo image surface handed from the decoding thread to the main thread. Its reference
/// count is atomic and its pixels are never written once it is made, so sharing it is safe.
struct SharedSurface: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What decoding a photo for the preview gave.
struct DecodedPhoto: Sendable {
    /// The photo at exactly the size it is shown, already in cairo's pixel format: drawing
    /// it is a plain copy, with no scaling or conversion on the main thread.
    let surface: SharedSurface
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
        var oriented: OpaquePointer
        var source: Source
        if info.format.isRaw {
            // The camera's own preview, already upright; the RAW's pixels are never developed.
            guard let preview = RawPhoto.preview(path: path, fitting: (area.width, area.height)) else {
                return .failure(
                    LibraryError(
                        .photoDamaged,
                        tr("This RAW photo has no preview Caption can show: {path}")
                            .replacing("{path}", with: path)))
            }
            let fitted = fit(preview, into: area)
            let surface = gdk_cairo_surface_create_from_pixbuf(fitted, Int32(max(scale, 1)), nil)!
            g_object_unref(UnsafeMutableRawPointer(fitted))
            return .success(
                DecodedPhoto(
                    surface: SharedSurface(pointer: surface), width: info.width,
                    height: info.height, source: .rawPreview))
        }
        switch load(path, fitting: area, eighthWillDo: eighthWillDo(info, area)) {
        case .success(let loaded): (oriented, source) = loaded
        case .failure(let error): return .failure(error)
        }
        let rotated =
            (gdk_pixbuf_get_width(oriented) > gdk_pixbuf_get_height(oriented))
            != (info.width > info.height) && info.width != info.height
        // Decoded to fit as the file stores it, a photo its camera turns a quarter would
        // have to be enlarged when the preview is the other shape; then it is decoded
        // again to fit turned. (A turned photo in a preview of its own shape just gets
        // smaller, below.)
        if rotated, enlargement(of: oriented, into: area) > 1.01,
            case .success(let again) = load(path, fitting: PixelSize(width: area.height, height: area.width))
        {
            g_object_unref(UnsafeMutableRawPointer(oriented))
            (oriented, source) = again
        }
        let fitted = fit(oriented, into: area)
        // Cairo's premultiplied format, with the window's scale: what draw() paints as is.
        // gdk_cairo_surface_create_from_pixbuf touches no GDK state without a window.
        let surface = gdk_cairo_surface_create_from_pixbuf(fitted, Int32(max(scale, 1)), nil)!
        g_object_unref(UnsafeMutableRawPointer(fitted))
        return .success(
            DecodedPhoto(
                surface: SharedSurface(pointer: surface),
                width: rotated ? info.height : info.width,
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
    ) -> Result<(OpaquePointer, Source), LibraryError> {
        if eighthWillDo, let eighth = JPEGPreview.decodeEighth(path: path, fitting: (area.width, area.height)),
            let pixbuf = pixbuf(eighth)
        {
            return .success((pixbuf, .eighth))
        }
        var error: UnsafeMutablePointer<GError>?
        let width = Int32(max(area.width, 1))
        let height = Int32(max(area.height, 1))
        // Scaled inside the incremental loader; where that loader fails (arithmetic-coded
        // JPEGs: "Suspension not allowed here"; a GIF cut short: "Not all frames of the GIF
        // image were loaded"), the whole-file one, scaled by fit() after. A truncated file
        // the eighth decoder gave up on gets here too, and shows as every viewer shows it.
        var loaded = gdk_pixbuf_new_from_file_at_scale(path.pathBytes, width, height, 1, &error)
        if loaded == nil {
            g_clear_error(&error)
            loaded = gdk_pixbuf_new_from_file(path.pathBytes, &error)
        }
        // The GIF loader gives its picture of a file cut short with its warning as an error.
        if loaded != nil { g_clear_error(&error) }
        guard let loaded else {
            let detail = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            return .failure(
                LibraryError(
                    .photoDamaged,
                    tr("The photo could not be read: {detail}")
                        .replacing("{detail}", with: detail)))
        }
        // The result is a new reference (to the same pixbuf when no turn was needed), so the
        // loaded one is let go.
        guard let turned = gdk_pixbuf_apply_embedded_orientation(loaded) else { return .success((loaded, .gdkPixbuf)) }
        g_object_unref(UnsafeMutableRawPointer(loaded))
        return .success((turned, .gdkPixbuf))
    }

    /// A GdkPixbuf of `picture`, turned as its EXIF orientation says.
    private static func pixbuf(_ picture: EighthImage) -> OpaquePointer? {
        let pixbuf = picture.pixels.withUnsafeBytes { source in
            source.baseAddress.flatMap {
                rgbPixbuf(width: picture.width, height: picture.height, rows: $0, stride: picture.width * 3)
            }
        }
        return pixbuf.map { turned($0, orientation: picture.orientation) }
    }

    /// A new pixbuf of `height` rows of 8-bit RGB, `stride` bytes apart from `rows`; nil
    /// when GdkPixbuf cannot make one.
    static func rgbPixbuf(width: Int, height: Int, rows: UnsafeRawPointer, stride: Int) -> OpaquePointer? {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)),
            let pixels = gdk_pixbuf_get_pixels(pixbuf)
        else { return nil }
        // A new pixbuf is not shared, so writing its pixels is allowed.
        let pixbufStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for row in 0..<height {
            UnsafeMutableRawPointer(pixels + row * pixbufStride).copyMemory(
                from: rows + row * stride, byteCount: width * 3)
        }
        return pixbuf
    }

    /// `pixbuf` turned as the EXIF `orientation` (1 to 8) says, the turn GdkPixbuf's own
    /// loader applies from the same tag; consumes the reference it is given and returns one.
    static func turned(_ pixbuf: OpaquePointer, orientation: Int) -> OpaquePointer {
        guard orientation != 1 else { return pixbuf }
        gdk_pixbuf_set_option(pixbuf, "orientation", String(orientation))
        guard let turned = gdk_pixbuf_apply_embedded_orientation(pixbuf) else { return pixbuf }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return turned
    }

    /// How much `pixbuf` must grow to fill `area` with its aspect kept (below 1: shrink).
    private static func enlargement(of pixbuf: OpaquePointer, into area: PixelSize) -> Double {
        min(
            Double(max(area.width, 1)) / Double(gdk_pixbuf_get_width(pixbuf)),
            Double(max(area.height, 1)) / Double(gdk_pixbuf_get_height(pixbuf)))
    }

    /// `pixbuf` scaled to the largest size inside `area` with its aspect kept; consumes the
    /// reference it is given and returns one.
    private static func fit(_ pixbuf: OpaquePointer, into area: PixelSize) -> OpaquePointer {
        let width = Double(gdk_pixbuf_get_width(pixbuf))
        let height = Double(gdk_pixbuf_get_height(pixbuf))
        let scale = enlargement(of: pixbuf, into: area)
        let fitted = PixelSize(
            width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
        guard fitted.width != Int(width) || fitted.height != Int(height),
            let scaled = gdk_pixbuf_scale_simple(pixbuf, Int32(fitted.width), Int32(fitted.height), GDK_INTERP_BILINEAR)
        else { return pixbuf }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return scaled
    }
}

@MainActor
final class PhotoPreview {
    let widget: Stack
    private let area: Widget
    private var surface: OpaquePointer?
    /// The shown surface is the photo's embedded picture, until the photo replaces it.
    private var showsEmbedded = false
    /// Called when the widget has grown well past the size the photo was decoded for.
    var onNeedsLargerDecode: ((PixelSize) -> Void)?
    /// Run once the photo has next been painted.
    private var afterPaint: [MainThread.Job] = []
    private(set) var decodedArea = PixelSize(width: 0, height: 0)
    /// The preview's size request, in logical pixels.
    static let smallest = (width: Int32(160), height: Int32(96))

    init() {
        widget = Stack(unchecked: gtk_stack_new())
        area = Widget(unchecked: gtk_drawing_area_new())
        let placeholder = Label(tr("No photo — press Ctrl+O"))
        placeholder.addStyleClass("dim-label")
        placeholder.addStyleClass("caption-placeholder")
        widget.addStyleClass("caption-preview")
        // Small: on a small screen the preview gives way first, before the form has to scroll.
        gtk_widget_set_size_request(widget.pointer, Self.smallest.width, Self.smallest.height)
        gtk_widget_set_vexpand(widget.pointer, 1)
        gtk_widget_set_hexpand(widget.pointer, 1)
        gtk_stack_add_named(caption_stack(widget.pointer), placeholder.pointer, "empty")
        gtk_stack_add_named(caption_stack(widget.pointer), area.pointer, "photo")
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
        if let surface { cairo_surface_destroy(surface) }
        surface = photo.surface.pointer
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
        if let surface { cairo_surface_destroy(surface) }
        surface = nil
        decodedArea = PixelSize(width: 0, height: 0)
        widget.visibleChildName = "empty"
    }

    var hasPhoto: Bool { surface != nil }

    /// The colour of the shown photo's middle pixel as 0xRRGGBB (tests tell photos apart by it).
    var middlePixel: UInt32? {
        guard let surface, let data = cairo_image_surface_get_data(surface) else { return nil }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        cairo_surface_flush(surface)
        // CAIRO_FORMAT_RGB24 or ARGB32: one native-endian 32-bit word a pixel.
        let word = UnsafeRawPointer(data + (height / 2) * stride + (width / 2) * 4).load(as: UInt32.self)
        return word & 0xFF_FFFF
    }

    /// Runs `job` after the next frame that paints the photo (not inside the paint).
    func afterNextPaint(_ job: @escaping MainThread.Job) {
        afterPaint.append(job)
    }

    private func draw(_ cairo: OpaquePointer) {
        guard let surface else { return }
        let width = Double(area.allocatedWidth)
        let height = Double(area.allocatedHeight)
        var deviceScaleX = 1.0
        var deviceScaleY = 1.0
        cairo_surface_get_device_scale(surface, &deviceScaleX, &deviceScaleY)
        let photoWidth = Double(cairo_image_surface_get_width(surface)) / deviceScaleX
        let photoHeight = Double(cairo_image_surface_get_height(surface)) / deviceScaleY
        guard photoWidth > 0, photoHeight > 0 else { return }
        let scale = min(width / photoWidth, height / photoHeight)
        cairo_save(cairo)
        if abs(scale - 1) * max(photoWidth, photoHeight) < 1 {
            // Decoded for this very size: a copy to whole pixels, the cheap path.
            cairo_set_source_surface(
                cairo, surface, ((width - photoWidth) / 2).rounded(.down),
                ((height - photoHeight) / 2).rounded(.down))
        } else {
            // The preview changed size since the decode: scale until the next one arrives.
            cairo_translate(cairo, (width - photoWidth * scale) / 2, (height - photoHeight * scale) / 2)
            cairo_scale(cairo, scale, scale)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
        }
        cairo_paint(cairo)
        cairo_restore(cairo)
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
