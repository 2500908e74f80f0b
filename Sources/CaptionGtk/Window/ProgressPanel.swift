// A progress bar with a Cancel button for long work in the window: exporting every entry,
// and captioning the rest of a queue.
// It shows a WorkProgress (CaptionLibrary), which the work itself advances on its own
// thread; the panel reads it ten times a second, so nothing is posted per item.

import CGtk
import CaptionLibrary
import Localization

@MainActor
final class ProgressPanel {
    let widget: Box
    let bar: ProgressBar
    let cancelButton: Button
    let progress: WorkProgress
    /// What the work is ("Exporting…").
    let title: String
    private var timer: SourceHandle?
    /// Tests and screen readers: the last text shown ("1,234 of 100,001").
    private(set) var text = ""
    /// The panel's own life, which ends when its widgets are destroyed (the notification
    /// went, or the window closed while the work ran): its timer ends with it, and the
    /// work's completion, which holds the panel, no longer touches them.
    private let lifetime = Lifetime()
    var isDestroyed: Bool { lifetime.isOver }

    /// `title` says what the work is ("Exporting"); the bar's text says how far it is.
    init(progress: WorkProgress, title: String) {
        self.progress = progress
        // GTK constructors abort rather than return NULL.
        widget = Box(rowSpacing: 12)
        bar = ProgressBar()
        bar.align(vertical: GTK_ALIGN_CENTER)
        bar.setMinimumSize(width: 220, height: -1)
        bar.accessibleName = title
        self.title = title
        cancelButton = Button(mnemonic: tr("_Cancel"))
        // The title is the notification's own label (InAppNotification), which names it
        // for a screen reader as it appears.
        widget.packStart(bar, expand: true)
        widget.packStart(cancelButton)
        cancelButton.connect(.clicked) { [weak self] in self?.cancel() }
        widget.connect(.destroy) { [weak self] in self?.lifetime.end() }
        // Only the text now; the bar's value from the first tick on, once the notification
        // that names the work has been shown: a value set with it was read first, bare
        // («40 percent.»), before the notification.
        showText()
        timer = lifetime.every(milliseconds: 100) { [weak self] in self?.refresh() ?? false }
    }

    /// Cancel: the work stops before its next item; the button says it was heard.
    func cancel() {
        progress.cancel()
        guard !isDestroyed else { return }
        cancelButton.isSensitive = false
    }

    /// Shows how far the work is; false once stopped (ends the timer).
    @discardableResult
    private func refresh() -> Bool {
        guard !isDestroyed else { return false }
        if progress.total > 0 {
            bar.fraction = progress.fraction
        } else {
            bar.pulse()
        }
        showText()
        return true
    }

    private func showText() {
        let now = progress.text
        guard now != text else { return }
        text = now
        bar.text = now
    }

    /// The work is over: the last figures, and no more timer.
    func stop() {
        refresh()
        timer?.cancel()
    }
}
