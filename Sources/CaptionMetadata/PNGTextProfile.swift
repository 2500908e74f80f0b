// Exif in a PNG text chunk, as ImageMagick and exiv2 keep it ("Raw profile type exif": a
// zlib-compressed hexadecimal dump), read and written so its caption fields can change.

import CMetadataSupport

enum PNGTextProfile {
    /// The keywords under which ImageMagick (both) and exiv2 (the first) store Exif.
    static let exifKeywords = ["Raw profile type exif", "Raw profile type APP1"]

    /// A text chunk's keyword and text; nil for other chunks, or text that cannot be read.
    struct Text {
        var type: String
        var keyword: String
        /// iTXt's compression flag and method, language tag and translated keyword, kept.
        var international: (compressed: Bool, language: [UInt8], translated: [UInt8])?
        var text: [UInt8]
    }

    static func text(of chunk: PNG.Chunk, in bytes: [UInt8]) -> Text? {
        let data = Array(bytes[chunk.data])
        guard let nul = data.firstIndex(of: 0) else { return nil }
        let keyword = String(decoding: data[..<nul], as: UTF8.self)
        switch chunk.type {
        case "tEXt":
            return Text(type: "tEXt", keyword: keyword, international: nil, text: Array(data[(nul + 1)...]))
        case "zTXt":
            guard nul + 2 <= data.count, data[nul + 1] == 0, let text = inflate(Array(data[(nul + 2)...])) else {
                return nil
            }
            return Text(type: "zTXt", keyword: keyword, international: nil, text: text)
        case "iTXt":
            guard nul + 3 <= data.count else { return nil }
            let compressed = data[nul + 1] == 1
            let rest = data[(nul + 3)...]
            guard let languageEnd = rest.firstIndex(of: 0),
                let translatedEnd = rest[(languageEnd + 1)...].firstIndex(of: 0)
            else { return nil }
            let body = Array(rest[(translatedEnd + 1)...])
            guard let text = compressed ? inflate(body) : body else { return nil }
            return Text(
                type: "iTXt", keyword: keyword,
                international: (
                    compressed, Array(rest[rest.startIndex..<languageEnd]),
                    Array(rest[(languageEnd + 1)..<translatedEnd])
                ),
                text: text)
        default:
            return nil
        }
    }

    /// The chunk holding `text`, of the same type and keyword as the one it came from.
    static func chunk(_ text: Text, body: [UInt8]) -> [UInt8]? {
        let keyword = Array(text.keyword.utf8) + [0]
        switch text.type {
        case "tEXt":
            return PNG.chunk("tEXt", keyword + body)
        case "zTXt":
            guard let packed = deflate(body) else { return nil }
            return PNG.chunk("zTXt", keyword + [0] + packed)
        default:
            guard let international = text.international else { return nil }
            let stored = international.compressed ? deflate(body) : body
            guard let stored else { return nil }
            return PNG.chunk(
                "iTXt",
                keyword + [international.compressed ? 1 : 0, 0] + international.language + [0]
                    + international.translated + [0] + stored)
        }
    }

    /// The profile's bytes: after a line with its name and one with its length, the bytes
    /// in hexadecimal, white space anywhere. nil when it does not read so.
    static func profile(_ text: [UInt8]) -> (name: String, bytes: [UInt8])? {
        let words = text.split { $0 == 0x0A || $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
        guard words.count >= 2, let length = Int(String(decoding: words[1], as: UTF8.self)) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for word in words.dropFirst(2) {
            for character in word {
                guard let nibble = hexValue(character) else { return nil }
                if let first = high {
                    bytes.append(first << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
        }
        guard bytes.count >= length else { return nil }
        return (String(decoding: words[0], as: UTF8.self), Array(bytes.prefix(length)))
    }

    /// A profile written as ImageMagick writes it: 72 hexadecimal digits a line.
    static func profileText(name: String, bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var length = String(bytes.count)
        while length.count < 8 { length = " " + length }
        var out = Array("\n\(name)\n\(length)\n".utf8)
        for (index, byte) in bytes.enumerated() {
            out += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            if index % 36 == 35 || index == bytes.count - 1 { out.append(0x0A) }
        }
        return out
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: return character - 0x30
        case 0x61...0x66: return character - 0x61 + 10
        case 0x41...0x46: return character - 0x41 + 10
        default: return nil
        }
    }

    /// A zlib stream's content; nil when it is damaged. Grows its buffer until it fits
    /// (text chunks are small; the limit keeps a hostile one from taking memory).
    static func inflate(_ packed: [UInt8]) -> [UInt8]? {
        var capacity = max(1024, packed.count * 4)
        while capacity <= 64 << 20 {
            var out = [UInt8](repeating: 0, count: capacity)
            var length = uLongf(capacity)
            let status = packed.withUnsafeBufferPointer { source in
                uncompress(&out, &length, source.baseAddress, uLong(source.count))
            }
            if status == Z_OK { return Array(out.prefix(Int(length))) }
            guard status == Z_BUF_ERROR else { return nil }
            capacity *= 4
        }
        return nil
    }

    static func deflate(_ data: [UInt8]) -> [UInt8]? {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBufferPointer { source in
            compress2(&out, &length, source.baseAddress, uLong(source.count), 9)
        }
        return status == Z_OK ? Array(out.prefix(Int(length))) : nil
    }
}
