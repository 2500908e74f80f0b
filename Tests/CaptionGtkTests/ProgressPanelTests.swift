// The progress panel of long work (export, caption the rest): once its widgets are
// destroyed (the window closed while the work ran), neither its timer nor the work's end
// touches them.

import CGtk
import CaptionLibrary
import Testing

@testable import CaptionGtk

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
}
