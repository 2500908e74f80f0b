// Sending as you go, in the window: the menu's choice of destination handed to the sender,
// each new entry sent, the header saying what is on its way, the queue of the last run
// resumed once the window is up.

import CaptionLibrary
import Localization

extension CaptionWindow {
    func connectSending() {
        sender.destination = sending.current
        sending.onChange = { [weak self] name in
            guard let self else { return }
            self.sender.destination = name
            let text =
                name.map { fill(tr("Each photo saved is sent to {destination}"), ["destination": $0]) }
                ?? tr("Photos saved are sent nowhere")
            self.notification.showWhenFree(text, seconds: 4) { true }
        }
        form.saves.onAdded = { [weak self] entry in self?.sender.saved(entry) }
        sender.onHeaderChanged = { [weak self] in self?.form.refreshHeader() }
        // Not before the first frame: sending loads libcurl and asks the keyring. The menu's
        // section is made then too, so that it is whole when the menu first opens.
        window.afterFirstDraw { [weak self] in
            self?.sending.refresh()
            self?.sender.resumeWaiting()
        }
    }

    /// What the header says after the queue's position: the photos from a watched folder
    /// still waiting, and those on their way to the agency.
    func headerNote() -> String? {
        let parts = [watch.waitingText, sender.headerText].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
