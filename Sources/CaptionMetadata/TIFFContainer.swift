// A classic TIFF's first directory, rewritten for export with the caption's blocks.

import CaptionLibrary
import PhotoFormats

/// A classic TIFF's first directory (IFD0), where TIFF keeps its XMP, IPTC and Photoshop
/// blocks and the pointers to the Exif and GPS directories, as rewritten for export; read
/// through PhotoFormats. BigTIFF is not rewritten.
struct TIFF {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The 4-byte value field as stored: the value itself when it fits, else an offset.
        var field: [UInt8]
    }

    /// An entry to write: either the stored one unchanged, or one whose value is `data`.
    struct NewEntry {
        var entry: Entry
        var data: [UInt8]?

        init(_ entry: Entry, data: [UInt8]? = nil) {
            self.entry = entry
            self.data = data
        }
    }

    static let xmpTag: UInt16 = 700
    static let iptcTag: UInt16 = 33723
    static let photoshopTag: UInt16 = 34377
    static let exifTag: UInt16 = 34665
    static let gpsTag: UInt16 = 34853

    let bytes: [UInt8]
    let littleEndian: Bool
    let entries: [Entry]
    let nextDirectory: UInt32

    /// IFD0 as PhotoFormats' TIFFDirectory reads it (classic TIFF only: the directory is
    /// rewritten with 4-byte fields).
    init?(_ b: [UInt8]) {
        guard let directory = b.withUnsafeBytes({ TIFFDirectory.first($0) }), !directory.big,
            directory.entries.allSatisfy({ $0.fieldOffset + 4 <= b.count })
        else { return nil }
        entries = directory.entries.map { entry in
            Entry(
                tag: UInt16(entry.tag), type: UInt16(entry.type), count: UInt32(truncatingIfNeeded: entry.count),
                field: Array(b[entry.fieldOffset..<(entry.fieldOffset + 4)]))
        }
        nextDirectory = UInt32(truncatingIfNeeded: directory.next)
        littleEndian = directory.littleEndian
        bytes = b
    }

    static func read32(_ b: [UInt8], _ at: Int, _ little: Bool) -> UInt32 {
        let v = (0..<4).map { UInt32(b[at + $0]) }
        return little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
    }

    func encode16(_ value: UInt16) -> [UInt8] {
        let b = [UInt8(value & 0xFF), UInt8(value >> 8)]
        return littleEndian ? b : b.reversed()
    }

    func encode32(_ value: UInt32) -> [UInt8] {
        let b = (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) }
        return littleEndian ? b : b.reversed()
    }

    static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 1
        }
    }

    /// An entry's value bytes; nil when they lie outside the file.
    func value(of entry: Entry) -> [UInt8]? {
        let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: Self.typeSize(entry.type))
        guard !overflow else { return nil }
        if size <= 4 { return Array(entry.field[0..<size]) }
        let offset = Int(Self.read32(entry.field, 0, littleEndian))
        guard offset + size <= bytes.count else { return nil }
        return Array(bytes[offset..<(offset + size)])
    }

    /// The file with a new IFD0 of `entries` appended (values given as data appended
    /// before it) and the header pointing there. The old directory stays behind, unused:
    /// moving nothing keeps every other offset in the file valid.
    func rebuilt(entries newEntries: [NewEntry]) -> [UInt8]? {
        var result = bytes
        var entries: [Entry] = []
        for new in newEntries.sorted(by: { $0.entry.tag < $1.entry.tag }) {
            var entry = new.entry
            if let data = new.data {
                if data.count <= 4 {
                    entry.field = data + [UInt8](repeating: 0, count: 4 - data.count)
                } else {
                    if result.count % 2 == 1 { result.append(0) }  // values start on a word boundary
                    guard result.count <= Int(UInt32.max) else { return nil }
                    entry.field = encode32(UInt32(result.count))
                    result += data
                }
            }
            entries.append(entry)
        }
        if result.count % 2 == 1 { result.append(0) }
        guard result.count + 6 + 12 * entries.count <= Int(UInt32.max) else { return nil }
        let directory = UInt32(result.count)
        result += encode16(UInt16(entries.count))
        for entry in entries {
            result += encode16(entry.tag) + encode16(entry.type) + encode32(entry.count) + entry.field
        }
        result += encode32(nextDirectory)
        result.replaceSubrange(4..<8, with: encode32(directory))
        return result
    }

}
