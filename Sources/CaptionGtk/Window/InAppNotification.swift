// The window's one in-app notification (GNOME HIG): "Saved “Harbour”" with Undo, "Exported"
// with Open Folder, at the top of the content, hiding itself after some seconds.

import CGtk
import Localization

@MainActor
final class InAppNotification {
    let widget: Revealer
    /// The frame showing, or shown last; none before the first notification, so that the
    /// window's first frame neither builds nor measures one it does not show.
    private var content: Content?
    private var action: (() -> Void)?
    /// Runs when the notification goes without its button pressed: timed out, closed,
    /// or replaced by the next one.
    private var gone: (() -> Void)?
    private var timeout: SourceHandle?
    private(set) var progress: ProgressPanel?
    static let visibleSeconds: UInt32 = 6

    /// What the button does: Undo goes back a step (and Ctrl+Z may press it); Discard
    /// throws work away, so only a deliberate press on the button does it.
    enum ButtonKind {
        case undo, discard, openFolder, editAgain

        var label: String {
            switch self {
            case .undo: tr("_Undo")
            case .discard: tr("_Discard")
            case .openFolder: tr("_Open Folder")
            case .editAgain: tr("_Edit Again")
            }
        }
    }

    private(set) var button: ButtonKind?
    /// The Undo of a notification that went (timed out, or closed) with nothing of its own
    /// to finish, kept until the user does something else: Ctrl+Z still undoes the last
    /// save when a screen reader was still saying it as the notification went.
    private var lingeringUndo: (() -> Void)?
    /// A notice waiting for the notification with a button to go (see `showWhenFree`);
    /// dropped when another notification is shown or the button is pressed.
    private var waiting: (text: String, seconds: UInt32, stillWanted: () -> Bool)?

    /// The window's: the notification's timers end with it.
    private let lifetime: Lifetime

    init(lifetime: Lifetime) {
        self.lifetime = lifetime
        // GTK constructors abort rather than return NULL.
        widget = Revealer()
        widget.align(horizontal: GTK_ALIGN_CENTER, vertical: GTK_ALIGN_START)
        widget.show()
    }

    /// A notification's frame, made anew for every notification: a screen reader
    /// announces a notification as it appears, and ignores the text of one already showing
    /// changing (Orca: "Ignoring event type due to role"), so a second "Saved" within the
    /// seconds the first shows would go unsaid.
    @MainActor
    private struct Content {
        let frame = Widget.frame()
        let label = Label()
        let actionButton = Button(mnemonic: ButtonKind.undo.label)
        let closeButton = Button(iconName: "window-close-symbolic")
        /// Holds a progress panel, after the label (the work's title), while long work runs.
        let progressSlot = Box(rowSpacing: 0)

        init() {
            frame.addStyleClass("app-notification")
            frame.setAccessibleRole(ATK_ROLE_NOTIFICATION)
            let row = Box(rowSpacing: 12)
            // Whole, on as many lines as it takes: a notice cut in its middle says half of
            // why the form moved.
            label.setWrapsAnywhere(maxWidthChars: 48)
            label.setTextAlignment(0)
            closeButton.setFlat()
            closeButton.accessibleName = tr("Close")
            closeButton.setTooltip(tr("Close"))
            row.packStart(label, expand: true)
            row.packStart(progressSlot, expand: true)
            row.packStart(actionButton)
            row.packStart(closeButton)
            frame.add(row)
            // The text names the notification: read from the label as the notification
            // appears, even before the new label has been laid out (a screen reader skips
            // labels it cannot yet see on screen).
            frame.setLabelled(by: label)
        }
    }

    /// The frame the next notification shows in, once `fill` has put its words in: the one
    /// there while it is hidden, else a new one in place of the one showing (see Content),
    /// which a screen reader reads the moment it shows.
    private func frame(filledBy fill: (Content) -> Void) -> Content {
        if let content, !isShowing {
            fill(content)
            return content
        }
        if let old = content { widget.remove(old.frame) }
        let new = Content()
        fill(new)
        new.frame.showAll()
        new.actionButton.isVisible = button != nil
        widget.add(new.frame)
        new.actionButton.connect(.clicked) { [weak self] in self?.pressButton() }
        new.closeButton.connect(.clicked) { [weak self] in self?.hide() }
        content = new
        return new
    }

    var isShowing: Bool { widget.revealsChild }

    var text: String { content?.label.text ?? "" }
    /// The label the text shows in (tests measure it).
    var labelWidget: Label? { content?.label }

    /// Each text as it shows (tests count what was said).
    var onShown: ((String) -> Void)?

    /// What a screen reader says after the text: what comes next, the key for the button.
    var details: String { content?.frame.accessibleDescription ?? "" }

