// Typed handles over the GTK widgets the app uses, so that a call site cannot pass a label
// where an entry goes; each names its GType so a widget fetched from a .ui file is checked.

import CGtk
import POSIXFiles

/// A widget of a known kind. Handles do not own the widget: its container does.
@MainActor
protocol WidgetHandle: GObjectConvertible {
    var pointer: UnsafeMutablePointer<GtkWidget> { get }
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>)
    static var gtkType: GType { get }
}

/// Which widget a handle names: handles are values, and two may name one widget.
struct WidgetID: Hashable {
    fileprivate let address: UnsafeMutableRawPointer
}

extension WidgetHandle {
    var objectPointer: gpointer { UnsafeMutableRawPointer(pointer) }

    var id: WidgetID { WidgetID(address: UnsafeMutableRawPointer(pointer)) }

    /// This widget as a handle of another kind, if it is a widget of that kind.
    func `as`<Kind: WidgetHandle>(_ kind: Kind.Type) -> Kind? { Kind(UnsafeMutableRawPointer(pointer)) }

    /// The handle for `pointer` if it is a widget of this kind.
    init?(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer,
            g_type_check_instance_is_a(pointer.assumingMemoryBound(to: GTypeInstance.self), Self.gtkType) != 0
        else { return nil }
        self.init(unchecked: pointer.assumingMemoryBound(to: GtkWidget.self))
    }

    var asWidget: Widget { Widget(unchecked: pointer) }

