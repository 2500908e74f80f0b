// Cancel of "Caption the rest of the queue the same", pressed on the progress panel as a
// user would: every photo ends either in the library with the words or back in the queue
// with the words it had, the draft says the same, the panel goes, and Undo takes back what
// was saved.

import CGtk
import CaptionLibrary
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct CaptionRestCancelTests {
    let folder = Harness.temporaryDirectory("caption-rest-cancel")
    /// Enough photos, large enough, that the batch is still running when Cancel is pressed
    /// (a key press shows the button pressed for a quarter of a second before it acts): each
    /// photo is read, hashed, decoded whole and copied before the next begins.
    static let count = 40

    /// `count` photos of 2400 × 1800: one made, then copied with a different tail after its
    /// end marker (which every decoder ignores), so that each has its own content.
    func photos(_ prefix: String) throws -> [String] {
        let first = Harness.makePhoto(width: 2400, height: 1800, in: folder, name: "\(prefix)0.jpg", noise: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        return try [first]
            + (1..<Self.count).map { index in
                let path = folder + "/\(prefix)\(index).jpg"
                try (bytes + Data("\(index)".utf8)).write(to: URL(fileURLWithPath: path))
                return path
            }
    }

    /// The progress panel's Cancel as it is on screen: a button in the notification, found
    /// by its label, not through the panel's handle.
    func cancelButton(_ window: CaptionWindow) -> Button? {
        window.notification.widget.descendants(ofType: "GtkButton").map { Button(unchecked: $0.pointer) }.first {
            $0.label == "_Cancel" && gtk_widget_get_mapped($0.pointer) != 0
        }
    }

    /// Starts the batch over `paths`, the form's words "Pier" / "Morning" on the first photo
    /// and "Its own" typed for the third, which keeps its words and stays; returns the
    /// panel's Cancel once the batch has saved at least one photo.
    func startBatch(_ window: CaptionWindow, _ paths: [String]) throws -> Button {
        Harness.waitForPhoto(window) { window.form.enqueue(paths) }
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        Harness.type(window.form.view.titleEntry, "Its own")
        Harness.waitForPhoto(window) { window.activateAction("previous-photo") }
        Harness.waitForPhoto(window) { window.activateAction("previous-photo") }
        Harness.type(window.form.view.titleEntry, "Pier")
        Harness.type(window.form.view.subtitleEntry, "Morning")
        // The photo with words of its own comes on the form as the batch starts.
        Harness.waitForPhoto(window) { window.activateAction("caption-rest") }
        let progress = try #require(window.form.captioningRest, "the batch did not start")
        // On screen once the notification has slid in.
        #expect(Harness.spin { cancelButton(window) != nil })
        let button = try #require(cancelButton(window), "no Cancel on screen")
        #expect(Harness.spin { progress.completed >= 1 }, "the batch saved nothing")
        #expect(progress.completed < Self.count - 1, "the batch was over before Cancel could be pressed")
        return button
    }

    /// What every photo became: saved (by the library), or waiting with its words (by the
    /// draft, which is the queue plus photos whose save is on its way).
    func checkNothingHalfWritten(
        _ window: CaptionWindow, library: String, paths: [String], savedWords: (String, String),
        queuedWords: [String: (String, String)]
    ) throws {
        let saved = try Library(directory: library).entries()
        let savedNames = Set(saved.map(\.originalName))
        #expect(saved.allSatisfy { ($0.title, $0.subtitle) == savedWords }, "other words were saved")
        #expect(savedNames.count == saved.count, "a photo was saved twice")
        let draft = window.form.draft
        let queued = Set(draft.items.compactMap(\.path))
        #expect(queued.count == draft.items.count, "a photo is twice in the queue")
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let inLibrary = savedNames.contains(name)
            #expect(
                inLibrary != queued.contains(path), "\(name): in the library \(inLibrary), and in the queue too or not")
            guard let item = draft.items.first(where: { $0.path == path }) else { continue }
            let words = queuedWords[path] ?? ("", "")
            #expect((item.title, item.subtitle) == words, "\(name) came back with \(item.title) / \(item.subtitle)")
        }
        // The draft on disk says the same as the window.
        window.form.drafts.flush()
        #expect(DraftStore(directory: library).load() == draft)
    }

    @Test func cancelStopsTheRestBetweenPhotosAndEveryPhotoIsSavedOrBackWithItsWords() throws {
        let library = folder + "/button"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        let paths = try photos("b")
        var outcome: ([Entry], [String])?
        window.form.onRestCaptioned = { outcome = ($0, $1) }
        let button = try startBatch(window, paths)
        // What Orca says as the notification appears, and of the button; Tab stops at it.
        #expect(window.notification.text == "Captioning the rest…")
        #expect(window.notification.details == "Press Alt+C to cancel.")
        #expect(button.accessibleName == "Cancel")
        #expect(gtk_widget_get_can_focus(button.pointer) != 0)
        gtk_button_clicked(caption_button(button.pointer))
        #expect(!button.isSensitive, "the press was not acknowledged")
        #expect(Harness.spin { outcome != nil }, "the batch never ended")
        let (entries, unsaved) = try #require(outcome)
        #expect(!entries.isEmpty && entries.count < Self.count - 1, "\(entries.count) saved")
        #expect(entries.count + unsaved.count == Self.count - 1, "the third photo, with words of its own, stays out")
        #expect(!unsaved.contains(paths[2]))
        // The form's own photo goes first, so it is saved; the others not saved come back
        // without words, as they were, and the third keeps its own.
        try checkNothingHalfWritten(
            window, library: library, paths: paths, savedWords: ("Pier", "Morning"),
            queuedWords: [paths[2]: ("Its own", "")])
        #expect(window.form.draft.items.count == Self.count - entries.count)
        // The panel is gone; the notification says what was saved, with Undo.
        #expect(window.notification.progress == nil)
        #expect(window.form.captioningRest == nil)
        #expect(cancelButton(window) == nil)
        #expect(window.notification.text == "Captioned \(entries.count) photos “Pier”")
        #expect(window.notification.button == .undo)
        #expect(window.notification.details.hasSuffix("Press Ctrl+Z to undo."))
        #expect(window.form.photoPath.map(Set(unsaved).contains) == true, "the form shows a photo not saved")

        outcome = nil
        window.activateAction("undo")
        #expect(Harness.spin { outcome != nil }, "Undo never finished")
        #expect(try Library(directory: library).entries().isEmpty)
        // Every photo is back, the first with the form's words as before the batch.
        try checkNothingHalfWritten(
            window, library: library, paths: paths, savedWords: ("", ""),
            queuedWords: [paths[0]: ("Pier", "Morning"), paths[2]: ("Its own", "")])
        #expect(window.form.draft.items.count == Self.count)
    }

    @Test func altCPressesCancelFromTheKeyboard() throws {
        let library = folder + "/keys"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        let paths = try photos("k")
        var outcome: ([Entry], [String])?
        window.form.onRestCaptioned = { outcome = ($0, $1) }
        let button = try startBatch(window, paths)
        Harness.press(window, keyval: GDK_KEY_c, state: GDK_MOD1_MASK)
        // GTK shows a button pressed from the keyboard for a moment before it acts.
        #expect(Harness.spin(seconds: 2) { !button.isSensitive }, "Alt+C did not reach Cancel")
        #expect(Harness.spin { outcome != nil }, "the batch never ended")
        let (entries, unsaved) = try #require(outcome)
        #expect(!entries.isEmpty && !unsaved.isEmpty, "\(entries.count) saved, \(unsaved.count) not")
        try checkNothingHalfWritten(
            window, library: library, paths: paths, savedWords: ("Pier", "Morning"),
            queuedWords: [paths[2]: ("Its own", "")])
        #expect(window.notification.progress == nil)
    }
}
