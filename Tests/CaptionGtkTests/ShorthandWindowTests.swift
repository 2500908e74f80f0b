// Typing less, in the real window: code replacements and their Undo, completion offers from
// what was saved (Enter that accepts one does only that), the spell-checking switch, and the
// Preferences window's import.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Foundation
import Shorthand
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ShorthandWindowTests {
    let folder = Harness.temporaryDirectory("caption-shorthand")

    func makeWindow(_ name: String) throws -> CaptionWindow {
        try Harness.makeWindow(library: folder + "/" + name, stateFile: folder + "/" + name + ".ini")
    }

    /// Types `text` key by key through the window, as the X server would deliver it.
    func type(_ window: CaptionWindow, _ text: String) {
        for scalar in text.unicodeScalars {
            Harness.press(window, keyval: Int32(gdk_unicode_to_keyval(scalar.value)))
        }
    }

    func title(_ window: CaptionWindow) -> String { Harness.text(window.form.view.titleEntry.pointer) }

    @Test func aCodeThenASpaceBecomesItsTextAndUndoPutsTheCodeBack() throws {
        let window = try makeWindow("codes")
        defer { gtk_widget_destroy(window.widget) }
        window.form.replacementTable = ReplacementTable([Replacement(code: "=bb", text: "Brooklyn Bridge")])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "codes.jpg")) }
        window.form.view.titleEntry.grabFocus()
        type(window, "At =bb ")
        #expect(title(window) == "At Brooklyn Bridge ")
        #expect(gtk_editable_get_position(OpaquePointer(window.form.view.titleEntry.objectPointer)) == 19)
        window.activateAction("undo")
        Harness.settle()
        #expect(title(window) == "At =bb ")
        // Once more: nothing left to take back, and Ctrl+Z does not touch the words.
        window.activateAction("undo")
        Harness.settle()
        #expect(title(window) == "At =bb ")
    }

    @Test func typingAfterAReplacementLeavesItForUndo() throws {
        let window = try makeWindow("codes-later")
        defer { gtk_widget_destroy(window.widget) }
        window.form.replacementTable = ReplacementTable([Replacement(code: "=bb", text: "Brooklyn Bridge")])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "later.jpg")) }
        window.form.view.titleEntry.grabFocus()
        type(window, "=bb, x")
        #expect(title(window) == "Brooklyn Bridge, x")
        #expect(!window.form.undoReplacement())
        #expect(title(window) == "Brooklyn Bridge, x")
    }

    @Test func wordsPutInWholeAndUnknownCodesStayAsTheyAre() throws {
        let window = try makeWindow("codes-whole")
        defer { gtk_widget_destroy(window.widget) }
        window.form.replacementTable = ReplacementTable([Replacement(code: "=bb", text: "Brooklyn Bridge")])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "whole.jpg")) }
        window.form.view.titleEntry.grabFocus()
        // A paste or the form's own words arrive whole: no code ends where they begin.
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "=bb ")
        Harness.settle()
        #expect(title(window) == "=bb ")
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "")
        type(window, "=zz ")
        #expect(title(window) == "=zz ")
    }

    @Test func enterAfterACodeReplacesItAndMovesOn() throws {
        let window = try makeWindow("codes-enter")
        defer { gtk_widget_destroy(window.widget) }
        window.form.replacementTable = ReplacementTable([Replacement(code: "=bb", text: "Brooklyn Bridge")])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "enter.jpg")) }
        window.form.view.titleEntry.grabFocus()
        type(window, "=bb")
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        Harness.settle()
        #expect(title(window) == "Brooklyn Bridge")
        #expect(Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer)
    }

    /// Saves the form's words and waits for the save.
    func save(_ window: CaptionWindow) -> Entry? {
        var saved: Entry?
        window.form.onSaved = { saved = $0 }
        window.activateAction("save")
        _ = Harness.spin { saved != nil }
        return saved
    }

    @Test func whatWasSavedIsOfferedAndEnterTakesTheOfferWithoutMovingOn() throws {
        let window = try makeWindow("offers")
        defer { gtk_widget_destroy(window.widget) }
        let photos = ["o1.jpg", "o2.jpg"].map { Harness.makePhoto(in: folder, name: $0) }
        Harness.waitForPhoto(window) { window.form.enqueue(photos) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Harbour at dusk")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Ferry")
        #expect(save(window)?.title == "Harbour at dusk")
        _ = Harness.spin { window.form.photos.loadedPhoto != nil }
        window.form.view.titleEntry.grabFocus()
        Harness.settle()
        type(window, "har")
        #expect(window.form.aids.completion.offers == ["Harbour at dusk"])
        #expect(window.form.view.titleEntry.accessibleDescription.contains("1 suggestion: Harbour at dusk"))
        Harness.press(window, keyval: GDK_KEY_Down)
        #expect(window.form.aids.completion.chosen == 0)
        #expect(window.form.view.titleEntry.accessibleDescription.contains("Suggestion 1 of 1: Harbour at dusk"))
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        Harness.settle()
        #expect(title(window) == "Harbour at dusk")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer, "Enter moved on")
        #expect(try Library(directory: folder + "/offers").entries().count == 1, "Enter saved")
        #expect(window.form.aids.completion.offers.isEmpty)
        // The next Enter does what the button says.
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        Harness.settle()
        #expect(Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer)
    }

    @Test func tabTakesTheChosenOfferAndUpWrapsToTheLast() throws {
        let window = try makeWindow("offers-tab")
        defer { gtk_widget_destroy(window.widget) }
        #expect(Harness.spin { window.form.aids.completion.loaded })
        let now = Timestamp.now()
        window.form.aids.completion.use([
            .title: CompletionIndex([
                FieldUsage(text: "Harbour", count: 3, lastUsed: now), FieldUsage(text: "Hill", count: 1, lastUsed: now),
            ]),
            .subtitle: CompletionIndex(),
        ])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "tab.jpg")) }
        window.form.view.titleEntry.grabFocus()
        type(window, "h")
        #expect(window.form.aids.completion.offers == ["Harbour", "Hill"])
        Harness.press(window, keyval: GDK_KEY_Up)
        #expect(window.form.aids.completion.chosen == 1)
        Harness.press(window, keyval: GDK_KEY_Tab)
        #expect(title(window) == "Hill")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer, "Tab moved on")
        // With no offer chosen, Tab moves on as always.
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "")
        type(window, "h")
        Harness.press(window, keyval: GDK_KEY_Tab)
        #expect(Harness.focusedWidget(window) != window.form.view.titleEntry.pointer)
    }

    @Test func escapeClosesTheOffersAndEnterWithNoneChosenMovesOn() throws {
        let window = try makeWindow("offers-escape")
        defer { gtk_widget_destroy(window.widget) }
        #expect(Harness.spin { window.form.aids.completion.loaded })
        window.form.aids.completion.use([
            .title: CompletionIndex([FieldUsage(text: "Harbour", count: 1, lastUsed: .now())]),
            .subtitle: CompletionIndex(),
        ])
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "esc.jpg")) }
        window.form.view.titleEntry.grabFocus()
        type(window, "h")
        #expect(window.form.aids.completion.offers == ["Harbour"])
        Harness.press(window, keyval: GDK_KEY_Escape)
        #expect(window.form.aids.completion.offers.isEmpty)
        type(window, "a")
        #expect(window.form.aids.completion.offers == ["Harbour"])
        caption_signal_emit(window.form.view.titleEntry.pointer, "activate")
        Harness.settle()
        #expect(title(window) == "ha")
        #expect(Harness.focusedWidget(window) == window.form.view.subtitleEntry.pointer)
        #expect(window.form.aids.completion.offers.isEmpty, "the offers stayed open after focus left")
    }

    @Test func savesBeforeTheLibrarysWordsArriveAreKept() throws {
        try Harness.start()
        let offers = CompletionOffers(entries: [:], composing: { _ in false })
        offers.record(CaptionWords(title: "Early", subtitle: "Bird"))
        offers.record(CaptionWords(title: "Gone", subtitle: "Soon"))
        offers.forget(CaptionWords(title: "Gone", subtitle: "Soon"))
        offers.use([
            .title: CompletionIndex([FieldUsage(text: "Earlier", count: 1, lastUsed: .now())]),
            .subtitle: CompletionIndex(),
        ])
        #expect(
            Set(offers.indexes[.title, default: CompletionIndex()].offers(for: "e", now: .now())) == [
                "Early", "Earlier",
            ])
        #expect(offers.indexes[.title, default: CompletionIndex()].offers(for: "g", now: .now()).isEmpty)
        #expect(offers.indexes[.subtitle, default: CompletionIndex()].offers(for: "b", now: .now()) == ["Bird"])
    }

    @Test func savesAreOfferedBeforeTheLibrarysWordsArrive() throws {
        try Harness.start()
        let offers = CompletionOffers(entries: [:], composing: { _ in false })
        _ = offers.recordUnsettled(CaptionWords(title: "Kite flying", subtitle: "Beach"))
        #expect(offers.indexes[.title, default: CompletionIndex()].offers(for: "k", now: .now()) == ["Kite flying"])
    }

    @Test func anOfferFromEnterOutlivesAReadThatAnsweredBeforeItsSave() throws {
        try Harness.start()
        let offers = CompletionOffers(entries: [:], composing: { _ in false })
        offers.use([.title: CompletionIndex(), .subtitle: CompletionIndex()])
        let kite = offers.recordUnsettled(CaptionWords(title: "Kite flying", subtitle: "Beach"))
        let gone = offers.recordUnsettled(CaptionWords(title: "Kiosk", subtitle: "Pier"))
        // A read the library answered before either save: it has neither.
        offers.use([.title: CompletionIndex(), .subtitle: CompletionIndex()])
        #expect(
            Set(offers.indexes[.title, default: CompletionIndex()].offers(for: "k", now: .now())) == [
                "Kite flying", "Kiosk",
            ])
        // Kiosk's save taken back; Kite's answered, so the next read has it.
        offers.settle(gone)
        offers.forget(CaptionWords(title: "Kiosk", subtitle: "Pier"))
        offers.settle(kite)
        offers.use([
            .title: CompletionIndex([FieldUsage(text: "Kite flying", count: 1, lastUsed: .now())]),
            .subtitle: CompletionIndex(),
        ])
        #expect(offers.indexes[.title, default: CompletionIndex()].offers(for: "k", now: .now()) == ["Kite flying"])
    }

    @Test func undoOfASaveTakesItsWordsOutOfTheOffers() throws {
        let window = try makeWindow("offers-undo")
        defer { gtk_widget_destroy(window.widget) }
        Harness.waitForPhoto(window) { window.form.openPhoto(Harness.makePhoto(in: folder, name: "u.jpg")) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Quay")
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Boats")
        #expect(save(window) != nil)
        #expect(
            window.form.aids.completion.indexes[.title, default: CompletionIndex()].offers(for: "q", now: .now()) == [
                "Quay"
            ])
        window.activateAction("undo")
        _ = Harness.spin { title(window) == "Quay" }
        #expect(
            window.form.aids.completion.indexes[.title, default: CompletionIndex()].offers(for: "q", now: .now())
                .isEmpty)
    }

    @Test func theSpellCheckSwitchIsRememberedWithTheWindowSize() throws {
        let state = folder + "/spell.ini"
        let window = try Harness.makeWindow(library: folder + "/spell", stateFile: state)
        #expect(window.form.spelling.isOn)
        window.activateAction("spell-check")
        #expect(!window.form.spelling.isOn)
        #expect(!WindowStateFile.spellCheck(state))
        window.close()  // writes the window size into the same file
        gtk_widget_destroy(window.widget)
        #expect(!WindowStateFile.spellCheck(state), "saving the size forgot the switch")
        let again = try Harness.makeWindow(library: folder + "/spell", stateFile: state)
        defer { gtk_widget_destroy(again.widget) }
        #expect(!again.form.spelling.isOn)
        again.activateAction("spell-check")
        #expect(again.form.spelling.isOn)
        #expect(WindowStateFile.spellCheck(state))
    }

    @Test func aPhotoMechanicFileIsImportedAndWritten() throws {
        let window = try makeWindow("preferences")
        defer { gtk_widget_destroy(window.widget) }
        let path = folder + "/preferences-replacements.tsv"
        let preferences = PreferencesWindow(over: window.window, table: ReplacementTable(), path: path)
        defer { gtk_widget_destroy(preferences.window.pointer) }
        var told: ReplacementTable?
        preferences.onChange = { told = $0 }
        let file = folder + "/pm.txt"
        try "CC2\tAaron Barnum\nbroken line\nDD14\tKen Pierce\n".write(toFile: file, atomically: true, encoding: .utf8)
        preferences.importFile(file)
        #expect(preferences.table.rows.map(\.code) == ["=CC2", "=DD14"])
        #expect(told == preferences.table)
        #expect(preferences.message.contains("Imported 2 codes"))
        #expect(preferences.message.contains("2"), "the passed-over line is named")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(ReplacementFile.read(written).table == preferences.table)
    }

    @Test func aFileWithoutCodesOrUnreadableSaysSoAndChangesNothing() throws {
        let window = try makeWindow("preferences-bad")
        defer { gtk_widget_destroy(window.widget) }
        let path = folder + "/bad-replacements.tsv"
        let preferences = PreferencesWindow(over: window.window, table: ReplacementTable(), path: path)
        defer { gtk_widget_destroy(preferences.window.pointer) }
        let empty = folder + "/empty.txt"
        try "no tabs here\n".write(toFile: empty, atomically: true, encoding: .utf8)
        preferences.importFile(empty)
        #expect(preferences.message.contains("holds no codes"))
        preferences.importFile(folder + "/missing.txt")
        #expect(preferences.message == "The file cannot be read")
        #expect(preferences.table.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func photoMechanicFilesInUTF16OrWindows1252AreRead() throws {
        let window = try makeWindow("preferences-encodings")
        defer { gtk_widget_destroy(window.widget) }
        let path = folder + "/encodings-replacements.tsv"
        let preferences = PreferencesWindow(over: window.window, table: ReplacementTable(), path: path)
        defer { gtk_widget_destroy(preferences.window.pointer) }
        // As Photo Mechanic on Windows saves them: the system's code page, or UTF-16 with its mark.
        let windows = folder + "/cp1252.txt"
        try Data([0x63, 0x61, 0x66, 0x09, 0x43, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x0D, 0x0A]).write(
            to: URL(fileURLWithPath: windows))
        preferences.importFile(windows)
        #expect(preferences.table.text(for: "=caf") == "Café €")
        let utf16 = folder + "/utf16.txt"
        try Data([0xFF, 0xFE] + Array("zh\t港口\r\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(
            to: URL(fileURLWithPath: utf16))
        preferences.importFile(utf16)
        #expect(preferences.table.text(for: "=zh") == "港口")
        #expect(ReplacementStore.load(path).text(for: "=zh") == "港口", "written to the replacements file")
    }

    @Test func anEditKeepsCommentsAndLinesCaptionCannotReadAndSaysThemOnOpening() throws {
        let window = try makeWindow("preferences-keeps")
        defer { gtk_widget_destroy(window.widget) }
        let path = folder + "/kept-replacements.tsv"
        // A comment, a row, a line with a byte that is not UTF-8, a blank line, a line
        // without a tab, another row.
        let original: [UInt8] =
            Array("# my codes, season 2026\n=a\tOne\n".utf8) + [0x3D, 0x62, 0x09, 0x54, 0xF6, 0x6E, 0x0A]
            + Array("\nnot a row\n=c\tThree\n".utf8)
        try Data(original).write(to: URL(fileURLWithPath: path))
        let read = ReplacementStore.reading(path)
        #expect(read.table.rows.map(\.code) == ["=a", "=c"])
        #expect(read.skippedLines == [3, 5])
        let preferences = PreferencesWindow(over: window.window, table: read.table, path: path)
        defer { gtk_widget_destroy(preferences.window.pointer) }
        #expect(
            preferences.status.text
                == "Lines 3, 5 of \(path) are not codes Caption can read; they stay in the file as they are")
        var table = read.table
        table.set(Replacement(code: "=c", text: "Drei"))
        table.remove(code: "=a")
        table.set(Replacement(code: "=d", text: "Four"))
        #expect(ReplacementStore.save(table, to: path) == nil)
        let expected: [UInt8] =
            Array("# my codes, season 2026\n".utf8) + [0x3D, 0x62, 0x09, 0x54, 0xF6, 0x6E, 0x0A]
            + Array("\nnot a row\n=c\tDrei\n=d\tFour\n".utf8)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected, "only the rows that changed changed")
    }

    @Test func aMissingOrUnreadableReplacementsFileGivesAnEmptyTable() throws {
        #expect(ReplacementStore.load(folder + "/nothing-here.tsv").isEmpty)
        let damaged = folder + "/damaged.tsv"
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: damaged))
        #expect(ReplacementStore.load(damaged).isEmpty)
        #expect(ReplacementStore.save(ReplacementTable(), to: "/proc/no/such/folder/replacements.tsv") != nil)
    }
}
