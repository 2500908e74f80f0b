// Settling the input method: before the window reads the form or changes what it shows (a
// save, another photo, the library, Undo, closing), an open composition in a field is
// committed into that field, as it shows, the way a focus change commits it. So what the
// user sees in a field is what is saved, and it stays with its photo.
//
// Input methods differ: fcitx5 commits on reset, but later (its answer comes over D-Bus,
// after the form has moved on); ibus and GTK's simple method throw the composition away.
// So the window keeps the composition each field shows (GtkEntry's preedit-changed),
// resets the context, and when the text did not arrive at once it commits the words itself
// and swallows the input method's own late commit of the same words.

import CGtk

@MainActor
final class InputMethodSettler {
    /// What each watched field shows as its composition now (empty: none).
    private var shown: [UnsafeMutableRawPointer: String] = [:]
    /// Words committed here on the input method's behalf, which it may still send itself.
    private var lateCommit: (entry: UnsafeMutableRawPointer, text: String, until: gint64)?
    /// How long an input method may take to send a commit after a reset (microseconds).
    static let lateCommitWindow: gint64 = 2_000_000
    /// The window is putting words into a field itself (another photo's): not a commit.
    private var windowSetsText = false

    func watch(_ entry: UnsafeMutablePointer<GtkWidget>) {
        let key = UnsafeMutableRawPointer(entry)
        onPreeditChanged(entry) { [weak self] preedit in self?.shown[key] = preedit }
        onInsertText(entry) { [weak self] text in
            guard let self, !self.windowSetsText, let late = self.lateCommit, late.entry == key else { return false }
            guard g_get_monotonic_time() <= late.until else {
                self.lateCommit = nil
                return false
            }
            guard text == late.text else { return false }
            self.lateCommit = nil
            return true  // already committed by settle(_:)
        }
    }

    /// Runs `body`, which sets a field's text: what it inserts is never taken for a late
    /// commit.
    func whileWindowSetsText(_ body: () -> Void) {
        windowSetsText = true
        defer { windowSetsText = false }
        body()
    }

    /// The composition `entry` shows now, if any.
    func composition(in entry: UnsafeMutablePointer<GtkWidget>) -> String? {
        shown[UnsafeMutableRawPointer(entry)].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Ends the composition in `entry`, its words committed at the cursor as they show.
    func settle(_ entry: UnsafeMutablePointer<GtkWidget>) {
        let composition = self.composition(in: entry)
        let before = String(cString: gtk_entry_get_text(caption_entry(entry)))
        gtk_entry_reset_im_context(caption_entry(entry))
        guard let composition else { return }
        shown[UnsafeMutableRawPointer(entry)] = ""
        // Some input methods commit during the reset itself: then the words are in.
        guard String(cString: gtk_entry_get_text(caption_entry(entry))) == before else { return }
        let editable = caption_editable(entry)
        var position = gtk_editable_get_position(editable)
        gtk_editable_insert_text(editable, composition, -1, &position)
        gtk_editable_set_position(editable, position)
        lateCommit = (UnsafeMutableRawPointer(entry), composition, g_get_monotonic_time() + Self.lateCommitWindow)
    }
}

extension CaptionWindow {
    /// Watches the form's fields' compositions, and settles them before the window closes.
    func watchCompositions() {
        for entry in [titleEntry, subtitleEntry] { inputMethods.watch(entry) }
        onDeleteEvent(window) { [weak self] in self?.settleInputMethod() }
    }

    /// Commits any open composition into its field, as it shows; see the top of this file.
    /// Every action that reads the form or changes what it shows calls this first.
    public func settleInputMethod() {
        let focus = gtk_window_get_focus(caption_window(window))
        for entry in [titleEntry, subtitleEntry]
        where focus == entry || inputMethods.composition(in: entry) != nil {
            inputMethods.settle(entry)
        }
    }
}

/// GtkEntry preedit-changed: (entry, the preedit text).
@MainActor
private func onPreeditChanged(_ entry: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor (String) -> Void) {
    onPointerSignal(entry, "preedit-changed") { text in
        body(text.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
    }
}

/// GtkEditable insert-text: (editable, text, length, position); the handler returns true to
/// stop the insertion.
@MainActor
private func onInsertText(_ entry: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor (String) -> Bool) {
    typealias Handler = @MainActor (String) -> Bool
    final class Box { let body: Handler; init(_ body: @escaping Handler) { self.body = body } }
    let callback: @convention(c) (gpointer?, UnsafePointer<CChar>?, Int32, gpointer?, gpointer?) -> Void = {
        editable, text, length, _, data in
        guard let editable, let text, let data else { return }
        let inserted = length < 0 ? String(cString: text)
            : String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
        let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        nonisolated(unsafe) let instance = editable
        if MainActor.assumeIsolated({ handler.body(inserted) }) {
            g_signal_stop_emission_by_name(instance, "insert-text")
        }
    }
    let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).release()
    }
    _ = caption_signal_connect(entry, "insert-text", unsafeBitCast(callback, to: GCallback.self),
                               Unmanaged.passRetained(Box(body)).toOpaque(), release, 0)
}

/// GtkWidget delete-event (the window's close button, Alt+F4): the handler runs, and the
/// window closes as before.
@MainActor
private func onDeleteEvent(_ window: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
    typealias Handler = @MainActor () -> Void
    final class Box { let body: Handler; init(_ body: @escaping Handler) { self.body = body } }
    let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, data in
        guard let data else { return 0 }
        let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.body() }
        return 0  // go on closing
    }
    let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).release()
    }
    _ = caption_signal_connect(window, "delete-event", unsafeBitCast(callback, to: GCallback.self),
                               Unmanaged.passRetained(Box(body)).toOpaque(), release, 0)
}
