// The window's draft: written as the user types, back on the next start, gone after a save,
// and thrown away only by a deliberate Discard, which can be undone.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct DraftWindowTests {
    let folder = Harness.temporaryDirectory("caption-draft")
    var library: String { folder + "/library" }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: library, stateFile: folder + "/window.ini")
    }

    func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String { Harness.text(entry) }

    func waitForPhoto(_ window: CaptionWindow, _ action: () -> Void) { Harness.waitForPhoto(window, action) }

    @Test func typedWordsAndPhotosComeBackExactlyOnTheNextStart() throws {
        let paths = (0..<2).map { Harness.makePhoto(in: folder, name: "draft-\($0).jpg") }
        let first = try makeWindow()
        waitForPhoto(first) { first.form.enqueue(paths) }
        gtk_entry_set_text(caption_entry(first.form.view.titleEntry.pointer), "  港口 at dusk\t")
        waitForPhoto(first) { first.form.skip(by: 1) }
        gtk_entry_set_text(caption_entry(first.form.view.subtitleEntry.pointer), "second's subtitle")
        // Written by itself within the interval, without any flush.
        var written: Draft?
        first.form.drafts.writer.onWritten = { if case .success(let draft) = $0 { written = draft } }
        #expect(Harness.spin(seconds: 3) { written?.items.last?.subtitle == "second's subtitle" })
        gtk_widget_destroy(first.widget)  // as if the window closed, or the process died

        let second = try makeWindow()
        defer { gtk_widget_destroy(second.widget) }
        waitForPhoto(second) { #expect(second.form.drafts.restore()) }
        #expect(second.notification.isShowing)
        #expect(second.notification.text == "Your unsaved captions are back")
        #expect(second.notification.button == .discard)
        #expect(second.form.photoPath == paths[1])
        #expect(text(second.form.view.subtitleEntry.pointer) == "second's subtitle")
        waitForPhoto(second) { second.form.skip(by: -1) }
        #expect(text(second.form.view.titleEntry.pointer) == "  港口 at dusk\t", "exactly as typed, not normalised")
    }

    @Test func wordsTypedBeforeAnyPhotoAreKeptToo() throws {
        let first = try makeWindow()
        gtk_entry_set_text(caption_entry(first.form.view.titleEntry.pointer), "No photo yet")
        first.form.drafts.flush()
        gtk_widget_destroy(first.widget)
        let second = try makeWindow()
        defer { gtk_widget_destroy(second.widget) }
        #expect(second.form.drafts.restore())
        #expect(text(second.form.view.titleEntry.pointer) == "No photo yet")
        #expect(second.form.photoPath == nil)
    }

    /// Between a window's making and its restore the main loop may turn (a slow machine, a
    /// sanitizer): its empty form must not take the earlier run's draft away meanwhile.
    @Test func anEmptyFormLeavesTheEarlierDraftToBeRestored() throws {
        let store = DraftStore(directory: library)
        try store.save(
            Draft(items: [DraftItem(path: nil, words: CaptionWords(title: "Earlier", subtitle: ""))], current: 0))
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        // Proves the empty form leaves the draft alone: the writer would write the empty
        // form within one interval, and this waits three.
        Harness.pump(milliseconds: Int(DraftWriter.interval) * 3)
        #expect(store.load() != nil)
        #expect(window.form.drafts.restore())
        #expect(text(window.form.view.titleEntry.pointer) == "Earlier")
        // Typing and taking it back: the form is empty again, and so is the draft.
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "")
        window.form.drafts.flush()
        #expect(store.load() == nil)
    }

    /// Tests destroy windows outright, as a crash would end one: the words are on disk at
    /// once, and nothing that arrives later (a photo checked, the library's words, the
    /// draft's timer) writes again or touches a destroyed widget.
    @Test func aDestroyedWindowWritesItsWordsAtOnceAndNothingAfter() throws {
        let store = DraftStore(directory: library)
        let paths = (0..<3).map { Harness.makePhoto(in: folder, name: "gone-\($0).jpg") }
        let window = try makeWindow()
        waitForPhoto(window) { window.form.enqueue(paths) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "First")
        // The next photo is asked for and the window goes before its answers arrive.
        window.form.skip(by: 1)
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "typed last")
        let warnings = GLibWarnings()
        defer { warnings.stop() }
        gtk_widget_destroy(window.widget)
        let onDisk = try #require(store.load())
        #expect(onDisk.items.map(\.path) == paths)
        #expect(onDisk.items.map(\.title) == ["First", "", ""])
        #expect(onDisk.items[1].subtitle == "typed last")
        var written = stat()
        #expect(stat(store.path, &written) == 0)
        // Proves nothing writes after the end: the draft's timer and the next photo's
        // answers would all have come well within these 1.5 s.
        Harness.pump(milliseconds: 1500)
        var later = stat()
        #expect(stat(store.path, &later) == 0)
        #expect(later.st_ino == written.st_ino, "written again after the window was destroyed")
        #expect(warnings.count == 0, "GLib warned of a destroyed widget being used")
    }

    @Test func aSuccessfulSaveRemovesTheDraft() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let store = DraftStore(directory: library)
        waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "saved.jpg")) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Saved")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Now")
        window.form.drafts.flush()
        #expect(store.load() != nil)
        var saved = false
        window.form.onSaved = { _ in saved = true }
        window.activateAction("save")
        #expect(Harness.spin { saved })
        window.form.drafts.flush()
        #expect(store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func discardIsAButtonWithUndoAndCtrlZNeverDiscards() throws {
        let first = try makeWindow()
        gtk_entry_set_text(caption_entry(first.form.view.titleEntry.pointer), "Keep me")
        first.form.drafts.flush()
        gtk_widget_destroy(first.widget)

        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        #expect(window.form.drafts.restore())
        // A stray Ctrl+Z (the undo shortcut) must not throw the draft away.
        window.activateAction("undo")
        Harness.settle()
        #expect(text(window.form.view.titleEntry.pointer) == "Keep me")
        #expect(window.notification.isShowing)

        window.form.drafts.discard()
        window.form.drafts.flush()
        #expect(text(window.form.view.titleEntry.pointer) == "")
        #expect(DraftStore(directory: library).load() == nil)
        #expect(window.notification.text == "Unsaved captions discarded")
        #expect(window.notification.button == .undo)
        window.activateAction("undo")
        Harness.settle()
        window.form.drafts.flush()
        #expect(text(window.form.view.titleEntry.pointer) == "Keep me")
        #expect(DraftStore(directory: library).load()?.items.first?.title == "Keep me")
    }
}
