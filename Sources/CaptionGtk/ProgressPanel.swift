// A progress bar with a Cancel button for long work in the window: exporting every entry
// now; writing captions back to the originals and captioning the rest of a queue later.
// It shows a WorkProgress (CaptionLibrary), which the work itself advances on its own
// thread; the panel reads it ten times a second, so nothing is posted per item.

import CGtk
import CaptionLibrary
import Localization

@MainActor
final class ProgressPanel {
    let widget: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let progress: WorkProgress
    private var timer: UInt32 = 0
    /// Tests and screen readers: the last text shown ("1,234 of 100,001").
    private(set) var text = ""

    /// `title` says what the work is ("Exporting"); the bar's text says how far it is.
    init(progress: WorkProgress, title: String) {
        self.progress = progress
        // GTK constructors abort rather than return NULL.
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let label = gtk_label_new(title)!
        bar = gtk_progress_bar_new()!
        let progressBar = caption_progress_bar(bar)
        gtk_progress_bar_set_show_text(progressBar, 1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(bar, 220, -1)
        atk_object_set_name(gtk_widget_get_accessible(bar), title)
        cancelButton = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        gtk_box_pack_start(caption_box(widget), label, 0, 0, 0)
        gtk_box_pack_start(caption_box(widget), bar, 1, 1, 0)
        gtk_box_pack_start(caption_box(widget), cancelButton, 0, 0, 0)
        onSignal(cancelButton, "clicked") { [weak self] in self?.cancel() }
        refresh()
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, 100, { data in
            guard let data else { return 0 }
            let panel = Unmanaged<WeakPanel>.fromOpaque(data).takeUnretainedValue()
            nonisolated(unsafe) let held = panel
            return MainActor.assumeIsolated { held.panel?.refresh() ?? false } ? 1 : 0
        }, Unmanaged.passRetained(WeakPanel(self)).toOpaque(), { data in
            guard let data else { return }
            Unmanaged<WeakPanel>.fromOpaque(data).release()
        })
    }

    /// Cancel: the work stops before its next item; the button says it was heard.
    func cancel() {
        progress.cancel()
        gtk_widget_set_sensitive(cancelButton, 0)
    }

    /// Shows how far the work is; false once stopped (ends the timer).
    @discardableResult
    func refresh() -> Bool {
        guard timer != 0 || text.isEmpty else { return false }
        let progressBar = caption_progress_bar(bar)
        if progress.total > 0 {
            gtk_progress_bar_set_fraction(progressBar, progress.fraction)
        } else {
            gtk_progress_bar_pulse(progressBar)
        }
        let now = progress.text
        if now != text {
            text = now
            gtk_progress_bar_set_text(progressBar, now)
        }
        return true
    }

    /// The work is over: the last figures, and no more timer.
    func stop() {
        refresh()
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }
}

/// A weak reference for the refresh timer, which must not keep the panel alive.
final class WeakPanel {
    weak var panel: ProgressPanel?
    init(_ panel: ProgressPanel) { self.panel = panel }
}
