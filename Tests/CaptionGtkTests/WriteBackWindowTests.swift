// The window's "where captions go": the primary menu's choice, remembered; the line under
// the form; a save that also writes the photo or a sidecar; a photo that refuses, with the
// sidecar offered in the message bar.

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionTestSupport
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct WriteBackWindowTests {
    let folder = Harness.temporaryDirectory("caption-write-back-window")
    var library: String { folder + "/library" }
    var stateFile: String { folder + "/window.ini" }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: library, stateFile: stateFile)
    }

    func choose(_ window: CaptionWindow, _ destination: CaptionDestination?) {
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), DestinationChoice.actionName,
            g_variant_new_string(DestinationChoice.word(destination)))
        Harness.settle()
    }

    /// Opens `path`, types the caption and saves; returns when the write-back finished.
    func caption(
        _ window: CaptionWindow, _ path: String, words: CaptionWords
    ) -> Result<WriteBackResult, WriteBackError>? {
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        window.form.openPhoto(path)
        #expect(Harness.spin { settled })
        for field in CaptionForm.Layout.window.fields {
            gtk_entry_set_text(caption_entry(window.form.view.entry(field).pointer), words[field])
        }
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
            #expect(window.destination.current == nil, "the library only, until the user chooses")
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

    @Test func theStateFileSaysLibraryOnlyInAWordAndForgetsWhatItDoesNotKnow() throws {
        #expect(WindowStateFile.loadDestination(stateFile) == nil, "no choice made yet")
        WindowStateFile.saveDestination(nil, to: stateFile)
        #expect(try String(contentsOfFile: stateFile, encoding: .utf8).contains("destination=library"))
        #expect(WindowStateFile.loadDestination(stateFile) == .some(nil), "the library only, chosen")
        WindowStateFile.saveDestination(.sidecar, to: stateFile)
        #expect(WindowStateFile.loadDestination(stateFile) == .some(.sidecar))
        try "[captions]\ndestination=cloud\n".write(toFile: stateFile, atomically: true, encoding: .utf8)
        #expect(WindowStateFile.loadDestination(stateFile) == nil, "a word this version does not know")
    }

    @Test func aSaveAlsoWritesThePhotoAndTheLibraryRemembersIt() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = Harness.makePhoto(in: folder, name: "written.jpg")
        let outcome = caption(window, path, words: CaptionWords(title: "港口 Harbour", subtitle: "Boats"))
        guard case .success(let result) = outcome else {
            Issue.record("not written: \(String(describing: outcome))")
            return
        }
        #expect(result.paths == [path])
        #expect(PhotoMetadata.read(path) == PhotoCaption(CaptionWords(title: "港口 Harbour", subtitle: "Boats")))
        let entry = try #require(try Library(directory: library).entries().first { $0.title == "港口 Harbour" })
        #expect(entry.source == path && entry.sourceSHA256 == result.sha256)
        choose(window, nil)
    }

    @Test func aHEICPhotoGetsTheSidecarAndTheFormSaysSo() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = try ExternalPhotos.make(.heic, in: folder, name: "phone.heic")
        let outcome = caption(window, path, words: CaptionWords(title: "Phone", subtitle: "From a phone"))
        guard case .success(let result) = outcome else {
            Issue.record("not written: \(String(describing: outcome))")
            return
        }
        #expect(result.sidecarInstead && result.paths == [path + ".xmp"])
        #expect(CaptionFinder.find(path).origin == .sidecar(path + ".xmp"))
        // What the line said while the photo was on the form.
        window.form.openPhoto(path)
        #expect(
            Harness.spin {
                window.form.view.destination.text
                    == "Done saves the caption in the library and in phone.heic.xmp beside the photo: this photo cannot hold it."
            })
        choose(window, nil)
    }

    @Test func anEditedEntrysWordsGoToTheFileItWasSavedFromNotTheLibrarysCopy() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = Harness.makePhoto(in: folder, name: "edited.jpg")
        guard case .success = caption(window, path, words: CaptionWords(title: "First words", subtitle: "Before"))
        else {
            Issue.record("the first save was not written")
            return
        }
        let entry = try #require(try Library(directory: library).entries().first { $0.title == "First words" })
        let copy = try #require(Library.photoPath(of: entry, in: library))
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        window.form.edit(entry, photo: copy)
        #expect(Harness.spin { settled })
        #expect(window.form.view.destination.text == "Done saves the caption in the library and in edited.jpg.")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Second words")
        Harness.settle()
        var written: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { written = $0 }
        window.activateAction("save")
        #expect(Harness.spin { written != nil })
        #expect(PhotoMetadata.read(path) == PhotoCaption(CaptionWords(title: "Second words", subtitle: "Before")))
        #expect(PhotoMetadata.read(copy) == .none, "the library's copy stays as it was saved")
        choose(window, nil)
    }

    @Test func aReadOnlyPhotoIsLeftAloneAndTheBarOffersTheSidecar() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let path = Harness.makePhoto(in: folder, name: "locked.jpg")
        chmod(path, 0o444)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let outcome = caption(window, path, words: CaptionWords(title: "Locked", subtitle: "Away"))
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
                    caption: PhotoCaption(CaptionWords(title: "Locked", subtitle: "Away")),
                    origin: .sidecar(path + ".xmp")))
        #expect(!window.messages.isShowing, "the problem goes with the sidecar written")
        choose(window, nil)
    }

    enum Refusal: String, CaseIterable {
        case readOnlyFolder, symlink, changedOnDisk, fullDisk
    }

    /// Each way a photo refuses, through the window: the bar names it, the photo is as it
    /// was, the entry is saved; the sidecar is offered where one can help.
    @Test(arguments: Refusal.allCases)
    func aPhotoThatRefusesIsLeftAsItWas(_ refusal: Refusal) throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        choose(window, .photo)
        let shelf = folder + "/" + refusal.rawValue
        mkdir(shelf, 0o755)
        var mounted = false
        var limit = rlimit()
        defer {
            if mounted { _ = try? Process.run(URL(fileURLWithPath: "/bin/umount"), arguments: [shelf]).waitUntilExit() }
            chmod(shelf, 0o755)
        }
        let made = Harness.makePhoto(width: 300, height: 200, in: folder, name: refusal.rawValue + ".jpg", noise: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: made))
        if refusal == .fullDisk && getuid() == 0 {
            // Room for the photo once and a half: its copy cannot be made beside it.
            let size = (bytes.count * 3 / 2 + 4095) / 4096 * 4
            let mount = try Process.run(
                URL(fileURLWithPath: "/bin/mount"), arguments: ["-t", "tmpfs", "-o", "size=\(size)k", "tmpfs", shelf])
            mount.waitUntilExit()
            mounted = mount.terminationStatus == 0
        }
        let photo = shelf + "/p.jpg"
        try bytes.write(to: URL(fileURLWithPath: photo))
        var path = photo
        var offered = true
        var expected = ""
        var edit: (() -> Void)?
        switch refusal {
        case .readOnlyFolder:
            expected = "The photo's folder is read-only: " + photo
            offered = false
        case .symlink:
            path = shelf + "/link.jpg"
            Glibc.symlink(photo, path)
            expected = "The photo is a symbolic link; Caption does not write through links: " + path
        case .changedOnDisk:
            expected = "The photo was changed by another program since Caption read it: " + photo
            offered = false
            edit = {
                // Someone else's program rewrites the photo while its words are typed.
                let bytes = try? Data(contentsOf: URL(fileURLWithPath: photo))
                try? (bytes.map { $0 + Data([0]) })?.write(to: URL(fileURLWithPath: photo))
            }
        case .fullDisk:
            expected = "Not enough disk space beside the photo"
            if !mounted {
                // Without root no tmpfs: a file size limit fails the write with EFBIG, as
                // a full disk would; the library's copy, the photo's size, still fits.
                let size = (try FileManager.default.attributesOfItem(atPath: photo)[.size] as? Int) ?? 0
                getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
                var smaller = limit
                smaller.rlim_cur = rlim_t(size + 16)
                setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &smaller)
            }
        }
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        window.form.openPhoto(path)
        #expect(Harness.spin { settled })
        edit?()
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        if refusal == .readOnlyFolder { chmod(shelf, 0o555) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Refused " + refusal.rawValue)
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Kept in the library")
        Harness.settle()
        var written: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { written = $0 }
        window.activateAction("save")
        #expect(Harness.spin { written != nil }, "the write-back never finished")
        if refusal == .fullDisk && !mounted { setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) }
        guard case .failure = written else {
            Issue.record("written: \(String(describing: written))")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before, "the photo is untouched")
        #expect(window.messages.text?.contains(expected) == true, "\(window.messages.text ?? "")")
        #expect(window.messages.text?.hasSuffix("The caption is saved in the library.") == true)
        #expect((window.messages.actionLabel != nil) == offered)
        #expect(try Library(directory: library).entries().contains { $0.title == "Refused " + refusal.rawValue })
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: shelf)) ?? []).filter {
            $0.hasPrefix(".caption")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        choose(window, nil)
    }
}
