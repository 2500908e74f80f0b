// The Caption window: a shell that builds the header and the two views from window.ui,
// makes the controllers (form, library, export), and routes the window's actions to them.

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import CaptionText
import FocusEngine
import Localization
import StartupTrace

@MainActor
@_spi(Benchmarks) public final class CaptionWindow {
    let window: Window
    let header: HeaderBar
    private let views: Stack
    let menuButton: MenuButton
    /// Caption | Library, in the header.
    let switcher: Widget
    let messages: MessageBar
    /// The window's life: what its parts post, time and ask the library ends with it.
    let lifetime = Lifetime()
    let notification: InAppNotification
    let library: LibraryAccess
    let form: FormController
    let libraryController: LibraryController
    let export: ExportController
    /// The watched folder, if any: its new photos join the queue.
    let watch: FolderWatch
    /// The action map holding the window's "win." actions.
    let actions: ActionMap
    /// Where captions go besides the library (the primary menu's choice).
    let destination: DestinationChoice
    /// The stationery pad in use (the primary menu's choice, Ctrl+1…Ctrl+9).
    let pads: PadChoice
    /// Where the window's size is remembered, and the size to remember.
    private let stateFile: String
    /// Where the standing credits are kept (Preferences and `--set-credits` write it).
    let creditsFile: String
    private(set) var geometry = WindowGeometry.standard

    /// `stateFile` is where the window size is remembered, `creditsFile` where the standing
    /// credits are (tests pass their own).
    init(application: GtkApp?, libraryLocation: String?, stateFile: String? = nil, creditsFile: String? = nil) {
        self.stateFile = stateFile ?? WindowStateFile.defaultPath
        self.creditsFile = creditsFile ?? CreditsFile.defaultPath
        library = LibraryAccess(location: libraryLocation, lifetime: lifetime)
        notification = InAppNotification(lifetime: lifetime)
        window = application?.newWindow() ?? Window.toplevel()
        window.title = "Caption"
        window.setIconName(CaptionApplication.id)

        StartupTrace.mark("window-start")
        let builder = Builder(EmbeddedResources.windowUI)
        StartupTrace.mark("window-ui")
        header = builder["header"]
        views = builder["views"]
        menuButton = builder["menu_button"]
        switcher = builder["switcher"]
        Self.letLabelsShorten(in: switcher)
        messages = MessageBar(builder)
        window.setTitlebar(header)
        let overlay: Widget = builder["overlay"]
        overlay.addOverlay(notification.widget)
        let page: Box = builder["page"]
        window.setContent(page)
        window.connect(.draw) { _ in RecentFiles.windowPainted() }
        // The toplevel's draw paints every widget in it: after it, the frame is drawn.
        window.connect(.draw, after: true) { _ in StartupTrace.mark("first-frame") }

        let formView = FormView(builder, fields: FormField.all)
        // Tab and the form's own focus moves scroll the field they reach into view.
        formView.page.scrollFocusIntoView(of: builder["form_scroller"])
        form = FormController(
            view: formView, library: library, window: window, header: header, messages: messages,
            notification: notification, lifetime: lifetime)
        // Read before the first frame, which shows them under the fields: a small file,
        // and a missing one is not opened.
        form.standingCredits = StandingCredits(StationeryPads.standing(self.creditsFile))
        WritingChoices.current = CreditsFile.writingChoices(self.creditsFile)
        form.settingsFile = self.creditsFile
        libraryController = LibraryController(
            page: builder["library_page"], library: library, notification: notification, messages: messages)
        export = ExportController(
            window: window, library: library, notification: notification, messages: messages, stateFile: self.stateFile)
        watch = FolderWatch(library: library, lifetime: lifetime)
        actions = ActionMap.of(window)
        destination = DestinationChoice(actions: actions, stateFile: self.stateFile)
        form.setDestination(destination.current)
        destination.onChange = { [weak form] in form?.setDestination($0) }
        pads = PadChoice(actions: actions, creditsFile: self.creditsFile, current: form.standingCredits.pad)
        window.setDefault(formView.activateButton)
        StartupTrace.mark("form-built")
        Style.install()
        ColorScheme.follow()
        StartupTrace.mark("style")

        connectControllers()
        installActions()
        connectWatch()
        installMenu()
        acceptDrops()
        connectKeys()
        rememberGeometry()
        StartupTrace.mark("window-built")
    }