    /// A container's children (none for a widget that is not a container).
    var children: [Widget] {
        guard
            g_type_check_instance_is_a(
                UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self), gtk_container_get_type())
                != 0
        else { return [] }
        let list = gtk_container_get_children(caption_container(pointer))
        defer { g_list_free(list) }
        var found: [Widget] = []
        var link = list
        while let node = link {
            if let data = node.pointee.data {
                found.append(Widget(unchecked: data.assumingMemoryBound(to: GtkWidget.self)))
            }
            link = node.pointee.next
        }
        return found
    }

    /// Every widget inside this one (a window's title bar included) whose GType is named
    /// `typeName`: for widgets GTK builds itself, such as a menu's buttons.
    func descendants(ofType typeName: String) -> [Widget] {
        var inside = children
        if g_type_check_instance_is_a(
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self), gtk_window_get_type()) != 0,
            let titlebar = gtk_window_get_titlebar(caption_window(pointer))
        {
            inside.append(Widget(unchecked: titlebar))
        }
        return inside.flatMap { child in
            let name = String(cString: g_type_name(gtk_widget_get_type_caption(child.pointer)))
            return (name == typeName ? [child] : []) + child.descendants(ofType: typeName)
        }
    }

    /// Marks the way down to this widget as each container's focus child, so that focus
    /// entering any of them (a stack showing the page it is on) lands here directly.
    func makeFocusChildOfAncestors() {
        var child = pointer
        while let parent = gtk_widget_get_parent(child) {
            gtk_container_set_focus_child(caption_container(parent), child)
            child = parent
        }
    }

    /// Scrolls `scroller` (a GtkScrolledWindow around this container) to show whichever
    /// child gets the focus, by Tab or by the program.
    func scrollFocusIntoView(of scroller: Widget) {
        gtk_container_set_focus_vadjustment(
            caption_container(pointer), gtk_scrolled_window_get_vadjustment(caption_scrolled_window(scroller.pointer)))
    }

    /// Lays `child` over this widget (a GtkOverlay).
    func addOverlay(_ child: some WidgetHandle) { gtk_overlay_add_overlay(caption_overlay(pointer), child.pointer) }

    /// A GtkModelButton's role: a plain item, a check (a switch) or a radio item.
    var modelButtonRole: GtkButtonRole { GtkButtonRole(UInt32(bitPattern: caption_object_get_int(pointer, "role"))) }

    /// The one child of a bin (a button's label), if any.
    var binChild: Widget? {
        guard
            g_type_check_instance_is_a(
                UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self), gtk_bin_get_type()) != 0
        else { return nil }
        return gtk_bin_get_child(caption_bin(pointer)).map(Widget.init(unchecked:))
    }

    func show() { gtk_widget_show(pointer) }
    func hide() { gtk_widget_hide(pointer) }
    func destroy() { gtk_widget_destroy(pointer) }

    /// Left out when its container shows all its children: it shows only when told to.
    func setShownOnlyWhenTold() { gtk_widget_set_no_show_all(pointer, 1) }

    /// Takes the width its container has to spare.
    func expandHorizontally() { gtk_widget_set_hexpand(pointer, 1) }

    /// Room left at its start and end (left and right in a left-to-right language).
    func setSideMargins(_ pixels: Int) {
        gtk_widget_set_margin_start(pointer, Int32(pixels))
        gtk_widget_set_margin_end(pointer, Int32(pixels))
    }

    /// Whether focus may land on it.
    func setCanFocus(_ can: Bool) { gtk_widget_set_can_focus(pointer, can ? 1 : 0) }
    func showAll() { gtk_widget_show_all(pointer) }
    func grabFocus() { gtk_widget_grab_focus(pointer) }
    var hasFocus: Bool { gtk_widget_has_focus(pointer) != 0 }
    /// The window's focus widget, whether or not the window is active.
    var isFocus: Bool { gtk_widget_is_focus(pointer) != 0 }
    func errorBell() { gtk_widget_error_bell(pointer) }

    var isVisible: Bool {
        get { gtk_widget_get_visible(pointer) != 0 }
        nonmutating set { gtk_widget_set_visible(pointer, newValue ? 1 : 0) }
    }

    var isSensitive: Bool {
        get { gtk_widget_get_sensitive(pointer) != 0 }
        nonmutating set { gtk_widget_set_sensitive(pointer, newValue ? 1 : 0) }
    }

    func addStyleClass(_ name: String) { gtk_style_context_add_class(gtk_widget_get_style_context(pointer), name) }
    func removeStyleClass(_ name: String) {
        gtk_style_context_remove_class(gtk_widget_get_style_context(pointer), name)
    }

    var accessible: UnsafeMutablePointer<AtkObject> { gtk_widget_get_accessible(pointer) }

    var accessibleName: String {
        get { atk_object_get_name(accessible).map { String(cString: $0) } ?? "" }
        nonmutating set { atk_object_set_name(accessible, FilePath.display(newValue)) }
    }

    /// An empty description where there was none: ATK announces no change from none to
    /// the first, so a description that will change starts empty.
    func startAccessibleDescription() { atk_object_set_description(accessible, "") }

    /// Set only when it changes: ATK tells assistive technologies of every set.
    var accessibleDescription: String {
        get { atk_object_get_description(accessible).map { String(cString: $0) } ?? "" }
        nonmutating set {
            let shown = FilePath.display(newValue)
            if accessibleDescription != shown { atk_object_set_description(accessible, shown) }
        }
    }

    func setAccessibleRole(_ role: AtkRole) { atk_object_set_role(accessible, role) }
    func setTooltip(_ text: String?) { gtk_widget_set_tooltip_text(pointer, text.map(FilePath.display)) }
    var scaleFactor: Int { max(Int(gtk_widget_get_scale_factor(pointer)), 1) }
    var allocatedWidth: Int { Int(gtk_widget_get_allocated_width(pointer)) }
    var allocatedHeight: Int { Int(gtk_widget_get_allocated_height(pointer)) }
    func queueDraw() { gtk_widget_queue_draw(pointer) }

    /// The smallest size it asks for, in logical pixels.
    func setMinimumSize(width: Int, height: Int) { gtk_widget_set_size_request(pointer, Int32(width), Int32(height)) }

    /// Where it sits in room larger than it needs (nil leaves that way as it is).
    func align(horizontal: GtkAlign? = nil, vertical: GtkAlign? = nil) {
        if let horizontal { gtk_widget_set_halign(pointer, horizontal) }
        if let vertical { gtk_widget_set_valign(pointer, vertical) }
    }

    /// Adds `child` to this container (a frame's, a revealer's one child).
    func add(_ child: some WidgetHandle) { gtk_container_add(caption_container(pointer), child.pointer) }
    func remove(_ child: some WidgetHandle) { gtk_container_remove(caption_container(pointer), child.pointer) }

    /// Named by `label` for assistive technologies, and the label says so too: read from
    /// the label even before it has been laid out.
    func setLabelled(by label: Label) {
        atk_object_add_relationship(accessible, ATK_RELATION_LABELLED_BY, label.accessible)
        atk_object_add_relationship(label.accessible, ATK_RELATION_LABEL_FOR, accessible)
    }

    /// Takes the room its container has to spare, both ways.
    func expandBothWays() {
        gtk_widget_set_hexpand(pointer, 1)
        gtk_widget_set_vexpand(pointer, 1)
    }
}

