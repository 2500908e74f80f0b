// The window's one in-app notification (GNOME HIG): "Saved “Harbour”" with Undo, "Exported"
// with Open Folder, at the top of the content, hiding itself after some seconds.

import CGtk
import Localization

@MainActor
final class InAppNotification {
    let widget: Revealer
    private let label: Label
    private let actionButton: Button
    private var action: (() -> Void)?
    /// Runs when the notification goes without its button pressed: timed out, closed,
    /// or replaced by the next one.
    private var gone: (() -> Void)?
    private var timeout: SourceHandle?
    /// Holds a progress panel, in place of the label, while long work runs.
    private let progressSlot: Box
    private(set) var progress: ProgressPanel?
    static let visibleSeconds: UInt32 = 6

    /// What the button does: Undo goes back a step (and Ctrl+Z may press it); Discard
    /// throws work away, so only a deliberate press on the button does it.
    enum ButtonKind {
        case undo, discard, openFolder

        var label: String {
            switch self {
            case .undo: tr("_Undo")
            case .discard: tr("_Discard")
            case .openFolder: tr("_Open Folder")
            }
        }
    }

    private(set) var button: ButtonKind?

    init() {
        // GTK constructors abort rather than return NULL.
        widget = Revealer(unchecked: gtk_revealer_new())
        gtk_widget_set_halign(widget.pointer, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget.pointer, GTK_ALIGN_START)
        let frame = Widget(unchecked: gtk_frame_new(nil))
        frame.addStyleClass("app-notification")
        frame.setAccessibleRole(ATK_ROLE_NOTIFICATION)
        let row = Box(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
        label = Label()
        gtk_label_set_ellipsize(caption_label(label.pointer), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(caption_label(label.pointer), 48)
        actionButton = Button(mnemonic: ButtonKind.undo.label)
        let close = Button(iconName: "window-close-symbolic")
        close.setFlat()
        close.accessibleName = tr("Close")
        progressSlot = Box(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        row.packStart(label, expand: true)
        row.packStart(progressSlot, expand: true)
        row.packStart(actionButton)
        row.packStart(close)
        gtk_container_add(caption_container(frame.pointer), row.pointer)
        gtk_container_add(caption_container(widget.pointer), frame.pointer)
        widget.showAll()

        actionButton.connect(.clicked) { [weak self] in self?.pressButton() }
        close.connect(.clicked) { [weak self] in self?.hide() }
    }

    var isShowing: Bool { widget.revealsChild }

    var text: String { label.text }

    /// Shows `text`, with a button that runs `action` when there is one. It goes after
    /// `seconds`, or stays (nil) until replaced or hidden: an export in progress.
    func show(_ text: String, button: ButtonKind? = nil, seconds: UInt32? = visibleSeconds,
              action: @escaping () -> Void = {}, gone: (() -> Void)? = nil) {
        finishPrevious()
        show(progress: nil)
        self.gone = gone
        label.text = text
        self.button = button
        if let button { actionButton.label = button.label }
        actionButton.isVisible = button != nil
        self.action = action
        widget.revealsChild = true
        timeout?.cancel()
        timeout = seconds.map { MainThread.after(milliseconds: $0 * 1000) { [weak self] in self?.hide() } }
    }

    /// Shows `panel` in place of the text, until the next notification or nil takes it away.
    func show(progress panel: ProgressPanel?) {
        if let old = progress { gtk_container_remove(caption_container(progressSlot.pointer), old.widget.pointer) }
        progress = panel
        label.isVisible = panel == nil
        guard let panel else { return }
        finishPrevious()
        progressSlot.packStart(panel.widget, expand: true)
        panel.widget.showAll()
        actionButton.isVisible = false
        timeout?.cancel()
        widget.revealsChild = true
    }

    func hide() {
        timeout?.cancel()
        action = nil
        finishPrevious()
        widget.revealsChild = false
    }

    private func finishPrevious() {
        let gone = self.gone
        self.gone = nil
        gone?()
    }

    private func pressButton() {
        let action = self.action
        gone = nil
        hide()
        action?()
    }

    /// Undo from the keyboard (the window's Ctrl+Z), while an Undo shows.
    func activateUndo() -> Bool {
        guard isShowing, button == .undo, action != nil else { return false }
        pressButton()
        return true
    }

    var buttonLabel: String { actionButton.label }
}