    private func connectControllers() {
        views.connect(.notify("visible-child"), after: true) { [weak self] _ in
            guard let self else { return }
            self.messages.formIsShowing = !self.isShowingLibrary
            self.libraryController.setShowing(self.isShowingLibrary)
            // By the Caption tab too (a click leaves focus on the tab): typing goes into
            // the form's field, not nowhere.
            if !self.isShowingLibrary { self.form.resumeFocus() }
        }
        libraryController.onEdit = { [weak self] entry, path in self?.openForEditing(entry, photo: path) }
        form.onEditAgain = { [weak self] entry, path, words in self?.openForEditing(entry, photo: path, words: words) }
        libraryController.onLeave = { [weak self] in self?.showForm() }
        // The close button or Alt+F4: words still being composed go into the draft.
        window.connect(.deleteEvent) { [weak self] in
            self?.form.settleInputMethod()
            return false  // go on closing
        }
        // Closed by its button (or destroyed outright, as tests do), before GTK destroys the
        // children: the part of quitting that needs them happens now, and from here on no
        // late answer or timer touches them. close() does the rest once the main loop ends.
        window.connect(.destroy) { [weak self] in self?.finish() }
        // Done goes back to the library at once, the entry selected; the list shows its new
        // words once the update is in (the list's reload waits behind it on the library's
        // queue).
        form.onEditDone = { [weak self] entry in
            self?.libraryController.selectWhenShown(entry)
            self?.showLibrary()
        }
        // The offers follow: a deleted entry's words are offered no more.
        libraryController.onRemoved = { [weak self] entry in self?.form.removedFromLibrary(entry) }
    }

    /// Opens an entry in the form: one deliberate focus move, straight to Title, not through
    /// Choose Photo… (where the stack would send focus from the list), and with the words not
    /// selected, which a screen reader would read as a selection instead of the field. The
    /// photo is in the library, so everything is complete: Enter goes on through the fields
    /// and Done updates.
    private func openForEditing(_ entry: CaptionLibrary.Entry, photo path: String, words: CaptionWords? = nil) {
        form.withoutFocusMoves {
            form.edit(entry, photo: path, words: words)
            window.unsetFocus()
            showForm()
        }
        form.view.titleEntry.grabFocusWithoutSelecting()
    }

    /// The view switcher's labels ellipsize when the header is narrow (caption.css drops
    /// the buttons' minimum width), so that a 360 px header still holds every control.
    private static func letLabelsShorten(in switcher: Widget) {
        for button in switcher.children {
            guard let label = button.binChild.flatMap({ $0.as(Label.self) }) else { continue }
            label.ellipsize(PANGO_ELLIPSIZE_END)
        }
    }

    // MARK: Actions

    private func installActions() {
        for action in WindowAction.allCases where action != .quit {
            let simple: SimpleAction
            if action == .spellCheck {
                // A switch: its state is whether spell-checking is on, remembered.
                let on = WindowStateFile.spellCheck(stateFile)
                form.spelling.isOn = on
                simple = SimpleAction(action.rawValue, switchedOn: on)
                spellCheckAction = simple
            } else {
                simple = SimpleAction(action.rawValue)
            }
            if action == .stopWatching {
                simple.isEnabled = false
                stopWatchingAction = simple
            }
            if let direction = action.zoomMove {
                // Off until the view at 100 % shows: Alt and an arrow are the field's otherwise.
                simple.isEnabled = false
                moveActions.append(simple)
                simple.onActivate { [weak self] _ in self?.move(direction) }
            } else {
                simple.onActivate { [weak self] _ in self?.perform(action) }
            }
            actions.add(simple)
        }
        form.zoom.onChange = { [weak self] zoomed in
            for action in self?.moveActions ?? [] { action.isEnabled = zoomed }
        }
        // Said briefly, and only while it is still true (a notification with Undo goes first).
        form.zoom.onSay = { [weak self] text in
            guard let zoom = self?.form.zoom else { return }
            let zoomed = zoom.isZoomed
            self?.notification.showWhenFree(text, seconds: 2) { [weak zoom] in zoom?.isZoomed == zoomed }
        }
    }

    /// The actions that move the view at 100 %.
    private var moveActions: [SimpleAction] = []

    // MARK: The watched folder

    private var stopWatchingAction: SimpleAction?

