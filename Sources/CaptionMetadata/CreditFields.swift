// Where each standing credit lives in a photo's XMP, Exif and IIM (the places IPTC Core and
// the Metadata Working Group name), and which of them a photo already fills.

import CExempi
import CaptionLibrary
import CaptionText
import PhotoFormats

extension CreditField {
    /// The XMP property: its namespace, its name, and whether it is dc:creator's ordered
    /// list or dc:rights' language alternative rather than simple text.
    var xmpProperty: (namespace: String, name: String, kind: XMPCreditKind) {
        switch self {
        case .creator: (XMPPacket.dublinCore, "creator", .orderedList)
        case .creditLine: (XMPPacket.photoshop, "Credit", .simple)
        case .copyright: (XMPPacket.dublinCore, "rights", .languageAlternative)
        case .source: (XMPPacket.photoshop, "Source", .simple)
        case .city: (XMPPacket.photoshop, "City", .simple)
        case .country: (XMPPacket.photoshop, "Country", .simple)
        case .countryCode: (XMPPacket.iptcCore, "CountryCode", .simple)
        }
    }

    /// The prefixed name the XMP Toolkit's iteration gives the property.
    var xmpPrefixedName: String {
        switch self {
        case .creator: "dc:creator"
        case .copyright: "dc:rights"
        case .countryCode: "Iptc4xmpCore:CountryCode"
        default: "photoshop:" + xmpProperty.name
        }
    }

    /// The IIM dataset (record 2) and its longest value in bytes (IIM 4.2).
    var iimDataSet: (number: UInt8, limit: Int) {
        switch self {
        case .creator: (80, 32)
        case .creditLine: (110, 32)
        case .copyright: (116, 128)
        case .source: (115, 32)
        case .city: (90, 32)
        case .country: (101, 64)
        case .countryCode: (100, 3)
        }
    }

    /// The Exif IFD0 tag, for the two credits Exif has a place for.
    var exifTag: UInt16? {
        switch self {
        case .creator: 315  // Artist
        case .copyright: 33432  // Copyright
        default: nil
        }
    }
}

enum XMPCreditKind {
    case simple, orderedList, languageAlternative
}

extension XMPPacket {
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"

    /// A credit's text in this packet: dc:creator's first name, dc:rights' default
    /// language, or the simple property; nil when it is missing or blank.
    func credit(_ field: CreditField) -> String? {
        let (namespace, name, kind) = field.xmpProperty
        switch kind {
        case .simple: return PhotoMetadata.meaningful(text(namespace, name))
        case .orderedList: return PhotoMetadata.meaningful(text(namespace, name + "[1]"))
        // dc:rights is Dublin Core, whose x-default items the packet reads for the caption.
        case .languageAlternative: return PhotoMetadata.meaningful(defaultText(name))
        }
    }

    /// The credits this packet has a value for, with their text.
    var ownCredits: [CreditField: String] {
        Dictionary(uniqueKeysWithValues: CreditField.allCases.compactMap { field in credit(field).map { (field, $0) } })
    }

    /// Puts each credit that is set into its property, replacing what it held; credits
    /// that are not set leave their property alone. False when the toolkit refuses one.
    func setCredits(_ credits: Credits) -> Bool {
        for field in credits.setFields {
            let (namespace, name, kind) = field.xmpProperty
            let value = PhotoMetadata.xmlSafe(credits[field])
            if kind == .languageAlternative {
                if !setDefaultText(name, value) { return false }
                continue
            }
            xmp_delete_property(pointer, namespace, name)
            let done =
                kind == .simple
                ? xmp_set_property(pointer, namespace, name, value, 0)
                : xmp_append_array_item(
                    pointer, namespace, name, UInt32(XMP_PROP_ARRAY_IS_ORDERED.rawValue), value, 0)
            if !done { return false }
        }
        return true
    }
}

extension IIM {
    /// The credits this block has a value for, with their text.
    var ownCredits: [CreditField: String] {
        Dictionary(
            uniqueKeysWithValues: CreditField.allCases.compactMap { field in
                PhotoMetadata.meaningful(text(field.iimDataSet.number)).map { (field, $0) }
            })
    }

