// The view at 100 %: the whole photo decoded at full size off the main thread, centred where
// the camera focused, moved by keys, and let go as soon as it is left.

import CaptionLibrary
import Dispatch
import Localization
import Pixbufs

extension PhotoDecoder {
    /// Where the camera or phone recorded the subject, as fractions of the photo as shown;
    /// nil when its Exif does not say. `info` is the photo's checked header.
    static func subject(of path: String, info: PhotoInfo) -> (x: Double, y: Double)? {
        // A RAW's preview is the camera's own JPEG, whose Exif (if any) LibRaw keeps to itself.
        guard !info.format.isRaw else { return nil }
        return CaptureFactsReader.facts(at: path).subject?.upright(stored: (info.width, info.height))
    }

    /// The longest side of a picture cairo paints.
    static let widestSurface = 32767

    /// The photo at its full size, turned as its camera meant, in cairo's format at the
    /// window's `scale` (one photo pixel to one device pixel). A RAW gives its camera's
    /// full-size preview. Runs off the main thread: a 45-megapixel JPEG takes a second or two.
    static func decodeWhole(_ path: String, info: PhotoInfo, scale: Int) -> Result<Surface, LibraryError> {
        // Cairo's image surfaces (and X pixmaps) end at 32767 pixels a side: a longer picture
        // (a line scan, a panorama strip) stays at the preview's pixels, enlarged.
        guard max(info.width, info.height) <= widestSurface else {
            return .failure(
                LibraryError(
                    .photoTooManyPixels,
                    tr("The photo is too long to show at 100 %: {path}").replacing("{path}", with: path)))
        }
        let whole: Pixbuf?
        if info.format.isRaw {
            whole = RawPhoto.preview(path: path, fitting: (max(info.width, 1), max(info.height, 1)))
        } else {
            whole = try? Pixbuf.load(path: path).get().upright()
        }
        guard let whole else {
            return .failure(
                LibraryError(
                    .photoDamaged,
                    tr("The photo could not be read at full size: {path}").replacing("{path}", with: path)))
        }
        return .success(Surface(whole, scale: scale))
    }
}

@MainActor
final class PhotoZoom {
    private let loader: PhotoLoader
    private var preview: PhotoPreview { loader.preview }
    /// Bumped each time the view at 100 % opens or closes: a decode for an earlier one is dropped.
    private var request = 0
    /// The view opened or closed (the window enables the keys that move it).
    var onChange: ((Bool) -> Void)?
    /// The whole photo arrived and is painted (tests and the benchmark wait on it).
    var onSharp: (() -> Void)?
    /// What to say of a zoom the user asked for («Photo at 100 %, top left», «Whole
    /// photo»): the image is not focused, so a screen reader hears nothing of its name.
    var onSay: ((String) -> Void)?

    init(loader: PhotoLoader) {
        self.loader = loader
        loader.preview.onZoomClosed = { [weak self] in self?.closed() }
    }

    var isZoomed: Bool { preview.zoom != nil }
    /// Whether the photo's full-size pixels are on screen.
    var isSharp: Bool { preview.zoom?.whole != nil }

    /// In to 100 %, or back to the whole photo; false when there is no photo to zoom.
    @discardableResult
    func toggle() -> Bool {
        if isZoomed {
            zoomOut(saying: true)
            return true
        }
        return zoomIn()
    }

    /// Shows the photo at 100 % at once (the fitted picture enlarged), centred where the
    /// camera focused once that is read, then sharp once the whole photo is decoded.
    func zoomIn() -> Bool {
        guard let path = loader.path, preview.hasPhoto else { return false }
        request += 1
        let request = request
        preview.zoomIn(around: (0.5, 0.5))
        onChange?(true)
        let scale = preview.scaleFactor
        let lifetime = loader.lifetime
        DispatchQueue.global(qos: .userInitiated).async {
            guard let info = try? PhotoInspector.inspect(path) else { return }
            // The focus point first: a few milliseconds of reading, then the long decode.
            // Where the view is, said once it is there.
            let subject = PhotoDecoder.subject(of: path, info: info)
            lifetime.post(to: self) { zoom in
                guard zoom.request == request else { return }
                if let subject { zoom.preview.centreZoom(on: subject) }
                zoom.sayWhere()
            }
            let whole = PhotoDecoder.decodeWhole(path, info: info, scale: scale)
            lifetime.post(to: self) { zoom in
                // Left, or another photo, meanwhile: the pixels go at once.
                guard zoom.request == request, case .success(let surface) = whole else { return }
                zoom.preview.showWhole(surface)
                zoom.preview.afterNextPaint { [weak zoom] in zoom?.onSharp?() }
            }
        }
        return true
    }

    /// Back to the photo fitted; the full-size pixels are let go (some 180 MB for 45 MP).
    /// `saying`: the user asked for it, and hears «Whole photo».
    func zoomOut(saying: Bool = false) {
        guard isZoomed else { return }
        preview.zoomOut()
        closed()
        if saying { onSay?(tr("Whole photo")) }
    }

    /// Moves the view a third of its size, and says where it is; false at the photo's
    /// edge or when not zoomed.
    func move(_ direction: ZoomView.Direction) -> Bool {
        guard preview.move(direction) else {
            if isZoomed { onSay?(tr("Edge of the photo")) }
            return false
        }
        sayWhere()
        return true
    }

    private func sayWhere() {
        guard let place = preview.zoomPlace else { return }
        onSay?(tr("Photo at 100 %, {place}").replacing("{place}", with: place))
    }

    private func closed() {
        request += 1
        onChange?(false)
    }
}