    /// Shows `text`, with a button that runs `action` when there is one. It goes after
    /// `seconds`, or stays (nil) until replaced or hidden: an export in progress.
    /// `details` is said to screen readers after the text (the notification's accessible
    /// description): what comes next, and the key that does what the button does.
    func show(
        _ text: String, button: ButtonKind? = nil, seconds: UInt32? = visibleSeconds, details: String? = nil,
        action: @escaping () -> Void = {}, gone: (() -> Void)? = nil
    ) {
        waiting = nil
        // A new thing to undo or to act on takes the place of the one that lingered.
        if button != nil { lingeringUndo = nil }
        finishPrevious()
        show(progress: nil)
        self.gone = gone
        self.button = button
        _ = frame { content in
            content.label.text = text
            var spoken = details.map { [$0] } ?? []
            if button == .undo { spoken.append(tr("Press Ctrl+Z to undo.")) }
            content.frame.accessibleDescription = spoken.joined(separator: " ")
            if let button { content.actionButton.label = button.label }
            content.actionButton.isVisible = button != nil
        }
        self.action = action
        widget.revealsChild = true
        onShown?(text)
        timeout?.cancel()
        timeout = seconds.map { lifetime.after(milliseconds: $0 * 1000) { [weak self] in self?.hide() } }
    }

    /// Shows `panel` beside its title, until the next notification or nil takes it away. A
    /// screen reader hears the title as the notification appears, and how to cancel.
    func show(progress panel: ProgressPanel?) {
        if let old = progress {
            content?.progressSlot.remove(old.widget)
            // The work is over: its title goes too, unless the outcome is shown at once
            // (which cancels this).
            timeout?.cancel()
            timeout = lifetime.after(milliseconds: 0) { [weak self] in self?.hide() }
        }
        progress = panel
        guard let panel else { return }
        lingeringUndo = nil
        finishPrevious()
        // A button of the notification it replaces (Undo) no longer applies, by key either.
        button = nil
        action = nil
        let shown = frame { content in
            content.label.text = panel.title
            // Alt and the Cancel button's mnemonic, in the user's language.
            content.frame.accessibleDescription = tr("Press {keys} to cancel.").replacing(
                "{keys}", with: Self.mnemonicKeys(of: panel.cancelButton))
            content.actionButton.isVisible = false
        }
        shown.progressSlot.packStart(panel.widget, expand: true)
        panel.widget.showAll()
        timeout?.cancel()
        widget.revealsChild = true
    }

    /// "Alt+C" for a button labelled "_Cancel" (or "取消(_C)"), as GTK names keys.
    private static func mnemonicKeys(of button: Button) -> String {
        guard let label = button.binChild.flatMap({ $0.as(Label.self) }) else { return "" }
        return label.mnemonicKeys
    }

    func hide() { hide(keepingUndo: true) }

    private func hide(keepingUndo: Bool) {
        timeout?.cancel()
        if keepingUndo, button == .undo, gone == nil, let action { lingeringUndo = action }
        action = nil
        finishPrevious()
        widget.revealsChild = false
        if let waiting, waiting.stillWanted() { show(waiting.text, seconds: waiting.seconds) }
        waiting = nil
    }

    /// The window is going: what the notification stands for is done now (a deletion
    /// goes). Its timers end with the window's lifetime.
    func finish() {
        waiting = nil
        action = nil
        lingeringUndo = nil
        finishPrevious()
    }

    /// Shows `text`, without a button, at once, or once the notification showing now has
    /// gone when that one has a button or a progress bar: a notice never takes an Undo (or
    /// an export's progress) away. `stillWanted` is asked then: the photo it is about may
    /// have left the form meanwhile.
    func showWhenFree(_ text: String, seconds: UInt32 = visibleSeconds, stillWanted: @escaping () -> Bool) {
        guard isShowing, button != nil || progress != nil else { return show(text, seconds: seconds) }
        waiting = (text, seconds, stillWanted)
    }

    private func finishPrevious() {
        let gone = self.gone
        self.gone = nil
        gone?()
    }

    /// The button, as a click on it does it.
    func pressButton() {
        let action = self.action
        gone = nil
        // What the button does changes the form: a notice about what was there is stale.
        waiting = nil
        hide(keepingUndo: false)
        lingeringUndo = nil
        action?()
    }

    /// Undo from the keyboard (the window's Ctrl+Z), while an Undo shows or lingers after
    /// it went; false when there is nothing to undo.
    func activateUndo() -> Bool {
        if isShowing, button == .undo, action != nil {
            pressButton()
            return true
        }
        guard let undo = lingeringUndo else { return false }
        lingeringUndo = nil
        waiting = nil
        undo()
        return true
    }

    /// The user did something else (changed the words): the last Undo no longer applies.
    func forgetUndo() { lingeringUndo = nil }

    /// Whether Ctrl+Z would undo something now.
    var canUndo: Bool { (isShowing && button == .undo && action != nil) || lingeringUndo != nil }

    var buttonLabel: String { content?.actionButton.label ?? "" }
}
