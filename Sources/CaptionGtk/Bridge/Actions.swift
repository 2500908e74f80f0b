// GIO's actions and menus as Swift values: a GSimpleAction, the map that holds a window's
// or the application's actions, and a GMenu built from labels and action names.

import CGtk

/// A GSimpleAction, owned: plain, a switch (boolean state), or a choice of words (string
/// state and parameter).
@MainActor
final class SimpleAction {
    fileprivate let object: GObjectRef

    /// A plain action: activating it runs what `onActivate` says.
    init(_ name: String) {
        // GLib aborts rather than return NULL from a constructor.
        object = GObjectRef(taking: UnsafeMutableRawPointer(g_simple_action_new(name, nil)!))
    }

    /// An action that takes a word each time it is activated (no state): one instance
    /// handing another what to do.
    init(_ name: String, takingWord: Void) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        object = GObjectRef(taking: UnsafeMutableRawPointer(g_simple_action_new(name, type)!))
    }

    /// A switch: its state is `on`; menus show it as a check item.
    init(_ name: String, switchedOn on: Bool) {
        object = GObjectRef(
            taking: UnsafeMutableRawPointer(g_simple_action_new_stateful(name, nil, g_variant_new_boolean(on ? 1 : 0))!)
        )
    }

    /// A choice among words: its state is the chosen word, and each menu item that targets
    /// a word is a radio item.
    init(_ name: String, chosen word: String) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        object = GObjectRef(
            taking: UnsafeMutableRawPointer(g_simple_action_new_stateful(name, type, g_variant_new_string(word))!))
    }

    private var action: OpaquePointer { OpaquePointer(object.pointer) }

    /// `body` gets the word it was activated with (nil for an action without a parameter).
    func onActivate(_ body: @escaping @MainActor (String?) -> Void) {
        object.pointer.connect(.actionActivate) { parameter in
            body(parameter.map { String(cString: g_variant_get_string(OpaquePointer($0), nil)) })
        }
    }

    /// A disabled action's keys do nothing and go on to the focused widget.
    var isEnabled: Bool {
        get { g_action_get_enabled(action) != 0 }
        set { g_simple_action_set_enabled(action, newValue ? 1 : 0) }
    }

    func setState(switchedOn on: Bool) {
        g_simple_action_set_state(action, g_variant_new_boolean(on ? 1 : 0))
    }

    func setState(chosen word: String) {
        g_simple_action_set_state(action, g_variant_new_string(word))
    }
}

/// The actions of a window ("win.") or of the application ("app."): a GActionMap.
@MainActor
struct ActionMap {
    let pointer: gpointer

    /// The window's actions ("win.save", …). An application window is its own action map,
    /// and the application binds the shortcuts; a bare window (tests) gets a group of its
    /// own under the same prefix, which the window holds.
    static func of(_ window: Window) -> ActionMap {
        if g_type_check_instance_is_a(
            UnsafeMutableRawPointer(window.pointer).assumingMemoryBound(to: GTypeInstance.self),
            gtk_application_window_get_type()) != 0
        {
            return ActionMap(pointer: window.objectPointer)
        }
        // GLib aborts rather than return NULL from a constructor.
        let group = UnsafeMutableRawPointer(g_simple_action_group_new()!)
        gtk_widget_insert_action_group(window.pointer, "win", OpaquePointer(group))
        g_object_unref(group)  // the window holds it now
        return ActionMap(pointer: group)
    }

    /// The application's own actions ("app.").
    init(application: UnsafeMutablePointer<GtkApplication>) {
        pointer = UnsafeMutableRawPointer(application)
    }

    private init(pointer: gpointer) {
        self.pointer = pointer
    }

    /// The map keeps the action; the caller may let go of its own.
    func add(_ action: SimpleAction) {
        g_action_map_add_action(caption_action_map(pointer), OpaquePointer(action.object.pointer))
    }

    /// Activates the action `name` as its key or menu item would, with a word if it takes one.
    func activate(_ name: String, word: String? = nil) {
        g_action_group_activate_action(caption_action_group(pointer), name, word.map { g_variant_new_string($0) })
    }
}

/// A GMenu, owned, for a menu button's model: items that name their action ("win.save"),
/// radio items that name a word for it, and sections.
@MainActor
final class Menu {
    fileprivate let object: GObjectRef

    init() {
        object = GObjectRef(taking: UnsafeMutableRawPointer(g_menu_new()!))
    }

    private var menu: OpaquePointer { OpaquePointer(object.pointer) }

    func append(_ label: String, action detailedName: String) {
        g_menu_append(menu, label, detailedName)
    }

    /// An item that activates `detailedName` with `word`: a radio item of that choice.
    func append(_ label: String, action detailedName: String, word: String) {
        let item = g_menu_item_new(label, nil)!
        g_menu_item_set_action_and_target_value(item, detailedName, g_variant_new_string(word))
        g_menu_append_item(menu, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    func appendSection(_ label: String?, _ section: Menu) {
        g_menu_append_section(menu, label, UnsafeMutablePointer<GMenuModel>(section.menu))
    }

    func insertSection(_ label: String?, _ section: Menu, at position: Int) {
        g_menu_insert_section(menu, Int32(position), label, UnsafeMutablePointer<GMenuModel>(section.menu))
    }

    func remove(at position: Int) { g_menu_remove(menu, Int32(position)) }

    func removeAll() { g_menu_remove_all(menu) }

    /// The menu of `button` from now on (the button keeps it).
    func attach(to button: MenuButton) {
        gtk_menu_button_set_menu_model(caption_menu_button(button.pointer), UnsafeMutablePointer(menu))
    }
}
