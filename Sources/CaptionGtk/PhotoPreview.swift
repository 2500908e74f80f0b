// The photo preview: the photo scaled to fit with its aspect kept, or a placeholder.

import CGtk
import CaptionLibrary
import Localization

/// What decoding a photo for the preview gave.
struct DecodedPhoto: Sendable {
    let pixbuf: SharedObject
    /// The photo's own size, after its EXIF orientation.
    let width: Int
    let height: Int
}

enum PhotoDecoder {
    /// Checks the file (size, format, pixel count: never decodes a bomb) and decodes it at
    /// most `box` pixels on its longer side, so a 24-megapixel JPEG is scaled inside the
    /// decoder instead of being decoded whole. Runs off the main thread.
    static func decode(_ path: String, box: Int) -> Result<DecodedPhoto, LibraryError> {
        let info: PhotoInfo
        do throws(LibraryError) {
            info = try PhotoInspector.inspect(path)
        } catch {
            return .failure(error)
        }
        var error: UnsafeMutablePointer<GError>?
        let side = Int32(max(box, 1))
        guard let loaded = gdk_pixbuf_new_from_file_at_scale(path, side, side, 1, &error) else {
            let detail = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            return .failure(LibraryError(.photoDamaged, tr("The photo could not be read: {detail}")
                .replacing("{detail}", with: detail)))
        }
        // Turns the photo the way its camera meant. The result is a new reference (to the
        // same pixbuf when no turn was needed), so the loaded one is let go.
        var oriented = loaded
        if let turned = gdk_pixbuf_apply_embedded_orientation(loaded) {
            g_object_unref(UnsafeMutableRawPointer(loaded))
            oriented = turned
        }
        let rotated = (gdk_pixbuf_get_width(oriented) > gdk_pixbuf_get_height(oriented))
            != (info.width > info.height) && info.width != info.height
        return .success(DecodedPhoto(pixbuf: SharedObject(pointer: oriented),
                                     width: rotated ? info.height : info.width,
                                     height: rotated ? info.width : info.height))
    }
}

@MainActor
final class PhotoPreview {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    private var pixbuf: OpaquePointer?
    /// Called when the widget has grown well past the size the photo was decoded at.
    var onNeedsLargerDecode: ((Int) -> Void)?
    private(set) var decodedBox = 0

    init() {
        widget = gtk_stack_new()
        area = gtk_drawing_area_new()
        placeholder = gtk_label_new(tr("No photo — press Ctrl+O"))
        gtk_style_context_add_class(gtk_widget_get_style_context(placeholder), "dim-label")
        gtk_style_context_add_class(gtk_widget_get_style_context(placeholder), "caption-placeholder")
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), "caption-preview")
        gtk_widget_set_size_request(widget, 360, 240)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_hexpand(widget, 1)
        gtk_stack_add_named(caption_stack(widget), placeholder, "empty")
        gtk_stack_add_named(caption_stack(widget), area, "photo")
        onDraw(area) { [weak self] cairo in self?.draw(cairo) }
    }

    /// The longer side, in device pixels, that a photo should be decoded at to fill the
    /// preview sharply.
    var wantedBox: Int {
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let width = max(Int(gtk_widget_get_allocated_width(widget)), 360)
        let height = max(Int(gtk_widget_get_allocated_height(widget)), 240)
        return max(width, height) * max(scale, 1)
    }

    func show(_ photo: DecodedPhoto, box: Int, name: String) {
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        pixbuf = photo.pixbuf.pointer
        decodedBox = box
        gtk_stack_set_visible_child_name(caption_stack(widget), "photo")
        let accessible = gtk_widget_get_accessible(area)
        atk_object_set_name(accessible, tr("Photo: {name}").replacing("{name}", with: name))
        atk_object_set_role(accessible, ATK_ROLE_IMAGE)
        gtk_widget_queue_draw(area)
    }

    func clear() {
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        pixbuf = nil
        decodedBox = 0
        gtk_stack_set_visible_child_name(caption_stack(widget), "empty")
    }

    var hasPhoto: Bool { pixbuf != nil }

    private func draw(_ cairo: OpaquePointer) {
        guard let pixbuf else { return }
        let width = Double(gtk_widget_get_allocated_width(area))
        let height = Double(gtk_widget_get_allocated_height(area))
        let photoWidth = Double(gdk_pixbuf_get_width(pixbuf))
        let photoHeight = Double(gdk_pixbuf_get_height(pixbuf))
        guard photoWidth > 0, photoHeight > 0 else { return }
        let scale = min(width / photoWidth, height / photoHeight)
        cairo_save(cairo)
        cairo_translate(cairo, (width - photoWidth * scale) / 2, (height - photoHeight * scale) / 2)
        cairo_scale(cairo, scale, scale)
        gdk_cairo_set_source_pixbuf(cairo, pixbuf, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
        cairo_paint(cairo)
        cairo_restore(cairo)
        // A window made larger than the decode: ask for a sharper one (the caller debounces).
        if wantedBox > decodedBox * 5 / 4 { onNeedsLargerDecode?(wantedBox) }
    }
}
