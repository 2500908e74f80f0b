// The window's actions (WindowAction): each one's SimpleAction, what it does, and the
// spell-checking switch they share with the menu.

import Localization

extension CaptionWindow {
    func installActions() {
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

    func move(_ direction: ZoomView.Direction) {
        if !form.zoom.move(direction) { window.errorBell() }
    }

    func perform(_ action: WindowAction) {
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
    func onForm(_ action: (FormController) -> Void) {
        if isShowingLibrary { window.errorBell() } else { action(form) }
    }

    func toggleSpellCheck() {
        let on = !form.spelling.isOn
        form.spelling.isOn = on
        spellCheckAction?.setState(switchedOn: on)
        WindowStateFile.saveSpellCheck(on, to: stateFile)
        sayTheSwitch()
    }

    func sayTheSwitch() {
        spellCheckMenuItem?.accessibleDescription = form.spelling.isOn ? tr("On") : tr("Off")
    }
}
