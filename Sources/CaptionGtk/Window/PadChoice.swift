// The stationery pad in use: chosen in the primary menu (radio items, shown once a pad
// exists) or with Ctrl+1…Ctrl+9 for the first nine, and written to the credits file so
// that the command line writes the same credits.

import CaptionLibrary
import CaptionMetadata
import Localization

@MainActor
final class PadChoice {
    nonisolated static let actionName = "stationery-pad"
    /// Ctrl+1…Ctrl+9: the pads in the menu's order.
    nonisolated static let shortcutCount = 9
    /// The action's word for no pad: the standing credits' own. A pad's name never is
    /// empty.
    nonisolated static let noPad = ""

    private let creditsFile: String
    private let action: SimpleAction
    /// The pads' radio items, a section of the primary menu while any pad exists.
    private let choices: ChoiceSection
    var section: Menu { choices.menu }
    /// The pads' names as the menu lists them, read again whenever the menu or a key may
    /// need them: a pad can be added by the command line while the window is open.
    var names: [String] { choices.names }
    /// The pad in use, nil for none.
    private(set) var current: String?
    /// Told with the credits a choice leaves in use.
    var onChange: ((CreditsFile.Reading) -> Void)?
    /// Told when the section appears or goes (the menu holds it only while pads exist).
    var onSectionNeeded: ((Bool) -> Void)? {
        get { choices.onNeeded }
        set { choices.onNeeded = newValue }
    }

    /// The choice's action and the nine keys' actions join `actions`.
    init(actions: ActionMap, creditsFile: String, current: String?) {
        self.creditsFile = creditsFile
        self.current = current
        // The first nine carry their key's digit as the mnemonic.
        choices = ChoiceSection(action: "win." + Self.actionName, none: (tr("_No Pad"), Self.noPad)) { index, name in
            index < Self.shortcutCount
                ? "_" + String(index + 1) + " " + ChoiceSection.escaped(name) : ChoiceSection.escaped(name)
        }
        action = SimpleAction(Self.actionName, chosen: current ?? Self.noPad)
        action.onActivate { [weak self] word in
            guard let self, let word else { return }
            self.choose(word == Self.noPad ? nil : word)
        }
        actions.add(action)
        for position in 1...Self.shortcutCount {
            let key = SimpleAction(Self.keyActionName(position))
            key.onActivate { [weak self] _ in self?.choose(at: position) }
            actions.add(key)
        }
    }

    /// "stationery-pad-3": the action of Ctrl+3.
    nonisolated static func keyActionName(_ position: Int) -> String { actionName + "-" + String(position) }

    /// Ctrl+1…Ctrl+9, each for its action.
    nonisolated static var accelerators: [(action: String, keys: [String])] {
        (1...shortcutCount).map { ("win." + keyActionName($0), ["<Control>" + String($0)]) }
    }

    /// Reads the pads' names again and rebuilds the menu's items.
    func refresh() {
        choices.show(StationeryPads.names(in: StationeryPads.folder(besides: creditsFile)))
    }

    /// The pad at `position` (1 for Ctrl+1) in the menu's order; nothing when there is none.
    func choose(at position: Int) {
        refresh()
        guard position >= 1, position <= names.count else {
            onMissing?(position)
            return
        }
        choose(names[position - 1])
    }

    /// Told when a key names a pad that does not exist (Ctrl+4 with three pads).
    var onMissing: ((Int) -> Void)?
    /// Told when the choice could not be written to the credits file.
    var onProblem: ((String) -> Void)?

    /// Makes `name` (nil: none) the pad in use, writes it down and hands its credits on;
    /// choosing the pad in use again says it again.
    func choose(_ name: String?) {
        if let problem = CreditsFile.usePad(name, in: creditsFile) {
            action.setState(chosen: current ?? Self.noPad)
            onProblem?(problem)
            return
        }
        current = name
        action.setState(chosen: name ?? Self.noPad)
        onChange?(StationeryPads.standing(creditsFile))
    }

    /// What is said as a pad is chosen: its name and what it writes, or that the standing
    /// credits are back.
    static func announcement(_ credits: StandingCredits) -> String {
        if let problem = credits.problem { return problem }
        guard let pad = credits.pad else {
            let line = credits.line(facts: nil)
            return line.isEmpty
                ? tr("No stationery pad: no credits are written")
                : tr("No stationery pad") + ". " + line
        }
        return credits.template.isEmpty
            ? fill(tr("The stationery pad “{pad}” sets no credits"), ["pad": pad])
            : credits.line(facts: nil)
    }
}
