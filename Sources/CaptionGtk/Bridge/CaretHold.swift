// Keeps fields' carets from assistive technologies until GTK has finished reporting a focus move.

import CGtk

/// GTK 3 reports a focus move twice: at once, and again two idle turns later. Orca drops the
/// first report when the second is already queued behind it, and until it takes the second
/// it is still on the field focus left. Meanwhile a caret event of the field focus went to
/// makes Orca take that field for focus without a word (it is never named), and one of the
/// field left behind is read as if typed there (its placeholder's first letter). Putting
/// the next photo's words into the fields moves their carets, so while a hold lasts the
/// fields' property notifications, the caret and the selection among them, wait. They go
/// out after GTK's late report of the focus, when focus leaves the widget it went to, or
/// after half a second, whichever comes first. Text changes are not held: Orca does not
/// take them for focus, nor read them in a field that is not focused.
@MainActor
final class CaretHold {
    private let fields: [(widget: Widget, reference: GObjectRef)]
    private var handlers: [(object: gpointer, id: UInt)] = []
    private var timeout: SourceHandle?
    private(set) var isHeld = true

    /// Holds `fields` until GTK has reported again that `focus` has focus.
    init(_ fields: [Widget], until focus: Widget) {
        self.fields = fields.map { ($0, GObjectRef(taking: g_object_ref($0.objectPointer))) }
        for field in fields { g_object_freeze_notify(Self.object(field)) }
        let accessible = UnsafeMutableRawPointer(focus.accessible)
        handlers = [
            (
                accessible,
                accessible.connect(.stateChange("focused")) { [weak self] focused in
                    // After the report's emission, so that what waited follows it.
                    guard focused else { return }
                    MainThread.post(priority: G_PRIORITY_HIGH) { [weak self] in self?.release() }
                }
            ),
            (
                focus.objectPointer,
                focus.connect(.focusOut) { [weak self] in
                    self?.release()
                    return false
                }
            ),
        ]
        // The timeout keeps the hold alive until it ends: notifications held for good would
        // leave the fields' carets unknown to a screen reader.
        timeout = MainThread.after(milliseconds: 500) { self.release() }
    }

    func release() {
        guard isHeld else { return }
        isHeld = false
        timeout?.cancel()
        for handler in handlers { g_signal_handler_disconnect(handler.object, gulong(handler.id)) }
        handlers = []
        for field in fields { g_object_thaw_notify(Self.object(field.widget)) }
    }

    private static func object(_ widget: Widget) -> UnsafeMutablePointer<GObject> {
        widget.objectPointer.assumingMemoryBound(to: GObject.self)
    }
}