/// Any widget, when its kind does not matter.
struct Widget: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_widget_get_type() }

    /// A widget that is only drawn on (its draw signal).
    static func drawingArea() -> Widget { Widget(unchecked: gtk_drawing_area_new()) }

    /// A container that lays overlays over its one child.
    static func overlay() -> Widget { Widget(unchecked: gtk_overlay_new()) }

    /// A line of the shortcuts window: `accelerator` ("<Control>s <Control>Return") and
    /// what it does.
    static func shortcut(_ accelerator: String, title: String) -> Widget {
        Widget(unchecked: caption_shortcut_new(accelerator, title))
    }

    /// A frame with no label.
    static func frame() -> Widget { Widget(unchecked: gtk_frame_new(nil)) }
}

struct TextEntry: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_entry_get_type() }

    var text: String {
        get { String(cString: gtk_entry_get_text(caption_entry(pointer))) }
        nonmutating set { gtk_entry_set_text(caption_entry(pointer), newValue) }
    }

    init() { self.init(unchecked: gtk_entry_new()) }

    func setPlaceholder(_ text: String) { gtk_entry_set_placeholder_text(caption_entry(pointer), text) }
    /// The grey text an empty field shows; GTK owns the string.
    var placeholder: String { gtk_entry_get_placeholder_text(caption_entry(pointer)).map { String(cString: $0) } ?? "" }

    /// The caret, in characters from the start; -1 set puts it after the last one.
    var caret: Int {
        get { Int(gtk_editable_get_position(caption_editable(pointer))) }
        nonmutating set { gtk_editable_set_position(caption_editable(pointer), Int32(newValue)) }
    }

    /// Removes the characters `start..<end`, as typing would (the entry's signals run).
    func deleteText(from start: Int, to end: Int) {
        gtk_editable_delete_text(caption_editable(pointer), Int32(start), Int32(end))
    }

    /// Inserts `text` at character `position`, as typing would; returns the position after it.
    @discardableResult
    func insertText(_ text: String, at position: Int) -> Int {
        var at = Int32(position)
        gtk_editable_insert_text(caption_editable(pointer), text, -1, &at)
        return Int(at)
    }

    /// Selects the characters in `range`, as a drag over them would.
    func select(characters range: Range<Int>) {
        gtk_editable_select_region(caption_editable(pointer), Int32(range.lowerBound), Int32(range.upperBound))
    }

    /// Drops a selection, the cursor staying where the selection's end was.
    func deselect() {
        let editable = caption_editable(pointer)
        var start: Int32 = 0
        var end: Int32 = 0
        if gtk_editable_get_selection_bounds(editable, &start, &end) != 0 {
            gtk_editable_select_region(editable, end, end)
        }
    }

    /// The icon at the field's end (not a button), named for a screen reader by `tooltip`:
    /// GTK gives the icon's accessible object its tooltip as its name. Nil takes it away.
    func setEndIcon(_ iconName: String?, tooltip: String?) {
        let entry = caption_entry(pointer)
        gtk_entry_set_icon_from_icon_name(entry, GTK_ENTRY_ICON_SECONDARY, iconName)
        gtk_entry_set_icon_activatable(entry, GTK_ENTRY_ICON_SECONDARY, 0)
        gtk_entry_set_icon_tooltip_text(entry, GTK_ENTRY_ICON_SECONDARY, tooltip)
    }

    /// Focus with the cursor at the end and nothing selected.
    func grabFocusWithoutSelecting() { gtk_entry_grab_focus_without_selecting(caption_entry(pointer)) }

    /// Ends an open input-method composition the way a focus change does.
    func resetInputMethod() { gtk_entry_reset_im_context(caption_entry(pointer)) }

    /// Makes the field read-only and editable again: GTK tells the input method the field
    /// lost its input (focus-out) and may be reset, without moving the keyboard focus.
    func endInputMethodInput() {
        let editable = caption_editable(pointer)
        gtk_editable_set_editable(editable, 0)
        gtk_editable_set_editable(editable, 1)
    }
}

