// Photos given as file:// URIs, which is what a desktop entry's %U hands over, as local paths.

import POSIXFiles

public enum FileURI {
    /// The local path a `file:` URI names (RFC 8089: no host, or localhost), percent-decoded.
    /// Anything else, a plain path included, comes back unchanged, so that the photo's own
    /// message ("Photo not found: …") names what the user gave.
    public static func path(fromArgument argument: String) -> String {
        let scheme = "file://"
        guard argument.lowercased().hasPrefix(scheme) else { return argument }
        var rest = Substring(argument.dropFirst(scheme.count))
        if !rest.hasPrefix("/") {
            guard let slash = rest.firstIndex(of: "/"), rest[..<slash].lowercased() == "localhost" else {
                return argument
            }
            rest = rest[slash...]
        }
        var bytes: [UInt8] = []
        let encoded = Array(rest.utf8)
        var index = 0
        while index < encoded.count {
            let byte = encoded[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return argument }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.count, let high = hexValue(encoded[index + 1]),
                    let low = hexValue(encoded[index + 2]), high | low != 0
                else { return argument }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        // Percent-encoded bytes that are not UTF-8 name a file too: each is kept.
        return FilePath.string(fromBytes: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
