// Every action of the window, declared once: its name, its keys, its menu entry and where
// the shortcuts window lists it. The accelerators, the primary menu and the shortcuts
// window are all built from this table.

import Localization

/// The groups of the shortcuts window (Resources/shortcuts.ui has one per case).
enum ShortcutSection: String, CaseIterable {
    case captioning, photos, library, general
}

enum WindowAction: String, CaseIterable {
    case save
    case open
    case undo
    /// Ctrl+D: the focused field takes the same field of the last saved caption.
    case reuseField = "reuse-field"
    /// Ctrl+Shift+D: both fields take the last saved caption's words.
    case reuseCaption = "reuse-caption"
    /// The words on the form go with every photo of the queue that has none of its own.
    case captionRest = "caption-rest"
    case nextPhoto = "next-photo"
    case previousPhoto = "previous-photo"
    /// The photo at 100 %, or back to the whole photo.
    case zoom
    /// Moving the view at 100 %: enabled only while it shows, so that otherwise the keys
    /// reach the focused field.
    case moveLeft = "move-left"
    case moveRight = "move-right"
    case moveUp = "move-up"
    case moveDown = "move-down"
    case library
    case search
    case export
    /// Photos that appear in a folder join the queue (FolderWatch).
    case watchFolder = "watch-folder"
    /// Enabled only while a folder is watched.
    case stopWatching = "stop-watching"
    case preferences
    /// A switch: its menu entry shows a check mark.
    case spellCheck = "spell-check"
    case dismiss
    case showMenu = "show-menu"
    case showShortcuts = "show-shortcuts"
    /// F1: the user's guide in the help browser.
    case help
    case about
    /// The application's, not the window's: it ends every window.
    case quit

    /// The name as GTK knows it, with its group: "win.save", "app.quit".
    var detailedName: String { (self == .quit ? "app." : "win.") + rawValue }

    var accelerators: [String] {
        switch self {
        case .save: ["<Control>s", "<Control>Return", "<Control>KP_Enter"]
        case .open: ["<Control>o"]
        case .undo: ["<Control>z"]
        case .reuseField: ["<Control>d"]
        case .reuseCaption: ["<Control><Shift>d"]
        // A menu entry, not a key: it saves a whole queue in one step.
        case .captionRest: []
        case .watchFolder, .stopWatching: []
        case .nextPhoto: ["<Control>Page_Down"]
        case .previousPhoto: ["<Control>Page_Up"]
        // As in GNOME's image viewers; no field takes Ctrl with + or =, so it works while typing.
        case .zoom: ["<Control>plus", "<Control>equal", "<Control>KP_Add"]
        // Alt and an arrow: the arrows alone and with Ctrl move the caret.
        case .moveLeft: ["<Alt>Left"]
        case .moveRight: ["<Alt>Right"]
        case .moveUp: ["<Alt>Up"]
        case .moveDown: ["<Alt>Down"]
        case .library: ["<Control>l"]
        case .search: ["<Control>f"]
        case .export: ["<Control>e"]
        case .preferences: ["<Control>comma"]
        case .spellCheck: []
        case .showMenu: ["F10"]
        case .showShortcuts: ["<Control>question"]
        case .help: ["F1"]
        // GNOME's applications give About no key: F1 is help.
        case .about: []
        case .quit: ["<Control>q"]
        // Escape reaches the bar through the window's key handler, after every widget
        // that wants it (an input method, a popup) had its turn.
        case .dismiss: []
        }
    }

    /// The entry in the primary menu, if it has one.
    var menuLabel: String? {
        switch self {
        case .captionRest: tr("Caption the _Rest of the Queue the Same")
        case .watchFolder: tr("_Watch a Folder…")
        case .stopWatching: tr("Stop Watching the _Folder")
        case .export: tr("_Export All to a Folder…")
        case .preferences: tr("_Preferences")
        case .spellCheck: tr("Check _Spelling")
        case .showShortcuts: tr("_Keyboard Shortcuts")
        case .help: tr("_Help")
        case .about: tr("_About Caption")
        default: nil
        }
    }