    private func connectWatch() {
        watch.onArrive = { [weak self] in self?.form.enqueueArrivals($0) }
        watch.onDeleted = { [weak self] in self?.form.photoDeleted($0) }
        watch.onWaitingChange = { [weak self] in self?.form.refreshHeader() }
        // Said by the screen reader as a notification; it waits behind a save's Undo.
        watch.onAnnounce = { [weak self] names in
            guard let self else { return }
            self.notification.showWhenFree(Self.arrivals(names, queued: self.form.queuedPaths.count), seconds: 3) {
                true
            }
        }
        watch.onSettingChange = { [weak self] setting in
            guard let self else { return }
            self.stopWatchingAction?.isEnabled = setting != nil
            self.form.refreshHeader()
        }
        watch.onGone = { [weak self] setting in
            guard let self else { return }
            WindowStateFile.saveWatch(nil, since: 0, to: self.stateFile)
            self.messages.show(
                problem: tr("“{folder}” was deleted: it is no longer watched").replacing(
                    "{folder}", with: setting.folder))
        }
        form.headerNote = { [weak self] in self?.watch.waitingText }
        form.onShowing = { [weak self] path in self?.watch.shown(path) }
        // The watch of the last run goes on once the first frame is drawn: start-up opens
        // no folder.
        window.afterFirstDraw { [weak self] in
            self?.resumeWatching()
            self?.libraryController.prepareSearchAtStart()
        }
    }

    /// «“a.jpg” is new: 4 photos in the queue», or «3 new photos, the last “c.jpg”: 6 photos
    /// in the queue»: what came and how much waits, as a listener needs it.
    static func arrivals(_ names: [String], queued: Int) -> String {
        let queue = trn("{count} photo in the queue", "{count} photos in the queue", queued)
            .replacing("{count}", with: String(queued))
        guard names.count > 1, let last = names.last else {
            return tr("“{name}” is new: {queue}").replacing("{name}", with: names.first ?? "")
                .replacing("{queue}", with: queue)
        }
        return trn(
            "{count} new photo, the last “{name}”: {queue}", "{count} new photos, the last “{name}”: {queue}",
            names.count
        )
        .replacing("{count}", with: String(names.count)).replacing("{name}", with: last)
        .replacing("{queue}", with: queue)
    }

    private func resumeWatching() {
        guard watch.setting == nil, let saved = WindowStateFile.watch(stateFile) else { return }
        if !watch.start(saved.setting, since: saved.since) {
            messages.show(
                problem: tr("“{folder}” is no longer watched: it cannot be read")
                    .replacing("{folder}", with: saved.setting.folder))
            WindowStateFile.saveWatch(nil, since: 0, to: stateFile)
        }
    }

    private func chooseFolderToWatch() {
        let start = FolderChooser.startingFolder(
            last: watch.setting?.folder ?? WindowStateFile.watch(stateFile)?.setting.folder)
        FolderChooser.present(
            over: window, title: tr("Watch a Folder"), accept: tr("_Watch"), startingIn: start,
            option: tr("Include _subfolders")
        ) { [weak self] folder, subfolders in
            self?.startWatching(WatchSetting(folder: folder, subfolders: subfolders))
        }
    }

    /// Watches `setting`'s folder from now on, and remembers it; says so, or why not.
    @discardableResult
    func startWatching(_ setting: WatchSetting) -> Bool {
        let name = PhotoQueue.name(of: setting.folder)
        guard watch.start(setting) else {
            messages.show(
                problem: tr("“{folder}” cannot be watched: it cannot be read").replacing(
                    "{folder}", with: setting.folder))
            return false
        }
        WindowStateFile.saveWatch(setting, since: watch.startedAt, to: stateFile)
        notification.show(tr("Watching “{folder}”: new photos join the queue").replacing("{folder}", with: name))
        return true
    }

    private func stopWatching() {
        guard let setting = watch.setting else { return window.errorBell() }
        watch.stop()
        WindowStateFile.saveWatch(nil, since: 0, to: stateFile)
        notification.show(
            tr("No longer watching “{folder}”").replacing("{folder}", with: PhotoQueue.name(of: setting.folder)))
    }

    private func move(_ direction: ZoomView.Direction) {
        if !form.zoom.move(direction) { window.errorBell() }
    }

