// C strings GLib hands over or takes: file name lists and names it allocated (their bytes
// kept), NULL-terminated arrays for a call, and markup escaping.

import CGtk
import POSIXFiles

/// The file names of a GSList of g_malloc'd C strings, which it frees (list and strings):
/// the "transfer full" lists that file choosers return. Each name's bytes are kept.
func takeStrings(_ list: UnsafeMutablePointer<GSList>?) -> [String] {
    var strings: [String] = []
    var node = list
    while let current = node {
        if let data = current.pointee.data {
            strings.append(FilePath.string(fromCString: data.assumingMemoryBound(to: CChar.self)))
            g_free(data)
        }
        node = current.pointee.next
    }
    g_slist_free(list)
    return strings
}

/// The strings of a NULL-terminated array GLib hands over (a `gchar **`), which is then
/// freed; none for nil.
func takeStrings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
    guard let array else { return [] }
    defer { g_strfreev(array) }
    var strings: [String] = []
    var index = 0
    while let string = array[index] {
        strings.append(String(cString: string))
        index += 1
    }
    return strings
}

/// A g_malloc'd string GLib or GTK hands over, which it frees; a file name's bytes are
/// kept as they are.
func takeString(_ name: UnsafeMutablePointer<gchar>?) -> String? {
    guard let name else { return nil }
    defer { g_free(name) }
    return FilePath.string(fromCString: name)
}

/// A NULL-terminated array of C strings that lives for the call.
func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    // An array literal with a nil at its end is never empty, so it has a base address.
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Text GTK may read as markup, escaped.
func markupEscaped(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}
