// Sending as you go, in the window: the menu's choice of destination, each saved photo sent
// while the next is captioned, the header saying what is on its way, the queue of a window
// closed before it was sent resumed by the next, a failure said once in the message bar.

import CGtk
import CaptionLibrary
import CaptionSending
import CaptionTestSupport
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct SendingWindowTests {
    let folder = Harness.temporaryDirectory("caption-send-window")
    var library: String { folder + "/library" }
    var stateFile: String { folder + "/window.ini" }
    var queueFile: String { folder + "/send-queue" }
    /// Where Harness.makeWindow's credits file puts the destinations.
    var destinationsFile: String { SendChoice.destinationsFile(besides: library + ".credits.ini") }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: library, stateFile: stateFile, sendQueueFile: queueFile)
    }

    /// A folder destination named `name`, written as `caption --add-destination` writes it.
    func addFolderDestination(_ name: String, at path: String) throws {
        #expect(DestinationFile.save(try Destination(name: name, address: path), to: destinationsFile) == nil)
    }

    func choose(_ window: CaptionWindow, _ name: String?) {
        window.sending.refresh()
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), SendChoice.actionName,
            g_variant_new_string(name ?? SendChoice.nowhere))
        Harness.settle()
    }

    /// Opens a new photo, types `title` and saves it.
    func caption(_ window: CaptionWindow, _ title: String) {
        let path = Harness.makePhoto(in: folder, name: UUID().uuidString + ".jpg")
        Harness.waitForPhoto(window) { window.form.openPhoto(path) }
        gtk_entry_set_text(caption_entry(window.form.view.entry(.title).pointer), title)
        gtk_entry_set_text(caption_entry(window.form.view.entry(.subtitle).pointer), "Sent as it is saved")
        Harness.settle()
        window.activateAction("save")
    }

    @Test func eachSavedPhotoIsSentToTheDestinationTheMenuChose() throws {
        let outbox = folder + "/outbox-1"
        try addFolderDestination("Outbox", at: outbox)
        let window = try makeWindow()
        defer { Harness.close(window) }
        #expect(window.sender.destination == nil, "nowhere, until the user chooses")
        choose(window, "Outbox")
        #expect(window.sending.names == ["Outbox"])
        #expect(window.sender.destination == "Outbox")
        #expect(WindowStateFile.sendDestination(stateFile) == "Outbox", "remembered for the next day")
        var headers: [String?] = []
        let refresh = window.sender.onHeaderChanged
        window.sender.onHeaderChanged = {
            headers.append(window.sender.headerText)
            refresh?()
        }
        var sent: [String] = []
        window.sender.onEvent = { event in
            if case .sent(_, let name, _) = event { sent.append(name) }
        }
        caption(window, "Quay at dusk")
        #expect(Harness.spin(seconds: 60) { sent == ["Quay at dusk.jpg"] })
        #expect(FileManager.default.fileExists(atPath: outbox + "/Quay at dusk.jpg"))
        #expect(headers.contains("Sending 1 photo to Outbox"))
        #expect(Harness.spin { window.sender.headerText == nil })
        #expect((window.header.subtitle ?? "").contains("Sending") == false, "nothing on its way any more")
        #expect(SendQueue(path: queueFile).pending.isEmpty)
        choose(window, nil)
        #expect(WindowStateFile.sendDestination(stateFile) == nil)
    }

    @Test func photosAWindowLeftWaitingAreSentByTheNext() throws {
        let outbox = folder + "/outbox-2"
        try addFolderDestination("Later", at: outbox)
        let opened = try Library(directory: library)
        let entry = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "waiting.jpg"),
            words: CaptionWords(title: "Left waiting", subtitle: "Sent at the next start"))
        SendQueue(path: queueFile).add(SendItem(library: library, entryID: entry.id, destination: "Later"))
        let window = try makeWindow()
        defer { Harness.close(window) }
        #expect(Harness.spin(seconds: 60) { FileManager.default.fileExists(atPath: outbox + "/Left waiting.jpg") })
        #expect(Harness.spin { SendQueue(path: queueFile).pending.isEmpty })
    }

    @Test func aFailureIsSaidOnceAndThePhotosWaitUntilItIsMended() throws {
        // A folder that cannot be made: its parent is a file.
        let blocker = folder + "/not-a-folder"
        FileManager.default.createFile(atPath: blocker, contents: Data([1]))
        try addFolderDestination("Broken", at: blocker + "/outbox")
        let window = try makeWindow()
        defer { Harness.close(window) }
        choose(window, "Broken")
        var stopped = 0
        window.sender.onEvent = { event in
            if case .stopped = event { stopped += 1 }
        }
        caption(window, "First")
        #expect(Harness.spin(seconds: 60) { stopped == 1 })
        let said = try #require(window.messages.text)
        #expect(said.hasPrefix("Photos are not being sent to Broken: "), "\(said)")
        #expect(said.hasSuffix("They wait until the next save."))
        #expect(SendQueue(path: queueFile).pending.count == 1, "the photo waits")
        // Mended: the destination moved to a folder that can be made; the next save sends both.
        let outbox = folder + "/outbox-3"
        try addFolderDestination("Broken", at: outbox)
        var sent: [String] = []
        window.sender.onEvent = { event in
            if case .sent(_, let name, _) = event { sent.append(name) }
        }
        caption(window, "Second")
        #expect(Harness.spin(seconds: 60) { sent.count == 2 })
        #expect(sent == ["First.jpg", "Second.jpg"])
        #expect(window.messages.text == nil, "the failure is no longer said once photos go")
        choose(window, nil)
    }
}
