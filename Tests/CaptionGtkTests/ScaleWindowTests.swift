// The window with a large library: the list loads a page at a time as the user scrolls,
// End reaches the last entry, a search overtaken by a newer one is dropped, and a long
// export shows its progress and stops at Cancel with every file whole or not written.

import CGtk
@_spi(Benchmarks) import CaptionLibrary
import CaptionMetadata
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ScaleWindowTests {
    let folder = Harness.temporaryDirectory("caption-scale")
    var directory: String { folder + "/library" }

    /// `count` entries sharing one photo, titled "Boat N" or, every third, "Fish N".
    func makeLibrary(count: Int) throws -> Library {
        let library = try Library(directory: directory)
        let first = try library.add(
            photoAt: Harness.makePhoto(in: folder, name: "scale.jpg"),
            words: CaptionWords(title: "Fish first", subtitle: ""))
        try library.insertCopies(of: first, count: count - 1) { index in
            CaptionWords(title: index % 3 == 0 ? "Fish \(index)" : "Boat \(index)")
        }
        return library
    }

    func showLibrary(_ window: CaptionWindow) {
        var shown = false
        window.onLibraryShown = { shown = true }
        window.activateAction("library")
        #expect(Harness.spin { shown }, "the library view never loaded")
        #expect(
            Harness.spin(seconds: 5) { window.libraryController.view.treeView.visibleRows != nil },
            "the list was never laid out")
        // Proves that only the first page is there until the user scrolls: a page asked for
        // as the list was laid out would be read and in within these 100 ms.
        Harness.pump(milliseconds: 100)
    }

    @Test func theListLoadsAPageAtATimeAsTheUserScrollsAndEndReachesTheLastEntry() throws {
        let library = try makeLibrary(count: 1_250)
        let window = try Harness.makeWindow(library: directory, stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window)
        #expect(window.libraryRowCount == LibraryView.firstPageSize, "the first page only")
        #expect(!window.libraryListComplete)

        // Scrolled to the bottom of what is loaded: the next page follows.
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(window.libraryList))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
        #expect(Harness.spin { window.libraryRowCount > LibraryView.firstPageSize }, "no further page came")

        // End: every page comes, and the cursor goes to the oldest entry.
        Harness.press(window, keyval: GDK_KEY_End)
        #expect(Harness.spin { window.libraryListComplete && window.libraryController.view.selectedRow == 1_249 })
        #expect(
            window.libraryController.view.entries == (try library.entries()),
            "the pages add up to the list, nothing twice")
        Harness.press(window, keyval: GDK_KEY_Home)
        #expect(window.libraryController.view.selectedRow == 0)
    }

    @Test func selectingAnEntryBeyondTheLoadedPagesLoadsUntilItIsIn() throws {
        let library = try makeLibrary(count: 1_250)
        let window = try Harness.makeWindow(library: directory, stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window)
        let oldest = try #require(try library.entries().last)
        #expect(window.libraryRowCount < 1_250)
        window.libraryController.view.select(id: oldest.id)
        #expect(
            Harness.spin { window.libraryController.view.selectedEntry?.id == oldest.id },
            "the entry never came into the list")

        // In a search, an entry that does not match is not chased.
        var shown = false
        window.onLibraryShown = { shown = true }
        window.searchLibrary("Fish")
        #expect(Harness.spin { shown })
        let boat = try #require(try library.entries().first { $0.title.hasPrefix("Boat") })
        window.libraryController.view.select(id: boat.id)
        // Proves the entry is not chased: a page loaded for it would be read and in the list
        // within a few turns of the main loop, well inside these 300 ms.
        Harness.pump(milliseconds: 300)
        #expect(window.libraryRowCount == LibraryView.firstPageSize, "no page was loaded for it")
    }

    @Test func aSearchOvertakenByANewerOneIsNeverShown() throws {
        _ = try makeLibrary(count: 600)
        let window = try Harness.makeWindow(library: directory, stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        showLibrary(window)
        var shown: [String] = []
        window.onLibraryShown = { shown.append(window.libraryController.view.searchText) }
        window.searchLibrary("Fish")
        window.searchLibrary("Boat 1")
        #expect(Harness.spin { shown.contains("Boat 1") })
        // Proves the older search never reaches the list, even late: its answer is read no
        // slower than the newer one's, so it would be in within these 200 ms.
        Harness.pump(milliseconds: 200)
        #expect(shown == ["Boat 1"], "only the newest search reached the list")
        #expect(!window.libraryController.view.entries.isEmpty)
        #expect(window.libraryController.view.entries.allSatisfy { $0.title.hasPrefix("Boat 1") })
        // One character, in a page, as fast as any other.
        window.searchLibrary("F")
        #expect(Harness.spin { shown.last == "F" })
        #expect(window.libraryRowCount == LibraryView.firstPageSize)
        #expect(window.libraryController.view.entries.allSatisfy { $0.title.hasPrefix("Fish") })
    }

    @Test func exportShowsProgressAndCancelStopsItWithEveryFileWholeOrAbsent() throws {
        _ = try makeLibrary(count: 3_000)
        let window = try Harness.makeWindow(library: directory, stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        let out = folder + "/exported"
        var outcome: Result<Exporter.Summary, LibraryError>?
        window.export.exportAll(to: out) { outcome = $0 }
        let panel = try #require(window.export.progressPanel)
        #expect(Harness.spin { panel.progress.completed >= 3 })
        #expect(
            Harness.spin { panel.text.hasSuffix(" of 3,000") && !panel.text.hasPrefix("0 ") }, "shown: \(panel.text)")
        #expect(gtk_widget_get_mapped(panel.bar.pointer) != 0, "the bar is on screen")
        gtk_button_clicked(caption_button(panel.cancelButton.pointer))
        #expect(Harness.spin { outcome != nil })
        let summary = try #require(try outcome?.get())
        #expect(summary.cancelled)
        #expect(summary.exported > 0 && summary.exported < 3_000)
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.count == summary.exported, "every photo counted is there, and no other file")
        #expect(!names.contains { $0.hasPrefix(".") }, "no temporary file left")
        #expect(window.export.progressPanel == nil, "the bar goes when the export ends")
        #expect(window.notification.isShowing)
        #expect(
            window.notification.text.hasPrefix(
                "Export stopped: \(WorkProgress.grouped(summary.exported)) of 3,000 photos exported"),
            "\(window.notification.text)")
    }
}
