// The window's draft: written as the user types, back on the next start, gone after a save,
// and thrown away only by a deliberate Discard, which can be undone.

import CGtk
import CaptionLibrary
import FocusEngine
import Foundation
import Testing

@testable import CaptionGtk

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
        first.form.draftKeeper.onWritten = { if case .success(let draft) = $0 { written = draft } }
        #expect(Harness.spin(seconds: 3) { written?.items.last?.subtitle == "second's subtitle" })
        gtk_widget_destroy(first.widget)  // as if the window closed, or the process died

        let second = try makeWindow()
        defer { gtk_widget_destroy(second.widget) }
        waitForPhoto(second) { #expect(second.form.restoreDraft()) }
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
        first.form.flushDraft()
        gtk_widget_destroy(first.widget)
        let second = try makeWindow()
        defer { gtk_widget_destroy(second.widget) }
        #expect(second.form.restoreDraft())
        #expect(text(second.form.view.titleEntry.pointer) == "No photo yet")
        #expect(second.form.photoPath == nil)
    }

    @Test func aSuccessfulSaveRemovesTheDraft() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let store = DraftStore(directory: library)
        waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "saved.jpg")) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Saved")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Now")
        window.form.flushDraft()
        #expect(store.load() != nil)
        var saved = false
        window.form.onSaved = { _ in saved = true }
        window.activateAction("save")
        #expect(Harness.spin { saved })
        window.form.flushDraft()
        #expect(store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func discardIsAButtonWithUndoAndCtrlZNeverDiscards() throws {
        let first = try makeWindow()
        gtk_entry_set_text(caption_entry(first.form.view.titleEntry.pointer), "Keep me")
        first.form.flushDraft()
        gtk_widget_destroy(first.widget)

        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        #expect(window.form.restoreDraft())
        // A stray Ctrl+Z (the undo shortcut) must not throw the draft away.
        window.activateAction("undo")
        Harness.settle()
        #expect(text(window.form.view.titleEntry.pointer) == "Keep me")
        #expect(window.notification.isShowing)

        window.form.discardDraft()
        window.form.flushDraft()
        #expect(text(window.form.view.titleEntry.pointer) == "")
        #expect(DraftStore(directory: library).load() == nil)
        #expect(window.notification.text == "Unsaved captions discarded")
        #expect(window.notification.button == .undo)
        window.activateAction("undo")
        Harness.settle()
        window.form.flushDraft()
        #expect(text(window.form.view.titleEntry.pointer) == "Keep me")
        #expect(DraftStore(directory: library).load()?.items.first?.title == "Keep me")
    }
}