    /// The block with each credit that is set in its dataset, cut to IIM's length; called
    /// on a block already in UTF-8. IIM's country code is ISO 3166's three letters: a
    /// two-letter code (what IPTC Core asks for in XMP) is left out of IIM.
    func credited(_ credits: Credits) -> IIM {
        var block = self
        for field in credits.setFields {
            if field == .countryCode && !(credits[field].count == 3 && credits[field].allSatisfy(\.isLetter)) {
                continue
            }
            let (number, limit) = field.iimDataSet
            block.set(2, number, Self.cut(credits[field], to: limit))
        }
        return block
    }
}

/// Which credits a photo already says something for, in any of the places a reader may
/// take them from: its XMP (standard and extended), Exif Artist and Copyright, its IIM.
public enum PhotoCredits {
    /// `credits` less those the photo at `path` says itself (unless they replace the
    /// photo's). A photo that cannot be read says nothing.
    static func leavingOutOwn(_ credits: Credits, photoAt path: String) -> Credits {
        guard !credits.isEmpty, !credits.replacesPhotos, case .success(let bytes) = DiskFile.read(path) else {
            return credits
        }
        return leavingOutOwn(credits, photo: bytes, at: path)
    }

    /// The creator the photo at `path` names itself (XMP, Exif Artist, IIM By-line); nil
    /// when it names none or cannot be read. Safe from any thread.
    public static func creator(ofPhotoAt path: String) -> String? {
        guard case .success(let bytes) = DiskFile.read(path), let format = Containers.format(of: bytes) else {
            return nil
        }
        return own(bytes, format: format, path: path)[.creator]
    }

    /// The same for a photo already read: `bytes` are the file at `path`.
    static func leavingOutOwn(_ credits: Credits, photo bytes: [UInt8], at path: String) -> Credits {
        guard !credits.isEmpty, !credits.replacesPhotos, let format = Containers.format(of: bytes) else {
            return credits
        }
        return credits.leavingOut(own: own(bytes, format: format, path: path))
    }

    /// The credits the photo says itself, each with the first text found for it: XMP
    /// first, then Exif, then IIM (the Metadata Working Group's order).
    static func own(_ bytes: [UInt8], format: PhotoFormat, path: String) -> [CreditField: String] {
        var own: [CreditField: String] = [:]
        func take(_ found: [CreditField: String]) { own.merge(found) { first, _ in first } }
        let packets = ReadBack.storedPackets(bytes, path: path, format: format)
        Exempi.locked {
            for packet in packets {
                if let parsed = packet.withUnsafeBytes({ XMPPacket(parsing: $0) }) { take(parsed.ownCredits) }
            }
        }
        if let blob = Containers.exifBlob(bytes, format: format), let tiff = TIFF(blob) {
            for field in CreditField.allCases {
                guard let tag = field.exifTag, let entry = tiff.entries.first(where: { $0.tag == tag }),
                    let value = tiff.value(of: entry)
                else { continue }
                let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
                if let meaningful = PhotoMetadata.meaningful(text) { take([field: meaningful]) }
            }
        }
        for block in iimBlocks(bytes, format: format) {
            if let parsed = IIM(block) { take(parsed.ownCredits) }
        }
        return own
    }

    /// The IIM a JPEG's Photoshop segments or a TIFF's IPTC and Photoshop tags hold.
    static func iimBlocks(_ bytes: [UInt8], format: PhotoFormat) -> [[UInt8]] {
        switch format {
        case .jpeg:
            guard let jpeg = JPEG(bytes) else { return [] }
            return jpeg.segments.filter { JPEG.isPhotoshop($0, in: bytes) }.compactMap { segment in
                ImageResources(bytes[(segment.payload.lowerBound + JPEG.photoshop.count)..<segment.payload.upperBound])?
                    .iimBlock
            }
        case .tiff:
            guard let tiff = TIFF(bytes) else { return [] }
            var blocks: [[UInt8]] = []
            for entry in tiff.entries {
                guard let value = tiff.value(of: entry) else { continue }
                if entry.tag == TIFF.iptcTag { blocks.append(value) }
                if entry.tag == TIFF.photoshopTag, let block = ImageResources(value[...])?.iimBlock {
                    blocks.append(block)
                }
            }
            return blocks
        default:
            return []
        }
    }
}
