// The window as a desktop app: the queue, paste, the shortcuts window, About, the menu,
// the remembered size, recent files and what a screen reader is told.

import CGtk
import CaptionLibrary
import FocusEngine
import Foundation
import POSIXFiles
import Pixbufs
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct DesktopTests {
    let folder = Harness.temporaryDirectory("caption-desktop")

    func makeWindow(stateFile: String? = nil) throws -> CaptionWindow {
        try Harness.makeWindow(library: folder + "/library", stateFile: stateFile ?? folder + "/window.ini")
    }

    func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String { Harness.text(entry) }

    func position(_ window: CaptionWindow) -> String? {
        gtk_header_bar_get_subtitle(caption_header_bar(window.header.pointer)).map { String(cString: $0) }
    }

    func waitForPhoto(_ window: CaptionWindow, _ action: () -> Void) { Harness.waitForPhoto(window, action) }

    func photos(_ count: Int) -> [String] {
        (0..<count).map { Harness.makePhoto(width: 40 + Int32($0), in: folder, name: "queue-\($0).jpg") }
    }

    @Test func aQueueIsCaptionedOneAfterAnother() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let paths = photos(3)
        waitForPhoto(window) { window.form.enqueue(paths) }
        #expect(position(window) == "1 of 3")
        #expect(window.form.photoPath == paths[0])
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        var saved: [Entry] = []
        window.form.onSaved = { saved.append($0) }
        for (index, path) in paths.enumerated() {
            gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Photo \(index)")
            gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Caption \(index)")
            if index < 2 {
                waitForPhoto(window) { window.activateAction("save") }
            } else {
                window.activateAction("save")
            }
            #expect(Harness.spin { saved.count == index + 1 })
            #expect(saved.last?.originalName == String(path.split(separator: "/").last!))
            if index < 2 {
                #expect(window.form.photoPath == paths[index + 1], "the next photo is on the form")
                #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
                #expect(text(window.form.view.titleEntry.pointer) == "")
            }
        }
        #expect(saved.count == 3)
        #expect(window.form.photoPath == nil)
        #expect(position(window) == nil)
        #expect(Harness.focusedWidget(window) == window.form.view.photoButton.pointer)
    }

    @Test func wordsStayWithTheirPhotoWhenSkipping() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let paths = photos(2)
        waitForPhoto(window) { window.form.enqueue(paths) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "First photo's title")
        waitForPhoto(window) { window.activateAction("next-photo") }
        #expect(position(window) == "2 of 2")
        #expect(text(window.form.view.titleEntry.pointer) == "")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Second's subtitle")
        waitForPhoto(window) { window.activateAction("previous-photo") }
        #expect(position(window) == "1 of 2")
        #expect(text(window.form.view.titleEntry.pointer) == "First photo's title")
        #expect(
            Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer, "focus goes to what is missing")
        waitForPhoto(window) { window.activateAction("next-photo") }
        #expect(text(window.form.view.subtitleEntry.pointer) == "Second's subtitle")
        // No wrapping past the end: the photo stays.
        window.activateAction("next-photo")
        Harness.settle()
        #expect(window.form.photoPath == paths[1])
    }

    @Test func undoInAQueueBringsTheSavedPhotoBackInFront() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let paths = photos(2)
        waitForPhoto(window) { window.form.enqueue(paths) }
        var saved: Entry?
        window.form.onSaved = { saved = $0 }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Saved then undone")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Back again")
        // The next photo in its place at once, and the save in the library meanwhile.
        waitForPhoto(window) { window.activateAction("save") }
        #expect(Harness.spin { saved != nil })
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Typed for the second")
        waitForPhoto(window) { window.activateAction("undo") }
        #expect(window.form.photoPath == paths[0])
        #expect(text(window.form.view.titleEntry.pointer) == "Saved then undone")
        window.library.drain()
        #expect(try Library(directory: folder + "/library").entries().isEmpty)
        waitForPhoto(window) { window.activateAction("next-photo") }
        #expect(text(window.form.view.titleEntry.pointer) == "Typed for the second")
    }

    /// Paste, Open With and drops all hand paths to enqueue, which sorts them out.
    @Test func pathsHandedToTheWindowAreSortedOutAndWhatIsLeftOutIsNamed() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let paths = photos(2)
        let notes = folder + "/notes.txt"
        try "not a photo\n".write(toFile: notes, atomically: true, encoding: .utf8)
        waitForPhoto(window) { window.form.enqueue([paths[0]]) }
        #expect(window.messages.text == nil)
        window.form.enqueue([notes, paths[0], paths[1]])
        #expect(position(window) == "1 of 2", "only the new photo joins")
        #expect(
            window.messages.text == "Not a photo, not added: notes.txt\n"
                + "Already in the queue, not added again: queue-0.jpg")
        #expect(window.form.photoPath == paths[0], "the photo on the form stays")
    }

    /// A launch naming a thousand photos sorts only the first before the window is drawn:
    /// start-up does not grow with the queue. The rest join, in order, once it is.
    @Test func aLaunchsQueueIsReadAfterTheFirstFrame() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let first = photos(1)[0]
        let paths =
            [first]
            + (1..<1000).map { index in
                let path = folder + "/launch-\(index).jpg"
                unlink(path)
                link(first, path)
                return path
            }
        window.form.enqueueAtLaunch(paths)
        #expect(window.form.queuedPaths == [first], "more than the first photo was read before the first frame")
        gtk_widget_queue_draw(window.widget)
        #expect(Harness.spin(seconds: 10) { window.form.queuedPaths.count == 1000 }, "the rest never joined")
        #expect(window.form.queuedPaths == paths)
        #expect(position(window) == "1 of 1000")
    }

    /// A folder named at launch: its first photo by name is on the form before the first
    /// frame, the rest of the folder is read after it, and the photo queued early is not
    /// reported as already queued.
    @Test func aLaunchedFoldersPhotosAreReadAfterTheFirstFrame() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let first = photos(1)[0]
        let launched = folder + "/launched"
        mkdir(launched, 0o755)
        try "not a photo\n".write(toFile: launched + "/a-notes.txt", atomically: true, encoding: .utf8)
        try "hidden\n".write(toFile: launched + "/.hidden.jpg", atomically: true, encoding: .utf8)
        let paths = (1...500).map { index in
            let path = launched + "/IMG_\(index).jpg"
            unlink(path)
            link(first, path)
            return path
        }
        window.form.enqueueAtLaunch([launched])
        #expect(window.form.queuedPaths == [paths[0]], "the folder was read whole before the first frame")
        gtk_widget_queue_draw(window.widget)
        #expect(Harness.spin(seconds: 10) { window.form.queuedPaths.count == 500 }, "the rest never joined")
        #expect(window.form.queuedPaths == paths, "in name order, IMG_2 before IMG_10")
        #expect(position(window) == "1 of 500")
        #expect(window.messages.text == nil, "nothing said of the photo queued first")
    }

    @Test func pastedImageDataBecomesThePhoto() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 30, 20)!
        gdk_pixbuf_fill(pixbuf, 0x3366_99ff)
        let clipboard = gtk_clipboard_get(caption_clipboard_atom())
        gtk_clipboard_set_image(clipboard, pixbuf)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        Harness.settle()
        waitForPhoto(window) { #expect(window.form.pastePhoto()) }
        #expect(window.form.engine.isComplete(CaptionForm.Layout.window.photo))
        #expect(window.form.photoPath?.hasSuffix(".png") == true)
    }

    /// A drop: files (as a file manager drags them, file URIs) join the queue, other schemes
    /// are passed over; image data alone becomes a photo.
    @Test func droppedFilesJoinTheQueueAndDroppedImageDataBecomesAPhoto() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let paths = photos(2)
        let uris = paths.map { String(cString: g_filename_to_uri($0, nil, nil)) } + ["https://example.org/x.jpg"]
        waitForPhoto(window) { window.form.receive(PhotoIntake.dropped(uris: uris, image: nil)) }
        #expect(window.form.photoPath == paths[0])
        #expect(position(window) == "1 of 2")

        let other = try makeWindow(stateFile: folder + "/other.ini")
        defer { gtk_widget_destroy(other.widget) }
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 12, 8)!
        gdk_pixbuf_fill(pixbuf, 0xaa33_00ff)
        waitForPhoto(other) { other.form.receive(PhotoIntake.dropped(uris: [], image: Pixbuf(taking: pixbuf))) }
        #expect(other.form.photoPath?.hasSuffix(".png") == true)
        #expect(other.form.engine.isComplete(CaptionForm.Layout.window.photo))
    }

    @Test func pastingTextIsLeftToTheField() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let clipboard = gtk_clipboard_get(caption_clipboard_atom())
        gtk_clipboard_set_text(clipboard, "just words", -1)
        Harness.settle()
        #expect(!window.form.pastePhoto())
        gtk_widget_grab_focus(window.form.view.titleEntry.pointer)
        caption_signal_emit(window.form.view.titleEntry.pointer, "paste-clipboard")
        #expect(Harness.spin(seconds: 2) { text(window.form.view.titleEntry.pointer) == "just words" })
        #expect(window.form.photoPath == nil)
    }

    func toplevels(ofType type: GType) -> Int { visibleToplevels(ofType: type).count }

    func visibleToplevels(ofType type: GType) -> [UnsafeMutableRawPointer] {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var found: [UnsafeMutableRawPointer] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data,
                g_type_check_instance_is_a(data.assumingMemoryBound(to: GTypeInstance.self), type) != 0,
                gtk_widget_get_visible(caption_widget(data)) != 0
            {
                found.append(data)
            }
            node = current.pointee.next
        }
        return found
    }

    @Test func shortcutsWindowAndAboutOpen() throws {
        let window = try makeWindow()
        window.activateAction("show-shortcuts")
        Harness.settle()
        #expect(toplevels(ofType: gtk_shortcuts_window_get_type()) == 1)
        window.activateAction("about")
        Harness.settle()
        #expect(toplevels(ofType: gtk_about_dialog_get_type()) == 1)
        // Both go with their window: a modal dialog left behind would hold the keyboard.
        gtk_widget_destroy(window.widget)
        Harness.settle()
        #expect(toplevels(ofType: gtk_shortcuts_window_get_type()) == 0)
        #expect(toplevels(ofType: gtk_about_dialog_get_type()) == 0)
    }

    @Test func helpThatCannotBeOpenedSaysWhyInTheBar() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        // No application handles this scheme, as none handles help: without a help browser.
        window.showHelp(uri: "caption-test-no-such-scheme:guide")
        Harness.settle()
        let text = try #require(window.messages.text)
        #expect(text.hasPrefix("The help could not be opened: "), "the bar says \(text)")
        #expect(text.count > "The help could not be opened: ".count, "the bar gives no reason")
    }

    @Test func f1IsHelpAndAboutHasNoKey() {
        #expect(WindowAction.help.accelerators == ["F1"])
        #expect(WindowAction.about.accelerators.isEmpty)
    }

    /// Installed, F1 asks for `help:caption`; run from a build in a checkout (as `make run`
    /// does), for the checkout's help/C, which the help browser opens as a Mallard guide.
    @Test func theGuideIsTheInstalledOneOrTheCheckoutsFromABuild() throws {
        #expect(HelpWindows.guideURI(runningFrom: "/usr/bin") == "help:caption")
        #expect(HelpWindows.guideURI(runningFrom: "/opt/caption/bin") == "help:caption")
        #expect(HelpWindows.guideURI(runningFrom: nil) == "help:caption")
        let checkout = Harness.temporaryDirectory("caption-checkout")
        let build = checkout + "/.build/x86_64-unknown-linux-gnu/debug"
        try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
        #expect(HelpWindows.guideURI(runningFrom: build) == "help:caption", "no guide in the checkout yet")
        try FileManager.default.createDirectory(atPath: checkout + "/help/C", withIntermediateDirectories: true)
        try Data("<page/>".utf8).write(to: URL(fileURLWithPath: checkout + "/help/C/index.page"))
        #expect(HelpWindows.guideURI(runningFrom: build) == "ghelp:" + checkout + "/help/C")
        // This test runs from this checkout's build: F1 here opens its guide.
        #expect(HelpWindows.guideURI.hasSuffix("/help/C") && HelpWindows.guideURI.hasPrefix("ghelp:/"))
    }

    @Test func f10OpensThePrimaryMenu() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let button = window.menuButton.pointer
        #expect(gtk_toggle_button_get_active(caption_toggle_button(button)) == 0)
        window.activateAction("show-menu")
        Harness.settle()
        #expect(gtk_toggle_button_get_active(caption_toggle_button(button)) != 0)
    }

    @Test func windowSizeIsRememberedBetweenRuns() throws {
        let stateFile = folder + "/state/window.ini"
        WindowStateFile.save(WindowGeometry(width: 900, height: 700, maximized: false), to: stateFile)
        let window = try makeWindow(stateFile: stateFile)
        Harness.settle()
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_size(caption_window(window.widget), &width, &height)
        #expect(width == 900 && height == 700)
        gtk_window_resize(caption_window(window.widget), 800, 600)
        #expect(Harness.spin(seconds: 3) { window.geometry.width == 800 && window.geometry.height == 600 })
        window.close()
        gtk_widget_destroy(window.widget)
        #expect(WindowStateFile.load(stateFile) == WindowGeometry(width: 800, height: 600, maximized: false))
    }

    @Test func damagedWindowStateFallsBackToTheStandardSize() throws {
        let stateFile = folder + "/bad.ini"
        try "[window]\nwidth=banana\n".write(toFile: stateFile, atomically: true, encoding: .utf8)
        #expect(WindowStateFile.load(stateFile) == nil)
        try "[window]\nwidth=20\nheight=99999\nmaximized=false\n".write(
            toFile: stateFile, atomically: true, encoding: .utf8)
        #expect(WindowStateFile.load(stateFile) == nil)
        #expect(WindowStateFile.load(folder + "/missing.ini") == nil)
    }

    @Test func theExportFolderIsRememberedByItsOwnBytes() {
        let stateFile = folder + "/export-state/window.ini"
        #expect(WindowStateFile.exportFolder(stateFile) == nil)
        let latin1 = folder + "/" + FilePath.string(fromBytes: Array("out-".utf8) + [0xE9])
        WindowStateFile.saveExportFolder(latin1, to: stateFile)
        WindowStateFile.save(WindowGeometry.standard, to: stateFile)
        #expect(WindowStateFile.exportFolder(stateFile) == latin1)
    }

    @Test func theExportChooserOpensInTheLastFolderThenPicturesThenHome() {
        let folders: Set = ["/last", "/pictures"]
        let exists = { folders.contains($0) }
        #expect(
            FolderChooser.startingFolder(last: "/last", pictures: "/pictures", home: "/h", isFolder: exists) == "/last")
        #expect(
            FolderChooser.startingFolder(last: "/gone", pictures: "/pictures", home: "/h", isFolder: exists)
                == "/pictures")
        #expect(FolderChooser.startingFolder(last: nil, pictures: nil, home: "/h", isFolder: exists) == "/h")
    }

    @Test func aFolderTypedInTheChooserIsFoundFromWhereTheChooserIs() {
        #expect(FolderChooser.typedFolder("/srv/export/", in: "/home/ana", home: "/home/ana") == "/srv/export")
        #expect(FolderChooser.typedFolder("~/out", in: "/srv", home: "/home/ana") == "/home/ana/out")
        #expect(FolderChooser.typedFolder("~", in: "/srv", home: "/home/ana") == "/home/ana")
        #expect(FolderChooser.typedFolder("out", in: "/home/ana/", home: "/home/ana") == "/home/ana/out")
        #expect(FolderChooser.typedFolder("", in: "/srv", home: "/home/ana") == nil)
        #expect(FolderChooser.typedFolder("/", in: "/srv", home: "/home/ana") == "/")
    }

    @Test func theExportChooserOpensInTheFolderLastExportedInto() throws {
        let stateFile = folder + "/chooser-state/window.ini"
        let last = folder + "/last-export"
        try FileManager.default.createDirectory(atPath: last, withIntermediateDirectories: true)
        WindowStateFile.saveExportFolder(last, to: stateFile)
        let window = try makeWindow(stateFile: stateFile)
        defer { gtk_widget_destroy(window.widget) }
        // Another test's chooser may still be open in this process (a photo chooser is a
        // file chooser dialog too): the one this opens is the one that was not there before.
        let before = visibleToplevels(ofType: gtk_file_chooser_dialog_get_type())
        window.export.chooseFolder()
        let dialog = try #require(
            visibleToplevels(ofType: gtk_file_chooser_dialog_get_type()).first { !before.contains($0) })
        defer { gtk_widget_destroy(caption_widget(dialog)) }
        // The chooser takes its folder once it has looked at it, a main-loop turn or two later.
        var current: String?
        #expect(
            Harness.spin(seconds: 3) {
                current = gtk_file_chooser_get_current_folder(caption_file_chooser(dialog)).map { name in
                    defer { g_free(name) }
                    return String(cString: name)
                }
                return current != nil
            })
        #expect(current == last)
    }

    @Test func openedPhotosJoinRecentFiles() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let path = Harness.makePhoto(in: folder, name: "recent.jpg")
        waitForPhoto(window) { window.form.openPhoto(path) }
        let uri = try #require(g_filename_to_uri(path, nil, nil))
        defer { g_free(uri) }
        // GTK adds the item once it has looked up the file's type, asynchronously.
        #expect(Harness.spin(seconds: 5) { gtk_recent_manager_has_item(gtk_recent_manager_get_default(), uri) != 0 })
    }

    @Test func screenReadersHearNamesRolesAndTheCurrentLabel() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        func name(_ widget: UnsafeMutablePointer<GtkWidget>?) -> String {
            guard let widget, let name = atk_object_get_name(gtk_widget_get_accessible(widget)) else { return "" }
            return String(cString: name)
        }
        func role(_ widget: UnsafeMutablePointer<GtkWidget>) -> AtkRole {
            atk_object_get_role(gtk_widget_get_accessible(widget))
        }
        #expect(name(window.form.view.titleEntry.pointer) == "Title")
        #expect(name(window.form.view.subtitleEntry.pointer) == "Subtitle")
        #expect(name(window.form.view.photoButton.pointer) == "Choose Photo…")
        #expect(name(window.menuButton.pointer) == "Main Menu")
        #expect(role(window.form.view.titleEntry.pointer) == ATK_ROLE_TEXT)
        #expect(role(window.form.view.activateButton.pointer) == ATK_ROLE_PUSH_BUTTON)
        #expect(name(window.form.view.activateButton.pointer) == "Next")
        window.form.openPhoto(Harness.makePhoto(in: folder, name: "a11y.jpg"))
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "T")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "S")
        Harness.settle()
        #expect(name(window.form.view.activateButton.pointer) == "Done")
        let summaryBar = try #require(gtk_bin_get_child(caption_bin(window.messages.revealer.pointer)))
        #expect(role(summaryBar) == ATK_ROLE_ALERT)
    }

    /// An entry of its own (no window: the hold does not need focus), with a count of the
    /// caret moves assistive technologies would be told of.
    func entryCountingCaretMoves() -> (entry: TextEntry, moves: () -> Int) {
        let entry = TextEntry(unchecked: gtk_entry_new())
        g_object_ref_sink(entry.objectPointer)
        var moves = 0
        entry.connect(.notify("cursor-position")) { _ in moves += 1 }
        return (entry, { moves })
    }

    @Test func aHeldCaretIsToldOnlyOnceGTKHasReportedTheFocusAgain() throws {
        try Harness.start()
        let (entry, moves) = entryCountingCaretMoves()
        defer { g_object_unref(entry.objectPointer) }
        let hold = CaretHold([entry.asWidget], until: entry.asWidget)
        entry.text = "Harbour"
        gtk_editable_set_position(OpaquePointer(entry.pointer), -1)
        Harness.settle()
        #expect(moves() == 0, "the caret moved while held")
        #expect(hold.isHeld)
        // GTK's late report of the focus, as its idle handler makes it.
        atk_object_notify_state_change(entry.accessible, AtkState(ATK_STATE_FOCUSED.rawValue), 1)
        #expect(Harness.spin(seconds: 1) { !hold.isHeld })
        #expect(moves() == 1, "the caret's move was not told once")
        #expect(gtk_editable_get_position(OpaquePointer(entry.pointer)) == 7)
    }

    @Test func aHeldCaretIsToldAfterHalfASecondWithoutAReport() throws {
        try Harness.start()
        let (entry, moves) = entryCountingCaretMoves()
        defer { g_object_unref(entry.objectPointer) }
        let hold = CaretHold([entry.asWidget], until: entry.asWidget)
        entry.text = "Dusk"
        gtk_editable_set_position(OpaquePointer(entry.pointer), -1)
        // Proves the hold keeps the move back until its half second: a hold that let go
        // early would tell it at the next turn of the main loop, well within these 200 ms.
        Harness.pump(milliseconds: 200)
        #expect(moves() == 0)
        #expect(Harness.spin(seconds: 2) { !hold.isHeld })
        #expect(moves() == 1)
    }
}
