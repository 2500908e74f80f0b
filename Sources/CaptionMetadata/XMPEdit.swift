// The caption set in a photo's stored XMP packet (and in its extended XMP, when that held
// caption properties), serialised for the container to store: exempi parses and writes the
// XML, Caption decides where it goes.

import CExempi
import CaptionText
import Localization

/// A photo's XMP after the caption was set in it.
struct XMPEdit {
    /// The standard packet to store, with its packet wrapper and padding.
    var standard: [UInt8]
    /// A new extended packet and its GUID, when the extended XMP had to change; nil keeps
    /// the stored extended XMP as it is.
    var extended: (packet: [UInt8], guid: String)?
    /// The words the packets held before: dc:title, dc:description and a headline.
    var oldWords: [String]
    var oldTitle: String?

    static let xmpNote = "http://ns.adobe.com/xmp/note/"

    /// `standard` and `extended` as stored (nil when absent); a standard packet that does
    /// not parse is replaced by one holding the caption alone (it was unreadable to
    /// everyone already), while extended XMP that does not parse is left out of the
    /// edit. Padding shrinks to nothing when the packet would not fit in `limit` bytes.
    static func make(
        standard stored: [UInt8]?, extended storedExtended: [UInt8]?, words: CaptionWords,
        credits: Credits = .none, limit: Int = Int.max
    ) throws(EmbeddingError) -> XMPEdit {
        // Written fresh, such a packet would lose every other property: refused instead.
        if XMPPacket.isOversized([stored, storedExtended].compactMap { $0 }) {
            throw .refused(
                fill(
                    tr("its XMP holds more than {count} properties, more than Caption rewrites"),
                    ["count": String(XMPPacket.maximumElements)]))
        }
        return try Exempi.locked { () throws(EmbeddingError) -> XMPEdit in
            let packet = stored.flatMap { bytes in bytes.withUnsafeBytes { XMPPacket(parsing: $0) } } ?? XMPPacket()
            let extended = storedExtended.flatMap { bytes in bytes.withUnsafeBytes { XMPPacket(parsing: $0) } }
            var oldWords: [String] = []
            let oldTitle =
                packet.defaultText(CaptionField.title.xmpPlace.name)
                ?? extended?.defaultText(CaptionField.title.xmpPlace.name)
            for source in [packet, extended].compactMap({ $0 }) {
                oldWords += CaptionField.required.compactMap { source.defaultText($0.xmpPlace.name) }
                oldWords += [source.text(XMPPacket.photoshop, "Headline")].compactMap { $0 }
            }
            var newExtended: (packet: [UInt8], guid: String)?
            if let extended {
                // The caption lives in the standard packet, which every reader reads.
                var moved = false
                for (namespace, name, _) in (CaptionField.required + words.filledOptionalFields).map(\.xmpPlace)
                where xmp_has_property(extended.pointer, namespace, name) {
                    xmp_delete_property(extended.pointer, namespace, name)
                    moved = true
                }
                // So do the credits written, which would otherwise be read twice.
                for (namespace, name, _) in credits.setFields.map(\.xmpProperty)
                where xmp_has_property(extended.pointer, namespace, name) {
                    xmp_delete_property(extended.pointer, namespace, name)
                    moved = true
                }
                if moved {
                    guard let bytes = extended.serialized(wrapper: false, padding: 0) else {
                        throw .refused(tr("its extended XMP cannot be written"))
                    }
                    let guid = JPEGXMP.guid(of: bytes)
                    newExtended = (bytes, guid)
                    _ = xmp_set_property(packet.pointer, xmpNote, "HasExtendedXMP", guid, 0)
                }
            }
            guard packet.setCaption(words), packet.setCredits(credits) else {
                throw .refused(tr("the caption cannot be put into its XMP"))
            }
            for padding in [2048, 0] {
                if let bytes = packet.serialized(wrapper: true, padding: padding), bytes.count <= limit {
                    return XMPEdit(standard: bytes, extended: newExtended, oldWords: oldWords, oldTitle: oldTitle)
                }
            }
            throw .refused(tr("its XMP would not fit in the file's metadata segment"))
        }
    }
}

extension XMPPacket {
    /// The packet as UTF-8 XML: with its `<?xpacket?>` wrapper and `padding` bytes of
    /// room for editing in place (what a file holds), or without (extended XMP).
    func serialized(wrapper: Bool, padding: Int) -> [UInt8]? {
        let text = XMPString()
        let options = UInt32(wrapper ? 0 : XMP_SERIAL_OMITPACKETWRAPPER)
        guard xmp_serialize(pointer, text.pointer, options, UInt32(padding)) else { return nil }
        return Array(text.bytes)
    }
}
