// The table of actions is the one list: the shortcuts window and the primary menu show
// exactly what it declares.

import CGtk
import CaptionMetadata
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ActionTableTests {
    let folder = Harness.temporaryDirectory("caption-actions")

    /// The accelerators of every GtkShortcutsShortcut inside `widget`, internal children
    /// included (a shortcuts window keeps its groups in a stack of its own).
    func shortcutAccelerators(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        final class Found { var accelerators: [String] = [] }
        let found = Found()
        func walk(_ widget: UnsafeMutablePointer<GtkWidget>) {
            let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_shortcuts_shortcut_get_type()) != 0,
                let value = caption_object_get_string(widget, "accelerator")
            {
                found.accelerators.append(String(cString: value))
                g_free(value)
            }
            guard g_type_check_instance_is_a(instance, gtk_container_get_type()) != 0 else { return }
            var children: [UnsafeMutablePointer<GtkWidget>] = []
            withUnsafeMutablePointer(to: &children) { list in
                gtk_container_forall(
                    caption_container(widget),
                    { child, data in
                        guard let child, let data else { return }
                        data.assumingMemoryBound(to: [UnsafeMutablePointer<GtkWidget>].self).pointee.append(child)
                    }, list)
            }
            children.forEach(walk)
        }
        walk(widget)
        return found.accelerators
    }

    @Test func everyAcceleratorAppearsInTheShortcutsWindow() throws {
        let window = try Harness.makeWindow(library: folder + "/library", stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        let shortcuts = window.showShortcuts()
        Harness.settle()
        let shown = shortcutAccelerators(in: shortcuts.pointer)
        #expect(shown.count == ShortcutLine.all.count, "one line per entry of the table")
        let shownKeys = Set(shown.flatMap { $0.split(separator: " ").map(String.init) })
        for action in WindowAction.allCases {
            for accelerator in action.accelerators {
                #expect(
                    shownKeys.contains(accelerator),
                    "\(accelerator) (\(action.rawValue)) is not in the shortcuts window")
            }
        }
        // A widget's line may name several keys (Down Up), space-separated as GTK takes them.
        for key in WidgetKey.allCases {
            for accelerator in key.accelerator.split(separator: " ").map(String.init) {
                #expect(shownKeys.contains(accelerator), "\(accelerator) is not in the shortcuts window")
            }
        }
    }

    @Test func everyActionWithKeysIsListedInTheShortcutsWindow() {
        // A new action with keys but no line would be a shortcut nobody can discover.
        for action in WindowAction.allCases where !action.accelerators.isEmpty {
            #expect(action.shortcut != nil, "\(action.rawValue) has keys but no line in the shortcuts window")
        }
    }

    /// The items of a menu model's section: label, action, and target.
    func items(_ model: UnsafeMutablePointer<GMenuModel>) -> [(label: String, action: String, target: String)] {
        (0..<g_menu_model_get_n_items(model)).map { index in
            func attribute(_ name: String) -> String {
                guard let value = g_menu_model_get_item_attribute_value(model, index, name, nil) else { return "" }
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            }
            return (attribute("label"), attribute("action"), attribute("target"))
        }
    }

    /// The section linked from item `index` (a reference the test keeps until it ends).
    func section(_ model: UnsafeMutablePointer<GMenuModel>, _ index: Int32) throws -> UnsafeMutablePointer<GMenuModel> {
        try #require(g_menu_model_get_item_link(model, index, "section"))
    }

    @Test func thePrimaryMenuIsWhereCaptionsGoThenTheTablesMenuEntries() throws {
        let window = try Harness.makeWindow(library: folder + "/library", stateFile: folder + "/window.ini")
        defer { gtk_widget_destroy(window.widget) }
        let model = try #require(gtk_menu_button_get_menu_model(caption_menu_button(window.menuButton.pointer)))
        #expect(g_menu_model_get_n_items(model) == 2, "two sections")
        let choices = items(try section(model, 0))
        #expect(choices.map(\.label) == DestinationChoice.choices.map(DestinationChoice.label))
        #expect(choices.allSatisfy { $0.action == "win.caption-destination" })
        #expect(choices.map(\.target) == ["library", "photo", "sidecar"])
        let shown = items(try section(model, 1))
        let expected = WindowAction.allCases.compactMap { action in action.menuLabel.map { ($0, action.detailedName) } }
        #expect(shown.map(\.label) == expected.map(\.0))
        #expect(shown.map(\.action) == expected.map(\.1))
        #expect(!shown.isEmpty)
    }
}
