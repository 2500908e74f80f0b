// Less to type: Ctrl+D and Ctrl+Shift+D repeat the last saved caption, "Caption the rest of
// the queue the same" saves a whole queue with one Undo, and a counter shows a field's length
// near its limit.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ReuseWindowTests {
    let folder = Harness.temporaryDirectory("caption-reuse")

    func photos(_ names: String...) -> [String] {
        names.enumerated().map { Harness.makePhoto(width: 60 + Int32($0.offset), in: folder, name: $0.element) }
    }

    func focus(_ entry: TextEntry) {
        gtk_widget_grab_focus(entry.pointer)
        Harness.settle()
    }

    /// Types a caption for the photo on the form and saves it, waiting for the library.
    func save(_ window: CaptionWindow, _ title: String, _ subtitle: String) {
        var saved = false
        window.form.onSaved = { _ in saved = true }
        Harness.type(window.form.view.titleEntry, title)
        Harness.type(window.form.view.subtitleEntry, subtitle)
        window.activateAction("save")
        #expect(Harness.spin { saved }, "the save never finished")
        window.form.onSaved = nil
        Harness.settle()
    }

    func entries(_ library: String) throws -> [Entry] {
        try Library(directory: library).entries()
    }

    // MARK: Ctrl+D, Ctrl+Shift+D

    @Test func ctrlDFillsTheFocusedFieldWithTheSameFieldOfTheLastSave() throws {
        let window = try Harness.makeWindow(library: folder + "/field")
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("f1.jpg", "f2.jpg")) }
        save(window, "Brooklyn Bridge", "From the Manhattan side")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        window.activateAction("reuse-field")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Brooklyn Bridge")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "")
        // The engine heard it: Subtitle is still empty, so Enter goes there.
        #expect(window.form.engine.label == .next)
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        Harness.settle()
        #expect(Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer)
        window.activateAction("reuse-field")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "From the Manhattan side")
        #expect(window.form.engine.label == .done)
        // The cursor after the words, to go on typing.
        #expect(gtk_editable_get_position(OpaquePointer(window.form.view.subtitleEntry.objectPointer)) == 23)
    }

    @Test func ctrlShiftDFillsBothFieldsAndEnterThenSaves() throws {
        let library = folder + "/both"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("b1.jpg", "b2.jpg")) }
        save(window, "Harbour", "The last ferry")
        window.activateAction("reuse-caption")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Harbour")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "The last ferry")
        #expect(window.form.engine.label == .done)
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        var saved = false
        window.form.onSaved = { _ in saved = true }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { saved })
        #expect(try entries(library).map(\.title) == ["Harbour", "Harbour"])
    }

    /// After a restart nothing was saved in this session: the library's newest entry counts.
    @Test func withNoSaveYetTheLibrarysNewestEntryIsRepeated() throws {
        let library = folder + "/newest"
        let stored = try Library(directory: library)
        _ = try stored.add(photoAt: photos("old1.jpg")[0], words: CaptionWords(title: "Older", subtitle: "First"))
        _ = try stored.add(photoAt: photos("old2.jpg")[0], words: CaptionWords(title: "Newest", subtitle: "Second"))
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("n1.jpg")) }
        focus(window.form.view.subtitleEntry)
        window.activateAction("reuse-field")
        #expect(Harness.spin { Harness.text(window.form.view.subtitleEntry.pointer) == "Second" })
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "")
    }

    @Test func withNothingSavedCtrlDSaysSoAndChangesNothing() throws {
        let window = try Harness.makeWindow(library: folder + "/nothing")
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("e1.jpg")) }
        Harness.type(window.form.view.titleEntry, "Typed")
        window.activateAction("reuse-caption")
        #expect(Harness.spin { window.messages.text != nil })
        #expect(window.messages.text == "No caption saved yet: Ctrl+D repeats the last one saved")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Typed")
    }

    @Test func ctrlDWithoutAFocusedFieldChangesNothing() throws {
        let window = try Harness.makeWindow(library: folder + "/button")
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("c1.jpg", "c2.jpg")) }
        save(window, "Saved", "Before")
        gtk_widget_grab_focus(window.form.view.activateButton.pointer)
        Harness.settle()
        window.activateAction("reuse-field")
        // Proves nothing is filled: Ctrl+D fills at once from this session's save, so a fill
        // would show well within these 100 ms.
        Harness.pump(milliseconds: 100)
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "")
    }

    // MARK: Caption the rest of the queue the same

    @Test func theRestOfTheQueueIsSavedTheSameAndOneUndoBringsItAllBack() throws {
        let library = folder + "/rest"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        let paths = photos("r1.jpg", "r2.jpg", "r3.jpg", "r4.jpg")
        Harness.waitForPhoto(window) { window.form.enqueue(paths) }
        // The third photo has words of its own: they stay, and so does it.
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        Harness.waitForPhoto(window) { window.activateAction("next-photo") }
        Harness.type(window.form.view.titleEntry, "Its own")
        Harness.waitForPhoto(window) { window.activateAction("previous-photo") }
        Harness.waitForPhoto(window) { window.activateAction("previous-photo") }
        Harness.type(window.form.view.titleEntry, "Brooklyn Bridge")
        Harness.type(window.form.view.subtitleEntry, "At dusk")
        var outcome: ([Entry], [String])?
        window.form.onRestCaptioned = { outcome = ($0, $1) }
        window.activateAction("caption-rest")
        #expect(Harness.spin { outcome != nil })
        #expect(outcome?.0.count == 3)
        #expect(outcome?.1 == [])
        let saved = try entries(library)
        #expect(Set(saved.map(\.originalName)) == ["r1.jpg", "r2.jpg", "r4.jpg"])
        #expect(saved.allSatisfy { $0.title == "Brooklyn Bridge" && $0.subtitle == "At dusk" })
        #expect(window.form.photoPath == paths[2])
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Its own")
        #expect(window.notification.text == "Captioned 3 photos “Brooklyn Bridge”")
        #expect(window.form.draft.items.map(\.path) == [paths[2]])

        outcome = nil
        window.activateAction("undo")
        #expect(Harness.spin { outcome != nil })
        #expect(try entries(library).isEmpty)
        #expect(window.form.draft.items.map(\.path) == [paths[0], paths[1], paths[3], paths[2]])
        #expect(window.form.photoPath == paths[0])
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Brooklyn Bridge")
        #expect(window.form.draft.items.map(\.title) == ["Brooklyn Bridge", "", "", "Its own"])
    }

    @Test func theRestWithIncompleteWordsSavesNothingAndSaysWhatIsMissing() throws {
        let library = folder + "/incomplete"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos("i1.jpg", "i2.jpg")) }
        Harness.type(window.form.view.titleEntry, "Only a title")
        window.activateAction("caption-rest")
        // Proves nothing is saved: a save of these two small photos would be in the library
        // well within these 200 ms.
        Harness.pump(milliseconds: 200)
        #expect(window.messages.text == "Subtitle required")
        #expect(Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer)
        #expect(try entries(library).isEmpty)
        #expect(window.form.draft.items.count == 2)
    }

    @Test func aPhotoTheRestCannotSaveComesBackAndIsNamed() throws {
        let library = folder + "/damaged"
        let window = try Harness.makeWindow(library: library)
        defer { Harness.close(window) }
        let good = photos("d1.jpg", "d2.jpg")
        // A JPEG's signature, then nothing a decoder can use.
        let damaged = folder + "/damaged.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 600)).write(to: URL(fileURLWithPath: damaged))
        Harness.waitForPhoto(window) { window.form.enqueue([good[0], damaged, good[1]]) }
        Harness.type(window.form.view.titleEntry, "Pier")
        Harness.type(window.form.view.subtitleEntry, "Morning")
        var outcome: ([Entry], [String])?
        window.form.onRestCaptioned = { outcome = ($0, $1) }
        window.activateAction("caption-rest")
        #expect(Harness.spin { outcome != nil })
        #expect(outcome?.0.count == 2)
        #expect(outcome?.1 == [damaged])
        #expect(try entries(library).count == 2)
        #expect(window.form.photoPath == damaged)
        #expect(window.messages.text?.contains("damaged.jpg") == true, "\(window.messages.text ?? "no message")")
    }

    // MARK: The length counter

    func counter(_ window: CaptionWindow, _ field: CaptionField) -> Label { window.form.view.counters[field]! }

    func hasClass(_ label: Label, _ name: String) -> Bool {
        gtk_style_context_has_class(gtk_widget_get_style_context(label.pointer), name) != 0
    }

    @Test func pastEightyPercentOfTheLimitACounterShowsAndIsRead() throws {
        let window = try Harness.makeWindow(library: folder + "/counter")
        defer { Harness.close(window) }
        let title = window.form.view.titleEntry
        focus(title)
        Harness.type(title, String(repeating: "a", count: 96))
        #expect(!counter(window, .title).isVisible)
        #expect(window.form.view.titleEntry.accessibleDescription.contains("characters") == false)
        Harness.type(title, String(repeating: "a", count: 112))
        #expect(counter(window, .title).isVisible)
        #expect(counter(window, .title).text == "112 / 120")
        #expect(!hasClass(counter(window, .title), "error"))
        #expect(
            window.form.view.titleEntry.accessibleDescription.contains("112 of 120 characters"),
            "\(window.form.view.titleEntry.accessibleDescription)")
        #expect(!counter(window, .subtitle).isVisible)
        Harness.type(title, String(repeating: "长", count: 121))
        #expect(counter(window, .title).text == "121 / 120")
        #expect(hasClass(counter(window, .title), "error"))
        Harness.type(title, "short")
        #expect(!counter(window, .title).isVisible)
        // The subtitle counts against its own limit.
        Harness.type(window.form.view.subtitleEntry, String(repeating: "b", count: 200))
        #expect(counter(window, .subtitle).text == "200 / 240")
    }
}
