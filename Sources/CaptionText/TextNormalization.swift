// How a typed value becomes the stored one: one rule, used by the window, the command line
// and the library alike.

public enum TextNormalization {
    /// Line breaks and tabs become spaces, other control characters go, and white space at
    /// either end (all of Unicode's, U+3000 included) is trimmed. Inner spacing is the
    /// user's. Text with nothing visible in it (only zero-width spaces, byte-order marks,
    /// direction marks and the like) is empty: it would save a title no one can see.
    public static func normalize(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in raw.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCR:
                continue  // CR LF is one line break
            case "\r", "\n", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                scalars.append(" ")
            default:
                if scalar.properties.generalCategory == .control { continue }
                scalars.append(scalar)
            }
        }
        guard scalars.contains(where: { !isInvisible($0) }) else { return "" }
        return String(scalars).trimmingWhiteSpace
    }

    /// White space, and what Unicode says shows nothing by itself: default-ignorable code
    /// points (zero-width spaces and joiners, U+FEFF, direction marks and overrides,
    /// variation selectors) and other format characters.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
            || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .control
    }

    /// The most scalars one character is counted as: a base and 30 combining marks, the
    /// longest sequence Unicode's stream-safe text format allows (UAX #15).
    public static let scalarsPerCharacter = 31

    /// Length as a person counts it: grapheme clusters, so 👩‍👩‍👧 or é made of two scalars is
    /// one. A cluster longer than any real character (a letter under thousands of
    /// combining marks) counts as one character for each 31 scalars, so that the limit
    /// bounds what is stored too.
    public static func length(_ normalized: String) -> Int {
        var length = 0
        for character in normalized {
            let scalars = character.unicodeScalars.count
            length += scalars <= scalarsPerCharacter ? 1 : (scalars + scalarsPerCharacter - 1) / scalarsPerCharacter
        }
        return length
    }
}
