// Signals by name and handler type, connected to Swift closures: the only place that casts
// a closure to a C callback (the main thread's sources and D-Bus use its boxes).

import CGtk
import CaptionQueue
import POSIXFiles
import Pixbufs

/// A signal's name together with the Swift handler its C signature maps to, so a handler of
/// the wrong shape does not compile: `button.connect(.clicked) { … }`.
struct Signal<Handler>: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

typealias VoidHandler = @MainActor () -> Void
typealias IntHandler = @MainActor (Int32) -> Void
typealias PointerHandler = @MainActor (gpointer?) -> Void
typealias KeyHandler = @MainActor (KeyPress) -> Bool
/// The widget that has the focus now, or nil for none.
typealias FocusHandler = @MainActor (Widget?) -> Void
typealias DrawHandler = @MainActor (DrawingContext) -> Void
typealias SelectionHandler = @MainActor (SelectionData) -> Void

/// A drop's GtkSelectionData, for the length of the handler.
struct SelectionData {
    let pointer: OpaquePointer

    /// The URIs dropped, if any.
    var uris: [String] { takeStrings(gtk_selection_data_get_uris(pointer)) }

    /// The image dropped, if any.
    var image: Pixbuf? { gtk_selection_data_get_pixbuf(pointer).map { Pixbuf(taking: $0) } }
}
typealias RowHandler = @MainActor (Int) -> Void
typealias FilesHandler = @MainActor ([String]) -> Void
/// Returns true to stop the emission: the text is not inserted.
typealias InsertHandler = @MainActor (String) -> Bool
/// After an insertion: the text and where the cursor stands after it (characters); returns
/// where it should stand instead, when the handler changed the text around it.
typealias InsertedHandler = @MainActor (String, Int32) -> Int32?
/// A row of a GtkListBox, by its index.
struct ListRow {
    let index: Int
}
/// GtkListBox's row-activated: the handler gets the row.
typealias ListRowHandler = @MainActor (ListRow) -> Void
/// A signal whose argument is a string ("" for none).
typealias TextHandler = @MainActor (String) -> Void
/// Returns true when the event was used (a window's close is then refused).
typealias EventHandler = @MainActor () -> Bool
/// mnemonic-activate: whether other widgets share the mnemonic (focus then cycles among
/// them); returns true when the handler did the widget's work.
typealias MnemonicHandler = @MainActor (Bool) -> Bool
/// A monitored folder's file and what happened to it (a rename is its old name removed and
/// its new one moved in).
typealias FolderChangeHandler = @MainActor (String, FolderChange) -> Void

/// (instance, user data): clicked, activate, changed, …
extension Signal where Handler == VoidHandler {
    static var activate: Self { Self("activate") }
    static var changed: Self { Self("changed") }
    static var clicked: Self { Self("clicked") }
    /// A check button was turned on or off.
    static var toggled: Self { Self("toggled") }
    /// A tree view's cursor moved to another row.
    static var cursorChanged: Self { Self("cursor-changed") }
    /// A widget is being destroyed: handles to it must no longer be used.
    static var destroy: Self { Self("destroy") }
    static var pasteClipboard: Self { Self("paste-clipboard") }
    /// A widget is about to be shown.
    static var show: Self { Self("show") }
    static var stopSearch: Self { Self("stop-search") }
    /// A search entry's text changed and typing paused.
    static var searchChanged: Self { Self("search-changed") }
    static var valueChanged: Self { Self("value-changed") }
}

/// (instance, gint, user data): a dialog's response.
extension Signal where Handler == IntHandler {
    static var response: Self { Self("response") }
}

/// (instance, pointer, user data): the focused widget, an allocation, a property spec, an
/// action's parameter.
/// (window, GtkWidget * or NULL, user data): the window's focus moved.
extension Signal where Handler == FocusHandler {
    static var setFocus: Self { Self("set-focus") }
}