    private func perform(_ action: WindowAction) {
        switch action {
        case .save: form.send(.submit)
        case .open: form.choosePhoto()
        case .dismiss: messages.dismiss()
        // Right after a code was replaced, Ctrl+Z puts the code back; else it undoes a save.
        case .undo:
            // Said, so that a Ctrl+Z that does nothing is not taken for one that did.
            if !form.undoReplacement() && !form.undoPendingSave() && !notification.activateUndo() {
                notification.showWhenFree(tr("Nothing to undo"), seconds: 3) { true }
            }
        case .reuseField: onForm { $0.reuseLastCaption(both: false) }
        case .reuseCaption: onForm { $0.reuseLastCaption(both: true) }
        case .captionRest: onForm { $0.captionRestTheSame() }
        case .watchFolder: chooseFolderToWatch()
        case .stopWatching: stopWatching()
        case .nextPhoto: form.skip(by: 1)
        case .previousPhoto: form.skip(by: -1)
        case .zoom: onForm { if !$0.zoom.toggle() { window.errorBell() } }
        case .moveLeft, .moveRight, .moveUp, .moveDown: break  // move(_:)
        case .showShortcuts: showShortcuts()
        case .help: showHelp()
        case .about: showAbout()
        case .showMenu: menuButton.isActive.toggle()
        case .library: if isShowingLibrary { showForm() } else { showLibrary() }
        case .search: showLibrary(searching: true)
        case .export: export.chooseFolder()
        case .preferences: showPreferences()
        case .spellCheck: toggleSpellCheck()
        case .quit: break  // the application's
        }
    }

    /// An action of the form's words, while the form shows; the library's view has none.
    private func onForm(_ action: (FormController) -> Void) {
        if isShowingLibrary { window.errorBell() } else { action(form) }
    }

    /// The spell-checking switch's action, whose state is the switch.
    private var spellCheckAction: SimpleAction?

    private func toggleSpellCheck() {
        let on = !form.spelling.isOn
        form.spelling.isOn = on
        spellCheckAction?.setState(switchedOn: on)
        WindowStateFile.saveSpellCheck(on, to: stateFile)
        sayTheSwitch()
    }

    /// The Preferences window, one at a time: a second Ctrl+comma brings it forward.
    private(set) var preferences: PreferencesWindow?
    /// Set from Ctrl+comma until this window has the keyboard again: the keys typed after
    /// it that the display server still gave this window (Preferences not yet mapped and
    /// focused) are Preferences' keys.
    private var keysGoToPreferences = false
    /// Those keys, kept until Preferences has the keyboard: its list and buttons act on keys
    /// only then.
    private let keysForPreferences = HeldKeys()
    /// Preferences after Escape, kept on screen until this window has the keyboard back, so
    /// that no key typed after the Escape falls between the two windows.
    private var closedPreferences: PreferencesWindow?
    /// The keys it still got, kept until this window has the keyboard.
    private let keysForThisWindow = HeldKeys()
    /// A window manager that never gives a window the keyboard must not keep its keys
    /// forever: after this, they are handed over as they are.
    private static let keyboardWait: UInt32 = 2000

    func showPreferences() {
        keysGoToPreferences = true
        if let preferences { return preferences.window.present() }
        let preferences = PreferencesWindow(
            over: window, table: form.replacementTable, credits: form.standingCredits, creditsPath: creditsFile)
        preferences.onChange = { [weak self] table in self?.form.replacementTable = table }
        preferences.onCreditsChange = { [weak self] credits in self?.form.standingCredits = credits }
        preferences.onWritingChoicesChange = { WritingChoices.current = $0 }
        preferences.onCheckChoicesChange = { [weak self] in self?.form.checkChoices = $0 }
        preferences.onPadChosen = { [weak self] in self?.pads.choose($0) }
        preferences.onClose = { [weak self, weak preferences] in
            guard let self else { return }
            self.preferences = nil
            self.keysGoToPreferences = false
            // Closed by a key: kept on screen until the keyboard is here (closed by its
            // close button, GTK destroys it).
            if let preferences, preferences.isClosed { self.handBackTheKeyboard(from: preferences) }
        }
        preferences.onKeyAfterClose = { [weak self] event in
            guard let self else { return true }
            if self.window.isActive && self.keysForThisWindow.isEmpty { return self.window.handle(event) }
            self.keysForThisWindow.hold(event)
            return true
        }
        preferences.window.connect(.notify("is-active")) { [weak self, weak preferences] _ in
            guard let self, let preferences, preferences.window.isActive else { return }
            self.keysForPreferences.release(to: preferences.window)
        }
        self.preferences = preferences
        preferences.present()
    }

