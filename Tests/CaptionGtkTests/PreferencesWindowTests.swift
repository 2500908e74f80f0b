// The Preferences window's code list, by keys: rows chosen in a list and edited in two
// fields, Tab through every control, removal said and undone, search, and a roster of
// 100,000 codes.

import CGtk
import Foundation
import Shorthand
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct PreferencesWindowTests {
    let folder = Harness.temporaryDirectory("caption-preferences")
    let twoCodes = ReplacementTable([
        Replacement(code: "=a", text: "One"), Replacement(code: "=b", text: "Two"),
    ])

    /// A Preferences window over a main window, shown, with its replacements file in the
    /// test's folder; both windows are destroyed by the returned closure.
    func open(_ name: String, _ table: ReplacementTable) throws -> (PreferencesWindow, path: String, done: () -> Void) {
        let main = try Harness.makeWindow(library: folder + "/" + name, stateFile: folder + "/" + name + ".ini")
        let path = folder + "/" + name + "-replacements.tsv"
        let preferences = PreferencesWindow(over: main.window, table: table, path: path)
        // Held until the end: a test may close it (Escape) and still ask it what it showed.
        g_object_ref(preferences.window.objectPointer)
        preferences.present()
        Harness.settle()
        return (
            preferences, path,
            {
                gtk_widget_destroy(preferences.window.pointer)
                g_object_unref(preferences.window.objectPointer)
                gtk_widget_destroy(main.widget)
            }
        )
    }

    func press(_ preferences: PreferencesWindow, _ keyval: Int32, _ state: GdkModifierType = GdkModifierType(0)) {
        Harness.press(toplevel: preferences.window.pointer, keyval: keyval, state: state)
    }

    func focusName(_ preferences: PreferencesWindow) -> String {
        preferences.window.focus.map { $0.accessibleName } ?? "(nothing)"
    }

    func written(_ path: String) throws -> ReplacementTable {
        ReplacementFile.read(try String(contentsOfFile: path, encoding: .utf8)).table
    }

    @Test func thePageOpensInTheSearchAndSaysWhatCodesDo() throws {
        let (preferences, _, done) = try open("opens", twoCodes)
        defer { done() }
        #expect(focusName(preferences) == "Search codes")
        #expect(preferences.window.focus?.accessibleDescription.hasPrefix("Type a code, then a space") == true)
        #expect(preferences.selectedCode == "=a")
        press(preferences, GDK_KEY_Down)
        #expect(focusName(preferences) == "Code Replacements, 2 codes")
        #expect(preferences.selectedCode == "=a", "Down goes to the first code")
    }

    @Test func withoutCodesThePageOpensOnAddCodeAndSaysWhatCodesDo() throws {
        let (preferences, _, done) = try open("opens-empty", ReplacementTable())
        defer { done() }
        #expect(focusName(preferences) == "Add Code")
        #expect(preferences.window.focus?.accessibleDescription.hasPrefix("Type a code, then a space") == true)
    }

    @Test func tabGoesFromTheListThroughEveryControlAndBack() throws {
        let (preferences, _, done) = try open("tab", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Tab)
        #expect(focusName(preferences) == "Code Replacements, 2 codes")
        var heard: [String] = []
        for _ in 0..<12 {
            press(preferences, GDK_KEY_Tab)
            heard.append(focusName(preferences))
        }
        // The page switcher in the header bar is in the cycle: Tab reaches the credits, the
        // fields and the checks too.
        #expect(
            heard == [
                "Code", "Text for the code", "Remove the code =a", "Add Code", "Import from Photo Mechanic…",
                "Code Replacements", "Credits", "Fields", "Checks", "Search codes", "Code Replacements, 2 codes",
                "Code",
            ])
    }

    @Test func downChoosesTheNextCodeAndTheFieldsFollow() throws {
        let (preferences, _, done) = try open("down", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Down)  // from the search to the first code
        press(preferences, GDK_KEY_Down)
        #expect(preferences.selectedCode == "=b")
        press(preferences, GDK_KEY_Tab)
        #expect(preferences.window.focus.map { TextEntry(unchecked: $0.pointer).text } == "=b")
    }

    @Test func removingSaysWhichCodeAndCtrlZPutsItBackInItsPlace() throws {
        let (preferences, path, done) = try open("remove", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Down)  // from the search to the first code
        press(preferences, GDK_KEY_Delete)
        #expect(preferences.table.rows == [Replacement(code: "=b", text: "Two")])
        #expect(preferences.message == "Removed =a")
        #expect(try written(path) == preferences.table)
        #expect(preferences.notification.details == "Press Ctrl+Z to undo.")
        #expect(focusName(preferences) == "Code Replacements, 1 code", "focus stays in the list")
        #expect(preferences.selectedCode == "=b")
        press(preferences, GDK_KEY_z, GDK_CONTROL_MASK)
        #expect(preferences.table == twoCodes)
        #expect(preferences.message == "=a is back")
        #expect(preferences.selectedCode == "=a")
        #expect(try written(path) == twoCodes)
        press(preferences, GDK_KEY_z, GDK_CONTROL_MASK)
        #expect(preferences.message == "Nothing to undo")
    }

    @Test func theRemoveButtonNamesItsCodeAndRemovesThatOne() throws {
        let (preferences, path, done) = try open("remove-button", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Down)  // from the search to the first code
        press(preferences, GDK_KEY_Down)
        for _ in 0..<3 { press(preferences, GDK_KEY_Tab) }
        #expect(focusName(preferences) == "Remove the code =b")
        press(preferences, GDK_KEY_space)
        // The button shows itself pressed for a moment before it acts.
        #expect(
            Harness.spin(seconds: 5) { preferences.table.rows == [Replacement(code: "=a", text: "One")] },
            "the button never removed its code: \(preferences.table.rows)")
        #expect(try written(path) == preferences.table)
        #expect(preferences.selectedCode == "=a", "the row before takes the cursor")
    }

    @Test func typingInTheFieldsChangesTheRowAndIsSavedOnceTypingPauses() throws {
        let (preferences, path, done) = try open("edit", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Down)  // from the search to the first code
        var told: ReplacementTable?
        preferences.onChange = { told = $0 }
        press(preferences, GDK_KEY_Return)
        #expect(focusName(preferences) == "Text for the code", "Enter on a row edits its text")
        Harness.type(TextEntry(unchecked: try #require(preferences.window.focus).pointer), "Uno")
        #expect(preferences.table.text(for: "=a") == "Uno")
        #expect(!FileManager.default.fileExists(atPath: path), "not at every key")
        #expect(Harness.spin(seconds: 5) { told != nil }, "what was typed was never saved")
        #expect(try written(path).text(for: "=a") == "Uno")
        #expect(told?.text(for: "=a") == "Uno")
    }

    @Test func whatWasTypedLastIsSavedWhenTheWindowCloses() throws {
        let (preferences, path, done) = try open("close", twoCodes)
        defer { done() }
        press(preferences, GDK_KEY_Down)  // from the search to the first code
        press(preferences, GDK_KEY_Return)
        Harness.type(TextEntry(unchecked: try #require(preferences.window.focus).pointer), "Eins")
        press(preferences, GDK_KEY_Escape)
        #expect(try written(path).text(for: "=a") == "Eins")
    }

    @Test func addCodeClearsTheSearchAndPutsTheCursorInTheNewCode() throws {
        let (preferences, path, done) = try open("add", twoCodes)
        defer { done() }
        preferences.search("Two")
        #expect(preferences.shown.count == 1)
        #expect(preferences.message == "1 code matches “Two”")
        preferences.addCode()
        #expect(preferences.shown.count == 3)
        #expect(focusName(preferences) == "Code")
        Harness.type(TextEntry(unchecked: try #require(preferences.window.focus).pointer), "=c")
        press(preferences, GDK_KEY_Return)
        Harness.type(TextEntry(unchecked: try #require(preferences.window.focus).pointer), "Three")
        preferences.saveNow()
        #expect(try written(path).rows.map(\.code) == ["=a", "=b", "=c"])
    }

    /// Keys sent one after the other with no turn of the main loop between them, as the
    /// display server hands over keys typed ahead of a busy machine.
    func typeAhead(_ preferences: PreferencesWindow, _ keys: [(Int32, GdkModifierType)]) {
        for (keyval, state) in keys {
            Harness.send(
                toplevel: preferences.window.pointer, [GDK_KEY_PRESS, GDK_KEY_RELEASE], keyval: keyval, state: state,
                settling: false)
        }
    }

    @Test func keysTypedRightAfterAddCodesMnemonicGoToTheNewCode() throws {
        let (preferences, path, done) = try open("mnemonic", twoCodes)
        defer { done() }
        let none = GdkModifierType(0)
        typeAhead(preferences, [(GDK_KEY_a, GDK_MOD1_MASK), (GDK_KEY_equal, none), (GDK_KEY_c, none)])
        #expect(preferences.shown.count == 3, "Alt+A added no code before the next key")
        #expect(focusName(preferences) == "Code")
        #expect(preferences.searchField.text.isEmpty, "the keys went to the search")
        preferences.saveNow()
        #expect(try written(path).rows.map(\.code) == ["=a", "=b", "=c"])
    }

    @Test func downRightAfterASearchIsTypedGoesToItsFirstMatch() throws {
        let (preferences, _, done) = try open("search-ahead", twoCodes)
        defer { done() }
        let none = GdkModifierType(0)
        // "=b", then Down before the search's pause has passed.
        typeAhead(preferences, [(GDK_KEY_equal, none), (GDK_KEY_b, none), (GDK_KEY_Down, none)])
        #expect(preferences.shown.count == 1)
        #expect(preferences.selectedCode == "=b", "Down went to a row of the list before the search")
    }

    @Test func escapeInASearchClearsItAndASecondEscapeCloses() throws {
        let (preferences, _, done) = try open("escape", twoCodes)
        defer { done() }
        var closed = false
        preferences.onClose = { closed = true }
        preferences.search("nothing like it")
        #expect(preferences.shown.isEmpty)
        #expect(preferences.message == "No code matches “nothing like it”")
        press(preferences, GDK_KEY_Escape)
        #expect(preferences.shown.count == 2)
        #expect(!closed)
    }

    @Test func aRosterOf100000CodesOpensIsSearchedAndEdited() throws {
        let roster = ReplacementTable(
            (0..<100_000).map { Replacement(code: "=p\($0)", text: "Player \($0) of the season") })
        let (preferences, path, done) = try open("roster", roster)
        defer { done() }
        #expect(preferences.shown.count == 100_000)
        preferences.search("=p99999")
        #expect(preferences.shown.count == 1)
        #expect(preferences.selectedCode == "=p99999")
        press(preferences, GDK_KEY_Return)
        #expect(focusName(preferences) == "Code Replacements, 100000 codes", "Enter in the search goes to the list")
        press(preferences, GDK_KEY_Return)
        #expect(focusName(preferences) == "Text for the code")
        Harness.type(TextEntry(unchecked: try #require(preferences.window.focus).pointer), "Captain")
        preferences.saveNow()
        let saved = try written(path)
        #expect(saved.rows.count == 100_000)
        #expect(saved.text(for: "=p99999") == "Captain")
        #expect(saved.text(for: "=p0") == "Player 0 of the season")
    }
}

extension PreferencesWindow {
    /// The code of the row under the list's cursor.
    var selectedCode: String? {
        guard let id = selectedRowID else { return nil }
        return codes.row(id)?.code
    }

    /// Types `query` into the search and waits for the list to follow, as a pause in typing would.
    func search(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) {
        searchField.grabFocus()
        searchField.text = query
        #expect(
            Harness.spin(seconds: 5) { message.hasSuffix("“\(query)”") }, "the list never followed the search",
            sourceLocation: sourceLocation)
    }
}
