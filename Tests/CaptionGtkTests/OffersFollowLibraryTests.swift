// The completion offers follow the library without a restart: an entry's title changed in
// the library view is offered as it is now and no longer as it was, a deleted entry's words
// go once its Undo has expired, and another process's `caption --add` is offered as the user
// types. The window's own saves never make it read the library again.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct OffersFollowLibraryTests {
    let folder = Harness.temporaryDirectory("caption-offers-follow")

    /// A library holding `captions`, the first saved first (so listed last).
    func makeLibrary(_ name: String, _ captions: [(String, String)]) throws -> String {
        let directory = folder + "/" + name
        let library = try Library(directory: directory)
        for (index, caption) in captions.enumerated() {
            let photo = Harness.makePhoto(
                width: 60 + Int32(index), height: 40, in: folder, name: "\(name)-\(index).jpg")
            _ = try library.add(photoAt: photo, words: CaptionWords(title: caption.0, subtitle: caption.1))
        }
        return directory
    }

    /// A window on `library` whose offers have been read, with two photos queued.
    func makeWindow(_ library: String) throws -> CaptionWindow {
        let window = try Harness.makeWindow(library: library, stateFile: folder + "/window.ini")
        #expect(Harness.spin { window.form.aids.completion.loaded }, "the offers were never read")
        let photos = (0..<2).map { _ in Harness.makePhoto(in: folder, name: "\(UUID().uuidString).jpg") }
        Harness.waitForPhoto(window) { window.form.enqueue(photos) }
        return window
    }

    func showLibrary(_ window: CaptionWindow, _ action: () -> Void) {
        var shown = false
        window.onLibraryShown = { shown = true }
        action()
        #expect(Harness.spin { shown }, "the library view never loaded")
        Harness.settle()
    }

    /// Types `text` key by key into the focused field, as the X server would deliver it.
    func type(_ window: CaptionWindow, _ text: String) {
        for scalar in text.unicodeScalars {
            Harness.press(window, keyval: Int32(gdk_unicode_to_keyval(scalar.value)))
        }
    }

    /// Focus moves from Subtitle to Title, which is emptied; then `text` is typed in it:
    /// the offers under it then.
    func offers(_ window: CaptionWindow, typing text: String) -> [String] {
        let title = window.form.view.titleEntry
        window.form.view.subtitleEntry.grabFocus()
        title.grabFocus()
        gtk_entry_set_text(caption_entry(title.pointer), "")
        Harness.settle()
        type(window, text)
        return window.form.aids.completion.offers
    }

    func titleOffers(_ window: CaptionWindow, _ typed: String) -> [String] {
        window.form.aids.completion.indexes[.title, default: CompletionIndex()].offers(for: typed, now: .now())
    }

    @Test func aTitleChangedInTheLibraryViewIsOfferedAsItIsNow() throws {
        let library = try makeLibrary("edit", [("Harbour at dusk", "The last ferry"), ("Hill", "Fog")])
        let window = try makeWindow(library)
        defer { Harness.close(window) }
        #expect(offers(window, typing: "har") == ["Harbour at dusk"])
        // Enter on the newest entry ("Hill"), then on the next: the harbour.
        showLibrary(window) { window.activateAction("library") }
        Harness.press(window, keyval: GDK_KEY_Down)
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { settled })
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Harbour at dusk")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Lighthouse at dusk")
        var updated: Entry?
        window.form.onSaved = { updated = $0 }
        showLibrary(window) { caption_signal_emit(window.form.view.titleEntry.pointer, "activate") }
        #expect(updated?.title == "Lighthouse at dusk")
        #expect(titleOffers(window, "har").isEmpty, "the old title is still offered")
        #expect(titleOffers(window, "lig") == ["Lighthouse at dusk"])
        // The subtitle did not change: still offered once.
        #expect(
            window.form.aids.completion.indexes[.subtitle, default: CompletionIndex()].offers(for: "the", now: .now())
                == ["The last ferry"])
        // In the form, as the user types.
        window.activateAction("library")  // back to the form
        Harness.settle()
        #expect(offers(window, typing: "har").isEmpty)
        #expect(offers(window, typing: "lig") == ["Lighthouse at dusk"])
    }

    @Test func aTitleSharedWithAnotherEntryStaysOfferedAfterOneIsChanged() throws {
        let library = try makeLibrary("shared", [("Harbour", "One"), ("Harbour", "Two")])
        let window = try makeWindow(library)
        defer { Harness.close(window) }
        showLibrary(window) { window.activateAction("library") }
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { settled })
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Quay")
        var updated: Entry?
        window.form.onSaved = { updated = $0 }
        showLibrary(window) { caption_signal_emit(window.form.view.titleEntry.pointer, "activate") }
        #expect(updated?.title == "Quay")
        #expect(titleOffers(window, "h") == ["Harbour"], "the other entry still has it")
        #expect(titleOffers(window, "q") == ["Quay"])
    }

    @Test func aDeletedEntrysWordsAreOfferedNoMoreOnceItsUndoHasExpired() throws {
        let library = try makeLibrary("delete", [("Harbour at dusk", "The last ferry"), ("Hill", "Fog")])
        let window = try makeWindow(library)
        defer { Harness.close(window) }
        showLibrary(window) { window.activateAction("library") }
        Harness.press(window, keyval: GDK_KEY_Down)
        Harness.press(window, keyval: GDK_KEY_Delete)
        #expect(window.notification.text == "Deleted “Harbour at dusk”")
        // While Undo shows, the entry is still in the library, and so are its words.
        #expect(titleOffers(window, "har") == ["Harbour at dusk"])
        window.notification.hide()  // as when it times out
        window.library.drain()
        Harness.settle()
        #expect(try Library(directory: library).entries().map(\.title) == ["Hill"])
        #expect(titleOffers(window, "har").isEmpty)
        #expect(
            window.form.aids.completion.indexes[.subtitle, default: CompletionIndex()].offers(for: "the", now: .now())
                .isEmpty)
        #expect(titleOffers(window, "hi") == ["Hill"])
        window.activateAction("library")  // back to the form
        Harness.settle()
        #expect(offers(window, typing: "har").isEmpty)
    }

    @Test func anotherProcessesAddIsOfferedAsTheUserTypes() throws {
        let library = try makeLibrary("elsewhere", [("Harbour at dusk", "The last ferry")])
        let window = try makeWindow(library)
        defer { Harness.close(window) }
        let source = try #require(window.form.aids.completionSource)
        var reads: [Bool] = []
        source.onChecked = { reads.append($0) }
        // The window's own save: applied as it happens, the library is not read again.
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Ferry at noon")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Quay")
        var saved = false
        window.form.onSaved = { _ in saved = true }
        window.activateAction("save")
        #expect(Harness.spin { saved })
        #expect(offers(window, typing: "fer") == ["Ferry at noon"])
        #expect(Harness.spin { !reads.isEmpty }, "focus did not ask the library")
        #expect(!reads.contains(true), "the window read the library again after its own save")

        // Title has the focus; another process adds to the library meanwhile.
        let photo = Harness.makePhoto(width: 99, in: folder, name: "elsewhere.jpg")
        let added = try Caption.run([
            "--library", library, "--add", photo, "--title", "Ferry at dawn", "--subtitle", "From the pier",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(window.form.aids.completion.offers == ["Ferry at noon"], "read before anything was typed")
        // Typing again asks the library (within the second after the last question, once it
        // has passed); the offers follow without another key.
        reads = []
        gtk_editable_delete_text(OpaquePointer(window.form.view.titleEntry.objectPointer), 2, 3)
        Harness.settle()
        type(window, "r")
        #expect(Harness.spin { reads.contains(true) }, "the library was not read again")
        #expect(window.form.aids.completion.offers == ["Ferry at dawn", "Ferry at noon"])
        #expect(
            window.form.aids.completion.indexes[.subtitle, default: CompletionIndex()].offers(for: "from", now: .now())
                == ["From the pier"])
    }

    @Test func anotherProcessesRemoveIsFollowedWhenAFieldTakesTheFocus() throws {
        let library = try makeLibrary("removed", [("Harbour at dusk", "The last ferry"), ("Hill", "Fog")])
        let window = try makeWindow(library)
        defer { Harness.close(window) }
        let harbour = try #require(try Library(directory: library).entries().last)
        let removed = try Caption.run(["--library", library, "--remove", String(harbour.id)])
        #expect(removed.status == 0, "\(removed.stderr)")
        var read = false
        window.form.aids.completionSource?.onChecked = { read = read || $0 }
        window.form.view.subtitleEntry.grabFocus()
        #expect(Harness.spin { read }, "focus did not ask the library")
        #expect(titleOffers(window, "har").isEmpty)
        #expect(titleOffers(window, "hi") == ["Hill"])
    }
}