struct Button: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_button_get_type() }

    init(mnemonic: String) { self.init(unchecked: gtk_button_new_with_mnemonic(mnemonic)) }
    init(iconName: String) { self.init(unchecked: gtk_button_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON)) }

    /// Set only when it changes: a button makes a new label widget on every set.
    var label: String {
        get { gtk_button_get_label(caption_button(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if label != newValue { gtk_button_set_label(caption_button(pointer), newValue) } }
    }

    func setFlat() { gtk_button_set_relief(caption_button(pointer), GTK_RELIEF_NONE) }

    /// An underscore in the label marks the mnemonic ("_Retry").
    func setUsesMnemonic() {
        gtk_button_set_use_underline(caption_button(pointer), 1)
        clicksAtOnceByMnemonic()
    }

    /// Its mnemonic (Alt and the letter) clicks it before the next key is handled. GTK's
    /// own shows the button pressed and clicks when the key is released over it, or a
    /// quarter of a second later; a mnemonic's release goes to the focused widget, so keys
    /// typed after it would act first.
    func clicksAtOnceByMnemonic() {
        connect(.mnemonicActivate) { [self] sharedWithOthers in
            // A mnemonic shared with other widgets only moves focus among them.
            guard !sharedWithOthers else { return false }
            gtk_button_clicked(caption_button(pointer))
            return true
        }
    }
}

struct Label: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_label_get_type() }

    init(_ text: String = "") { self.init(unchecked: gtk_label_new(text)) }

    /// A label whose underscore marks the key of its mnemonic widget ("_Title").
    init(mnemonic text: String) { self.init(unchecked: gtk_label_new_with_mnemonic(text)) }

    /// Where its text sits across its width: 0 start, 1 end.
    func setTextAlignment(_ x: Float) { gtk_label_set_xalign(caption_label(pointer), x) }

    /// Long text breaks into lines.
    func setWraps() { gtk_label_set_line_wrap(caption_label(pointer), 1) }

    /// Long text breaks into lines, within a word where a word is longer than the line (an
    /// address, a path): such a word would otherwise set the label's least width, and widen
    /// the window. Lines are `maxWidthChars` at most when given.
    func setWrapsAnywhere(maxWidthChars: Int? = nil) {
        gtk_label_set_line_wrap(caption_label(pointer), 1)
        gtk_label_set_line_wrap_mode(caption_label(pointer), PANGO_WRAP_WORD_CHAR)
        if let maxWidthChars { gtk_label_set_max_width_chars(caption_label(pointer), Int32(maxWidthChars)) }
    }

    /// The width it keeps, in characters, whatever it shows.
    func setWidthChars(_ count: Int) { gtk_label_set_width_chars(caption_label(pointer), Int32(count)) }

    var isSelectable: Bool {
        get { gtk_label_get_selectable(caption_label(pointer)) != 0 }
        nonmutating set { gtk_label_set_selectable(caption_label(pointer), newValue ? 1 : 0) }
    }

    /// Set only when it changes: GTK lays a label out again on every set, same text or not.
    /// A file name's bytes that are not UTF-8 are shown as U+FFFD, as GLib shows them.
    var text: String {
        get { String(cString: gtk_label_get_text(caption_label(pointer))) }
        nonmutating set {
            let shown = FilePath.display(newValue)
            if text != shown { gtk_label_set_text(caption_label(pointer), shown) }
        }
    }

    /// Long text is cut with an ellipsis (at the end, in the middle) instead of widening the
    /// label, beyond `maxWidthChars` when given.
    func ellipsize(_ mode: PangoEllipsizeMode, maxWidthChars: Int? = nil) {
        gtk_label_set_ellipsize(caption_label(pointer), mode)
        if let maxWidthChars { gtk_label_set_max_width_chars(caption_label(pointer), Int32(maxWidthChars)) }
    }

    /// The keys of its mnemonic ("Alt+C" for "_Cancel"), as GTK names keys in the user's
    /// language.
    var mnemonicKeys: String {
        takeString(gtk_accelerator_get_label(gtk_label_get_mnemonic_keyval(caption_label(pointer)), GDK_MOD1_MASK))
            ?? ""
    }

    func setMnemonicWidget(_ widget: some WidgetHandle) {
        gtk_label_set_mnemonic_widget(caption_label(pointer), widget.pointer)
    }
}

