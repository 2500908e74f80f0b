// The primary menu's choice of where captions go besides the library (library only, also in
// the photo file, also in a sidecar): a stateful action, remembered in the state file.

import CaptionMetadata
import Localization

@MainActor
final class DestinationChoice {
    static let actionName = "caption-destination"
    private let stateFile: String
    private let action: SimpleAction
    /// nil: the library only.
    private(set) var current: CaptionDestination?
    /// Told of each change (the form shows where the next caption goes).
    var onChange: ((CaptionDestination?) -> Void)?
    /// The action's state, and the state file's word, for the library only.
    nonisolated static let libraryOnly = "library"

    /// The action joins `actions` (the window's "win." map); the remembered choice, or the
    /// library only, is where it starts.
    init(actions: ActionMap, stateFile: String) {
        self.stateFile = stateFile
        current = WindowStateFile.loadDestination(stateFile) ?? nil
        action = SimpleAction(Self.actionName, chosen: Self.word(current))
        action.onActivate { [weak self] word in
            guard let self, let word, word == Self.libraryOnly || CaptionDestination(rawValue: word) != nil else {
                return
            }
            self.choose(CaptionDestination(rawValue: word))
        }
        actions.add(action)
    }

    /// Sets and remembers the choice (the menu's radio items follow the action's state).
    func choose(_ destination: CaptionDestination?) {
        action.setState(chosen: Self.word(destination))
        guard destination != current else { return }
        current = destination
        WindowStateFile.saveDestination(destination, to: stateFile)
        onChange?(destination)
    }

    nonisolated static func word(_ destination: CaptionDestination?) -> String { destination?.rawValue ?? libraryOnly }

    static func label(_ destination: CaptionDestination?) -> String {
        switch destination {
        case nil: tr("In Caption's _Library Only")
        case .photo: tr("Also in the _Photo File")
        case .sidecar: tr("Also in an XMP _Sidecar Beside the Photo")
        }
    }

    /// The menu's choices in order: the library only, then each destination.
    static let choices: [CaptionDestination?] = [nil] + CaptionDestination.allCases.map(Optional.some)

    /// The menu section of three radio items, for the primary menu.
    static func menuSection() -> Menu {
        let section = Menu()
        for destination in choices {
            section.append(label(destination), action: "win." + actionName, word: word(destination))
        }
        return section
    }
}
