// The one place the window shows what went wrong: the error bar above the form. The form's
// summary ("Title required") and problems reported by any controller (a save that failed,
// an export that could not start) arrive here as values.

import CGtk
import Localization

@MainActor
final class MessageBar {
    let revealer: Revealer
    private let label: Label
    /// The label the message shows in (tests measure it).
    var labelWidget: Label? { label }
    /// A problem a controller reported; it outranks the form's summary until cleared.
    private(set) var problem: String?
    /// The form's summary of what is missing, set by the form on every change.
    var summary: String? {
        didSet { if summary != oldValue { refresh() } }
    }
    /// The bar shows only over the form, not over the library.
    var formIsShowing = true {
        didSet { refresh() }
    }
    /// Said after the summary by a screen reader (the bar's accessible description): what
    /// else is missing while the summary names only the photo.
    var details = "" {
        didSet { bar.accessibleDescription = details }
    }
    private let bar: InfoBar
    /// The bar was first shown and waits, unrevealed, to be laid out.
    private var waitsForLayout = false

    /// The bar's close button or Escape: the form hears of it (it clears its summary).
    var onDismiss: (() -> Void)?
    /// The button a problem may offer (write a sidecar instead), and what it does.
    private let actionButton: Button
    private var action: (() -> Void)?
    static let actionResponse: Int32 = 1

    init(_ builder: Builder) {
        revealer = builder["summary_revealer"]
        label = builder["summary_label"]
        label.setWrapsAnywhere()
        bar = builder["summary_bar"]
        bar.setAccessibleRole(ATK_ROLE_ALERT)
        // The bar's own close button has an icon and no name.
        func nameCloseButton(in widget: Widget) {
            for child in widget.children {
                if let button = child.as(Button.self), button.label.isEmpty {
                    button.accessibleName = tr("Close")
                    button.setTooltip(tr("Close"))
                }
                nameCloseButton(in: child)
            }
        }
        nameCloseButton(in: bar.asWidget)
        actionButton = bar.addHiddenButton(response: Self.actionResponse)
        // Once: each call connects its mnemonic handler again.
        actionButton.setUsesMnemonic()
        // A screen reader told the alert shows reads the labels showing then, and a label
        // never laid out is not showing: the first message waits for its layout (the
        // revealer lays out its child while closed), then shows, from the main loop.
        bar.connect(.sizeAllocate, after: true) { [weak self] _ in
            guard let self, self.waitsForLayout else { return }
            self.waitsForLayout = false
            MainThread.post { [weak self] in self?.refresh() }
        }
        bar.connect(.response) { [weak self] response in
            guard let self else { return }
            let action = response == Self.actionResponse ? self.action : nil
            self.dismiss()
            action?()
        }
    }

    /// The label of the button the problem offers, when it offers one.
    var actionLabel: String? { actionButton.isVisible ? actionButton.label : nil }

    /// Shows a problem with a button (its label has a mnemonic) that runs `action` and
    /// takes the problem away.
    func show(problem: String, actionLabel: String, action: @escaping () -> Void) {
        self.action = action
        actionButton.label = actionLabel
        actionButton.isVisible = true
        self.problem = problem
        refresh()
    }

    /// Presses the problem's button, as a click would.
    func activateAction() {
        bar.respond(Self.actionResponse)
    }

    /// The button's Alt key pressed, taken before GTK's own mnemonics: those reach only a
    /// button already drawn, and Alt pressed right after the key that showed the problem
    /// (typed ahead, on a busy machine) would come before it is.
    func takesMnemonic(_ event: KeyPress) -> Bool {
        guard formIsShowing, actionButton.isVisible, event.isMnemonic(of: actionButton.label) else { return false }
        activateAction()
        return true
    }

    var text: String? { problem ?? summary }
    var isShowing: Bool { text != nil }

    func show(problem: String) {
        action = nil
        actionButton.isVisible = false
        self.problem = problem
        refresh()
    }

    /// The bar appears again, for a screen reader to announce what it says: it showed while
    /// the window was opening, when nothing of it was said.
    func announceAgain() {
        guard text != nil, formIsShowing else { return }
        bar.isVisible = false
        bar.isVisible = true
    }

    func clearProblem() {
        guard problem != nil else { return }
        problem = nil
        action = nil
        actionButton.isVisible = false
        refresh()
    }

    func dismiss() {
        problem = nil
        action = nil
        actionButton.isVisible = false
        refresh()
        onDismiss?()
    }

    private func refresh() {
        label.text = text ?? ""
        let reveals = text != nil && formIsShowing
        // The bar is hidden until its first message (window.ui), and stays shown after it.
        if reveals && !bar.isVisible {
            bar.isVisible = true
            waitsForLayout = true
        }
        revealer.revealsChild = reveals && !waitsForLayout
    }
}