struct Stack: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_stack_get_type() }

    init() { self.init(unchecked: gtk_stack_new()) }

    /// Adds a page the stack shows by `name`.
    func add(_ child: some WidgetHandle, name: String) {
        gtk_stack_add_named(caption_stack(pointer), child.pointer, name)
    }

    var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(caption_stack(pointer)).map { String(cString: $0) } }
        nonmutating set { if let newValue { gtk_stack_set_visible_child_name(caption_stack(pointer), newValue) } }
    }
}

struct Revealer: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_revealer_get_type() }

    init() { self.init(unchecked: gtk_revealer_new()) }

    var revealsChild: Bool {
        get { gtk_revealer_get_reveal_child(caption_revealer(pointer)) != 0 }
        nonmutating set { gtk_revealer_set_reveal_child(caption_revealer(pointer), newValue ? 1 : 0) }
    }
}

struct HeaderBar: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_header_bar_get_type() }

    /// A header bar with `title` and the window's close button.
    init(title: String) {
        self.init(unchecked: gtk_header_bar_new())
        gtk_header_bar_set_title(caption_header_bar(pointer), title)
        gtk_header_bar_set_show_close_button(caption_header_bar(pointer), 1)
    }

    /// Shows `widget` (a stack switcher) where the title would be.
    func setCustomTitle(_ widget: some WidgetHandle) {
        gtk_header_bar_set_custom_title(caption_header_bar(pointer), widget.pointer)
    }

    var subtitle: String? {
        get { gtk_header_bar_get_subtitle(caption_header_bar(pointer)).map { String(cString: $0) } }
        nonmutating set { gtk_header_bar_set_subtitle(caption_header_bar(pointer), newValue.map(FilePath.display)) }
    }
}

struct Box: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_box_get_type() }

    /// A row of children `spacing` pixels apart.
    init(rowSpacing spacing: Int) { self.init(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, Int32(spacing))) }

    /// A column of children `spacing` pixels apart.
    init(columnSpacing spacing: Int) { self.init(unchecked: gtk_box_new(GTK_ORIENTATION_VERTICAL, Int32(spacing))) }

    func packStart(_ child: some WidgetHandle, expand: Bool = false) {
        gtk_box_pack_start(caption_box(pointer), child.pointer, expand ? 1 : 0, expand ? 1 : 0, 0)
    }

    func packEnd(_ child: some WidgetHandle) { gtk_box_pack_end(caption_box(pointer), child.pointer, 0, 0, 0) }

    func reorder(_ child: some WidgetHandle, to position: Int) {
        gtk_box_reorder_child(caption_box(pointer), child.pointer, Int32(position))
    }
}

struct Grid: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_grid_get_type() }

    func attach(_ child: some WidgetHandle, column: Int, row: Int) {
        gtk_grid_attach(caption_grid(pointer), child.pointer, Int32(column), Int32(row), 1, 1)
    }

    /// Moves an attached child to `row`, in its column.
    func move(_ child: some WidgetHandle, toRow row: Int) {
        caption_grid_move_to_row(caption_grid(pointer), child.pointer, Int32(row))
    }
}

struct MenuButton: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_menu_button_get_type() }

    /// Its popover, once it has one.
    var popover: Widget? {
        gtk_menu_button_get_popover(caption_menu_button(pointer)).map { Widget(unchecked: caption_widget($0)) }
    }

    var isActive: Bool {
        get { gtk_toggle_button_get_active(caption_toggle_button(pointer)) != 0 }
        nonmutating set { gtk_toggle_button_set_active(caption_toggle_button(pointer), newValue ? 1 : 0) }
    }
}

struct CheckButton: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_check_button_get_type() }

    init(label: String) { self.init(unchecked: gtk_check_button_new_with_label(label)) }

    /// Set only when it changes, as a button's.
    var label: String {
        get { gtk_button_get_label(caption_button(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if label != newValue { gtk_button_set_label(caption_button(pointer), newValue) } }
    }

    var isActive: Bool {
        get { gtk_toggle_button_get_active(caption_toggle_button(pointer)) != 0 }
        nonmutating set { gtk_toggle_button_set_active(caption_toggle_button(pointer), newValue ? 1 : 0) }
    }
}

/// A GtkComboBoxText: a choice among rows of text, each known by an id.
struct ComboBox: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_combo_box_text_get_type() }

    func removeAll() { gtk_combo_box_text_remove_all(caption_combo_box_text(pointer)) }
    func append(id: String, _ text: String) { gtk_combo_box_text_append(caption_combo_box_text(pointer), id, text) }

    /// The chosen row's id; nil when none is chosen.
    var activeID: String? {
        get { gtk_combo_box_get_active_id(caption_combo_box(pointer)).map { String(cString: $0) } }
        nonmutating set { _ = gtk_combo_box_set_active_id(caption_combo_box(pointer), newValue) }
    }
}

