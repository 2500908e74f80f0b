// The watched folder: photos that appear in it join the queue; chosen, resumed after a
// restart and stopped from the main menu or the command line.

import CaptionQueue
import Localization

extension CaptionWindow {
    func connectWatch() {
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
        form.headerNote = { [weak self] in self?.headerNote() }
        form.onShowing = { [weak self] path in self?.watch.shown(path) }
        // The watch of the last run goes on once the first frame is drawn: start-up opens
        // no folder.
        window.afterFirstDraw { [weak self] in
            self?.resumeWatching()
            self?.libraryController.prepareSearchAtStart()
        }
    }

    func resumeWatching() {
        guard watch.setting == nil, let saved = WindowStateFile.watch(stateFile) else { return }
        if !watch.start(saved.setting, since: saved.since) {
            messages.show(
                problem: tr("“{folder}” is no longer watched: it cannot be read")
                    .replacing("{folder}", with: saved.setting.folder))
            WindowStateFile.saveWatch(nil, since: 0, to: stateFile)
        }
    }

    func chooseFolderToWatch() {
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

    func stopWatching() {
        guard let setting = watch.setting else { return window.errorBell() }
        watch.stop()
        WindowStateFile.saveWatch(nil, since: 0, to: stateFile)
        notification.show(
            tr("No longer watching “{folder}”").replacing("{folder}", with: PhotoQueue.name(of: setting.folder)))
    }
}
