// Text from files other programs wrote in older encodings, made UTF-8 by GLib's converter.

import CPixbuf

public enum LegacyText {
    /// `bytes` as text: UTF-8 (a byte-order mark dropped); UTF-16 by its byte-order mark;
    /// else Windows-1252, the code page Windows and older Mac software wrote Western text in
    /// (and which exiftool assumes for IPTC without a character set). Its five unassigned
    /// bytes are read as Latin-1, so that every byte reads as something.
    public static func decode(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return decode(Array(bytes.dropFirst(3))) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            if let text = convert(bytes, from: "UTF-16") { return text }
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return convert(bytes, from: "WINDOWS-1252") ?? convert(bytes, from: "ISO-8859-1")
            ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Windows-1252 alone (no guessing): what a legacy block says it is in.
    public static func windows1252(_ bytes: [UInt8]) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return convert(bytes, from: "WINDOWS-1252") ?? convert(bytes, from: "ISO-8859-1")
            ?? String(decoding: bytes, as: UTF8.self)
    }

    /// g_convert into UTF-8; nil when a byte has no meaning in `encoding`.
    private static func convert(_ bytes: [UInt8], from encoding: String) -> String? {
        var written: gsize = 0
        let converted = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                g_convert($0.baseAddress, gssize($0.count), "UTF-8", encoding, nil, &written, nil)
            }
        }
        guard let converted else { return nil }
        defer { g_free(converted) }
        return String(decoding: UnsafeRawBufferPointer(start: converted, count: Int(written)), as: UTF8.self)
    }
}
