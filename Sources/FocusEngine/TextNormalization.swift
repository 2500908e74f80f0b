// How a typed value becomes the stored one: one rule, used by the window, the command line
// and the library alike.

public enum TextNormalization {
    /// Line breaks become spaces, other control characters go, and white space at either
    /// end (all of Unicode's, U+3000 included) is trimmed. Inner spacing is the user's.
    public static func normalize(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in raw.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCR:
                continue  // CR LF is one line break
            case "\r", "\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                scalars.append(" ")
            default:
                if scalar.properties.generalCategory == .control { continue }
                scalars.append(scalar)
            }
        }
        let isSpace: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Length as a person counts it: grapheme clusters, so 👩‍👩‍👧 or é made of two scalars is one.
    public static func length(_ normalized: String) -> Int {
        normalized.count
    }
}
