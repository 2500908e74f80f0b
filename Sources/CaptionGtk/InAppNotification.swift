// An in-app notification (GNOME HIG): "Saved “Harbour”" with Undo, at the top of the
// content, hiding itself after a few seconds; one action button (Undo, Discard).

import CGtk
import Localization

@MainActor
final class InAppNotification {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let actionButton: UnsafeMutablePointer<GtkWidget>
    private var action: (() -> Void)?
    /// Runs when the notification goes without its button pressed: timed out, closed,
    /// or replaced by the next one.
    private var gone: (() -> Void)?
    private var timeout: UInt32 = 0
    static let visibleSeconds: UInt32 = 6

    init() {
        widget = gtk_revealer_new()
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        let frame = gtk_frame_new(nil)
        gtk_style_context_add_class(gtk_widget_get_style_context(frame), "app-notification")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        label = gtk_label_new("")
        gtk_label_set_ellipsize(caption_label(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(caption_label(label), 40)
        actionButton = gtk_button_new_with_mnemonic(tr("_Undo"))
        let close = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_button_set_relief(caption_button(close), GTK_RELIEF_NONE)
        atk_object_set_name(gtk_widget_get_accessible(close), tr("Close"))
        gtk_box_pack_start(caption_box(row), label, 1, 1, 0)
        gtk_box_pack_start(caption_box(row), actionButton, 0, 0, 0)
        gtk_box_pack_start(caption_box(row), close, 0, 0, 0)
        gtk_container_add(caption_container(frame), row)
        gtk_container_add(caption_container(widget), frame)
        atk_object_set_role(gtk_widget_get_accessible(frame), ATK_ROLE_NOTIFICATION)

        onSignal(actionButton, "clicked") { [weak self] in
            guard let self else { return }
            let action = self.action
            self.gone = nil
            self.hide()
            action?()
        }
        onSignal(close, "clicked") { [weak self] in self?.hide() }
    }

    var isShowing: Bool { gtk_revealer_get_reveal_child(caption_revealer(widget)) != 0 }

    var text: String { String(cString: gtk_label_get_text(caption_label(label))) }

    /// What the button does: Undo goes back a step (and Ctrl+Z may press it); Discard
    /// throws work away, so only a deliberate press on the button does it.
    enum Button {
        case undo, discard

        var label: String { self == .undo ? tr("_Undo") : tr("_Discard") }
    }

    private(set) var button = Button.undo

    /// Shows `text` with a button that runs `action`.
    func show(_ text: String, button: Button = .undo, seconds: UInt32 = visibleSeconds,
              action: @escaping () -> Void, gone: (() -> Void)? = nil) {
        finishPrevious()
        self.gone = gone
        gtk_label_set_text(caption_label(label), text)
        self.button = button
        gtk_button_set_label(caption_button(actionButton), button.label)
        self.action = action
        gtk_revealer_set_reveal_child(caption_revealer(widget), 1)
        if timeout != 0 { g_source_remove(timeout) }
        timeout = MainThread.after(milliseconds: seconds * 1000) { [weak self] in
            self?.timeout = 0
            self?.hide()
        }
    }

    func hide() {
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        action = nil
        finishPrevious()
        gtk_revealer_set_reveal_child(caption_revealer(widget), 0)
    }

    private func finishPrevious() {
        let gone = self.gone
        self.gone = nil
        gone?()
    }

    /// Undo from the keyboard (the window's Ctrl+Z), while an Undo shows.
    func activateUndo() -> Bool {
        guard isShowing, button == .undo, let action else { return false }
        gone = nil
        hide()
        action()
        return true
    }

    var buttonLabel: String { String(cString: gtk_button_get_label(caption_button(actionButton))) }
}
