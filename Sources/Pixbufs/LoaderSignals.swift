// A GdkPixbuf loader's size-prepared signal, handled by a Swift closure that GLib releases
// with the loader.

import CPixbuf

/// Called when the loader knows the picture's size, before it decodes: the handler may ask
/// for a smaller picture with gdk_pixbuf_loader_set_size.
package typealias SizePreparedHandler = (UnsafeMutablePointer<GdkPixbufLoader>, Int32, Int32) -> Void

/// Holds the handler for as long as the connection lives. Loaders are used by one thread at
/// a time, so the handler is never called concurrently.
private final class SizePreparedBox: @unchecked Sendable {
    let body: SizePreparedHandler
    init(_ body: @escaping SizePreparedHandler) { self.body = body }
}

package func onSizePrepared(_ loader: UnsafeMutablePointer<GdkPixbufLoader>, _ body: @escaping SizePreparedHandler) {
    let callback: CaptionSizePrepared = { loader, width, height, data in
        guard let loader, let data else { return }
        Unmanaged<SizePreparedBox>.fromOpaque(data).takeUnretainedValue().body(loader, width, height)
    }
    let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<SizePreparedBox>.fromOpaque(data).release()
    }
    caption_loader_on_size_prepared(loader, callback, Unmanaged.passRetained(SizePreparedBox(body)).toOpaque(), release)
}