    /// A key typed for Preferences that came to this window: handed on at once once
    /// Preferences has the keyboard, else kept until it has.
    private func passToPreferences(_ event: KeyPress, _ preferences: PreferencesWindow) {
        if preferences.window.isActive && keysForPreferences.isEmpty {
            preferences.window.handle(event)
            return
        }
        if keysForPreferences.isEmpty {
            _ = lifetime.after(milliseconds: Self.keyboardWait) { [weak self, weak preferences] in
                guard let self, let preferences else { return }
                self.keysForPreferences.release(to: preferences.window)
            }
        }
        keysForPreferences.hold(event)
    }

    private func handBackTheKeyboard(from closed: PreferencesWindow) {
        dropClosedPreferences()
        closedPreferences = closed
        window.present()
        _ = lifetime.after(milliseconds: Self.keyboardWait) { [weak self, weak closed] in
            if let self, let closed, self.closedPreferences === closed { self.dropClosedPreferences() }
        }
    }

    /// This window has the keyboard (or waited long enough): the keys Preferences got after
    /// its Escape come here, in order, and Preferences goes.
    private func dropClosedPreferences() {
        keysForThisWindow.release(to: window)
        closedPreferences?.window.destroy()
        closedPreferences = nil
    }

    /// Activates one of the window's actions by name, as its shortcut would.
    public func activateAction(_ name: String) {
        actions.activate(name)
    }

