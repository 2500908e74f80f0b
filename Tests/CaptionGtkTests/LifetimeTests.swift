// The window's lifetime: what is posted, timed or connected through it runs while it lives
// and never after its end, however late it arrives; a window destroyed with work on its way
// (a photo decoding, a library read, the offers) warns of nothing.

import CGtk
import CaptionTestSupport
import Dispatch
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct LifetimeTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    /// What a job holds (a decoded picture): the log says when it is let go.
    final class Held: @unchecked Sendable {
        let log: Log
        let name: String
        init(_ name: String, in log: Log) {
            self.log = log
            self.name = name
        }
        deinit { log.lines.append(name) }
    }

    @Test func jobsRunWhileItLivesAndNeverAfterItsEnd() throws {
        try Harness.start()
        let lifetime = Lifetime()
        let log = Log()
        lifetime.post { log.lines.append("posted") }
        lifetime.after(milliseconds: 10) { log.lines.append("timed") }
        var ticks = 0
        lifetime.every(milliseconds: 10) {
            ticks += 1
            return true
        }
        #expect(Harness.spin(seconds: 10) { log.lines.count >= 2 && ticks >= 2 }, "the jobs never ran")
        #expect(log.lines == ["posted", "timed"])
        #expect(ticks >= 2, "the repeating job ran \(ticks) times")

        // Only the jobs hold what they were given, so it is let go exactly when they are.
        lifetime.post { [held = Held("let go", in: log)] in log.lines.append("posted late \(held.name)") }
        lifetime.after(milliseconds: 10) { log.lines.append("timed late") }
        // A worker's answer, queued before the end and due after it.
        let queued = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            lifetime.post { [answer = Held("answer let go", in: log)] in
                log.lines.append("answered late \(answer.name)")
            }
            queued.signal()
        }
        queued.wait()
        var ended: [String] = []
        lifetime.onEnd { ended.append("first") }
        lifetime.onEnd { ended.append("second") }
        lifetime.end()
        let ticksAtEnd = ticks
        #expect(Harness.spin(seconds: 10) { log.lines.count >= 4 }, "the jobs queued before the end were not let go")
        // Proves nothing runs after the end: the late timer (10 ms) and the repeating one
        // (every 10 ms) would each have run within these 50 ms.
        Harness.pump(milliseconds: 50)
        #expect(log.lines.sorted() == ["answer let go", "let go", "posted", "timed"])
        #expect(ticks == ticksAtEnd, "the repeating job ran after the end")
        #expect(ended == ["second", "first"], "the parts end last registered first")
        lifetime.end()
        #expect(ended.count == 2, "an end happens once")
    }

    @Test func handlersItHoldsAreDisconnectedAtItsEnd() throws {
        try Harness.start()
        let lifetime = Lifetime()
        let button = Button(mnemonic: "_Go")
        g_object_ref_sink(button.objectPointer)
        defer { g_object_unref(button.objectPointer) }
        var clicks = 0
        lifetime.hold(button, handler: button.connect(.clicked) { clicks += 1 })
        gtk_button_clicked(caption_button(button.pointer))
        lifetime.end()
        gtk_button_clicked(caption_button(button.pointer))
        #expect(clicks == 1)
        // Held after the end: disconnected at once.
        lifetime.hold(button, handler: button.connect(.clicked) { clicks += 1 })
        gtk_button_clicked(caption_button(button.pointer))
        #expect(clicks == 1)
    }

    @Test func aWindowDestroyedWithWorkOnItsWayWarnsOfNothing() throws {
        let folder = Harness.temporaryDirectory("caption-lifetime")
        let photos = (0..<3).map {
            Harness.makePhoto(width: 2400, height: 1600, in: folder, name: "photo\($0).jpg", noise: true)
        }
        let warnings = GLibWarnings()
        defer { warnings.stop() }
        var settledAfterEnd = 0
        var listedAfterEnd = 0
        for round in 0..<5 {
            let window = try Harness.makeWindow(library: folder + "/library", stateFile: folder + "/window.ini")
            window.form.onPhotoSettled = { if window.lifetime.isOver { settledAfterEnd += 1 } }
            window.onLibraryShown = { if window.lifetime.isOver { listedAfterEnd += 1 } }
            window.form.enqueue(photos)
            window.showLibraryView()
            // A decode, the photo's check, its words and facts, the library's list and a draft
            // are on their way when the window goes. Each round lets that work run 5 ms
            // longer first, so that the window goes at a different point of it.
            Harness.pump(milliseconds: round * 5)
            gtk_widget_destroy(window.widget)
            #expect(window.lifetime.isOver)
            // Proves the late answers are dropped: the work on its way lands within these
            // 300 ms (a late one in the next round's), and any reaching the window counts below.
            Harness.pump(milliseconds: 300)
        }
        #expect(listedAfterEnd == 0, "the library's answer reached its view after the window ended")
        #expect(settledAfterEnd == 0, "a photo's check reached the form after the window ended")
        #expect(warnings.count == 0, "GTK warned \(warnings.count) times")
    }
}
