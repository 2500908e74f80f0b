// The progress panel of long work (export, caption the rest) in the window's notification:
// the work's title names the notification, which says how to cancel; it goes with the work
// unless the outcome takes its place; and once the panel's widgets are destroyed (the
// window closed while the work ran), neither its timer nor the work's end touches them.

import CGtk
import CaptionLibrary
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ProgressPanelTests {
    @Test func aDestroyedPanelNoLongerTouchesItsWidgets() throws {
        try Harness.start()
        let progress = WorkProgress(total: 10)
        let panel = ProgressPanel(progress: progress, title: "Working")
        let holder = Box(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        g_object_ref_sink(holder.objectPointer)
        defer { g_object_unref(holder.objectPointer) }
        holder.packStart(panel.widget)
        let warnings = GLibWarnings()
        defer { warnings.stop() }
        #expect(!panel.isDestroyed)
        gtk_widget_destroy(panel.widget.pointer)
        #expect(panel.isDestroyed)
        progress.advance()
        // The timer's ticks (ten a second), then what the work's end and a late Cancel do.
        Harness.pump(milliseconds: 300)
        panel.stop()
        panel.cancel()
        #expect(progress.isCancelled, "Cancel still reaches the work")
        #expect(warnings.count == 0, "GTK warned \(warnings.count) times")
    }

    @Test func theNotificationIsNamedForTheWorkAndGoesWithItUnlessAnOutcomeFollows() throws {
        let window = try Harness.makeWindow(library: Harness.temporaryDirectory("caption-panel"))
        defer { gtk_widget_destroy(window.widget) }
        let notification = window.notification
        notification.show("Saved “Pier”", button: .undo)
        notification.show(progress: ProgressPanel(progress: WorkProgress(total: 3), title: "Exporting…"))
        #expect(notification.isShowing)
        #expect(notification.text == "Exporting…")
        #expect(notification.details == "Press Alt+C to cancel.")
        #expect(notification.button == nil, "Undo of the save went with its notification")
        // The outcome in its place: it stays.
        notification.show(progress: nil)
        notification.show("Exported 3 photos")
        // Proves the outcome stays: the work's end hides the notification at the next turn
        // of the main loop unless the outcome cancels that, so a hide would come well
        // within these 100 ms.
        Harness.pump(milliseconds: 100)
        #expect(notification.isShowing)
        #expect(notification.text == "Exported 3 photos")
        #expect(notification.details == "")
        // No outcome: the notification goes rather than name work that is over.
        notification.show(progress: ProgressPanel(progress: WorkProgress(total: 3), title: "Exporting…"))
        notification.show(progress: nil)
        #expect(Harness.spin(seconds: 2) { !notification.isShowing }, "the work's title stayed")
    }
}
