// IPTC-IIM and the Photoshop image resources around it: the caption's datasets edited one
// by one, the block made UTF-8 when it was in another character set, the digest kept true.

import CaptionLibrary
import CaptionText

/// Photoshop image resources ("8BIM" blocks), as JPEG's APP13 and TIFF's tag 34377 hold them.
struct ImageResources {
    struct Resource {
        var id: UInt16
        /// The Pascal-string name with its padding, as stored.
        var name: [UInt8]
        var data: [UInt8]
    }

    var resources: [Resource]

    static let iim: UInt16 = 0x0404
    static let digest: UInt16 = 0x0425

    init(resources: [Resource]) {
        self.resources = resources
    }

    /// nil when a resource runs past the end, or a block is not "8BIM" (nothing is
    /// rewritten from a block that is only partly understood).
    init?(_ bytes: ArraySlice<UInt8>) {
        var found: [Resource] = []
        var at = bytes.startIndex
        while at < bytes.endIndex {
            // Some writers pad the end with zeros.
            if bytes[at...].allSatisfy({ $0 == 0 }) { break }
            guard at + 7 <= bytes.endIndex, bytes[at..<(at + 4)].elementsEqual(Array("8BIM".utf8)) else { return nil }
            let id = UInt16(bytes[at + 4]) << 8 | UInt16(bytes[at + 5])
            let nameLength = Int(bytes[at + 6])
            var nameSize = 1 + nameLength
            if nameSize % 2 == 1 { nameSize += 1 }
            let sizeAt = at + 6 + nameSize
            guard sizeAt + 4 <= bytes.endIndex else { return nil }
            let size = (0..<4).reduce(0) { $0 << 8 | Int(bytes[sizeAt + $1]) }
            let dataAt = sizeAt + 4
            guard size >= 0, dataAt + size <= bytes.endIndex else { return nil }
            found.append(
                Resource(
                    id: id, name: Array(bytes[(at + 6)..<sizeAt]), data: Array(bytes[dataAt..<(dataAt + size)])))
            at = dataAt + size + (size % 2)
        }
        resources = found
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        for resource in resources {
            let size = resource.data.count
            out += Array("8BIM".utf8) + [UInt8(resource.id >> 8), UInt8(resource.id & 0xFF)] + resource.name
            out += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            out += resource.data
            if size % 2 == 1 { out.append(0) }
        }
        return out
    }

    var iimBlock: [UInt8]? { resources.first { $0.id == Self.iim }?.data }

    /// The resources with `block` as their IIM and a digest that matches it (the MD5 that
    /// Adobe's readers compare with, to know the IIM is as current as the XMP).
    func withIIM(_ block: [UInt8]) -> ImageResources {
        var copy = self
        for index in copy.resources.indices where copy.resources[index].id == Self.iim {
            copy.resources[index].data = block
        }
        return copy.withDigest(of: block)
    }

    /// The resources with a digest of `block`, an IIM kept elsewhere (a TIFF's IPTC tag).
    func withDigest(of block: [UInt8]) -> ImageResources {
        var copy = self
        let digest = Hash.md5(block)
        if let index = copy.resources.firstIndex(where: { $0.id == Self.digest }) {
            copy.resources[index].data = digest
        } else {
            copy.resources.append(Resource(id: Self.digest, name: [0, 0], data: digest))
        }
        return copy
    }
}

/// An IIM block's datasets.
struct IIM {
    struct DataSet: Equatable {
        var record: UInt8
        var number: UInt8
        var value: [UInt8]
    }

    var dataSets: [DataSet]

    /// 1:90 CodedCharacterSet for UTF-8: ESC % G.
    static let utf8Marker: [UInt8] = [0x1B, 0x25, 0x47]
    /// ISO 8859-1 designated as G1, as some writers mark Latin-1.
    static let latin1Marker: [UInt8] = [0x1B, 0x2D, 0x41]
    /// Every way 1:90 says Latin-1 (ISO 8859-1 designated as G0, G1, G2 or G3: older
    /// newsroom systems write ESC . A), and ASCII (ISO 646 as G0), which Latin-1 reads the same.
    static let latin1Markers: Set<[UInt8]> = [
        [0x1B, 0x2C, 0x41], latin1Marker, [0x1B, 0x2E, 0x41], [0x1B, 0x2F, 0x41], [0x1B, 0x28, 0x42],
    ]

    static let objectName: UInt8 = 5
    static let headline: UInt8 = 105
    static let captionAbstract: UInt8 = 120

    init(dataSets: [DataSet]) {
        self.dataSets = dataSets
    }

    /// A block for a photo that has none: the envelope and application records' version
    /// (4, IIM 4.2, as exiftool and Photoshop write it) and 1:90 saying UTF-8.
    static var fresh: IIM {
        IIM(dataSets: [
            DataSet(record: 1, number: 0, value: [0, 4]), DataSet(record: 1, number: 90, value: utf8Marker),
            DataSet(record: 2, number: 0, value: [0, 4]),
        ])
    }

