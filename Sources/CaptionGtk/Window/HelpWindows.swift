// The keyboard shortcuts window, built from the table of actions into Resources/shortcuts.ui,
// the About dialog, and where the user's guide is.

import CGtk
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
enum HelpWindows {
    /// The user's guide: as installed under share/help/LANG/caption (`help:caption`; the
    /// help browser picks the language); run from a build, before installing, the source
    /// tree's help/C, so that F1 opens the guide there too, not "Document Not Found".
    static var guideURI: String { guideURI(runningFrom: POSIXFiles.executableDirectory) }

    /// The guide for a program in `folder`: installed (`…/bin`), or in a build inside a
    /// checkout, whose help/C is up to four folders above (`.build/TRIPLE/debug`).
    static func guideURI(runningFrom folder: String?) -> String {
        guard var folder, !folder.hasSuffix("/bin") else { return "help:caption" }
        for _ in 0..<4 {
            guard let slash = folder.lastIndex(of: "/"), slash != folder.startIndex else { break }
            folder = String(folder[..<slash])
            if access(folder + "/help/C/index.page", R_OK) == 0 { return "ghelp:" + folder + "/help/C" }
        }
        return "help:caption"
    }

    /// Every shortcut, from the table of actions, in the groups of shortcuts.ui.
    @discardableResult
    static func showShortcuts(over window: Window) -> Window {
        let builder = Builder(EmbeddedResources.shortcutsUI)
        let shortcuts: Window = builder["shortcuts"]
        for line in ShortcutLine.all {
            let group: Widget = builder[line.section.rawValue]
            let shortcut = Widget.shortcut(line.accelerator, title: line.title)
            // GTK 3's shortcut lines are labels that Tab never reaches, so a screen reader
            // user could not read them: each line takes focus and is named "Save: Ctrl+S".
            shortcut.setCanFocus(true)
            shortcut.accessibleName = Self.spoken(line)
            group.add(shortcut)
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
        let keys = line.accelerator.split(separator: " ").compactMap { Keys.label(ofAccelerator: String($0)) }
        return line.title + ": " + keys.joined(separator: ", ")
    }

    static func showAbout(over window: Window) {
        AboutDialog.show(
            AboutDialog.Facts(
                programName: "Caption", version: CaptionApplication.version,
                comments: tr("Give photos a title and a subtitle without touching the mouse"),
                logoIconName: CaptionApplication.id, website: "https://github.com/caption-app/caption",
                copyright: "© 2026 Caption developers", translatorCredits: tr("translator-credits")),
            over: window)
    }
}