struct ProgressBar: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_progress_bar_get_type() }

    /// A bar that shows its text.
    init() {
        self.init(unchecked: gtk_progress_bar_new())
        gtk_progress_bar_set_show_text(caption_progress_bar(pointer), 1)
    }

    var text: String {
        get { gtk_progress_bar_get_text(caption_progress_bar(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_progress_bar_set_text(caption_progress_bar(pointer), newValue) }
    }

    /// How far the work is, 0 to 1.
    var fraction: Double {
        get { gtk_progress_bar_get_fraction(caption_progress_bar(pointer)) }
        nonmutating set { gtk_progress_bar_set_fraction(caption_progress_bar(pointer), newValue) }
    }

    /// Moves the block of a bar whose end is not known.
    func pulse() { gtk_progress_bar_pulse(caption_progress_bar(pointer)) }
}

/// A list of rows, one of which may be chosen.
struct ListBox: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_list_box_get_type() }

    init() {
        self.init(unchecked: gtk_list_box_new())
        gtk_list_box_set_selection_mode(caption_list_box(pointer), GTK_SELECTION_SINGLE)
    }

    /// Rows of `children` in place of the rows it had, none chosen. `focusable` false keeps
    /// the focus out of them (a list that a field's keys drive).
    func setRows(_ children: [some WidgetHandle], focusable: Bool) {
        for row in self.children { row.destroy() }
        for child in children { gtk_list_box_insert(caption_list_box(pointer), child.pointer, -1) }
        if !focusable { for row in self.children { row.setCanFocus(false) } }
        gtk_list_box_unselect_all(caption_list_box(pointer))
    }

    /// Chooses row `index`, if there is one.
    func selectRow(at index: Int) {
        guard let row = gtk_list_box_get_row_at_index(caption_list_box(pointer), Int32(index)) else { return }
        gtk_list_box_select_row(caption_list_box(pointer), row)
    }
}

/// A popover that never takes the focus, below the widget it points at.
struct Popover: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_popover_get_type() }

    /// Pointing at `widget`, or at nothing until `point(at:)` says.
    init(pointingAt widget: Widget?) {
        self.init(unchecked: gtk_popover_new(widget?.pointer))
        gtk_popover_set_modal(caption_popover(pointer), 0)
        gtk_popover_set_position(caption_popover(pointer), GTK_POS_BOTTOM)
    }

    func point(at widget: some WidgetHandle) { gtk_popover_set_relative_to(caption_popover(pointer), widget.pointer) }
}

struct InfoBar: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_info_bar_get_type() }

    /// Adds a button that answers `response`, hidden until shown (showing the bar leaves it
    /// as it is); its label is set later.
    func addHiddenButton(response: Int32) -> Button {
        // GtkInfoBar makes the button; it never returns NULL.
        let button = Button(unchecked: gtk_info_bar_add_button(caption_info_bar(pointer), "", response)!)
        gtk_widget_set_no_show_all(button.pointer, 1)
        button.isVisible = false
        return button
    }

    /// Answers `response`, as a click on its button would.
    func respond(_ response: Int32) { gtk_info_bar_response(caption_info_bar(pointer), response) }
}