    /// nil when a dataset runs past the end or the block holds something else.
    init?(_ bytes: [UInt8]) {
        var found: [DataSet] = []
        var at = 0
        while at < bytes.count {
            if bytes[at...].allSatisfy({ $0 == 0 }) { break }  // padding
            guard bytes[at] == 0x1C, at + 5 <= bytes.count else { return nil }
            var size = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
            var dataAt = at + 5
            if size & 0x8000 != 0 {  // the extended form: the size's own length, then the size
                let length = size & 0x7FFF
                guard length <= 4, dataAt + length <= bytes.count else { return nil }
                size = (0..<length).reduce(0) { $0 << 8 | Int(bytes[dataAt + $1]) }
                dataAt += length
            }
            guard dataAt + size <= bytes.count else { return nil }
            found.append(
                DataSet(record: bytes[at + 1], number: bytes[at + 2], value: Array(bytes[dataAt..<(dataAt + size)])))
            at = dataAt + size
        }
        dataSets = found
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        for set in dataSets {
            out += [0x1C, set.record, set.number]
            let size = set.value.count
            if size < 0x8000 {
                out += [UInt8(size >> 8), UInt8(size & 0xFF)]
            } else {
                out += [
                    0x80, 0x04, UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF),
                    UInt8(size & 0xFF),
                ]
            }
            out += set.value
        }
        return out
    }

    func value(_ record: UInt8, _ number: UInt8) -> [UInt8]? {
        dataSets.first { $0.record == record && $0.number == number }?.value
    }

    /// Record 2's datasets that hold binary data rather than text (IIM 4.2): the record's
    /// version, the rasterised caption, the audio and preview datasets.
    static let binaryDataSets: Set<UInt8> = [0, 125, 150, 151, 152, 153, 154, 200, 201, 202]

    enum Charset { case utf8, latin1 }

    /// The block's text character set: UTF-8 when 1:90 says so, Latin-1 when it says so or
    /// when it is missing and the text is not valid UTF-8 (what older software writes,
    /// and what exiftool assumes, as Windows-1252); nil for any other 1:90 value, which
    /// Caption does not convert.
    var charset: Charset? {
        if let marker = value(1, 90) {
            if marker == Self.utf8Marker { return .utf8 }
            if Self.latin1Markers.contains(marker) { return .latin1 }
            return nil
        }
        let texts = dataSets.filter { $0.record == 2 && !Self.binaryDataSets.contains($0.number) }
        return texts.allSatisfy({ String(validating: $0.value, as: UTF8.self) != nil }) ? .utf8 : .latin1
    }

    /// The text of a dataset, in the block's character set.
    func text(_ number: UInt8) -> String? {
        guard let bytes = value(2, number) else { return nil }
        return charset == .latin1 ? LegacyText.windows1252(bytes) : String(decoding: bytes, as: UTF8.self)
    }

    /// The block as UTF-8 with 1:90 saying so: text datasets of a Latin-1 block converted,
    /// everything else byte for byte. nil when the character set is one Caption does not
    /// convert.
    func inUTF8() -> IIM? {
        guard let charset else { return nil }
        var copy = self
        if charset == .latin1 {
            for index in copy.dataSets.indices
            where copy.dataSets[index].record == 2 && !Self.binaryDataSets.contains(copy.dataSets[index].number) {
                copy.dataSets[index].value = Array(LegacyText.windows1252(copy.dataSets[index].value).utf8)
            }
        }
        copy.set(1, 90, Self.utf8Marker)
        return copy
    }

    /// Replaces the dataset's value, or removes it when `value` is nil; a new one goes
    /// after the last dataset of its record with a smaller number (IIM keeps them in order).
    mutating func set(_ record: UInt8, _ number: UInt8, _ value: [UInt8]?) {
        let matches = dataSets.indices.filter { dataSets[$0].record == record && dataSets[$0].number == number }
        if let first = matches.first {
            if let value { dataSets[first].value = value }
            for index in matches.reversed() where index != first || value == nil { dataSets.remove(at: index) }
            return
        }
        guard let value else { return }
        let place =
            dataSets.firstIndex { $0.record > record || ($0.record == record && $0.number > number) } ?? dataSets.count
        dataSets.insert(DataSet(record: record, number: number, value: value), at: place)
    }

    /// Every dataset `record`:`number` replaced by one per value, in order, where the first
    /// was (or in number order); no values removes them all.
    mutating func setAll(_ record: UInt8, _ number: UInt8, _ values: [[UInt8]]) {
        let first = dataSets.firstIndex { $0.record == record && $0.number == number }
        dataSets.removeAll { $0.record == record && $0.number == number }
        let place =
            first
            ?? dataSets.firstIndex { $0.record > record || ($0.record == record && $0.number > number) }
            ?? dataSets.count
        dataSets.insert(contentsOf: values.map { DataSet(record: record, number: number, value: $0) }, at: place)
    }

    /// UTF-8 of `text` cut at a character boundary to `limit` bytes (IIM's field lengths:
    /// 64 for ObjectName, 256 for Headline, 2000 for Caption-Abstract).
    static func cut(_ text: String, to limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let next = Array(String(character).utf8)
            guard bytes.count + next.count <= limit else { break }
            bytes += next
        }
        return bytes
    }

    /// The block with the caption in ObjectName and Caption-Abstract, in Headline when it
    /// held the old title (and the caption has no headline of its own), and each optional
    /// field that holds words in its dataset; in UTF-8. nil when its character set cannot be converted.
    func captioned(words: CaptionWords, oldTitles: [String]) -> IIM? {
        let title = words.title
        let description = words.subtitle
        let headline = text(Self.headline)
        guard var block = inUTF8() else { return nil }
        block.set(2, Self.objectName, title.isEmpty ? nil : Self.cut(title, to: 64))
        block.set(2, Self.captionAbstract, description.isEmpty ? nil : Self.cut(description, to: 2000))
        if words[.headline].isEmpty, let headline, oldTitles.contains(headline) {
            block.set(2, Self.headline, title.isEmpty ? nil : Self.cut(title, to: 256))
        }
        return block.withOptionalFields(of: words)
    }
}
