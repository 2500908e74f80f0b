// The keyboard shortcuts window, built from the table of actions into Resources/shortcuts.ui,
// the About dialog, and where the user's guide is.

import CGtk
import Localization

@MainActor
enum HelpWindows {
    /// The user's guide as installed under share/help/LANG/caption (the help browser picks
    /// the language).
    static let guideURI = "help:caption"

    /// Every shortcut, from the table of actions, in the groups of shortcuts.ui.
    @discardableResult
    static func showShortcuts(over window: Window) -> Window {
        let builder = Builder(EmbeddedResources.shortcutsUI)
        let shortcuts: Window = builder["shortcuts"]
        for line in ShortcutLine.all {
            let group: Widget = builder[line.section.rawValue]
            let shortcut = Widget(unchecked: caption_shortcut_new(line.accelerator, line.title))
            // GTK 3's shortcut lines are labels that Tab never reaches, so a screen reader
            // user could not read them: each line takes focus and is named "Save: Ctrl+S".
            gtk_widget_set_can_focus(shortcut.pointer, 1)
            shortcut.accessibleName = Self.spoken(line)
            gtk_container_add(caption_container(group.pointer), shortcut.pointer)
        }
        // Named: a screen reader would otherwise say only «frame».
        shortcuts.accessibleName = tr("Keyboard shortcuts")
        // Its search button shows only an icon: «toggle button» alone, unnamed.
        for button in shortcuts.asWidget.descendants(ofType: "GtkToggleButton") where button.accessibleName.isEmpty {
            button.accessibleName = tr("Search Shortcuts")
        }
        window.adopt(shortcuts)
        shortcuts.showAll()
        return shortcuts
    }

    /// "Save: Ctrl+S, Ctrl+Return": a shortcut line's title and keys as GTK labels them.
    private static func spoken(_ line: ShortcutLine) -> String {
        let keys = line.accelerator.split(separator: " ").compactMap { accelerator -> String? in
            var key: guint = 0
            var modifiers = GdkModifierType(rawValue: 0)
            gtk_accelerator_parse(String(accelerator), &key, &modifiers)
            guard key != 0 else { return nil }
            return takeString(gtk_accelerator_get_label(key, modifiers))
        }
        return line.title + ": " + keys.joined(separator: ", ")
    }

    static func showAbout(over window: Window) {
        let about = Window(unchecked: gtk_about_dialog_new())
        let dialog = caption_about_dialog(about.pointer)
        gtk_about_dialog_set_program_name(dialog, "Caption")
        gtk_about_dialog_set_version(dialog, CaptionApplication.version)
        gtk_about_dialog_set_comments(dialog, tr("Give photos a title and a subtitle without touching the mouse"))
        gtk_about_dialog_set_logo_icon_name(dialog, CaptionApplication.id)
        gtk_about_dialog_set_website(dialog, "https://github.com/caption-app/caption")
        gtk_about_dialog_set_license_type(dialog, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_copyright(dialog, "© 2026 Caption developers")
        gtk_about_dialog_set_translator_credits(dialog, tr("translator-credits"))
        window.adopt(about, modal: true)
        about.connect(.response) { _ in gtk_widget_destroy(about.pointer) }
        about.show()
    }
}
