// The list stores behind the library's list and the code table, each owned by Swift and
// released with its last holder.

import CGtk
import Pixbufs

/// A GtkListStore this side owns one reference to.
@MainActor
class ListStore {
    fileprivate let pointer: UnsafeMutablePointer<GtkListStore>

    fileprivate init(_ pointer: UnsafeMutablePointer<GtkListStore>) { self.pointer = pointer }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Takes row `row` out; a row that is not there is left alone.
    func remove(row: Int) { caption_entry_store_remove(pointer, Int32(row)) }
}

/// The library list's rows: a thumbnail and the entry's words as Pango markup.
final class EntryStore: ListStore {
    init() {
        // A new list store fails only when memory does.
        super.init(caption_entry_store_new()!)
    }

    func insert(markup: String, at row: Int) { caption_entry_store_insert(pointer, Int32(row), markup) }

    /// The row's thumbnail (the store takes its own reference); nil takes it away.
    func setThumbnail(_ pixbuf: Pixbuf?, row: Int) {
        caption_entry_store_set_thumbnail(pointer, Int32(row), pixbuf?.pointer)
    }
}

/// The code table's rows: a code and the text it becomes.
final class CodeStore: ListStore {
    init() {
        // A new list store fails only when memory does.
        super.init(caption_code_store_new()!)
    }

    func insert(code: String, text: String, at row: Int) {
        caption_code_store_insert(pointer, Int32(row), code, text)
    }

    func set(code: String, text: String, row: Int) { caption_code_store_set(pointer, Int32(row), code, text) }
}

extension TreeView {
    /// Shows `store`; the view takes its own reference.
    func setModel(_ store: ListStore) {
        gtk_tree_view_set_model(caption_tree_view(pointer), caption_tree_model(store.pointer))
    }
}
