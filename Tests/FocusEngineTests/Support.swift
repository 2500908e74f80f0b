// Helpers the engine tests share: building forms in a given state and reading outcomes.

import FocusEngine

/// A form's state written as one character per item: "1" complete, "0" empty.
func engine(_ items: [FormItem], fill: String, focus: Int?) -> FocusEngine {
    var engine = FocusEngine(items: items)
    for (index, flag) in zip(items.indices, fill) {
        if items[index].isText {
            _ = engine.handle(.edit(item: index, text: flag == "1" ? "words" : ""))
        } else {
            _ = engine.handle(.photo(item: index, flag == "1" ? .loaded : .empty))
        }
    }
    _ = engine.handle(.focus(focus))
    return engine
}

/// The outcome of Enter in the compact notation of the tables: the label ("N" / "D"),
/// then what Enter did: ">k" focus to item k, "c" the photo chooser opened, "s" saved,
/// "!k" submit rejected with focus on item k.
func enterOutcome(_ engine: FocusEngine) -> String {
    var copy = engine
    let label = engine.label == .done ? "D" : "N"
    switch copy.handle(.enter) {
    case .focus(let item): return label + ">" + (item.map(String.init) ?? "-")
    case .choosePhoto: return label + "c"
    case .save: return label + "s"
    case .reject(let focus): return label + "!" + String(focus)
    case .nothing: return label + "0"
    }
}

/// Checks every fill state × focus place of a form against a literal table: for each fill
/// (one character per item), the outcomes with focus on item 0, 1, … and then on no item.
func mismatches(_ items: [FormItem], _ table: [String: String]) -> [String] {
    var problems: [String] = []
    for (fill, row) in table.sorted(by: { $0.key < $1.key }) {
        let expected = row.split(separator: " ").map(String.init)
        let places: [Int?] = items.indices.map { $0 } + [nil]
        for (place, want) in zip(places, expected) {
            let got = enterOutcome(engine(items, fill: fill, focus: place))
            if got != want {
                problems.append("fill \(fill), focus \(place.map(String.init) ?? "none"): expected \(want), got \(got)")
            }
        }
    }
    return problems
}
