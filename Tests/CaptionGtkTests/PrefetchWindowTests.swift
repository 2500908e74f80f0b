// No wait between photos: the queue's next and previous photos decoded ahead (shown in the
// turn that asks for them, decoded again when the file changed, a bounded memory whatever the
// queue's length), and Done moving on before the save is in the library.

import CGtk
import CaptionLibrary
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct PrefetchWindowTests {
    let folder = Harness.temporaryDirectory("caption-prefetch")

    /// A photo of one colour (0xRRGGBB), large enough to fill the preview.
    func makePhoto(_ name: String, colour: UInt32, width: Int32 = 1600, height: Int32 = 1000) -> String {
        let path = folder + "/" + name
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height)!
        gdk_pixbuf_fill(pixbuf, colour << 8 | 0xFF)
        let saved = gdk_pixbuf_savev(pixbuf, path + ".part", "jpeg", nil, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        precondition(saved != 0, "could not write \(path)")
        // Replaced by a rename, as an editor's save does: a new inode.
        precondition(rename(path + ".part", path) == 0)
        return path
    }

    /// Whether two colours are within JPEG's rounding of each other.
    func near(_ colour: UInt32?, _ expected: UInt32) -> Bool {
        guard let colour else { return false }
        return [16, 8, 0].allSatisfy { shift in
            abs(Int((colour >> UInt32(shift)) & 0xFF) - Int((expected >> UInt32(shift)) & 0xFF)) <= 6
        }
    }

    /// A window with `paths` queued, the first photo checked and the next decoded ahead.
    func queueWindow(_ paths: [String], library: String) throws -> CaptionWindow {
        let window = try Harness.makeWindow(library: folder + "/" + library)
        var ready: [String] = []
        window.form.photos.prefetch.onReady = { ready.append($0) }
        Harness.waitForPhoto(window) { window.form.enqueue(paths) }
        #expect(Harness.spin { ready.contains(paths[1]) }, "the next photo was never decoded ahead")
        return window
    }

    /// Done shows the next photo from what was decoded ahead, in the same turn of the main
    /// loop as the save's answer: nothing is left to decode before the next frame.
    @Test func doneShowsTheNextPhotoDecodedAheadAtOnce() throws {
        let paths = [
            makePhoto("done-1.jpg", colour: 0xD018D0), makePhoto("done-2.jpg", colour: 0x18D018),
            makePhoto("done-3.jpg", colour: 0x1818D0),
        ]
        let window = try queueWindow(paths, library: "done")
        defer { Harness.close(window, after: 500) }
        #expect(near(window.form.photos.preview.middlePixel, 0xD018D0))
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Harbour")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Dusk")
        var shownAtSave: UInt32?
        var saved = false
        window.form.onSaved = { _ in
            saved = true
            shownAtSave = window.form.photos.preview.middlePixel
        }
        window.activateAction("save")
        #expect(Harness.spin { saved })
        #expect(near(shownAtSave, 0x18D018), "shown when the save answered: \(String(shownAtSave ?? 0, radix: 16))")
        #expect(window.form.photos.prefetch.hits == 1)
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
    }

    /// Done moves on at once, before the library has the photo; a save that then fails puts
    /// the photo and its words back in the queue, just before the photo on the form, and
    /// leaves what was typed meanwhile where it is.
    @Test func aSaveThatFailsAfterMovingOnPutsThePhotoBackBeforeTheOneOnTheForm() throws {
        let library = folder + "/readonly"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        // A file where the library's photo folder should be: the save cannot succeed.
        try "not a folder".write(toFile: library + "/photos", atomically: true, encoding: .utf8)
        chmod(library, 0o500)
        defer { chmod(library, 0o700) }
        let paths = [makePhoto("fail-1.jpg", colour: 0xD018D0), makePhoto("fail-2.jpg", colour: 0x18D018)]
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window, after: 500) }
        Harness.waitForPhoto(window) { window.form.enqueue(paths) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Kept")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Also kept")
        window.activateAction("save")
        // The next photo, straight away, with Title focused for it.
        #expect(window.form.photoPath == paths[1])
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        #expect(window.form.draft.items.map(\.path) == paths, "the photo being saved stays in the draft")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Typed meanwhile")
        #expect(Harness.spin { window.messages.text != nil && !window.form.isSaving })
        #expect(window.messages.text?.hasPrefix("“fail-1.jpg” was not saved") == true, "\(window.messages.text ?? "")")
        #expect(window.form.photoPath == paths[1])
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Typed meanwhile")
        #expect(window.form.queuedPaths == paths)
        window.activateAction("previous-photo")
        #expect(window.form.photoPath == paths[0])
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Kept")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "Also kept")
        #expect(window.form.engine.isComplete(CaptionForm.Layout.window.requiredIndex(.title)))
        window.activateAction("next-photo")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Typed meanwhile")
    }

    /// Quitting right after Done, before the next frame, still saves: the save waiting for
    /// that frame goes to the library before quitting waits for it.
    @Test func quittingRightAfterDoneStillSaves() throws {
        let library = folder + "/quit"
        let paths = [makePhoto("quit-1.jpg", colour: 0xD018D0), makePhoto("quit-2.jpg", colour: 0x18D018)]
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window, after: 500) }
        Harness.waitForPhoto(window) { window.form.enqueue(paths) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Last one")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Before quitting")
        window.activateAction("save")
        window.close()
        #expect(try Library(directory: library).entries().map(\.title) == ["Last one"])
    }

    /// Ctrl+Page Down and Ctrl+Page Up show their photo at once too.
    @Test func skippingShowsTheNeighbourDecodedAheadAtOnce() throws {
        let paths = [makePhoto("skip-1.jpg", colour: 0xD018D0), makePhoto("skip-2.jpg", colour: 0x18D018)]
        let window = try queueWindow(paths, library: "skip")
        defer { Harness.close(window, after: 500) }
        var ready: [String] = []
        window.form.photos.prefetch.onReady = { ready.append($0) }
        window.activateAction("next-photo")
        #expect(near(window.form.photos.preview.middlePixel, 0x18D018))
        // Once this photo is checked, the one before it is decoded ahead in turn.
        #expect(Harness.spin { ready.contains(paths[0]) })
        window.activateAction("previous-photo")
        #expect(near(window.form.photos.preview.middlePixel, 0xD018D0))
        #expect(window.form.photos.prefetch.hits == 2)
    }

    /// A photo changed on disk after it was decoded ahead is decoded again, not shown stale.
    @Test func aPhotoChangedSinceItWasDecodedAheadIsDecodedAgain() throws {
        let paths = [makePhoto("change-1.jpg", colour: 0xD018D0), makePhoto("change-2.jpg", colour: 0x18D018)]
        let window = try queueWindow(paths, library: "change")
        defer { Harness.close(window, after: 500) }
        // The same name, other pixels.
        _ = makePhoto("change-2.jpg", colour: 0x1818D0)
        let decodesBefore = window.form.photos.prefetch.decodesStarted
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        #expect(window.form.photos.prefetch.hits == 0)
        #expect(Harness.spin { window.form.photos.preview.hasPhoto })
        #expect(
            near(window.form.photos.preview.middlePixel, 0x1818D0),
            "shows \(String(window.form.photos.preview.middlePixel ?? 0, radix: 16))")
        #expect(window.form.photos.prefetch.decodesStarted >= decodesBefore)
    }

    /// The same file written in place (same inode, same size) counts as changed too.
    @Test func aPhotoRewrittenInPlaceIsDecodedAgain() throws {
        let paths = [makePhoto("inplace-1.jpg", colour: 0xD018D0), makePhoto("inplace-2.jpg", colour: 0x18D018)]
        let window = try queueWindow(paths, library: "inplace")
        defer { Harness.close(window, after: 500) }
        // Rewritten byte for byte, through the same inode: only the times move.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        usleep(20_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: paths[1]))
        try handle.write(contentsOf: bytes)
        try handle.close()
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        #expect(window.form.photos.prefetch.hits == 0)
    }

    /// At most two previews are held ahead, however long the queue and however far one goes.
    @Test func previewsDecodedAheadStayAtTwo() throws {
        let paths = (1...6).map { makePhoto("bound-\($0).jpg", colour: $0 % 2 == 0 ? 0x18D018 : 0xD018D0) }
        let window = try queueWindow(paths, library: "bound")
        defer { Harness.close(window, after: 500) }
        for _ in 0..<4 {
            Harness.waitForPhoto(window) { window.activateAction("next-photo") }
            #expect(Harness.spin { window.form.photos.prefetch.count == 2 })
            #expect(window.form.photos.prefetch.count <= PreviewPrefetch.capacity)
        }
    }

    /// Resident memory once the work on its way (a draft written, a thread ending) is over:
    /// the least of a few readings a tenth of a second apart.
    func steadyResidentBytes() -> Int {
        let readings = (0..<5).map { _ in
            Harness.pump(milliseconds: 100)
            return ReliabilityTests.residentBytes()
        }
        return readings.min() ?? 0
    }

    /// Resident memory with 1,000 photos queued is at most 10 MB over one photo queued.
    @Test func aThousandQueuedPhotosCostAtMostTenMegabytesMore() throws {
        let first = makePhoto("many-0000.jpg", colour: 0xD018D0)
        // A warm-up in another window first, as many photo changes as the queue gets below,
        // so that what decoding ahead and checking photos leave allocated (GTK's caches, the
        // heaps of the threads that decode) is in both figures, and the difference is what
        // the queue's length costs.
        let warmUp = try queueWindow(
            [first, makePhoto("warm-1.jpg", colour: 0x18D018), makePhoto("warm-2.jpg", colour: 0xD018D0)],
            library: "warm-up")
        for step in [1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1] {
            Harness.waitForPhoto(warmUp) { warmUp.form.skip(by: step) }
            #expect(Harness.spin { warmUp.form.photos.prefetch.count >= 1 })
        }
        Harness.close(warmUp, after: 500)
        let window = try Harness.makeWindow(library: folder + "/many")
        defer { Harness.close(window, after: 500) }
        Harness.waitForPhoto(window) { window.form.enqueue([first]) }
        Harness.settle()
        let one = steadyResidentBytes()
        // Every file its own photo to the queue (links have their own paths), all the same
        // size, so the figure is the queue's and the previews', not the files'.
        let others = (1..<1_000).map { index -> String in
            let path = folder + "/many-\(String(format: "%04d", index)).jpg"
            unlink(path)
            precondition(link(first, path) == 0)
            return path
        }
        var ready = 0
        window.form.photos.prefetch.onReady = { _ in ready += 1 }
        window.form.enqueue(others)
        #expect(Harness.spin { ready >= 1 })

        for _ in 0..<10 {
            Harness.waitForPhoto(window) { window.activateAction("next-photo") }
            #expect(Harness.spin { window.form.photos.prefetch.count == 2 })
        }
        Harness.settle()
        let thousand = steadyResidentBytes()
        let growth = Double(thousand - one) / 1_048_576
        print("thousandQueued: RSS \(one / 1024) KiB with one photo, \(thousand / 1024) KiB with 1,000")
        #expect(growth <= 10, "RSS grew by \(growth) MiB")
    }
}