extension Signal where Handler == PointerHandler {
    static var sizeAllocate: Self { Self("size-allocate") }
    /// GSimpleAction's activate, whose argument is the parameter.
    static var actionActivate: Self { Self("activate") }
    static func notify(_ property: String) -> Self { Self("notify::" + property) }
    /// An AtkObject's focused child changed (a tree view's cursor cell); the argument is it.
    static var activeDescendantChanged: Self { Self("active-descendant-changed") }
    /// GSettings' changed, for one key; the argument is the key's name.
    static func settingChanged(_ key: String) -> Self { Self("changed::" + key) }
}

/// (GFileMonitor *, GFile *file, GFile *other, GFileMonitorEvent, user data).
extension Signal where Handler == FolderChangeHandler {
    static var folderChanged: Self { Self("changed") }
}

/// (list box, GtkListBoxRow *, user data).
extension Signal where Handler == ListRowHandler {
    static var listRowActivated: Self { Self("row-activated") }
}

/// (instance, const char *, user data).
extension Signal where Handler == TextHandler {
    /// GtkEntry's composition changed; the argument is the preedit text.
    static var preeditChanged: Self { Self("preedit-changed") }
}

/// GtkEditable's insert-text: (editable, text, length, position, user data).
extension Signal where Handler == InsertHandler {
    static var insertText: Self { Self("insert-text") }
}

/// insert-text once the text is in (connected after the entry's own handler): the handler
/// may change the text and move the position the entry then puts its cursor at.
extension Signal where Handler == InsertedHandler {
    static var textInserted: Self { Self("insert-text") }
}

/// (widget, GdkEvent *, user data) -> gboolean, for events whose details do not matter.
extension Signal where Handler == EventHandler {
    static var deleteEvent: Self { Self("delete-event") }
    /// Keyboard focus came to the widget; runs before GTK tells a screen reader.
    static var focusIn: Self { Self("focus-in-event") }
    static var focusOut: Self { Self("focus-out-event") }
}

/// (AtkObject, state name, gboolean, user data): what assistive technologies are told of
/// one state of an accessible object; the argument is the state's new value.
typealias StateHandler = @MainActor (Bool) -> Void

extension Signal where Handler == MnemonicHandler {
    static var mnemonicActivate: Self { Self("mnemonic-activate") }
}

extension Signal where Handler == StateHandler {
    static func stateChange(_ state: String) -> Self { Self("state-change::" + state) }
}

/// (widget, GdkEventKey *, user data) -> gboolean: true when the key was used.
extension Signal where Handler == KeyHandler {
    static var keyPress: Self { Self("key-press-event") }
}

/// (widget, cairo_t *, user data) -> gboolean; drawing never stops other handlers.
extension Signal where Handler == DrawHandler {
    static var draw: Self { Self("draw") }
}

/// (widget, context, x, y, GtkSelectionData *, info, time, user data).
extension Signal where Handler == SelectionHandler {
    static var dragDataReceived: Self { Self("drag-data-received") }
}

/// (tree view, GtkTreePath *, column, user data); the handler gets the row's index.
extension Signal where Handler == RowHandler {
    static var rowActivated: Self { Self("row-activated") }
}

/// GApplication's open: (application, GFile **files, gint count, hint, user data); the
/// handler gets the files' local paths.
extension Signal where Handler == FilesHandler {
    static var open: Self { Self("open") }
}

/// Anything that is a GObject instance: typed widgets, and raw pointers where GTK hands
/// them over (an application, an adjustment, an action).
@MainActor
protocol GObjectConvertible {
    var objectPointer: gpointer { get }
}

extension UnsafeMutableRawPointer: GObjectConvertible {
    var objectPointer: gpointer { self }
}

extension UnsafeMutablePointer: GObjectConvertible {
    var objectPointer: gpointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectConvertible {
    var objectPointer: gpointer { UnsafeMutableRawPointer(self) }
}

/// Holds a Swift closure for the lifetime of a GLib signal connection or source.
final class ClosureBox<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }
}

func retained<Body>(_ body: Body) -> gpointer {
    UnsafeMutableRawPointer(Unmanaged.passRetained(ClosureBox(body) as AnyObject).toOpaque())
}

func box<Body>(_ data: gpointer?) -> ClosureBox<Body> {
    // GLib hands back exactly the pointer given when connecting; it is never nil.
    Unmanaged<ClosureBox<Body>>.fromOpaque(data!).takeUnretainedValue()
}

