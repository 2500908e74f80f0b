// The window on a library on a PostgreSQL server, as an editor of a photo desk uses it:
// another editor's words offered, a caption saved to the server, the library view listing
// every editor's entries with thumbnails of photos fetched into this machine's cache, and an
// entry opened on the form from there.

import CGtk
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk
@testable import CaptionLibrary

@MainActor
@Suite(.serialized) struct ServerWindowTests {
    let folder = Harness.temporaryDirectory("caption-server-window")

    func set(_ entry: TextEntry, _ text: String) {
        gtk_entry_set_text(caption_entry(entry.pointer), text)
    }

    /// A window on the server, with a photo of its own on the form and words typed for it.
    func windowWithWordsTyped(
        on server: PrivateServer, photoName name: String, width: Int32
    ) throws -> (window: CaptionWindow, photo: String) {
        let window = try Harness.makeWindow(
            library: server.address, stateFile: folder + "/\(name)-window.ini", creditsFile: folder + "/credits.ini")
        #expect(Harness.spin { window.form.aids.completion.loaded }, "the library was never read")
        let photo = Harness.makePhoto(width: width, height: 50, in: folder, name: "\(name).jpg")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        set(window.form.view.titleEntry, "Fans on the pier")
        set(window.form.view.subtitleEntry, "At dusk")
        return (window, photo)
    }

    @Test func anEditorCaptionsOnTheServerAndSeesTheOthersEntries() throws {
        let address = try TestServer.newDatabase()
        // Another editor, on another machine (a cache of its own), has saved one photo.
        let other = try Library(server: PostgresAddress(address), cache: folder + "/other-cache")
        let theirPhoto = Harness.makePhoto(width: 90, height: 60, in: folder, name: "theirs.jpg")
        _ = try other.add(
            photoAt: theirPhoto, words: CaptionWords(title: "Harbour at dusk", subtitle: "The last ferry"))

        let window = try Harness.makeWindow(
            library: address, stateFile: folder + "/window.ini", creditsFile: folder + "/credits.ini")
        defer { Harness.close(window) }
        #expect(Harness.spin { window.form.aids.completion.loaded }, "the offers were never read")
        #expect(
            window.form.aids.completion.indexes[.title, default: CompletionIndex()].offers(for: "har", now: .now())
                == ["Harbour at dusk"], "the other editor's title is offered")