    /// The primary menu (F10), from the table of actions.
    private func installMenu() {
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
                self.giveRoles(in: menuWidget)
                self.nameSections(of: menuWidget)
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
    private func giveRoles(in menuWidget: Widget) {
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
    private func nameSections(of menu: Widget) {
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
    private func connectPads() {
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

    /// The main menu's Check Spelling item, whose description says whether it is on.
    private var spellCheckMenuItem: Widget?

    private func sayTheSwitch() {
        spellCheckMenuItem?.accessibleDescription = form.spelling.isOn ? tr("On") : tr("Off")
    }

    /// Keys no widget took: Ctrl+V where no field pastes (the photo or the activate button
    /// has focus), and Escape, connected after the window's own handler, which gives the key
    /// to the focused widget (an input method, a popup) first.
    private func connectKeys() {
        window.connect(.notify("is-active")) { [weak self] _ in
            guard let self, self.window.isActive else { return }
            self.keysGoToPreferences = false
            // Keys still kept for a Preferences that never had the keyboard go to it first.
            if let preferences = self.preferences { self.keysForPreferences.release(to: preferences.window) }
            self.dropClosedPreferences()
        }
        // Before any widget or input method sees a key, the view is made what the keys
        // before it left it: the form's photo words read (FormController.beforeKey), the
        // library's search answered (LibraryController.answerSearch). It takes no key.
        window.connect(.keyPress, after: false) { [weak self] event in
            guard let self else { return false }
            if self.keysGoToPreferences, let preferences = self.preferences {
                self.passToPreferences(event, preferences)
                return true
            }
            if self.isShowingLibrary {
                self.libraryController.answerSearch(before: event)
            } else {
                self.form.beforeKey()
                if self.messages.takesMnemonic(event) { return true }
            }
            return false
        }
        window.connect(.keyPress, after: true) { [weak self] event in
            guard let self else { return false }
            let key = event.key
            if key == GDK_KEY_v || key == GDK_KEY_V, event.has(GDK_CONTROL_MASK) {
                if !self.form.pastePhoto() { self.window.errorBell() }
                return true
            }
            guard key == GDK_KEY_Escape else { return false }
            if self.isShowingLibrary {
                self.libraryController.escape()
            } else if self.form.zoom.isZoomed {
                // What the user last asked for goes first.
                self.form.zoom.zoomOut(saying: true)
            } else if self.messages.isShowing {
                self.messages.dismiss()
            } else if self.notification.isShowing {
                self.notification.hide()
            } else {
                return false
            }
            return true
        }
    }

    /// Files and image data dropped anywhere on the window join the queue.
    private func acceptDrops() {
        window.acceptFileAndImageDrops()
        window.connect(.dragDataReceived) { [weak self] selection in
            self?.form.receive(PhotoIntake.dropped(uris: selection.uris, image: selection.image))
        }
    }

    // MARK: Views

    var isShowingLibrary: Bool { views.visibleChildName == "library" }

    /// Shows the library with the list focused (or, `searching`, the search).
    func showLibrary(searching: Bool = false) {
        form.settleInputMethod()
        form.zoom.zoomOut()
        views.visibleChildName = "library"
        libraryController.focus(searching: searching)
    }

    func showForm() {
        views.visibleChildName = "form"
        form.focus(form.engine.focusedItem)
    }

    // MARK: The shortcuts window, About

    /// Every shortcut, from the table of actions (HelpWindows).
    @discardableResult
    func showShortcuts() -> Window { HelpWindows.showShortcuts(over: window) }

    func showAbout() { HelpWindows.showAbout(over: window) }

    /// The user's guide; when no help browser starts, the bar says why.
    func showHelp(uri: String = HelpWindows.guideURI) {
        if let reason = window.open(uri: uri) {
            messages.show(problem: fill(tr("The help could not be opened: {reason}"), ["reason": reason]))
        }
    }

    // MARK: Window size

    /// Restores the remembered size, and keeps track of it from then on.
    private func rememberGeometry() {
        geometry = WindowStateFile.load(stateFile) ?? .standard
        window.setDefaultSize(width: geometry.width, height: geometry.height)
        if geometry.maximized { window.maximize() }
        window.connect(.sizeAllocate, after: true) { [weak self] _ in
            guard let self else { return }
            let maximized = self.window.isMaximized
            self.geometry.maximized = maximized
            guard !maximized else { return }  // keep the size to come back to
            (self.geometry.width, self.geometry.height) = self.window.size
        }
    }

    // MARK: Starting and ending

    /// Shows the window as the application opens it: nothing chosen yet, so focus on the
    /// photo button; then a draft of an earlier run, if any, comes back.
    func present(restoringDraft: Bool) {
        window.showAll()
        form.send(.focus(nil))
        form.view.photoButton.grabFocus()
        if restoringDraft { form.drafts.restore() }
    }

    /// The part of the window's end that needs its widgets, once: at its destroy (closed by
    /// its button), or at quit (Ctrl+Q) while it lives. The window's lifetime ends first, so
    /// nothing arriving from now on (a library answer, a timer, a decoded photo, a key the
    /// form would act on) runs; then what was deleted goes and what is typed is written.
    private func finish() {
        guard !lifetime.isOver else { return }
        lifetime.end()
        notification.finish()
        form.finish()
        libraryController.setShowing(false)
    }

    /// Quitting: the window's end, the waiting saves into the library, the size remembered.
    /// A window closed by its button is destroyed, its widgets freed, by the time this runs.
    func close() {
        // Ctrl+Q leaves the window alive: words still being composed go into the draft.
        if !lifetime.isOver { form.settleInputMethod() }
        finish()
        form.storeWaiting()
        library.drain()
        WindowStateFile.save(geometry, to: stateFile)
    }
}

/// What the view benchmark (caption-view-bench, a release build, where `@testable` is not
/// available) reaches: the window itself, the library list, and ways to drive it.
extension CaptionWindow {
    /// A window of no application, as the benchmarks and tests open one.
    public convenience init(libraryLocation: String?, stateFile: String? = nil) {
        self.init(application: nil, libraryLocation: libraryLocation, stateFile: stateFile)
    }
    public var libraryRowCount: Int { libraryController.view.entries.count }
    public var librarySelectedRow: Int? { libraryController.view.selectedRow }
    /// Whether every page of the list is in.
    public var libraryListComplete: Bool { !libraryController.view.hasMore }
    public var onLibraryShown: (() -> Void)? {
        get { libraryController.onShown }
        set { libraryController.onShown = newValue }
    }
    public func searchLibrary(_ text: String) {
        libraryController.view.searchEntry.text = text
    }
    public func showLibraryView() { showLibrary() }
    public func reloadLibrary() { libraryController.reload() }
    /// The Preferences window while it is open, the rows its list shows, its search.
    public var preferencesRowCount: Int { preferences?.shown.count ?? 0 }
    public func searchPreferences(_ text: String) { preferences?.searchField.text = text }
    public func closePreferences() { preferences?.close() }
    /// A photo on the form; `onPhotoChecked` runs once it is checked whole.
    public func openPhoto(_ path: String) { form.openPhoto(path) }
    public var onPhotoChecked: (() -> Void)? {
        get { form.onPhotoSettled }
        set { form.onPhotoSettled = newValue }
    }
    /// The view at 100 %: whether it shows, and a call once its full-size pixels are painted.
    public var isZoomed: Bool { form.zoom.isZoomed }
    public var onZoomSharp: (() -> Void)? {
        get { form.zoom.onSharp }
        set { form.zoom.onSharp = newValue }
    }
}