/// Releases a Box when GLib drops the connection (the object died, or it was disconnected).
private let releaseClosure: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

let releaseSource: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

extension GObjectConvertible {
    @discardableResult
    private func attach(_ name: String, after: Bool, _ callback: GCallback, _ data: gpointer) -> UInt {
        UInt(caption_signal_connect(objectPointer, name, callback, data, releaseClosure, after ? 1 : 0))
    }

    /// Stops the signal being emitted now: the handlers after this one, and the default
    /// handler, do not run.
    func stopEmission<Handler>(of signal: Signal<Handler>) {
        g_signal_stop_emission_by_name(objectPointer, signal.name)
    }

    @discardableResult
    func connect(_ signal: Signal<VoidHandler>, after: Bool = false, _ body: @escaping VoidHandler) -> UInt {
        let callback: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let handler: ClosureBox<VoidHandler> = box(data)
            MainActor.assumeIsolated { handler.body() }
        }
        return attach(signal.name, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<FolderChangeHandler>, _ body: @escaping FolderChangeHandler) {
        let callback: @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void =
            { _, file, other, event, data in
                let handler: ClosureBox<FolderChangeHandler> = box(data)
                func path(_ file: OpaquePointer?) -> String? { file.flatMap { takeString(g_file_get_path($0)) } }
                let changes: [(String?, FolderChange)]
                switch event {
                case G_FILE_MONITOR_EVENT_CREATED, G_FILE_MONITOR_EVENT_CHANGED: changes = [(path(file), .written)]
                case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT: changes = [(path(file), .doneWriting)]
                case G_FILE_MONITOR_EVENT_MOVED_IN: changes = [(path(file), .movedIn)]
                case G_FILE_MONITOR_EVENT_DELETED, G_FILE_MONITOR_EVENT_MOVED_OUT: changes = [(path(file), .removed)]
                case G_FILE_MONITOR_EVENT_RENAMED: changes = [(path(file), .removed), (path(other), .movedIn)]
                default: changes = []
                }
                MainActor.assumeIsolated {
                    for case (let path?, let change) in changes { handler.body(path, change) }
                }
            }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<IntHandler>, _ body: @escaping IntHandler) {
        let callback: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { _, value, data in
            let handler: ClosureBox<IntHandler> = box(data)
            MainActor.assumeIsolated { handler.body(value) }
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<PointerHandler>, after: Bool = false, _ body: @escaping PointerHandler) {
        let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            let handler: ClosureBox<PointerHandler> = box(data)
            nonisolated(unsafe) let argument = argument
            MainActor.assumeIsolated { handler.body(argument) }
        }
        attach(signal.name, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<FocusHandler>, after: Bool = false, _ body: @escaping FocusHandler) {
        let callback: @convention(c) (gpointer?, UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = {
            _, widget, data in
            let handler: ClosureBox<FocusHandler> = box(data)
            nonisolated(unsafe) let widget = widget
            MainActor.assumeIsolated { handler.body(widget.map(Widget.init(unchecked:))) }
        }
        attach(signal.name, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<KeyHandler>, after: Bool, _ body: @escaping KeyHandler) {
        let callback: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
            _, event, data in
            guard let event else { return 0 }
            let handler: ClosureBox<KeyHandler> = box(data)
            return MainActor.assumeIsolated { handler.body(KeyPress(event)) } ? 1 : 0
        }
        attach(signal.name, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<ListRowHandler>, _ body: @escaping ListRowHandler) {
        let callback: @convention(c) (gpointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = {
            _, row, data in
            guard let row else { return }
            let handler: ClosureBox<ListRowHandler> = box(data)
            let index = Int(gtk_list_box_row_get_index(row))
            MainActor.assumeIsolated { handler.body(ListRow(index: index)) }
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<TextHandler>, _ body: @escaping TextHandler) {
        let callback: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, text, data in
            let handler: ClosureBox<TextHandler> = box(data)
            let string = text.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { handler.body(string) }
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<InsertHandler>, _ body: @escaping InsertHandler) {
        let callback: @convention(c) (gpointer?, UnsafePointer<CChar>?, Int32, gpointer?, gpointer?) -> Void = {
            editable, text, length, _, data in
            guard let editable, let text else { return }
            let inserted =
                length < 0
                ? String(cString: text)
                : String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
            let handler: ClosureBox<InsertHandler> = box(data)
            nonisolated(unsafe) let instance = editable
            if MainActor.assumeIsolated({ handler.body(inserted) }) {
                g_signal_stop_emission_by_name(instance, "insert-text")
            }
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<InsertedHandler>, _ body: @escaping InsertedHandler) {
        let callback:
            @convention(c) (gpointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?, gpointer?) -> Void =
                {
                    _, text, length, position, data in
                    guard let text, let position else { return }
                    let inserted =
                        length < 0
                        ? String(cString: text)
                        : String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
                    let handler: ClosureBox<InsertedHandler> = box(data)
                    nonisolated(unsafe) let cursor = position
                    if let moved = MainActor.assumeIsolated({ handler.body(inserted, cursor.pointee) }) {
                        cursor.pointee = moved
                    }
                }
        attach(signal.name, after: true, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    @discardableResult
    func connect(_ signal: Signal<StateHandler>, _ body: @escaping StateHandler) -> UInt {
        let callback: @convention(c) (gpointer?, UnsafePointer<CChar>?, gboolean, gpointer?) -> Void = {
            _, _, value, data in
            let handler: ClosureBox<StateHandler> = box(data)
            MainActor.assumeIsolated { handler.body(value != 0) }
        }
        return attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    @discardableResult
    func connect(_ signal: Signal<EventHandler>, _ body: @escaping EventHandler) -> UInt {
        let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, data in
            let handler: ClosureBox<EventHandler> = box(data)
            return MainActor.assumeIsolated { handler.body() } ? 1 : 0
        }
        return attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<MnemonicHandler>, _ body: @escaping MnemonicHandler) {
        let callback: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, cycling, data in
            let handler: ClosureBox<MnemonicHandler> = box(data)
            return MainActor.assumeIsolated { handler.body(cycling != 0) } ? 1 : 0
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<DrawHandler>, after: Bool = false, _ body: @escaping DrawHandler) {
        let callback: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cairo, data in
            guard let cairo else { return 0 }
            let handler: ClosureBox<DrawHandler> = box(data)
            MainActor.assumeIsolated { handler.body(DrawingContext(cairo)) }
            return 0
        }
        attach(signal.name, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<SelectionHandler>, _ body: @escaping SelectionHandler) {
        let callback:
            @convention(c) (gpointer?, OpaquePointer?, Int32, Int32, OpaquePointer?, UInt32, UInt32, gpointer?) -> Void =
                {
                    _, _, _, _, selection, _, _, data in
                    guard let received = selection else { return }
                    let handler: ClosureBox<SelectionHandler> = box(data)
                    nonisolated(unsafe) let unchecked = received
                    MainActor.assumeIsolated { handler.body(SelectionData(pointer: unchecked)) }
                }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<RowHandler>, _ body: @escaping RowHandler) {
        let callback: @convention(c) (gpointer?, OpaquePointer?, gpointer?, gpointer?) -> Void = { _, path, _, data in
            guard let path, let indices = gtk_tree_path_get_indices(path) else { return }
            let row = Int(indices.pointee)
            let handler: ClosureBox<RowHandler> = box(data)
            MainActor.assumeIsolated { handler.body(row) }
        }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }

    func connect(_ signal: Signal<FilesHandler>, _ body: @escaping FilesHandler) {
        let callback:
            @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, gpointer?)
                -> Void = {
                    _, files, count, _, data in
                    guard let files else { return }
                    var paths: [String] = []
                    for index in 0..<Int(count) {
                        guard let file = files[index], let path = g_file_get_path(file) else { continue }
                        paths.append(FilePath.string(fromCString: path))
                        g_free(path)
                    }
                    let handler: ClosureBox<FilesHandler> = box(data)
                    MainActor.assumeIsolated { handler.body(paths) }
                }
        attach(signal.name, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
    }
}
