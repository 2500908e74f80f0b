// The primary menu's choice of where captions go besides the library (library only, also in
// the photo file, also in a sidecar): a stateful action, remembered in the state file.

import CGtk
import CaptionMetadata
import Localization

@MainActor
final class DestinationChoice {
    static let actionName = "caption-destination"
    private let stateFile: String
    private let action: UnsafeMutableRawPointer
    /// nil: the library only.
    private(set) var current: CaptionDestination?
    /// Told of each change (the form shows where the next caption goes).
    var onChange: ((CaptionDestination?) -> Void)?
    /// The action's state, and the state file's word, for the library only.
    nonisolated static let libraryOnly = "library"

    /// The action joins `actions` (the window's "win." map); the remembered choice, or the
    /// library only, is where it starts.
    init(actions: gpointer, stateFile: String) {
        self.stateFile = stateFile
        current = WindowStateFile.loadDestination(stateFile) ?? nil
        let type = g_variant_type_new("s")
        // GLib aborts rather than return NULL from a constructor.
        action = UnsafeMutableRawPointer(
            g_simple_action_new_stateful(Self.actionName, type, g_variant_new_string(Self.word(current)))!)
        g_variant_type_free(type)
        action.connect(.actionActivate) { [weak self] parameter in
            guard let self, let parameter else { return }
            let word = String(cString: g_variant_get_string(OpaquePointer(parameter), nil))
            guard word == Self.libraryOnly || CaptionDestination(rawValue: word) != nil else { return }
            self.choose(CaptionDestination(rawValue: word))
        }
        g_action_map_add_action(caption_action_map(actions), OpaquePointer(action))
        g_object_unref(action)  // the map holds it
    }

    /// Sets and remembers the choice (the menu's radio items follow the action's state).
    func choose(_ destination: CaptionDestination?) {
        g_simple_action_set_state(OpaquePointer(action), g_variant_new_string(Self.word(destination)))
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
    static func menuSection() -> OpaquePointer {
        let section = g_menu_new()!
        for destination in choices {
            let item = g_menu_item_new(label(destination), nil)!
            g_menu_item_set_action_and_target_value(
                item, "win." + actionName, g_variant_new_string(word(destination)))
            g_menu_append_item(section, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        return section
    }
}
