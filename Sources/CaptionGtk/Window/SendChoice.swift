// The primary menu's choice of where each saved photo is sent (radio items, shown once a
// destination exists), remembered in the state file for the next day's work.

import CaptionSending
import Localization

@MainActor
final class SendChoice {
    nonisolated static let actionName = "send-to"
    /// The action's word for sending nowhere; a destination's name never is empty.
    nonisolated static let nowhere = ""

    private let stateFile: String
    private let destinationsFile: String
    private let action: SimpleAction
    /// The destinations' radio items, a section of the primary menu while any exists.
    private let choices = ChoiceSection(
        action: "win." + SendChoice.actionName, none: (tr("Send _Nowhere"), SendChoice.nowhere)
    ) { _, name in ChoiceSection.escaped(name) }
    var section: Menu { choices.menu }
    /// The destinations' names as the menu lists them, read again as the menu opens: one
    /// can be added by the command line while the window is open.
    var names: [String] { choices.names }
    /// The destination each saved photo goes to; nil: none.
    private(set) var current: String?
    /// Told of each choice.
    var onChange: ((String?) -> Void)?
    /// Told when the section appears or goes.
    var onSectionNeeded: ((Bool) -> Void)? {
        get { choices.onNeeded }
        set { choices.onNeeded = newValue }
    }

    init(actions: ActionMap, stateFile: String, destinationsFile: String) {
        self.stateFile = stateFile
        self.destinationsFile = destinationsFile
        current = WindowStateFile.sendDestination(stateFile)
        action = SimpleAction(Self.actionName, chosen: current ?? Self.nowhere)
        action.onActivate { [weak self] word in
            guard let self, let word else { return }
            self.choose(word == Self.nowhere ? nil : word)
        }
        actions.add(action)
    }

    /// The destinations' file in the folder of `creditsFile`: `caption --add-destination`
    /// writes it there (`DestinationFile.defaultPath`), beside the standing credits.
    nonisolated static func destinationsFile(besides creditsFile: String) -> String {
        let folder = creditsFile.lastIndex(of: "/").map { String(creditsFile[..<$0]) } ?? "."
        return folder + "/destinations.ini"
    }

    /// Reads the destinations again and rebuilds the menu's items.
    func refresh() {
        choices.show(DestinationFile.read(destinationsFile).destinations.map(\.name))
    }

    /// Makes `name` (nil: none) where saved photos go from now on, and remembers it.
    func choose(_ name: String?) {
        action.setState(chosen: name ?? Self.nowhere)
        guard name != current else { return }
        current = name
        WindowStateFile.saveSendDestination(name, to: stateFile)
        onChange?(name)
    }
}
