// Where each caption field lives in a photo's XMP and IIM, as the IPTC Photo Metadata
// Standard maps them, and how a packet and an IIM block read and write them.

import CExempi
import CaptionText

/// The shape of an XMP property that holds a caption field.
enum XMPFieldKind {
    /// A language alternative, of which Caption reads and writes the `x-default` item.
    case languageAlternative
    case simple
    /// An unordered list (dc:subject): one item per keyword.
    case bag
}

extension CaptionField {
    /// The XMP property: its namespace, its name and its shape.
    var xmpPlace: (namespace: String, name: String, kind: XMPFieldKind) {
        switch self {
        case .title: (XMPPacket.dublinCore, "title", .languageAlternative)
        case .subtitle: (XMPPacket.dublinCore, "description", .languageAlternative)
        case .headline: (XMPPacket.photoshop, "Headline", .simple)
        case .keywords: (XMPPacket.dublinCore, "subject", .bag)
        case .altText: (XMPPacket.iptcCore, "AltTextAccessibility", .languageAlternative)
        case .extendedDescription: (XMPPacket.iptcCore, "ExtDescrAccessibility", .languageAlternative)
        case .event: (XMPPacket.iptcExtension, "Event", .languageAlternative)
        case .instructions: (XMPPacket.photoshop, "Instructions", .simple)
        case .jobID: (XMPPacket.photoshop, "TransmissionReference", .simple)
        case .sublocation: (XMPPacket.iptcCore, "Location", .simple)
        case .state: (XMPPacket.photoshop, "State", .simple)
        }
    }

    /// The prefixed name the XMP Toolkit's iteration gives the property.
    var xmpPrefixedName: String {
        let (namespace, name, _) = xmpPlace
        let prefix =
            switch namespace {
            case XMPPacket.dublinCore: "dc"
            case XMPPacket.photoshop: "photoshop"
            case XMPPacket.iptcCore: "Iptc4xmpCore"
            default: "Iptc4xmpExt"
            }
        return prefix + ":" + name
    }

    /// The IIM dataset (record 2) and its longest value in bytes (IIM 4.2); nil for the
    /// fields IIM has no place for (Alt Text, Extended Description and Event are XMP's
    /// alone). Title and Subtitle are written by `IIM.captioned`.
    var iimDataSet: (number: UInt8, limit: Int)? {
        switch self {
        case .title: (IIM.objectName, 64)
        case .subtitle: (IIM.captionAbstract, 2000)
        case .headline: (IIM.headline, 256)
        case .keywords: (25, 64)
        case .instructions: (40, 256)
        case .jobID: (103, 32)
        case .sublocation: (92, 32)
        case .state: (95, 32)
        case .altText, .extendedDescription, .event: nil
        }
    }
}

extension XMPPacket {
    static let iptcExtension = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"

    /// The field's words in this packet: a language alternative's default item, a simple
    /// property's text, or a bag's items as the Keywords field holds them; nil when the
    /// property is missing or blank.
    func words(_ field: CaptionField) -> String? {
        let (namespace, name, kind) = field.xmpPlace
        switch kind {
        case .languageAlternative: return PhotoMetadata.meaningful(defaultText(name, in: namespace))
        case .simple: return PhotoMetadata.meaningful(text(namespace, name))
        case .bag:
            // Items are numbered from 1; the first missing one ends the list.
            var items: [String] = []
            while let item = text(namespace, "\(name)[\(items.count + 1)]") { items.append(item) }
            return PhotoMetadata.meaningful(CaptionWords.keywordsText(items.flatMap(CaptionWords.keywords(in:))))
        }
    }

    /// Puts the field's words into its property, replacing what it held; "" removes it.
    /// False when the toolkit refuses the value.
    func setWords(_ field: CaptionField, _ words: String) -> Bool {
        let (namespace, name, kind) = field.xmpPlace
        switch kind {
        case .languageAlternative: return setDefaultText(name, words, in: namespace)
        case .simple:
            xmp_delete_property(pointer, namespace, name)
            return words.isEmpty || xmp_set_property(pointer, namespace, name, words, 0)
        case .bag:
            xmp_delete_property(pointer, namespace, name)
            let options = UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue)
            return CaptionWords.keywords(in: words).allSatisfy {
                xmp_append_array_item(pointer, namespace, name, options, $0, 0)
            }
        }
    }
}

extension IIM {
    /// The block with each optional field that holds words in its dataset, cut to IIM's
    /// length, each keyword a dataset of its own; called on a block already in UTF-8. A
    /// field left empty leaves the block's dataset as it was.
    func withOptionalFields(of words: CaptionWords) -> IIM {
        var block = self
        for field in words.filledOptionalFields {
            guard let (number, limit) = field.iimDataSet else { continue }
            if field == .keywords {
                block.setAll(2, number, words.keywords.map { Self.cut($0, to: limit) })
            } else {
                block.set(2, number, Self.cut(words[field], to: limit))
            }
        }
        return block
    }
}