        let mine = Harness.makePhoto(width: 80, height: 50, in: folder, name: "mine.jpg")
        Harness.waitForPhoto(window) { window.form.enqueue([mine]) }
        set(window.form.view.titleEntry, "Quay at dawn")
        set(window.form.view.subtitleEntry, "First light")
        var saved: CaptionLibrary.Entry?
        window.form.onSaved = { saved = $0 }
        // Both filled: Enter saves.
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { saved != nil }, "the save never finished")
        window.library.drain()
        #expect(try other.entries().map(\.title) == ["Quay at dawn", "Harbour at dusk"], "saved on the server")

        // The library view: both entries, each with a thumbnail; the other editor's photo
        // came from the server into this machine's cache.
        var thumbnails = 0
        window.libraryController.view.onThumbnail = { thumbnails += 1 }
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("library")
        #expect(Harness.spin { shown }, "the library view never loaded")
        #expect(window.libraryController.view.entries.map(\.title) == ["Quay at dawn", "Harbour at dusk"])
        #expect(Harness.spin { thumbnails == 2 }, "thumbnails: \(thumbnails)")
        let cache = try #require(ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]) + "/caption/server-"

        // Enter on the other editor's entry puts its photo, from the cache, on the form.
        Harness.press(window, keyval: GDK_KEY_Down)
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { settled }, "the entry never opened")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Harbour at dusk")
        let path = try #require(window.form.photoPath)
        #expect(path.hasPrefix(cache), "\(path)")
        #expect(Photos.bytes(path) == Photos.bytes(theirPhoto))
    }

    /// The server goes down as the editor presses Enter: the words stay on the form and in
    /// the draft, one message says why, and once the server is back they are saved, once,
    /// with nothing more to press, and the form moves on.
    @Test func wordsSavedWhileTheServerIsDownStayAndGoInOnceItIsBack() throws {
        let server = try PrivateServer()
        let (window, photo) = try windowWithWordsTyped(on: server, photoName: "fault", width: 70)
        defer { Harness.close(window) }
        var written: Draft?
        window.form.drafts.writer.onWritten = { if case .success(let draft) = $0 { written = draft } }
        window.form.drafts.flush()
        #expect(Harness.spin { written?.items.first?.title == "Fans on the pier" }, "the draft holds the words")

        try server.stop()
        var saves = 0
        window.form.onSaved = { _ in saves += 1 }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { window.messages.text != nil && !window.form.isSaving }, "no message")
        let message = try #require(window.messages.text)
        #expect(message.hasPrefix("The library's server could not be reached"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "one line: \(message)")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Fans on the pier")
        #expect(Harness.text(window.form.view.subtitleEntry.pointer) == "At dusk")
        #expect(window.form.photoPath == photo)
        #expect(saves == 0)

        // Down for a while: asked quietly, the server tells nothing new.
        _ = Harness.spin(seconds: 2.5) { false }
        #expect(window.messages.text == message, "told once")
        #expect(saves == 0)

        try server.start()
        #expect(Harness.spin(seconds: 10) { saves == 1 }, "the save never went through")
        #expect(window.form.photoPath == nil, "the form moved on")
        #expect(window.messages.text == nil, "the message went with the photo")
        window.library.drain()
        let library = try Library(server: PostgresAddress(server.address), cache: folder + "/fault-cache")
        #expect(try library.entries().map(\.title) == ["Fans on the pier"], "saved once")
        _ = Harness.spin(seconds: 2.5) { false }
        #expect(saves == 1)
    }

    /// A server frozen (a link cut without a word): Enter is answered within seconds with
    /// the message, the words stay on the form, and the save goes in once the server wakes.
    @Test func aSaveToAFrozenServerIsToldWithinSecondsAndGoesInWhenItWakes() throws {
        let server = try PrivateServer()
        let (window, photo) = try windowWithWordsTyped(on: server, photoName: "frozen", width: 71)
        defer { Harness.close(window) }
        try server.freeze()
        var saves = 0
        window.form.onSaved = { _ in saves += 1 }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin(seconds: 20) { window.messages.text != nil && !window.form.isSaving }, "no message")
        #expect(window.messages.text?.hasPrefix("The library's server could not be reached") == true)
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Fans on the pier")
        #expect(window.form.photoPath == photo)
        try server.thaw()
        #expect(Harness.spin(seconds: 20) { saves == 1 }, "the save never went through")
        #expect(window.form.photoPath == nil, "the form moved on")
        window.library.drain()
        let library = try Library(server: PostgresAddress(server.address), cache: folder + "/frozen-cache")
        #expect(try library.entries().map(\.title) == ["Fans on the pier"], "saved once")
    }

    /// Enter while the server is down; it is back only after the claim's minute, and
    /// another editor's queue has taken the photo by then. The save that waited still goes
    /// in: the claim outlives its own save, and the other editor is told the photo is
    /// captioned.
    @Test func aSaveHeldThroughAnOutageLongerThanTheClaimKeepsItsPhoto() throws {
        let server = try PrivateServer()
        let (window, photo) = try windowWithWordsTyped(on: server, photoName: "outlive", width: 72)
        defer { Harness.close(window) }
        let loaded = try PhotoInspector.load(photo)
        #expect(Harness.spin { window.form.claims.holds(loaded.sha256) }, "the photo was never claimed")
        // The form marks the photo its own as it asks; only the server's answer makes the
        // claim one a save can outlive. On a busy machine that answer can still be on its way.
        window.library.drain()
        try server.stop()
        var saves = 0
        window.form.onSaved = { _ in saves += 1 }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { window.messages.text != nil && !window.form.isSaving }, "no message")
        try server.start()
        // Before the window hears the server again: its claim ran out, and Ana took the photo.
        let address = try PostgresAddress(server.address)
        try PostgresConnection(address).execute("UPDATE caption.leases SET until = now() - interval '1 second'")
        let ana = Editor(id: "ana", name: "Ana on desk-1")
        let anas = try Library(server: address, cache: folder + "/outlive-cache")
        #expect(try anas.claim(sha256: loaded.sha256, for: ana) == .yours)

        #expect(Harness.spin(seconds: 10) { saves == 1 }, "the save never went through: \(window.messages.text ?? "")")
        #expect(window.form.queuedPaths.isEmpty, "the photo was passed over: \(window.form.queuedPaths)")
        window.library.drain()
        #expect(try anas.entries().map(\.title) == ["Fans on the pier"])
        #expect(try anas.claim(sha256: loaded.sha256, for: ana) == .captioned)
    }

    /// Words changed after a save the server could not take are the user's to save: the
    /// server's return does not save them, Enter does.
    @Test func wordsChangedAfterAFailedSaveWaitForEnter() throws {
        let server = try PrivateServer()
        let (window, _) = try windowWithWordsTyped(on: server, photoName: "fault2", width: 71)
        defer { Harness.close(window) }
        try server.stop()
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { window.messages.text != nil && !window.form.isSaving }, "no message")
        set(window.form.view.subtitleEntry, "At dawn")
        try server.start()
        _ = Harness.spin(seconds: 4.5) { false }
        #expect(saved.isEmpty, "saved without Enter")
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { saved.count == 1 }, "Enter did not save")
        #expect(saved.first?.subtitle == "At dawn")
    }

    /// Two editors change one caption: the one who saves second is told, with the other's
    /// words; Edit Again opens the entry with their own words, and Done saves them over the
    /// other's, knowingly.
    @Test func anEditMeetingAnotherEditorsChangeIsToldAndNotSavedOver() throws {
        let address = try TestServer.newDatabase()
        let other = try Library(server: PostgresAddress(address), cache: folder + "/other-cache-2")
        let photo = Harness.makePhoto(width: 90, height: 60, in: folder, name: "shared.jpg")
        let saved = try other.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        let window = try Harness.makeWindow(
            library: address, stateFile: folder + "/conflict-window.ini", creditsFile: folder + "/credits.ini")
        defer { Harness.close(window) }
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("library")
        #expect(Harness.spin { shown }, "the library view never loaded")
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { settled }, "the entry never opened")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Harbour")

        usleep(2_000)
        _ = try other.update(id: saved.id, words: CaptionWords(title: "Harbour at dusk", subtitle: "The last ferry"))
        set(window.form.view.titleEntry, "Quay at dawn")
        var updates: [CaptionLibrary.Entry] = []
        window.form.onSaved = { updates.append($0) }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        // Done goes back to the library at once; the update's answer comes after.
        #expect(window.isShowingLibrary)
        #expect(!window.form.isEditing)
        #expect(
            Harness.spin { window.notification.button == .editAgain && !window.form.isSaving },
            "no Edit Again: \(window.notification.text)")
        #expect(window.notification.text.contains("“Harbour at dusk”"), "\(window.notification.text)")
        #expect(updates.isEmpty)
        #expect(try other.entry(id: saved.id)?.title == "Harbour at dusk", "the other editor's change stands")

        window.notification.pressButton()
        #expect(window.form.isEditing)
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Quay at dawn", "the words were kept")
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { updates.count == 1 }, "Done after Edit Again did not save")
        #expect(try other.entry(id: saved.id)?.title == "Quay at dawn")
    }

    /// Another editor's save, edit and deletion reach the library view and the offers
    /// within a second, told by the server (LISTEN/NOTIFY): nothing asks it meanwhile.
    @Test func anotherEditorsChangesArriveWithinASecond() throws {
        let address = try TestServer.newDatabase()
        let other = try Library(server: PostgresAddress(address), cache: folder + "/other-cache-3")
        let first = try other.add(
            photoAt: Harness.makePhoto(width: 91, height: 60, in: folder, name: "n1.jpg"),
            words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        let window = try Harness.makeWindow(
            library: address, stateFile: folder + "/notice-window.ini", creditsFile: folder + "/credits.ini")
        defer { Harness.close(window) }
        #expect(Harness.spin { window.form.aids.completion.loaded })
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("library")
        #expect(Harness.spin { shown }, "the library view never loaded")
        #expect(Harness.spin { window.library.hearsOthers }, "the server's notices are not heard")
        func titles() -> [String] { window.libraryController.view.entries.map(\.title) }
        func offered(_ typed: String) -> [String] {
            window.form.aids.completion.indexes[.title, default: CompletionIndex()].offers(for: typed, now: .now())
        }

        var began = Date()
        let second = try other.add(
            photoAt: Harness.makePhoto(width: 92, height: 60, in: folder, name: "n2.jpg"),
            words: CaptionWords(title: "Lighthouse", subtitle: "Night"))
        #expect(Harness.spin(seconds: 1) { titles() == ["Lighthouse", "Harbour"] }, "a save: \(titles())")
        #expect(Harness.spin(seconds: 1) { offered("lig") == ["Lighthouse"] }, "the offers")
        #expect(Date().timeIntervalSince(began) < 1)

        began = Date()
        _ = try other.update(id: first.id, words: CaptionWords(title: "Quay", subtitle: "Dawn"))
        #expect(Harness.spin(seconds: 1) { titles() == ["Lighthouse", "Quay"] }, "an edit: \(titles())")
        #expect(Harness.spin(seconds: 1) { offered("qu") == ["Quay"] && offered("har").isEmpty })
        _ = try other.remove(id: second.id)
        #expect(Harness.spin(seconds: 1) { titles() == ["Quay"] }, "a deletion: \(titles())")
        #expect(Date().timeIntervalSince(began) < 2)
    }

    /// The server restarts: the listener it ended is made again, and another editor's save
    /// is heard as it commits once more, not found by asking once a second.
    @Test func theServersNoticesAreHeardAgainAfterItRestarts() throws {
        let server = try PrivateServer()
        let window = try Harness.makeWindow(
            library: server.address, stateFile: folder + "/relisten-window.ini", creditsFile: folder + "/credits.ini")
        defer { Harness.close(window) }
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("library")
        #expect(Harness.spin { shown }, "the library view never loaded")
        #expect(Harness.spin { window.library.hearsOthers }, "the server's notices are not heard")
        try server.stop()
        #expect(Harness.spin { !window.library.hearsOthers }, "the lost listener is not noticed")
        try server.start()
        #expect(Harness.spin(seconds: 10) { window.library.hearsOthers }, "the listener is not made again")
        let other = try Library(server: PostgresAddress(server.address), cache: folder + "/relisten-cache")
        _ = try other.add(
            photoAt: Harness.makePhoto(width: 93, height: 60, in: folder, name: "relisten.jpg"),
            words: CaptionWords(title: "Breakwater", subtitle: "Storm"))
        let began = Date()
        #expect(Harness.spin(seconds: 2) { window.libraryController.view.entries.map(\.title) == ["Breakwater"] })
        #expect(window.library.hearsOthers, "heard, not asked")
        print(
            "theServersNoticesAreHeardAgainAfterItRestarts: a save shown after \(Int(Date().timeIntervalSince(began) * 1000)) ms"
        )
    }

    // MARK: Claims

    /// Ben, another editor on another machine (a cache of its own), has `photo` on his
    /// form; this editor's window opens on the same server.
    func benHolds(
        _ photo: String, address: String, cache: String, window name: String
    ) throws -> (window: CaptionWindow, other: Library, ben: Editor, bens: LoadedPhoto) {
        let ben = Editor(id: "ben", name: "Ben on desk-2")
        let other = try Library(server: PostgresAddress(address), cache: folder + "/" + cache)
        let bens = try PhotoInspector.load(photo)
        #expect(try other.claim(sha256: bens.sha256, for: ben) == .yours)
        let window = try Harness.makeWindow(
            library: address, stateFile: folder + "/" + name + ".ini", creditsFile: folder + "/credits.ini")
        return (window, other, ben, bens)
    }

    /// Another editor has the first photo of the queue on their form: it is passed over,
    /// said once, and waits in the queue; once they have captioned it, it leaves the queue
    /// when the form comes to it. Each photo is captioned once.
    @Test func aPhotoAnotherEditorHasIsPassedOverAndLeavesOnceTheyCaptionIt() throws {
        let address = try TestServer.newDatabase()
        let first = Harness.makePhoto(width: 93, height: 60, in: folder, name: "c1.jpg")
        let second = Harness.makePhoto(width: 94, height: 60, in: folder, name: "c2.jpg")
        let (window, other, ben, bens) = try benHolds(
            first, address: address, cache: "other-cache-4", window: "claim-window")
        defer { Harness.close(window) }
        window.form.enqueue([first, second])
        #expect(Harness.spin { window.form.photoPath == second }, "not passed over: \(window.form.photoPath ?? "")")
        #expect(window.form.queuedPaths == [first, second], "the photo Ben has waits in the queue")
        #expect(
            Harness.spin { window.notification.text == "Ben on desk-2 is captioning “c1.jpg”; it waits in your queue" },
            "\(window.notification.text)")
        #expect(Harness.spin { window.form.photos.loadedPhoto?.path == second })

        // Ben saves his; this editor captions the second photo, and the form comes to the
        // first, which leaves the queue.
        _ = try other.add(bens, words: CaptionWords(title: "Ben's", subtitle: "Harbour"), editor: ben)
        set(window.form.view.titleEntry, "Mine")
        set(window.form.view.subtitleEntry, "Quay")
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { saved.count == 1 }, "the save never finished")
        #expect(Harness.spin { window.form.queuedPaths.isEmpty }, "queue: \(window.form.queuedPaths)")
        window.library.drain()
        let entries = try other.entries()
        #expect(entries.map(\.title).sorted() == ["Ben's", "Mine"], "each photo once: \(entries.map(\.title))")
    }

    /// A key handled for the photo on the form before its claim is answered keeps the form
    /// on it when the answer is "taken": the keys after it land where it did, the message
    /// says why, and Done then leaves the words with the photo in the queue.
    @Test func aKeyBeforeTheClaimsAnswerKeepsTheFormOnThePhoto() throws {
        let address = try TestServer.newDatabase()
        let first = Harness.makePhoto(width: 96, height: 60, in: folder, name: "k1.jpg")
        let second = Harness.makePhoto(width: 97, height: 60, in: folder, name: "k2.jpg")
        let window = try benHolds(first, address: address, cache: "other-cache-6", window: "claim-window-3").window
        defer { Harness.close(window) }
        window.form.enqueue([first, second])
        #expect(window.form.photoPath == first)
        // Typed before the photo is even read, so before its claim is asked.
        for key in [GDK_KEY_F, GDK_KEY_e, GDK_KEY_r, GDK_KEY_r, GDK_KEY_y] {
            Harness.send(window, [GDK_KEY_PRESS, GDK_KEY_RELEASE], keyval: key, settling: false)
        }
        #expect(
            Harness.spin {
                window.notification.text
                    == "Ben on desk-2 is captioning “k1.jpg”; Ctrl+Page Down goes on, and your words wait with it"
            }, "\(window.notification.text)")
        #expect(window.form.photoPath == first, "the form moved on under the keys")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Ferry")
    }

    /// Every photo of the queue is another editor's: the form stays on it and says so; a
    /// save of it is refused with the words kept; once the other editor captions it, it
    /// leaves the queue within a second, told by the server.
    @Test func aQueueWhollyTakenWaitsAndIsToldWhenThePhotoIsCaptioned() throws {
        let address = try TestServer.newDatabase()
        let photo = Harness.makePhoto(width: 95, height: 60, in: folder, name: "c3.jpg")
        let (window, other, ben, bens) = try benHolds(
            photo, address: address, cache: "other-cache-5", window: "claim-window-2")
        defer { Harness.close(window) }
        #expect(Harness.spin { window.library.hearsOthers }, "the server's notices are not heard")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        #expect(
            Harness.spin {
                window.notification.text
                    == "Ben on desk-2 is captioning “c3.jpg”, and the rest of your queue is taken too"
            }, "\(window.notification.text)")
        #expect(window.form.photoPath == photo)

        set(window.form.view.titleEntry, "Mine")
        set(window.form.view.subtitleEntry, "Quay")
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        #expect(Harness.spin { window.messages.text != nil && !window.form.isSaving }, "no message")
        #expect(
            window.messages.text == "Ben on desk-2 is captioning this photo, so it was not saved; your words are kept",
            "\(window.messages.text ?? "")")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Mine")
        #expect(window.form.photoPath == photo)
        #expect(try other.entries().isEmpty)

        // The words typed here stay: the photo Ben captions stays on the form, said.
        _ = try other.add(bens, words: CaptionWords(title: "Ben's", subtitle: "Harbour"), editor: ben)
        #expect(
            Harness.spin(seconds: 1) {
                window.notification.text
                    == "Another editor has captioned “c3.jpg”; Enter saves your words as a second caption"
            }, "\(window.notification.text)")
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Mine")
    }

    /// Undo of a save on a server: the entry leaves the server, the photo comes back in
    /// front with its words, and is this editor's again, not another's to take.
    @Test func anUndoneSaveLeavesTheServerAndThePhotoIsClaimedAgain() throws {
        let address = try TestServer.newDatabase()
        let ben = Editor(id: "ben", name: "Ben on desk-2")
        let other = try Library(server: PostgresAddress(address), cache: folder + "/other-cache-6")
        let window = try Harness.makeWindow(
            library: address, stateFile: folder + "/undo-window.ini", creditsFile: folder + "/credits.ini")
        defer { Harness.close(window) }
        let first = Harness.makePhoto(width: 96, height: 60, in: folder, name: "u1.jpg")
        let second = Harness.makePhoto(width: 97, height: 60, in: folder, name: "u2.jpg")
        let firstHash = try PhotoInspector.load(first).sha256
        Harness.waitForPhoto(window) { window.form.enqueue([first, second]) }
        var saved: CaptionLibrary.Entry?
        window.form.onSaved = { saved = $0 }
        set(window.form.view.titleEntry, "Saved then undone")
        set(window.form.view.subtitleEntry, "Back again")
        Harness.waitForPhoto(window) { window.activateAction("save") }
        #expect(Harness.spin { saved != nil }, "the save never finished")
        window.library.drain()
        #expect(try other.entries().map(\.title) == ["Saved then undone"])
        #expect(try other.claim(sha256: firstHash, for: ben) == .captioned)

        Harness.waitForPhoto(window) { window.activateAction("undo") }
        #expect(window.form.photoPath == first)
        #expect(Harness.text(window.form.view.titleEntry.pointer) == "Saved then undone")
        #expect(
            Harness.spin {
                window.library.drain()
                return (try? other.entries())?.isEmpty == true
            })
        #expect(
            Harness.spin {
                window.library.drain()
                return (try? other.claim(sha256: firstHash, for: ben)) == .taken(by: window.library.editor.name)
            }, "the photo back on the form is claimed again")
    }
}