    /// Where and how the shortcuts window lists it.
    var shortcut: (section: ShortcutSection, title: String)? {
        switch self {
        case .save: (.captioning, tr("Save"))
        case .undo: (.captioning, tr("Undo the last save"))
        case .reuseField: (.captioning, tr("Fill the field with the last saved caption’s"))
        case .reuseCaption: (.captioning, tr("Fill both fields with the last saved caption"))
        case .open: (.photos, tr("Choose photos"))
        case .export: (.photos, tr("Export every entry to a folder"))
        case .nextPhoto: (.photos, tr("Next photo in the queue"))
        case .previousPhoto: (.photos, tr("Previous photo in the queue"))
        case .zoom: (.photos, tr("Show the photo at 100 %, or the whole photo again (Escape too)"))
        // One line for the four: ShortcutLine.all joins their keys.
        case .moveLeft, .moveRight, .moveUp, .moveDown: (.photos, tr("Move around the photo at 100 %"))
        case .library: (.library, tr("Show the library, or go back to the form"))
        case .search: (.library, tr("Search the library"))
        case .preferences: (.general, tr("Preferences: code replacements"))
        case .showMenu: (.general, tr("Main menu"))
        case .showShortcuts: (.general, tr("Keyboard shortcuts"))
        case .help: (.general, tr("Help"))
        case .quit: (.general, tr("Quit"))
        case .dismiss, .captionRest, .spellCheck, .about, .watchFolder, .stopWatching: nil
        }
    }
}

/// Keys that belong to widgets rather than to actions (Enter is the entry's activate, Ctrl+V
/// the entry's paste): listed in the shortcuts window beside the actions.
enum WidgetKey: CaseIterable {
    case enter, back, offers, paste, escape, delete
    /// Ctrl+1…Ctrl+9: the stationery pads (PadChoice's actions, not the table's).
    case pads

    var accelerator: String {
        switch self {
        case .enter: "Return"
        case .back: "<Shift>Return"
        case .offers: "Down Up"
        case .paste: "<Control>v"
        case .escape: "Escape"
        case .delete: "Delete"
        case .pads: "<Control>1...9"
        }
    }

    var shortcut: (section: ShortcutSection, title: String) {
        switch self {
        case .enter: (.captioning, tr("Next field, or save when everything is filled"))
        case .back: (.captioning, tr("Previous field"))
        case .offers: (.captioning, tr("Choose an earlier caption offered under the field; Enter takes it"))
        case .escape: (.captioning, tr("Hide the message"))
        case .paste: (.photos, tr("Paste a photo"))
        case .delete: (.library, tr("Delete the selected entry"))
        case .pads: (.captioning, tr("Use the first to ninth stationery pad of the main menu"))
        }
    }
}

/// One line of the shortcuts window.
struct ShortcutLine: Equatable {
    let section: ShortcutSection
    /// Space-separated, as GtkShortcutsShortcut takes them.
    let accelerator: String
    let title: String

    /// Every line, in table order: the widgets' keys first within a section, then the actions.
    /// Actions that share a line (the four moves) give it all their keys.
    static var all: [ShortcutLine] {
        let keys = WidgetKey.allCases.map {
            ShortcutLine(section: $0.shortcut.section, accelerator: $0.accelerator, title: $0.shortcut.title)
        }
        var actions: [ShortcutLine] = []
        for action in WindowAction.allCases {
            guard let shortcut = action.shortcut else { continue }
            let accelerator = action.accelerators.joined(separator: " ")
            if let last = actions.last, last.section == shortcut.section, last.title == shortcut.title {
                actions[actions.count - 1] = ShortcutLine(
                    section: last.section, accelerator: last.accelerator + " " + accelerator, title: last.title)
            } else {
                actions.append(ShortcutLine(section: shortcut.section, accelerator: accelerator, title: shortcut.title))
            }
        }
        let lines = keys + actions
        return ShortcutSection.allCases.flatMap { section in lines.filter { $0.section == section } }
    }
}

extension WindowAction {
    /// The way a move action takes the view at 100 %.
    var zoomMove: ZoomView.Direction? {
        switch self {
        case .moveLeft: .left
        case .moveRight: .right
        case .moveUp: .up
        case .moveDown: .down
        default: nil
        }
    }
}
