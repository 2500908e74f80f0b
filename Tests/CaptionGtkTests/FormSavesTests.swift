// FormSaves, the form's library writes: what counts as in flight while the library works,
// what waits for it, and what a failed write leaves behind.

import CGtk
import CaptionLibrary
import CaptionQueue
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct FormSavesTests {
    let folder = Harness.temporaryDirectory("caption-saves")

    /// A FormSaves of its own over a window's library, writer and offers.
    func saves(_ window: CaptionWindow) -> FormSaves {
        FormSaves(library: window.library, writer: window.form.writer, completion: window.form.aids.completion)
    }

    func close(_ window: CaptionWindow) {
        window.library.drain()
        gtk_widget_destroy(window.widget)
    }

    /// Adds a photo of the queue and waits for the library's answer.
    func add(_ saves: FormSaves, _ photo: QueuedPhoto) -> Result<Entry, LibraryError>? {
        var outcome: Result<Entry, LibraryError>?
        saves.add(photo, loaded: nil) { outcome = $0 }
        #expect(Harness.spin { outcome != nil }, "the save never finished")
        return outcome
    }

    @Test func aPhotoIsInFlightUntilTheLibraryHasItAndWhatWaitedRunsAfterItsHandler() throws {
        let window = try Harness.makeWindow(library: folder + "/add")
        defer { close(window) }
        let saves = saves(window)
        let photo = QueuedPhoto(
            path: Harness.makePhoto(width: 60, in: folder, name: "a.jpg"),
            words: CaptionWords(title: "T", subtitle: "S"))
        var order: [String] = []
        saves.add(photo, loaded: nil) { result in order.append((try? result.get()) == nil ? "failed" : "saved") }
        #expect(saves.isSaving)
        #expect(saves.savingPhotos == [photo])
        saves.whenIdle { order.append("idle") }
        #expect(order.isEmpty)
        #expect(Harness.spin { order.count == 2 })
        #expect(order == ["saved", "idle"])
        #expect(!saves.isSaving)
        #expect(saves.savingPhotos.isEmpty)
        // Nothing in flight: at once.
        saves.whenIdle { order.append("now") }
        #expect(order.last == "now")
    }

    @Test func aFailedSaveLeavesNothingInFlightAndHandsOverTheLibrarysProblem() throws {
        let window = try Harness.makeWindow(library: folder + "/missing")
        defer { close(window) }
        let saves = saves(window)
        var idle = false
        let outcome = add(
            saves, QueuedPhoto(path: folder + "/not-there.jpg", words: CaptionWords(title: "T", subtitle: "S")))
        saves.whenIdle { idle = true }
        guard case .failure(let error) = outcome else {
            Issue.record("a missing photo was saved: \(String(describing: outcome))")
            return
        }
        #expect(!error.message.isEmpty)
        #expect(!saves.isSaving)
        #expect(saves.savingPhotos.isEmpty)
        #expect(idle)
    }

    @Test func onlyTheLatestOfWhatWaitsForASaveRuns() throws {
        let window = try Harness.makeWindow(library: folder + "/latest")
        defer { close(window) }
        let saves = saves(window)
        let photo = QueuedPhoto(
            path: Harness.makePhoto(width: 61, in: folder, name: "b.jpg"),
            words: CaptionWords(title: "T", subtitle: "S"))
        var ran: [String] = []
        var saved = false
        saves.add(photo, loaded: nil) { _ in saved = true }
        saves.whenIdle { ran.append("older") }
        saves.whenIdle { ran.append("latest") }
        #expect(Harness.spin { saved })
        #expect(ran == ["latest"])
    }

    @Test func anUpdateCountsAsInFlightAndItsWordsAreTheLastCaption() throws {
        let window = try Harness.makeWindow(library: folder + "/update")
        defer { close(window) }
        let saves = saves(window)
        let photo = QueuedPhoto(
            path: Harness.makePhoto(width: 62, in: folder, name: "c.jpg"),
            words: CaptionWords(title: "T", subtitle: "S"))
        let entry = try #require(try add(saves, photo)?.get())
        var order: [String] = []
        saves.update(entry, words: CaptionWords(title: "New title", subtitle: "New subtitle")) { result in
            order.append((try? result.get()) == nil ? "failed" : "updated")
        }
        #expect(saves.isSaving)
        saves.whenIdle { order.append("idle") }
        #expect(Harness.spin { order.count == 2 })
        #expect(order == ["updated", "idle"])
        #expect(!saves.isSaving)
        #expect(saves.lastSaved == CaptionWords(title: "New title", subtitle: "New subtitle"))
    }

    @Test func anUndoneSaveLeavesTheLibrarysNewestAsTheLastCaption() throws {
        let window = try Harness.makeWindow(library: folder + "/undo")
        defer { close(window) }
        let saves = saves(window)
        let first = QueuedPhoto(
            path: Harness.makePhoto(width: 63, in: folder, name: "d.jpg"),
            words: CaptionWords(title: "One", subtitle: "1"))
        let second = QueuedPhoto(
            path: Harness.makePhoto(width: 64, in: folder, name: "e.jpg"),
            words: CaptionWords(title: "Two", subtitle: "2"))
        _ = try #require(try add(saves, first)?.get())
        var outcome: Result<Entry, LibraryError>?
        let ticket = saves.add(second, loaded: nil) { outcome = $0 }
        // The last caption from its Enter on, before the library has it.
        #expect(saves.lastSaved == CaptionWords(title: "Two", subtitle: "2"))
        #expect(Harness.spin { outcome != nil })
        let entry = try #require(try outcome?.get())
        var undone: Result<Void, LibraryError>?
        saves.undo(entry, ticket: ticket) { undone = $0 }
        // No longer the last caption from the Undo on.
        #expect(saves.lastSaved == CaptionWords(title: "One", subtitle: "1"))
        #expect(Harness.spin { undone != nil })
        #expect(saves.lastSaved == CaptionWords(title: "One", subtitle: "1"))
    }

    @Test func anUndoOfAnEntryNoLongerInTheLibraryIsAProblem() throws {
        let window = try Harness.makeWindow(library: folder + "/gone")
        defer { close(window) }
        let saves = saves(window)
        let photo = QueuedPhoto(
            path: Harness.makePhoto(width: 65, in: folder, name: "f.jpg"),
            words: CaptionWords(title: "T", subtitle: "S"))
        let entry = try #require(try add(saves, photo)?.get())
        var results: [Result<Void, LibraryError>] = []
        saves.undo(entry, ticket: nil) { results.append($0) }
        saves.undo(entry, ticket: nil) { results.append($0) }
        #expect(Harness.spin { results.count == 2 })
        #expect((try? results[0].get()) != nil)
        #expect((try? results[1].get()) == nil)
    }
}
