// The Caption window: widgets bound to the focus engine. GTK signals become engine events;
// the engine's decisions are applied here, and nowhere else decides what Enter does.

import CGtk
import CaptionLibrary
import Dispatch
import FocusEngine
import Localization

@MainActor
public final class CaptionWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    let header: UnsafeMutablePointer<GtkWidget>
    let preview = PhotoPreview()
    let photoButton: UnsafeMutablePointer<GtkWidget>
    let photoName: UnsafeMutablePointer<GtkWidget>
    let titleEntry: UnsafeMutablePointer<GtkWidget>
    let subtitleEntry: UnsafeMutablePointer<GtkWidget>
    let activateButton: UnsafeMutablePointer<GtkWidget>
    /// Per item: the inline message under it, and the "⏎ Next" hint beside it.
    var messageLabels: [UnsafeMutablePointer<GtkWidget>] = []
    private var hintLabels: [UnsafeMutablePointer<GtkWidget>?] = []
    let summaryRevealer: UnsafeMutablePointer<GtkWidget>
    private let summaryLabel: UnsafeMutablePointer<GtkWidget>
    let notification: InAppNotification
    /// The action map holding the window's "win." actions.
    private let actions: gpointer

    public private(set) var engine: FocusEngine
    let library: LibraryAccess
    let drafts: DraftKeeper
    /// The photo on the form, its decode request, and the photo read and checked whole
    /// (what a save stores, so the save itself only copies and commits).
    var photoPath: String? { editing?.path ?? queue.currentPhoto?.path }
    /// A saved entry open in the form for editing, with its photo in the library. The queue
    /// waits meanwhile, its words kept.
    var editing: (entry: Entry, path: String)?
    /// Made the first time it is needed (see makeLibraryView), into `libraryPage`.
    lazy var libraryView = makeLibraryView()
    let libraryPage: UnsafeMutablePointer<GtkWidget>
    let views: UnsafeMutablePointer<GtkWidget>
    /// The library view's idea of the library: the counter it last loaded at, and the poll
    /// that watches for other processes' changes while it shows.
    var libraryCounter: Int64?
    var libraryPoll: UInt32 = 0
    /// Deleted entries waiting for their Undo to expire before they leave the library.
    var pendingDeletions: [Entry] = []
    /// The list takes focus once the entries it is to show have arrived.
    var focusListWhenLoaded = false
    /// An entry to select once the list has (re)loaded: one brought back by Undo.
    var selectWhenLoaded: Int64?
    var loadedPhoto: LoadedPhoto?
    var photoRequest = 0
    var largerDecodeScheduled = false
    /// A save is in flight: further submits wait for it instead of saving twice.
    public internal(set) var isSaving = false
    /// The photos to caption and what was typed for each.
    var queue = PhotoQueue()
    /// The library's message when a save failed; shown where the summary goes.
    var saveError: String?
    /// Set while the window itself changes an entry's text, so that the change is not
    /// mistaken for typing.
    var settingText = false
    /// The fields' open compositions, committed before the form is read or changes.
    let inputMethods = InputMethodSettler()

    /// Shows the file chooser; tests replace it, since a chooser would wait for a person.
    public var presentChooser: (() -> Void)?
    /// Tests wait on these; the app ignores them.
    public var onSaved: ((Entry) -> Void)?
    public var onPhotoSettled: (() -> Void)?
    public var onLibraryShown: (() -> Void)?

    /// The primary menu's button, once made.
    var menuButton: UnsafeMutablePointer<GtkWidget>?
    /// Where the window's size is remembered, and the size to remember.
    let stateFile: String
    var geometry = WindowGeometry.standard

    /// `stateFile` is where the window size is remembered (tests pass their own).
    public init(application: UnsafeMutablePointer<GtkApplication>?, libraryDirectory: String?,
                stateFile: String? = nil) {
        self.stateFile = stateFile ?? WindowStateFile.defaultPath
        let wording = Wording(translate: { tr($0) })
        engine = CaptionForm.engine(wording)
        library = LibraryAccess(directory: libraryDirectory)
        drafts = DraftKeeper(directory: library.directory)

        if let application {
            window = gtk_application_window_new(application)
        } else {
            window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        }
        gtk_window_set_title(caption_window(window), "Caption")
        gtk_window_set_icon_name(caption_window(window), "io.github.caption_app.Caption")

        header = gtk_header_bar_new()
        gtk_header_bar_set_title(caption_header_bar(header), "Caption")
        gtk_header_bar_set_show_close_button(caption_header_bar(header), 1)
        gtk_window_set_titlebar(caption_window(window), header)
        onDraw(window) { _ in RecentFiles.windowPainted() }

        let page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)

        // The summary: an error bar above the form, never a modal dialog.
        summaryRevealer = gtk_revealer_new()
        let infoBar = gtk_info_bar_new()
        gtk_info_bar_set_message_type(caption_info_bar(infoBar), GTK_MESSAGE_ERROR)
        gtk_info_bar_set_show_close_button(caption_info_bar(infoBar), 1)
        summaryLabel = gtk_label_new("")
        gtk_label_set_line_wrap(caption_label(summaryLabel), 1)
        gtk_label_set_xalign(caption_label(summaryLabel), 0)
        gtk_container_add(caption_container(gtk_info_bar_get_content_area(caption_info_bar(infoBar))), summaryLabel)
        atk_object_set_role(gtk_widget_get_accessible(infoBar), ATK_ROLE_ALERT)
        gtk_container_add(caption_container(summaryRevealer), infoBar)
        gtk_box_pack_start(caption_box(page), summaryRevealer, 0, 0, 0)

        let overlay = gtk_overlay_new()
        gtk_box_pack_start(caption_box(page), overlay, 1, 1, 0)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)
        gtk_style_context_add_class(gtk_widget_get_style_context(content), "caption-content")
        // Two views under one notification: the form, and the library of saved entries.
        views = gtk_stack_new()
        gtk_stack_set_transition_type(caption_stack(views), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_add_titled(caption_stack(views), content, "form", tr("Caption"))
        libraryPage = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_stack_add_titled(caption_stack(views), libraryPage, "library", tr("Library"))
        gtk_container_add(caption_container(overlay), views)
        let switcher = gtk_stack_switcher_new()
        gtk_stack_switcher_set_stack(caption_stack_switcher(switcher), caption_stack(views))
        gtk_header_bar_pack_start(caption_header_bar(header), switcher)
        notification = InAppNotification()
        gtk_overlay_add_overlay(caption_overlay(overlay), notification.widget)

        gtk_box_pack_start(caption_box(content), preview.widget, 1, 1, 0)

        let grid = gtk_grid_new()
        gtk_grid_set_row_spacing(caption_grid(grid), 6)
        gtk_grid_set_column_spacing(caption_grid(grid), 12)
        gtk_box_pack_start(caption_box(content), grid, 0, 0, 0)

        // Photo row: its label, the "Choose Photo…" button (the photo item) and the file name.
        let photoLabel = Self.fieldLabel(tr("Photo"))
        photoButton = gtk_button_new_with_mnemonic(tr("Choose _Photo…"))
        photoName = gtk_label_new("")
        gtk_label_set_ellipsize(caption_label(photoName), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_xalign(caption_label(photoName), 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(photoName), "dim-label")
        let photoRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_box_pack_start(caption_box(photoRow), photoButton, 0, 0, 0)
        gtk_box_pack_start(caption_box(photoRow), photoName, 1, 1, 0)
        gtk_grid_attach(caption_grid(grid), photoLabel, 0, 0, 1, 1)
        gtk_grid_attach(caption_grid(grid), photoRow, 1, 0, 1, 1)

        titleEntry = gtk_entry_new()
        subtitleEntry = gtk_entry_new()
        gtk_entry_set_placeholder_text(caption_entry(titleEntry), tr("What the photo shows"))
        gtk_entry_set_placeholder_text(caption_entry(subtitleEntry), tr("A line about it"))
        let titleLabel = Self.fieldLabel(tr("_Title"), mnemonicFor: titleEntry)
        let subtitleLabel = Self.fieldLabel(tr("_Subtitle"), mnemonicFor: subtitleEntry)
        gtk_grid_attach(caption_grid(grid), titleLabel, 0, 2, 1, 1)
        gtk_grid_attach(caption_grid(grid), titleEntry, 1, 2, 1, 1)
        gtk_grid_attach(caption_grid(grid), subtitleLabel, 0, 4, 1, 1)
        gtk_grid_attach(caption_grid(grid), subtitleEntry, 1, 4, 1, 1)
        gtk_widget_set_hexpand(titleEntry, 1)

        // An entry labelled only through its mnemonic label has no accessible name.
        atk_object_set_name(gtk_widget_get_accessible(titleEntry), tr("Title"))
        atk_object_set_name(gtk_widget_get_accessible(subtitleEntry), tr("Subtitle"))

        for row in [1, 3, 5] {
            // GTK constructors abort rather than return NULL.
            let message = gtk_label_new("")!
            gtk_label_set_xalign(caption_label(message), 0)
            gtk_label_set_line_wrap(caption_label(message), 1)
            gtk_style_context_add_class(gtk_widget_get_style_context(message), "caption-message")
            gtk_widget_set_no_show_all(message, 1)
            gtk_grid_attach(caption_grid(grid), message, 1, Int32(row), 1, 1)
            messageLabels.append(message)
        }
        hintLabels = [nil]
        for row in [2, 4] {
            let hint = gtk_label_new("")!
            gtk_label_set_width_chars(caption_label(hint), 8)
            gtk_label_set_xalign(caption_label(hint), 0)
            gtk_style_context_add_class(gtk_widget_get_style_context(hint), "dim-label")
            gtk_grid_attach(caption_grid(grid), hint, 2, Int32(row), 1, 1)
            hintLabels.append(hint)
        }

        activateButton = gtk_button_new_with_label(tr("Next"))
        gtk_style_context_add_class(gtk_widget_get_style_context(activateButton), "suggested-action")
        gtk_widget_set_can_default(activateButton, 1)
        // A click must not move focus, or the label would change under the pointer.
        gtk_widget_set_focus_on_click(activateButton, 0)
        gtk_widget_set_size_request(activateButton, 96, -1)
        let buttonRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_box_pack_end(caption_box(buttonRow), activateButton, 0, 0, 0)
        gtk_box_pack_start(caption_box(content), buttonRow, 0, 0, 0)

        gtk_container_add(caption_container(window), page)
        actions = Self.actionMap(for: window)
        gtk_window_set_default(caption_window(window), activateButton)
        Style.install()

        connectSignals(infoBar: infoBar)
        watchCompositions()
        installActions()
        installPrimaryMenu()
        installLibraryView()
        acceptDrops()
        rememberGeometry()
        refresh()
    }

    private static func fieldLabel(_ text: String, mnemonicFor widget: UnsafeMutablePointer<GtkWidget>? = nil)
        -> UnsafeMutablePointer<GtkWidget> {
        let label = widget == nil ? gtk_label_new(text) : gtk_label_new_with_mnemonic(text)
        if let widget { gtk_label_set_mnemonic_widget(caption_label(label), widget) }
        gtk_label_set_xalign(caption_label(label), 1)
        gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label")
        return label!
    }

    // MARK: Items and widgets

    /// The widget that stands for each engine item, in form order.
    private var itemWidgets: [UnsafeMutablePointer<GtkWidget>] {
        [photoButton, titleEntry, subtitleEntry]
    }

    private func item(of widget: gpointer?) -> Int? {
        guard let widget else { return nil }
        return itemWidgets.firstIndex { UnsafeMutableRawPointer($0) == widget }
    }

    // MARK: Signals -> engine events

    private func connectSignals(infoBar: UnsafeMutablePointer<GtkWidget>?) {
        onPointerSignal(window, "set-focus", after: true) { [weak self] widget in
            guard let self else { return }
            self.send(.focus(self.item(of: widget)))
        }
        for entry in [titleEntry, subtitleEntry] {
            let item = self.item(of: entry) ?? CaptionForm.title
            onSignal(entry, "changed") { [weak self] in
                guard let self, !self.settingText else { return }
                self.saveError = nil
                self.send(.edit(item: item, text: self.text(of: entry)))
            }
            // Enter comes only through activate: GtkEntry emits it after its input method
            // declined the key, so Enter that confirms a composition never lands here.
            onSignal(entry, "activate") { [weak self] in self?.send(.enter) }
            // Ctrl+V in a field pastes text, unless what was copied is a photo.
            onSignal(entry, "paste-clipboard") { [weak self] in
                if self?.pastePhoto() == true { g_signal_stop_emission_by_name(entry, "paste-clipboard") }
            }
            // After the entry's own handler, for the same reason: the input method sees
            // Shift+Enter first.
            onKeyPress(entry, after: true) { [weak self] event in
                guard let self, Self.isEnter(event), event.pointee.state & GDK_SHIFT_MASK.rawValue != 0,
                      event.pointee.state & GDK_CONTROL_MASK.rawValue == 0 else { return false }
                self.send(.back)
                return true
            }
        }
        onSignal(photoButton, "clicked") { [weak self] in self?.send(.enter) }
        onSignal(activateButton, "clicked") { [weak self] in self?.send(.activate) }
        if let infoBar {
            onIntSignal(infoBar, "response") { [weak self] _ in self?.dismissSummary() }
        }
        // Escape only when nothing else wanted it (an input method, a popup): connected
        // after the window's own handler, which gives the key to the focused widget first.
        onKeyPress(window, after: true) { [weak self] event in
            guard let self else { return false }
            // Ctrl+V where no field took it (the photo or the activate button has focus).
            let key = Int32(event.pointee.keyval)
            if key == GDK_KEY_v || key == GDK_KEY_V, event.pointee.state & GDK_CONTROL_MASK.rawValue != 0 {
                if !self.pastePhoto() { gtk_widget_error_bell(self.window) }
                return true
            }
            guard key == GDK_KEY_Escape else { return false }
            if self.isShowingLibrary {
                self.escapeFromLibrary()
                return true
            }
            if self.summaryIsShowing {
                self.dismissSummary()
                return true
            }
            if self.notification.isShowing {
                self.notification.hide()
                return true
            }
            return false
        }
    }

    private static func isEnter(_ event: UnsafeMutablePointer<GdkEventKey>) -> Bool {
        let key = Int32(event.pointee.keyval)
        return key == GDK_KEY_Return || key == GDK_KEY_KP_Enter || key == GDK_KEY_ISO_Enter
    }

    /// The window's actions ("win.save", "win.open", …). An application window is its own
    /// action map, and the application binds the shortcuts; a bare window (tests) gets a
    /// group of its own under the same prefix.
    private static func actionMap(for window: UnsafeMutablePointer<GtkWidget>) -> gpointer {
        let isApplicationWindow = g_type_check_instance_is_a(
            UnsafeMutableRawPointer(window).assumingMemoryBound(to: GTypeInstance.self),
            gtk_application_window_get_type()) != 0
        if isApplicationWindow { return UnsafeMutableRawPointer(window) }
        let group = g_simple_action_group_new()
        gtk_widget_insert_action_group(window, "win", OpaquePointer(group))
        g_object_unref(group)  // the window holds it now
        return UnsafeMutableRawPointer(group!)
    }

    private func installActions() {
        addAction(actions, "save") { [weak self] in self?.send(.submit) }
        addAction(actions, "open") { [weak self] in self?.choosePhoto() }
        addAction(actions, "dismiss") { [weak self] in self?.dismissSummary() }
        addAction(actions, "undo") { [weak self] in _ = self?.notification.activateUndo() }
        addAction(actions, "next-photo") { [weak self] in self?.skip(by: 1) }
        addAction(actions, "previous-photo") { [weak self] in self?.skip(by: -1) }
        addAction(actions, "show-shortcuts") { [weak self] in self?.showShortcuts() }
        addAction(actions, "about") { [weak self] in self?.showAbout() }
        addAction(actions, "show-menu") { [weak self] in self?.toggleMenu() }
        addAction(actions, "library") { [weak self] in self?.toggleLibrary() }
        addAction(actions, "search") { [weak self] in self?.showLibrary(searching: true) }
        addAction(actions, "export") { [weak self] in self?.chooseExportFolder() }
    }

    /// Activates one of the window's actions by name, as its shortcut would.
    public func activateAction(_ name: String) {
        g_action_group_activate_action(caption_action_group(actions), name, nil)
    }

    func text(of entry: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_entry_get_text(caption_entry(entry)))
    }

    // MARK: Engine decisions -> widgets

    /// Feeds one event to the engine and applies what it decides.
    public func send(_ event: FormEvent) {
        if isSaving, event == .submit || event == .enter || event == .activate, engine.label == .done {
            return  // the save in flight answers this press
        }
        if [.submit, .activate, .enter, .back].contains(event) { settleInputMethod() }
        let decision = engine.handle(event)
        apply(decision)
        refresh()
        keepDraft()
    }

    private func apply(_ decision: FormDecision) {
        switch decision {
        case .nothing, .waitForPhoto:
            break
        case .focus(let item):
            focus(item)
        case .reject(let item):
            saveError = nil
            focus(item)
        case .choosePhoto:
            choosePhoto()
        case .save(let submission):
            save(submission)
        }
    }

    func focus(_ item: Int?) {
        let widget = item.map { itemWidgets[$0] } ?? activateButton
        if gtk_widget_has_focus(widget) == 0 { gtk_widget_grab_focus(widget) }
    }

    /// Shows the engine's state: the button's label, the hint by the focused field, the
    /// messages (also as the fields' accessible descriptions) and the summary.
    ///
    /// It runs on every keystroke and focus change, so it sets only what changed: GTK lays a
    /// label out again (and a button makes a new label widget) on every set, same text or not.
    func refresh() {
        let wording = engine.wording
        let label = wording.label(engine.label)
        if String(cString: gtk_button_get_label(caption_button(activateButton))) != label {
            gtk_button_set_label(caption_button(activateButton), label)
        }
        for (item, hint) in hintLabels.enumerated() {
            guard let hint else { continue }
            Self.setText(of: hint, engine.focus == item ? "⏎ " + label : "")
        }
        for (item, messageLabel) in messageLabels.enumerated() {
            let message = engine.message(for: item)
            Self.setText(of: messageLabel, message ?? "")
            gtk_widget_set_visible(messageLabel, message == nil ? 0 : 1)
            let accessible = gtk_widget_get_accessible(itemWidgets[item])
            if atk_object_get_description(accessible).map({ String(cString: $0) }) != message ?? "" {
                atk_object_set_description(accessible, message ?? "")
            }
            let context = gtk_widget_get_style_context(itemWidgets[item])
            if message == nil {
                gtk_style_context_remove_class(context, "error")
            } else {
                gtk_style_context_add_class(context, "error")
            }
        }
        let summary = saveError ?? engine.summary
        Self.setText(of: summaryLabel, summary ?? "")
        let formShows = gtk_stack_get_visible_child_name(caption_stack(views)).map { String(cString: $0) } != "library"
        gtk_revealer_set_reveal_child(caption_revealer(summaryRevealer), summary != nil && formShows ? 1 : 0)
    }

    private static func setText(of label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        if String(cString: gtk_label_get_text(caption_label(label))) != text {
            gtk_label_set_text(caption_label(label), text)
        }
    }

    public var summaryIsShowing: Bool { saveError != nil || engine.summary != nil }

    public var summaryText: String? { saveError ?? engine.summary }

    public var activateLabel: String {
        String(cString: gtk_button_get_label(caption_button(activateButton)))
    }

    public func message(for item: Int) -> String? { engine.message(for: item) }

    func dismissSummary() {
        saveError = nil
        send(.dismissSummary)
    }
}