/// A list shown by a GtkTreeView over a GtkListStore, addressed by row number.
struct TreeView: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_tree_view_get_type() }

    /// The row of the selected line, if one is selected.
    var selectedRow: Int? {
        var model: OpaquePointer?
        var iter = GtkTreeIter()
        let selection = gtk_tree_view_get_selection(caption_tree_view(pointer))
        guard gtk_tree_selection_get_selected(selection, &model, &iter) != 0, let model,
            let path = gtk_tree_model_get_path(model, &iter)
        else { return nil }
        defer { gtk_tree_path_free(path) }
        return gtk_tree_path_get_indices(path).map { Int($0.pointee) }
    }

    /// The rows on screen, first to last; nil while nothing is laid out.
    var visibleRows: ClosedRange<Int>? {
        var start: OpaquePointer?
        var end: OpaquePointer?
        guard gtk_tree_view_get_visible_range(caption_tree_view(pointer), &start, &end) != 0 else { return nil }
        defer {
            start.map { gtk_tree_path_free($0) }
            end.map { gtk_tree_path_free($0) }
        }
        let first = start.flatMap { gtk_tree_path_get_indices($0).map { Int($0.pointee) } } ?? 0
        let last = end.flatMap { gtk_tree_path_get_indices($0).map { Int($0.pointee) } } ?? first
        return first...max(first, last)
    }

    /// Moves the cursor (and the selection) to `row`, without scrolling.
    func moveCursor(to row: Int) {
        guard let path = gtk_tree_path_new_from_string(String(row)) else { return }
        defer { gtk_tree_path_free(path) }
        gtk_tree_view_set_cursor(caption_tree_view(pointer), path, nil, 0)
    }

    /// Runs `body` when the row a screen reader is told of (the cursor's) changes.
    func onActiveDescendantChanged(_ body: @escaping @MainActor () -> Void) {
        UnsafeMutableRawPointer(gtk_widget_get_accessible(pointer)).connect(.activeDescendantChanged) { _ in body() }
    }

    /// Runs `body` whenever the view scrolls.
    func onScroll(_ body: @escaping VoidHandler) {
        // A scrollable tree view always has an adjustment.
        guard let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(pointer)) else { return }
        UnsafeMutableRawPointer(adjustment).connect(.valueChanged, body)
    }

    /// The accessible object of a cell, as a screen reader finds it.
    func accessibleCell(row: Int, column: Int) -> AccessibleObject? {
        guard let table = gtk_widget_get_accessible(pointer),
            let cell = atk_table_ref_at(OpaquePointer(table), Int32(row), Int32(column))
        else { return nil }
        return AccessibleObject(GObjectRef(taking: UnsafeMutableRawPointer(cell)))
    }

    /// Moves the cursor (and the selection) to `row`, scrolled into view.
    func select(row: Int) {
        guard let path = gtk_tree_path_new_from_string(String(row)) else { return }
        defer { gtk_tree_path_free(path) }
        gtk_tree_view_set_cursor(caption_tree_view(pointer), path, nil, 0)
        gtk_tree_view_scroll_to_cell(caption_tree_view(pointer), path, nil, 0, 0, 0)
    }
}

struct Window: WidgetHandle {
    let pointer: UnsafeMutablePointer<GtkWidget>
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    static var gtkType: GType { gtk_window_get_type() }

    var gtkWindow: UnsafeMutablePointer<GtkWindow> { caption_window(pointer) }

    /// A toplevel window of no application (tests, the benchmarks).
    static func toplevel() -> Window { Window(unchecked: gtk_window_new(GTK_WINDOW_TOPLEVEL)) }

    /// Brings the window forward with the keyboard. Given the time of the event being
    /// handled (a key), a window manager takes it for the user's wish, not for a window
    /// stealing focus.
    func present() { gtk_window_present_with_time(gtkWindow, gtk_get_current_event_time()) }

    var title: String {
        get { gtk_window_get_title(gtkWindow).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_window_set_title(gtkWindow, newValue) }
    }

    func setIconName(_ name: String) { gtk_window_set_icon_name(gtkWindow, name) }
    func setTitlebar(_ bar: some WidgetHandle) { gtk_window_set_titlebar(gtkWindow, bar.pointer) }

    /// The one child of the window.
    func setContent(_ child: some WidgetHandle) { gtk_container_add(caption_container(pointer), child.pointer) }

    /// The widget Enter activates where the focus does not take Enter itself.
    func setDefault(_ widget: some WidgetHandle) { gtk_window_set_default(gtkWindow, widget.pointer) }

    /// Takes the focus away from every widget in the window.
    func unsetFocus() { gtk_window_set_focus(gtkWindow, nil) }

    /// Files (as URIs) and image data dropped on the window come to its drag-data-received.
    func acceptFileAndImageDrops() {
        gtk_drag_dest_set(pointer, GTK_DEST_DEFAULT_ALL, nil, 0, GDK_ACTION_COPY)
        gtk_drag_dest_add_uri_targets(pointer)
        gtk_drag_dest_add_image_targets(pointer)
    }

    /// The size it opens at (the user may change it after).
    func setDefaultSize(width: Int, height: Int) { gtk_window_set_default_size(gtkWindow, Int32(width), Int32(height)) }
    func maximize() { gtk_window_maximize(gtkWindow) }
    var isMaximized: Bool { gtk_window_is_maximized(gtkWindow) != 0 }

