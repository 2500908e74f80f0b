// Keys handled one after another with no turn of the main loop between them, as a busy
// machine hands over a typist's keys: nothing a decode, a read or the library answers comes
// in between, so each test shows what a key does with the form exactly as the keys before
// it left it.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct TypeAheadWindowTests {
    let folder = Harness.temporaryDirectory("caption-type-ahead")

    func makeWindow(_ name: String) throws -> CaptionWindow {
        try Harness.makeWindow(library: folder + "/" + name, stateFile: folder + "/\(name).ini")
    }

    /// Puts words in a field as typing does (the form hears of them at once) and presses
    /// Enter there, without turning the main loop.
    func enter(_ entry: TextEntry, _ text: String) {
        gtk_entry_set_text(caption_entry(entry.pointer), text)
        caption_signal_emit(entry.pointer, "activate")
    }

    func caption(_ window: CaptionWindow, _ title: String, _ subtitle: String) {
        enter(window.form.view.titleEntry, title)
        enter(window.form.view.subtitleEntry, subtitle)
    }

    func entries(_ window: CaptionWindow) throws -> [Entry] {
        window.library.drain()
        return try Library(directory: window.library.location).entries().sorted { $0.id < $1.id }
    }

    @Test func captionsTypedBeforeAnyPhotoIsCheckedLandOnTheirOwnPhotos() throws {
        let window = try makeWindow("three")
        defer { Harness.close(window) }
        let photos = ["a.jpg", "b.jpg", "c.jpg"].map {
            Harness.makePhoto(width: 640, height: 400, in: folder, name: $0)
        }
        var saved = 0
        window.form.onSaved = { _ in saved += 1 }
        window.form.enqueue(photos)
        // No photo has been decoded or checked yet: each Done saves its words and moves on.
        caption(window, "Harbour", "Dusk")
        #expect(window.form.photoPath == photos[1], "Done waited for the photo's check")
        caption(window, "Market", "Morning")
        caption(window, "Lighthouse", "Storm")
        #expect(window.form.photoPath == nil)
        #expect(Harness.spin { saved == 3 }, "saved \(saved) of 3")
        let found = try entries(window).map { [$0.title, $0.subtitle, $0.originalName] }
        #expect(
            found == [
                ["Harbour", "Dusk", "a.jpg"], ["Market", "Morning", "b.jpg"], ["Lighthouse", "Storm", "c.jpg"],
            ])
    }

    @Test func aSaveThatFailsLaterWaitsBeforeThePhotoOnTheFormAndLeavesItsFieldsAlone() throws {
        let window = try makeWindow("failed")
        defer { Harness.close(window) }
        // A JPEG's first bytes and nothing a decoder can read: refused only by the save's check.
        let broken = folder + "/broken.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 400)).write(to: URL(fileURLWithPath: broken))
        let next = Harness.makePhoto(in: folder, name: "next.jpg")
        window.form.enqueue([broken, next])
        caption(window, "Broken", "Photo")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Typed for next")
        #expect(Harness.spin { window.messages.text?.contains("broken.jpg") == true }, "the failure was not said")
        #expect(window.form.photoPath == next, "the failed photo took the form's place")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Typed for next")
        #expect(window.form.queuedPaths == [broken, next])
        // Ctrl+Page Up finds it with its words.
        window.activateAction("previous-photo")
        #expect(window.form.photoPath == broken)
        #expect(window.form.words == CaptionWords(title: "Broken", subtitle: "Photo"))
        window.activateAction("next-photo")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Typed for next")
    }

    /// Two photos queued on a window of their own, the first captioned and Done pressed.
    func firstOfTwoCaptioned(_ name: String, _ title: String, _ subtitle: String) throws -> (CaptionWindow, [String]) {
        let window = try makeWindow(name)
        let photos = ["\(name)-1.jpg", "\(name)-2.jpg"].map { Harness.makePhoto(in: folder, name: $0) }
        window.form.enqueue(photos)
        caption(window, title, subtitle)
        return (window, photos)
    }

    @Test func ctrlZBeforeTheLibraryAnswersTakesTheSaveBack() throws {
        let (window, photos) = try firstOfTwoCaptioned("undo", "Taken back", "At once")
        defer { Harness.close(window) }
        #expect(window.form.photoPath == photos[1])
        window.activateAction("undo")
        #expect(window.form.photoPath == photos[0], "the photo is not back on the form")
        #expect(window.form.words == CaptionWords(title: "Taken back", subtitle: "At once"))
        // Whatever still waited goes to the library now, and the library has answered it all.
        window.form.storeWaiting()
        #expect(Harness.spin { !window.form.isSaving })
        #expect(try entries(window).isEmpty, "the library kept the save taken back")
    }

    @Test func ctrlZAfterTheSaveWentToTheLibraryStillTakesItBack() throws {
        let (window, photos) = try firstOfTwoCaptioned("undo-late", "Late", "Undo")
        defer { Harness.close(window) }
        // The save leaves for the library's queue, which has not answered.
        window.form.storeWaiting()
        window.activateAction("undo")
        #expect(window.form.photoPath == photos[0])
        // Once the save is answered, its removal is on the library's queue, which `entries`
        // waits for.
        #expect(Harness.spin { !window.form.isSaving })
        #expect(try entries(window).isEmpty, "the entry stayed in the library")
    }

    @Test func ctrlShiftDRightAfterEnterRepeatsTheCaptionJustSubmitted() throws {
        let window = try makeWindow("repeat")
        defer { Harness.close(window) }
        let older = Harness.makePhoto(in: folder, name: "older.jpg")
        _ = try Library(directory: window.library.location).add(
            photoAt: older, words: CaptionWords(title: "Older", subtitle: "Caption"))
        let photos = ["r1.jpg", "r2.jpg"].map { Harness.makePhoto(in: folder, name: $0) }
        window.form.enqueue(photos)
        caption(window, "Newest", "Caption")
        #expect(window.form.photoPath == photos[1])
        window.activateAction("reuse-caption")
        #expect(window.form.words == CaptionWords(title: "Newest", subtitle: "Caption"))
    }

    @Test func ctrlDWithNothingSavedHereTakesTheLibrarysNewestBeforeTheNextKey() throws {
        let window = try makeWindow("repeat-library")
        defer { Harness.close(window) }
        let older = Harness.makePhoto(in: folder, name: "kept.jpg")
        _ = try Library(directory: window.library.location).add(
            photoAt: older, words: CaptionWords(title: "From the library", subtitle: "Earlier"))
        window.form.enqueue([Harness.makePhoto(in: folder, name: "d1.jpg")])
        window.activateAction("reuse-field")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "From the library")
    }

    @Test func variablesAreFilledAtEnterBeforeThePhotosDetailsAreRead() throws {
        let window = try makeWindow("variables")
        defer { Harness.close(window) }
        let photos = ["named.jpg", "after.jpg"].map { Harness.makePhoto(in: folder, name: $0) }
        var saved: [Entry] = []
        window.form.onSaved = { saved.append($0) }
        window.form.enqueue(photos)
        caption(window, "{filename}", "Taken")
        #expect(window.messages.text == nil, "\(window.messages.text ?? "")")
        #expect(window.form.photoPath == photos[1])
        #expect(Harness.spin { saved.count == 1 })
        #expect(saved.first?.title == "named.jpg")
    }

    @Test func thePhotosOwnWordsAreOnTheFormBeforeTheFirstKey() throws {
        let window = try makeWindow("own-words")
        defer { Harness.close(window) }
        let path = Harness.makePhoto(in: folder, name: "described.jpg")
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Description=Boats at dusk", path])
        var saved: [Entry] = []
        window.form.onSaved = { saved.append($0) }
        window.form.enqueue([path])
        // The first key reaches the form before the read of the photo's words answers: the
        // words come first, so Subtitle is filled and Enter in Title saves.
        Harness.send(window, [GDK_KEY_PRESS], keyval: GDK_KEY_x)
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "Boats at dusk")
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { saved.count == 1 }, "Enter did not save")
        #expect(saved.first.map { [$0.title, $0.subtitle] } == ["x", "Boats at dusk"])
    }

    @Test func enterRightAfterASearchIsTypedOpensAnEntryThatMatchesIt() throws {
        let window = try makeWindow("search")
        defer { Harness.close(window) }
        let library = try Library(directory: window.library.location)
        _ = try library.add(
            photoAt: Harness.makePhoto(in: folder, name: "market.jpg"),
            words: CaptionWords(title: "Market", subtitle: "Morning"))
        // The newest entry comes first in the list.
        _ = try library.add(
            photoAt: Harness.makePhoto(in: folder, name: "harbour.jpg"),
            words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("search")
        #expect(Harness.spin { shown }, "the library view never loaded")
        // "mark", Enter to the results, Enter to open the first: no turn of the main loop
        // between the keys, so the search has not been answered when Enter comes.
        for key in [GDK_KEY_m, GDK_KEY_a, GDK_KEY_r, GDK_KEY_k, GDK_KEY_Return, GDK_KEY_Return] {
            Harness.send(window, [GDK_KEY_PRESS], keyval: key, settling: false)
        }
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Market")
        #expect(window.form.isEditing)
    }

    @Test func keysTypedRightAfterAnEditsDoneGoToTheQueuesPhoto() throws {
        let window = try makeWindow("edit")
        defer { Harness.close(window) }
        let library = try Library(directory: window.library.location)
        let kept = try library.add(
            photoAt: Harness.makePhoto(in: folder, name: "edited.jpg"),
            words: CaptionWords(title: "Pier", subtitle: "Noon"))
        let waiting = Harness.makePhoto(in: folder, name: "waiting.jpg")
        window.form.enqueue([waiting])
        var updated: [Entry] = []
        window.form.onSaved = { updated.append($0) }
        window.form.edit(kept, photo: try #require(window.library.photoPath(of: kept)))
        enter(window.form.view.titleEntry, "Pier at noon")
        enter(window.form.view.subtitleEntry, "Noon")
        // Done has not been answered: the next words are the queue's photo's.
        #expect(!window.form.isEditing)
        #expect(window.form.photoPath == waiting)
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "For the waiting photo")
        #expect(Harness.spin { updated.count == 1 }, "the update never finished")
        #expect(try library.entry(id: kept.id)?.title == "Pier at noon")
        #expect(window.form.photoPath == waiting)
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "For the waiting photo")
    }
}
