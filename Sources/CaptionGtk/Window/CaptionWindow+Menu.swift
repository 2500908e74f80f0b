// The primary menu (F10): its sections from the table of actions, read as a menu by a
// screen reader, and the stationery pads chosen from it or by Ctrl+1…9.

import CGtk
import CaptionLibrary
import CaptionText
import Localization

extension CaptionWindow {
    /// The primary menu (F10), from the table of actions.
    func installMenu() {
        let menu = Menu()
        // Where captions go, first: the one setting, remembered (radio items).
        menu.appendSection(tr("Captions Go"), DestinationChoice.menuSection())
        // The pads, second, while there are any: their folder is read as the menu opens,
        // not before the first frame.
        pads.onSectionNeeded = { [weak self] needed in
            guard let self else { return }
            if needed { menu.insertSection(tr("Stationery Pad"), self.pads.section, at: 1) } else { menu.remove(at: 1) }
        }
        connectPads()
        // Where saved photos are sent, after the pads, while any destination exists.
        sending.onSectionNeeded = { [weak self] needed in
            guard let self else { return }
            let position = self.pads.names.isEmpty ? 1 : 2
            if needed {
                menu.insertSection(tr("Send Saved Photos To"), self.sending.section, at: position)
            } else {
                menu.remove(at: position)
            }
        }
        let actionsSection = Menu()
        for action in WindowAction.allCases {
            if let label = action.menuLabel { actionsSection.append(label, action: action.detailedName) }
        }
        menu.appendSection(nil, actionsSection)
        menu.attach(to: menuButton)
        // GTK 3 builds the menu of buttons that screen readers call push buttons: they are
        // menu items, in a menu.
        if let menuWidget = menuButton.popover {
            menuWidget.setAccessibleRole(ATK_ROLE_MENU)
            menuWidget.accessibleName = tr("Main Menu")
            giveRoles(in: menuWidget)
            // GTK puts a section's heading in place in an idle after building the menu: it
            // is there by the time the menu shows. The pads are read again first: one may
            // have been added from the command line.
            menuWidget.connect(.show) { [weak self] in
                guard let self else { return }
                self.pads.refresh()
                self.sending.refresh()
                self.giveRoles(in: menuWidget)
                self.nameSections(of: menuWidget)
                // A section the refresh just added gets its items and heading in GTK's
                // idle: they are named once it has run.
                self.lifetime.afterPendingEvents { [weak self] in
                    self?.giveRoles(in: menuWidget)
                    self?.nameSections(of: menuWidget)
                }
            }
            // Home and End go to the first and last item, as in any menu; GTK 3's popover
            // menu leaves them to nothing.
            menuWidget.connect(.keyPress, after: false) { event in
                let key = event.key
                let items = menuWidget.descendants(ofType: "GtkModelButton")
                let reachable = items.filter { $0.isVisible && $0.isSensitive }
                let home = key == GDK_KEY_Home || key == GDK_KEY_KP_Home
                let end = key == GDK_KEY_End || key == GDK_KEY_KP_End
                guard home || end, let item = home ? reachable.first : reachable.last else { return false }
                item.grabFocus()
                return true
            }
        }
        sayTheSwitch()
    }

    /// Where captions go and the stationery pad are choices: radio items, whose state is
    /// read. A switch (Check Spelling) is a check menu item; GTK 3's model button gives it
    /// no checked state, so its description says On or Off.
    func giveRoles(in menuWidget: Widget) {
        for item in menuWidget.descendants(ofType: "GtkModelButton") {
            let role = item.modelButtonRole
            let radio = role == GTK_BUTTON_ROLE_RADIO
            let check = role == GTK_BUTTON_ROLE_CHECK
            item.setAccessibleRole(
                radio ? ATK_ROLE_RADIO_MENU_ITEM : check ? ATK_ROLE_CHECK_MENU_ITEM : ATK_ROLE_MENU_ITEM)
            if check { spellCheckMenuItem = item }
        }
    }

    /// A section's heading ("Captions Go") is a label above its items that Tab and the arrows
    /// never reach. The section is named after it, so that a screen reader says it as focus
    /// enters the section, as it says a group box's name.
    func nameSections(of menu: Widget) {
        for box in menu.descendants(ofType: "GtkMenuSectionBox") {
            // The heading sits in a box of its own (with a separator line) at the top of the
            // section; a section of nested sections has none of its own.
            let heading = box.children.first.flatMap { header in
                header.children.compactMap { $0.as(Label.self) }.first
            }
            guard let heading, !heading.text.isEmpty else { continue }
            box.setAccessibleRole(ATK_ROLE_PANEL)
            box.accessibleName = heading.text
        }
    }

    /// A pad chosen: its credits go with the next save, the line under the fields shows
    /// them, and the notification says them (to a screen reader too) while the keyboard
    /// stays in the field.
    func connectPads() {
        pads.onChange = { [weak self] reading in
            guard let self else { return }
            let credits = StandingCredits(reading)
            self.form.standingCredits = credits
            self.preferences?.showCredits(credits)
            // Said here, now: not said again as the form is next reached.
            self.form.forgetCreditsNews()
            let pad = credits.pad
            self.notification.showWhenFree(PadChoice.announcement(credits), seconds: 4) { [weak self] in
                self?.pads.current == pad
            }
        }
        pads.onMissing = { [weak self] position in
            guard let self else { return }
            let count = self.pads.names.count
            let text =
                count == 0
                ? tr("There is no stationery pad yet: Preferences or caption --add-pad makes one")
                : fill(
                    trn(
                        "There is no stationery pad {position}: there is {count}",
                        "There is no stationery pad {position}: there are {count}", count),
                    ["position": String(position), "count": String(count)])
            self.notification.showWhenFree(text, seconds: 4) { true }
        }
        pads.onProblem = { [weak self] problem in
            guard let self else { return }
            self.notification.showWhenFree(problem, seconds: 6) { true }
            self.preferences?.showCredits(self.form.standingCredits)
        }
    }
}