    /// Its size as the window manager would restore it, in logical pixels.
    var size: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_size(gtkWindow, &width, &height)
        return (Int(width), Int(height))
    }
    var focus: Widget? { gtk_window_get_focus(gtkWindow).map(Widget.init(unchecked:)) }

    var isActive: Bool { gtk_window_is_active(gtkWindow) != 0 }

    /// Runs `body` once the window is active (at once if it is, or is not shown at all),
    /// `delay` after it became so, unless `lifetime` has ended by then. A screen reader does
    /// not yet know a window that is still opening, and says nothing of what appears in it
    /// meanwhile.
    func whenActive(delay milliseconds: UInt32, in lifetime: Lifetime, _ body: @escaping @MainActor () -> Void) {
        guard !isActive, isVisible else { return body() }
        afterActivation(delay: milliseconds, in: lifetime, body)
    }

    /// Runs `body` `delay` after the window next becomes active, shown or not yet: what
    /// appeared before that, while it was opening, may be said then.
    func afterActivation(delay milliseconds: UInt32, in lifetime: Lifetime, _ body: @escaping @MainActor () -> Void) {
        var done = false
        connect(.notify("is-active")) { _ in
            guard !done, isActive else { return }
            done = true
            lifetime.after(milliseconds: milliseconds) { body() }
        }
    }

    /// Opens `uri` in the desktop's application for it (for `help:`, the help browser);
    /// nil, or GLib's reason when nothing could be started.
    func open(uri: String) -> String? {
        // Not gtk_show_uri_on_window: GTK 3.24 launches from it asynchronously and drops the
        // error, so a missing help browser would be a key that does nothing. Launching
        // starts a process (or sends a D-Bus message) and does not wait for it.
        let context = caption_launch_context(pointer, UInt32(GDK_CURRENT_TIME))
        defer { g_object_unref(context) }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, context, &error) != 0 { return nil }
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? ""
    }

    /// A dialog that belongs to this window: above it, closed with it.
    func adopt(_ dialog: Window, modal: Bool = false) {
        gtk_window_set_transient_for(dialog.gtkWindow, gtkWindow)
        gtk_window_set_destroy_with_parent(dialog.gtkWindow, 1)
        if modal { gtk_window_set_modal(dialog.gtkWindow, 1) }
    }
}

/// Objects from a GtkBuilder definition (a `.ui` file of Resources/), checked by kind.
@MainActor
struct Builder {
    private let builder: GObjectRef

    /// `definition` is one of the embedded resources; a broken one is a programming error
    /// that the window tests catch at once.
    init(_ definition: String) {
        // gtk_builder_new_from_string aborts on a bad definition rather than return NULL.
        // The translation domain comes from each file's <interface domain="caption">: set
        // on the builder as well, GTK 3.24 frees the builder's copy while the parser still
        // holds it (AddressSanitizer: heap-use-after-free in gtk_builder_add_from_string).
        let builder = gtk_builder_new()!
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_string(builder, definition, gsize(bitPattern: -1), &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            fatalError("an embedded interface definition is broken: \(message)")
        }
        self.builder = GObjectRef(taking: UnsafeMutableRawPointer(builder))
    }

    /// The object `id` as a `Kind`; a missing or mistyped one is a programming error.
    subscript<Kind: WidgetHandle>(_ id: String, as kind: Kind.Type = Kind.self) -> Kind {
        let object = gtk_builder_get_object(builder.pointer.assumingMemoryBound(to: GtkBuilder.self), id).map {
            UnsafeMutableRawPointer($0)
        }
        guard let handle = Kind(object) else { fatalError("the interface has no \(Kind.self) named \(id)") }
        return handle
    }
}

/// An accessible object this side holds a reference to (a tree view's cell).
@MainActor
struct AccessibleObject {
    private let reference: GObjectRef

    init(_ reference: GObjectRef) { self.reference = reference }

    private var pointer: UnsafeMutablePointer<AtkObject> { reference.pointer.assumingMemoryBound(to: AtkObject.self) }

    var name: String? {
        get { atk_object_get_name(pointer).map { String(cString: $0) } }
        nonmutating set { atk_object_set_name(pointer, newValue ?? "") }
    }
}
