// Trimming white space at both ends, one rule for every module that reads text: what the
// form stores, a search typed in the library, a line of a code file.

extension String {
    /// Without white space at either end: all of Unicode's, the ideographic space U+3000 too
    /// (Foundation's trimming would be the only reason to link Foundation here).
    public var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
