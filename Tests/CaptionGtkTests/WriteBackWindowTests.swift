// The window's "where captions go": the primary menu's choice, remembered; the line under
// the form; a save that also writes the photo or a sidecar; a photo that refuses, with the
// sidecar offered in the message bar.

import CGtk
import CaptionLibrary
import CaptionMetadata
import Foundation
import Testing

@testable import CaptionGtk

@MainActor
@Suite(.serialized) struct WriteBackWindowTests {
    let folder = Harness.temporaryDirectory("caption-write-back-window")
    var library: String { folder + "/library" }
    var stateFile: String { folder + "/window.ini" }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: library, stateFile: stateFile)
    }

    func choose(_ window: CaptionWindow, _ destination: CaptionDestination) {
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), DestinationChoice.actionName,
            g_variant_new_string(destination.rawValue))
        Harness.settle()
    }

    /// Opens `path`, types the caption and saves; returns when the write-back finished.
    func caption(
        _ window: CaptionWindow, _ path: String, title: String, subtitle: String
    ) -> Result<WriteBackResult, WriteBackError>? {
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        window.form.openPhoto(path)
        #expect(Harness.spin { settled })
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), title)
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), subtitle)
        Harness.settle()
        var written: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { written = $0 }
        window.activateAction("save")
        #expect(Harness.spin { written != nil }, "the write-back never finished")
        return written
    }

    @Test func theChoiceIsRememberedAndTheFormSaysWhereTheCaptionGoes() throws {
        let path = Harness.makePhoto(in: folder, name: "remembered.jpg")
        do {
            let window = try makeWindow()
            defer { gtk_widget_destroy(window.widget) }
            #expect(window.destination.current == .library, "the library only, until the user chooses")
            #expect(window.form.view.destination.text == "Done saves the caption in Caption's library.")
            choose(window, .photo)
            #expect(window.destination.current == .photo)
            window.form.openPhoto(path)
            #expect(
                Harness.spin {
                    window.form.view.destination.text == "Done saves the caption in the library and in remembered.jpg."
                })
            choose(window, .sidecar)
            #expect(
                window.form.view.destination.text
                    == "Done saves the caption in the library and in remembered.jpg.xmp beside the photo.")
        }
        let again = try makeWindow()
        defer { gtk_widget_destroy(again.widget) }
        #expect(again.destination.current == .sidecar, "remembered in the state file")
    }

    @Test func aSaveAlsoWritesThePhotoAndTheLibraryRemembersIt() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = Harness.makePhoto(in: folder, name: "written.jpg")
        let outcome = caption(window, path, title: "港口 Harbour", subtitle: "Boats")
        guard case .success(let result) = outcome else {
            Issue.record("not written: \(String(describing: outcome))")
            return
        }
        #expect(result.paths == [path])
        #expect(PhotoMetadata.read(path) == PhotoCaption(title: "港口 Harbour", description: "Boats"))
        let entry = try #require(try Library(directory: library).entries().first { $0.title == "港口 Harbour" })
        #expect(entry.source == path && entry.sourceSHA256 == result.sha256)
        choose(window, .library)
    }

    @Test func aReadOnlyPhotoIsLeftAloneAndTheBarOffersTheSidecar() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = Harness.makePhoto(in: folder, name: "locked.jpg")
        chmod(path, 0o444)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let outcome = caption(window, path, title: "Locked", subtitle: "Away")
        guard case .failure(let error) = outcome else {
            Issue.record("written: \(String(describing: outcome))")
            return
        }
        #expect(error.kind == .readOnlyFile)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the photo is untouched")
        #expect(window.messages.text == "The photo is read-only: \(path) The caption is saved in the library.")
        #expect(window.messages.actionLabel == "Write a _Sidecar")
        #expect(try Library(directory: library).entries().contains { $0.title == "Locked" }, "the entry is saved")
        var sidecar: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { sidecar = $0 }
        window.messages.activateAction()
        #expect(Harness.spin { sidecar != nil })
        let found = CaptionFinder.find(path)
        #expect(
            found
                == FoundCaption(
                    caption: PhotoCaption(title: "Locked", description: "Away"), origin: .sidecar(path + ".xmp")))
        #expect(!window.messages.isShowing, "the problem goes with the sidecar written")
        choose(window, .library)
    }
}
