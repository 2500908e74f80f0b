// Every fill state × every focus place, against tables written out by hand from the design.

import FocusEngine
import Testing

@Suite struct EnterTableTests {
    let caption = CaptionForm.Layout.window.formItems(Wording())

    /// The three-item form, all 32 cases, one test argument each so a failure names its case.
    /// Columns: fill of (photo, title, subtitle); focus; label; what Enter does.
    static let captionTable: [(fill: String, focus: Int?, label: ActivateLabel, enter: FormDecision)] = [
        ("000", 0, .next, .choosePhoto(item: 0)), ("000", 1, .next, .focus(2)),
        ("000", 2, .next, .focus(0)), ("000", nil, .next, .focus(0)),
        ("001", 0, .next, .choosePhoto(item: 0)), ("001", 1, .next, .focus(0)),
        ("001", 2, .next, .focus(0)), ("001", nil, .next, .focus(0)),
        ("010", 0, .next, .choosePhoto(item: 0)), ("010", 1, .next, .focus(2)),
        ("010", 2, .next, .focus(0)), ("010", nil, .next, .focus(0)),
        ("011", 0, .done, .choosePhoto(item: 0)), ("011", 1, .next, .focus(0)),
        ("011", 2, .next, .focus(0)), ("011", nil, .next, .focus(0)),
        ("100", 0, .next, .choosePhoto(item: 0)), ("100", 1, .next, .focus(2)),
        ("100", 2, .next, .focus(1)), ("100", nil, .next, .focus(1)),
        ("101", 0, .next, .choosePhoto(item: 0)), ("101", 1, .done, .reject(focus: 1)),
        ("101", 2, .next, .focus(1)), ("101", nil, .next, .focus(1)),
        ("110", 0, .next, .choosePhoto(item: 0)), ("110", 1, .next, .focus(2)),
        ("110", 2, .done, .reject(focus: 2)), ("110", nil, .next, .focus(2)),
        ("111", 0, .done, .choosePhoto(item: 0)),
        ("111", 1, .done, .save(Submission(values: ["", "words", "words"]))),
        ("111", 2, .done, .save(Submission(values: ["", "words", "words"]))),
        ("111", nil, .done, .save(Submission(values: ["", "words", "words"]))),
    ]

    @Test func captionTableHasEveryCase() {
        #expect(Self.captionTable.count == 32)
        let keys = Set(Self.captionTable.map { "\($0.fill)/\(String(describing: $0.focus))" })
        #expect(keys.count == 32)
    }

    @Test(arguments: 0..<32)
    func captionFormLabelAndEnter(row: Int) {
        let (fill, focus, label, enter) = Self.captionTable[row]
        var form = engine(caption, fill: fill, focus: focus)
        #expect(form.label == label, "fill \(fill), focus \(String(describing: focus))")
        #expect(form.handle(.enter) == enter, "fill \(fill), focus \(String(describing: focus))")
    }

    @Test func twoItemForm() {
        let items: [FormItem] = [.text("Title", limit: 10), .text("Subtitle", limit: 10)]
        let table = [
            "00": "N>1 N>0 N>0",
            "01": "D!0 N>0 N>0",
            "10": "N>1 D!1 N>1",
            "11": "Ds Ds Ds",
        ]
        #expect(mismatches(items, table) == [])
    }

    /// Five items with the photo in the middle: the rules do not depend on where it stands.
    @Test func fiveItemForm() {
        let items: [FormItem] = [
            .text("Title", limit: 10), .text("Subtitle", limit: 10), .photo("Photo"),
            .text("Place", limit: 10), .text("Credit", limit: 10),
        ]
        let table = [
            "00000": "N>1 N>2 Nc N>4 N>0 N>0",
            "00001": "N>1 N>2 Nc N>0 N>0 N>0",
            "00010": "N>1 N>2 Nc N>4 N>0 N>0",
            "00011": "N>1 N>2 Nc N>0 N>0 N>0",
            "00100": "N>1 N>3 Nc N>4 N>0 N>0",
            "00101": "N>1 N>3 Nc N>0 N>0 N>0",
            "00110": "N>1 N>4 Nc N>4 N>0 N>0",
            "00111": "N>1 N>0 Nc N>0 N>0 N>0",
            "01000": "N>2 N>2 Nc N>4 N>0 N>0",
            "01001": "N>2 N>2 Nc N>0 N>0 N>0",
            "01010": "N>2 N>2 Nc N>4 N>0 N>0",
            "01011": "N>2 N>2 Nc N>0 N>0 N>0",
            "01100": "N>3 N>3 Nc N>4 N>0 N>0",
            "01101": "N>3 N>3 Nc N>0 N>0 N>0",
            "01110": "N>4 N>4 Nc N>4 N>0 N>0",
            "01111": "D!0 N>0 Nc N>0 N>0 N>0",
            "10000": "N>1 N>2 Nc N>4 N>1 N>1",
            "10001": "N>1 N>2 Nc N>1 N>1 N>1",
            "10010": "N>1 N>2 Nc N>4 N>1 N>1",
            "10011": "N>1 N>2 Nc N>1 N>1 N>1",
            "10100": "N>1 N>3 Nc N>4 N>1 N>1",
            "10101": "N>1 N>3 Nc N>1 N>1 N>1",
            "10110": "N>1 N>4 Nc N>4 N>1 N>1",
            "10111": "N>1 D!1 Nc N>1 N>1 N>1",
            "11000": "N>2 N>2 Nc N>4 N>2 N>2",
            "11001": "N>2 N>2 Nc N>2 N>2 N>2",
            "11010": "N>2 N>2 Nc N>4 N>2 N>2",
            "11011": "N>2 N>2 Dc N>2 N>2 N>2",
            "11100": "N>3 N>3 Nc N>4 N>3 N>3",
            "11101": "N>3 N>3 Nc D!3 N>3 N>3",
            "11110": "N>4 N>4 Nc N>4 D!4 N>4",
            "11111": "Ds Ds Dc Ds Ds Ds",
        ]
        #expect(table.count == 32)
        #expect(mismatches(items, table) == [])
    }
}
