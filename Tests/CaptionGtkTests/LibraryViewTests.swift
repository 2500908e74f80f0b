// The library view in the real window: the same entries as the command line, search as you
// type, keyboard navigation, editing, deleting with Undo, and other processes' changes.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct LibraryViewTests {
    let folder = Harness.temporaryDirectory("caption-view")
    var directory: String { folder + "/library" }

    /// A library holding `captions`, the first saved first (so listed last).
    func makeLibrary(_ captions: [(String, String)]) throws -> Library {
        let library = try Library(directory: directory)
        for (index, caption) in captions.enumerated() {
            let photo = Harness.makePhoto(width: 60 + Int32(index), height: 40, in: folder, name: "view-\(index).jpg")
            _ = try library.add(photoAt: photo, words: CaptionWords(title: caption.0, subtitle: caption.1))
        }
        return library
    }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: directory, stateFile: folder + "/window.ini")
    }

    func showLibrary(_ window: CaptionWindow, _ action: () -> Void) {
        var shown = false
        window.onLibraryShown = { shown = true }
        action()
        #expect(Harness.spin { shown }, "the library view never loaded")
        Harness.settle()
    }

    static let captions = [
        ("Harbour at dusk", "The last ferry"), ("港口的黄昏", "最后一班渡轮"),
        ("Market day", "Fish <b>&amp;</b> chips"), ("Mountain pass", "Snow in June"),
    ]

    @Test func listsTheSameEntriesInTheSameOrderAsTheCommandLine() throws {
        let library = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        #expect(window.isShowingLibrary)
        #expect(window.libraryController.view.entries == (try library.entries()))
        #expect(
            window.libraryController.view.entries.map(\.title) == [
                "Mountain pass", "Market day", "港口的黄昏", "Harbour at dusk",
            ])
        #expect(
            LibraryView.markup(for: window.libraryController.view.entries[1]).contains(
                "Fish &lt;b&gt;&amp;amp;&lt;/b&gt; chips"),
            "typed markup is shown as text")
        #expect(Harness.focusedWidget(window) == window.libraryController.view.treeView.pointer)
        #expect(window.libraryController.view.selectedEntry?.title == "Mountain pass")
    }

    @Test func searchFiltersAsYouTypeInAnyScript() throws {
        _ = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("search") }
        #expect(Harness.focusedWidget(window) == window.libraryController.view.searchEntry.pointer)
        showLibrary(window) {
            gtk_entry_set_text(caption_entry(window.libraryController.view.searchEntry.pointer), "港")
        }
        #expect(window.libraryController.view.entries.map(\.title) == ["港口的黄昏"])
        showLibrary(window) {
            gtk_entry_set_text(caption_entry(window.libraryController.view.searchEntry.pointer), "渡轮")
        }
        #expect(window.libraryController.view.entries.map(\.title) == ["港口的黄昏"])
        showLibrary(window) {
            gtk_entry_set_text(caption_entry(window.libraryController.view.searchEntry.pointer), "harb")
        }
        #expect(window.libraryController.view.entries.map(\.title) == ["Harbour at dusk"])
        showLibrary(window) {
            gtk_entry_set_text(caption_entry(window.libraryController.view.searchEntry.pointer), "nowhere")
        }
        #expect(window.libraryController.view.entries.isEmpty)
        // Escape clears the search, then goes back to the form.
        showLibrary(window) { Harness.press(window, keyval: GDK_KEY_Escape) }
        #expect(window.libraryController.view.searchText == "")
        #expect(window.libraryController.view.entries.count == 4)
        Harness.press(window, keyval: GDK_KEY_Escape)
        #expect(!window.isShowingLibrary)
    }

    @Test func arrowsPagesHomeEndAndTypeToSearch() throws {
        _ = try makeLibrary((0..<30).map { ("Entry \($0)", "n") })
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        // Laid out, so that a page is a number of rows.
        #expect(
            Harness.spin(seconds: 5) { (window.libraryController.view.treeView.visibleRows?.count ?? 0) > 2 },
            "the list was never laid out")
        let rows = window.libraryController.view.entries.count
        #expect(window.libraryController.view.selectedRow == 0)
        Harness.press(window, keyval: GDK_KEY_Down)
        #expect(window.libraryController.view.selectedRow == 1)
        Harness.press(window, keyval: GDK_KEY_End)
        #expect(window.libraryController.view.selectedRow == rows - 1)
        Harness.press(window, keyval: GDK_KEY_Home)
        #expect(window.libraryController.view.selectedRow == 0)
        Harness.press(window, keyval: GDK_KEY_Page_Down)
        #expect((window.libraryController.view.selectedRow ?? 0) > 1)
        showLibrary(window) { Harness.press(window, keyval: GDK_KEY_2) }
        #expect(window.libraryController.view.searchText == "2")
        #expect(Harness.focusedWidget(window) == window.libraryController.view.searchEntry.pointer)
        #expect(window.libraryController.view.entries.allSatisfy { $0.title.contains("2") })
        Harness.press(window, keyval: GDK_KEY_Down)
        #expect(Harness.focusedWidget(window) == window.libraryController.view.treeView.pointer)
    }

    @Test func enterOnAnEntryEditsItAndDoneUpdatesIt() throws {
        let library = try makeLibrary(Self.captions)
        let before = try #require(try library.entries().first)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        let view = caption_tree_view(window.libraryController.view.treeView.pointer)
        let path = gtk_tree_path_new_from_string("0")
        gtk_tree_view_row_activated(view, path, gtk_tree_view_get_column(view, 1))
        gtk_tree_path_free(path)
        #expect(Harness.spin { settled })
        #expect(!window.isShowingLibrary)
        #expect(
            String(cString: gtk_entry_get_text(caption_entry(window.form.view.titleEntry.pointer))) == "Mountain pass")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer)
        #expect(window.form.view.activateButton.label == "Done", "everything is there already")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Mountain pass, corrected")
        var saved: Entry?
        window.form.onSaved = { saved = $0 }
        showLibrary(window) { caption_signal_emit(window.form.view.titleEntry.pointer, "activate") }
        #expect(saved?.id == before.id)
        let after = try #require(try library.entry(id: before.id))
        #expect(after.title == "Mountain pass, corrected")
        #expect(after.photo == before.photo, "the photo is not copied again")
        #expect(after.updated > before.updated || after.updated == before.updated && after.title != before.title)
        #expect(try library.entries().count == 4)
        #expect(window.isShowingLibrary)
        #expect(window.libraryController.view.selectedEntry?.id == before.id)
        #expect(window.notification.text == "Updated “Mountain pass, corrected”")
    }

    @Test func deleteWaitsForItsUndoToExpire() throws {
        let library = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        Harness.press(window, keyval: GDK_KEY_Delete)
        #expect(window.libraryController.view.entries.count == 3)
        #expect(try library.entries().count == 4, "nothing is lost while Undo shows")
        #expect(window.notification.text == "Deleted “Mountain pass”")
        showLibrary(window) { window.activateAction("undo") }
        #expect(window.libraryController.view.entries.count == 4)
        Harness.press(window, keyval: GDK_KEY_Delete)
        window.notification.hide()  // as when it times out
        window.library.drain()
        Harness.settle()
        #expect(try library.entries().map(\.title) == ["Market day", "港口的黄昏", "Harbour at dusk"])
    }

    /// The accessible name of the thumbnail cell in `row`.
    func thumbnailName(_ window: CaptionWindow, row: Int) -> String? {
        let table = gtk_widget_get_accessible(window.libraryController.view.treeView.pointer)
        guard let cell = atk_table_ref_at(OpaquePointer(table), Int32(row), 0) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(cell)) }
        return atk_object_get_name(cell).map { String(cString: $0) }
    }

    @Test func aRowLandedOnAtTheSameNumberSaysItsWordsWithItsPhoto() throws {
        _ = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        #expect(thumbnailName(window, row: 0) == "Photo: view-3.jpg")
        Harness.press(window, keyval: GDK_KEY_Down)
        #expect(thumbnailName(window, row: 1) == "Photo: view-2.jpg", "another row is read whole")
        // Deleting puts the next entry under the cursor, on the same row number: a screen
        // reader reads only the focused cell, so it carries the words.
        Harness.press(window, keyval: GDK_KEY_Delete)
        #expect(window.libraryController.view.selectedRow == 1)
        #expect(thumbnailName(window, row: 1) == "港口的黄昏, 最后一班渡轮. Photo: view-1.jpg")
        Harness.press(window, keyval: GDK_KEY_Up)
        #expect(thumbnailName(window, row: 0) == "Photo: view-3.jpg")
    }

    @Test func theSearchSaysItsCountOnceTypingPausesWithTheWordsItCounts() throws {
        _ = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let view = window.libraryController.view
        showLibrary(window) { window.activateAction("search") }
        showLibrary(window) { gtk_entry_set_text(caption_entry(view.searchEntry.pointer), "Market") }
        #expect(view.entries.map(\.title) == ["Market day"])
        #expect(view.searchDescription == "", "nothing is said while the user may still be typing")
        #expect(Harness.spin(seconds: 3) { view.searchDescription == "1 entry matches “Market”" })
        showLibrary(window) { gtk_entry_set_text(caption_entry(view.searchEntry.pointer), "zz") }
        #expect(Harness.spin(seconds: 3) { view.searchDescription == "Nothing matches “zz”" })
    }

    @Test func anotherProcessesSaveAppearsWithoutARestart() throws {
        _ = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window) { window.activateAction("library") }
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent().appendingPathComponent("caption").path
        let photo = Harness.makePhoto(width: 99, in: folder, name: "elsewhere.jpg")
        let process = try Process.run(
            URL(fileURLWithPath: binary),
            arguments: ["--library", directory, "--add", photo, "--title", "From elsewhere", "--subtitle", "x"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Harness.spin(seconds: 5) { window.libraryController.view.entries.first?.title == "From elsewhere" })
    }

    @Test func theViewOpensAgainAsItWasLeftUnlessTheLibraryChanged() throws {
        _ = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let list = window.libraryController.view.treeView.pointer
        func model() -> OpaquePointer? { gtk_tree_view_get_model(caption_tree_view(list)) }
        showLibrary(window) { window.activateAction("library") }
        Harness.press(window, keyval: GDK_KEY_Down)
        Harness.press(window, keyval: GDK_KEY_Down)
        let left = model()
        window.activateAction("library")  // back to the form
        #expect(!window.isShowingLibrary)
        showLibrary(window) { window.activateAction("library") }
        #expect(model() == left, "nothing changed, yet the list was made again")
        #expect(window.libraryController.view.selectedRow == 2)
        #expect(Harness.focusedWidget(window) == list)

        // Another connection's save, while the form shows: the list loads again.
        window.activateAction("library")
        let photo = Harness.makePhoto(width: 77, in: folder, name: "meanwhile.jpg")
        _ = try Library(directory: directory).add(
            photoAt: photo, words: CaptionWords(title: "Meanwhile", subtitle: "elsewhere"))
        showLibrary(window) { window.activateAction("library") }
        #expect(model() != left)
        #expect(window.libraryController.view.entries.first?.title == "Meanwhile")
        #expect(window.libraryController.view.entries.count == Self.captions.count + 1)
    }

    @Test func thumbnailsAreMadeAndCachedForOtherAppsToo() throws {
        let library = try makeLibrary(Self.captions)
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        var made = 0
        window.libraryController.view.onThumbnail = { made += 1 }
        showLibrary(window) { window.activateAction("library") }
        #expect(Harness.spin { made == 4 })
        for entry in try library.entries() {
            let photo = try #require(library.photoPath(of: entry))
            let cached = try #require(Thumbnails.cachePath(for: photo))
            let pixbuf = try #require(gdk_pixbuf_new_from_file(cached, nil))
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let uri = gdk_pixbuf_get_option(pixbuf, "tEXt::Thumb::URI").map { String(cString: $0) }
            #expect(uri == "file://" + photo)
            #expect(gdk_pixbuf_get_option(pixbuf, "tEXt::Thumb::MTime") != nil)
            #expect(max(gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf)) <= 128)
        }
    }
}
