// exempi for the rest of the module: one lock around the toolkit, XMP packets as values
// that free themselves, and the two Dublin Core properties Caption reads and writes.

import CExempi
import CMetadataSupport
import CaptionText
import Localization
import POSIXFiles
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// Every exempi call goes through `locked`. exempi promises thread-local error codes but not
/// that the XMP Toolkit's global state (the namespace registry, the file handlers'
/// tables) may be used by two threads at once, and the window reads a photo's words while
/// an export may be running; the work under the lock is milliseconds per photo.
enum Exempi {
    private static let state = Locked(false)  // true once initialised

    static func locked<Value: Sendable, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        try state.withLock { (initialised) throws(Failure) -> Value in
            initialise(&initialised)
            return try body()
        }
    }

    /// Opens exempi now if it is not open yet. The writers call it before they make their
    /// first file, so that a missing exempi (`unavailable`) leaves nothing behind.
    static func open() {
        state.withLock { initialise(&$0) }
    }

    private static func initialise(_ initialised: inout Bool) {
        guard !initialised else { return }
        if let failure = caption_exempi_open() { unavailable(String(cString: failure)) }
        caption_silence_cxx_stderr()
        initialised = xmp_init()
        // The toolkit may not know IPTC Extension's namespace (where Event lives); a
        // property in an unregistered namespace cannot be set.
        _ = xmp_register_namespace(XMPPacket.iptcExtension, "Iptc4xmpExt", nil)
        // Caption's own properties: a stationery pad's checks (`PadChecksPlaces`).
        _ = xmp_register_namespace(XMPPacket.caption, "caption", nil)
    }

    /// exempi is opened on first use (see its shim), and every package of Caption depends
    /// on it; without it no photo's words can be read or written, and going on would show
    /// photos without their words and refuse every save to a photo one by one. So, as the
    /// dynamic linker did when exempi was linked, one line says what is missing and the
    /// program stops; what was typed is in the draft already (`DraftStore`).
    private static func unavailable(_ reason: String) -> Never {
        let line = fill(
            tr(
                "cannot read or write photos’ metadata: the exempi library could not be opened ({reason}); reinstalling Caption should bring it back"
            ), ["reason": reason])
        let bytes = Array(("caption: " + line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(1)
    }

    /// The error of the last exempi call on this thread (exempi keeps it per thread): one
    /// of XMPErr_…, negative; 0 when the call failed without a reason (nothing there).
    static var lastError: Int32 { xmp_get_error() }

    static func options(_ flags: XmpOpenFileOptions...) -> XmpOpenFileOptions {
        XmpOpenFileOptions(rawValue: flags.reduce(0) { $0 | $1.rawValue })
    }
}

/// An XMP Toolkit string, freed with the value.
final class XMPString {
    let pointer: OpaquePointer

    init() {
        // xmp_string_new only allocates a std::string; it cannot fail short of aborting.
        pointer = xmp_string_new()!
    }

    deinit { xmp_string_free(pointer) }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: xmp_string_cstr(pointer), count: xmp_string_len(pointer))
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// The most XML elements an XMP packet may hold for Caption to parse it. The XMP Toolkit
/// looks up each property among its schema's others one by one, so parsing takes the
/// square of their number: 10,000 take about a second here, 40,000 half a minute.
public enum XMPPacketLimit {
    public static let maximumElements = 10_000
}

/// An XMP packet in memory, freed with the value. Used only inside `Exempi.locked`.
final class XMPPacket {
    let pointer: OpaquePointer

    /// Namespace of Dublin Core, which holds dc:title and dc:description.
    static let dublinCore = "http://purl.org/dc/elements/1.1/"

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    convenience init() {
        // xmp_new_empty only allocates; it cannot fail short of aborting.
        self.init(owning: xmp_new_empty()!)
    }

    static var maximumElements: Int { XMPPacketLimit.maximumElements }

    /// Whether `text` holds more elements than `maximumElements` (counted by their start
    /// tags: a `<` before a name).
    static func isOversized(_ text: UnsafeRawBufferPointer) -> Bool {
        elements(in: text, upTo: maximumElements) > maximumElements
    }

    /// Whether packets read together (a JPEG's standard and extended XMP, which the toolkit
    /// merges) hold more than `maximumElements` between them.
    static func isOversized(_ packets: [[UInt8]]) -> Bool {
        var count = 0
        for packet in packets {
            count += packet.withUnsafeBytes { elements(in: $0, upTo: maximumElements - count) }
            if count > maximumElements { return true }
        }
        return false
    }

    /// The start tags in `text`, counted up to one past `limit`.
    private static func elements(in text: UnsafeRawBufferPointer, upTo limit: Int) -> Int {
        var count = 0
        var index = 0
        while index + 1 < text.count {
            if text[index] == UInt8(ascii: "<") {
                let next = text[index + 1]
                if next != UInt8(ascii: "/") && next != UInt8(ascii: "?") && next != UInt8(ascii: "!") {
                    count += 1
                    if count > limit { return count }
                }
            }
            index += 1
        }
        return count
    }

    /// Parses a serialised packet; nil when it is not well-formed XMP, or too large to
    /// parse (`maximumElements`).
    /// The packet a file of XMP holds (a sidecar, a pad), or a new one when there is no
    /// file or it holds only white space; nil when it holds something that does not parse.
    static func stored(in file: [UInt8]?) -> XMPPacket? {
        guard let file, file.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            return XMPPacket()
        }
        return file.withUnsafeBytes { XMPPacket(parsing: $0) }
    }

    convenience init?(parsing text: UnsafeRawBufferPointer) {
        guard !Self.isOversized(text), let base = text.baseAddress, text.count > 0,
            let parsed = xmp_new(base.assumingMemoryBound(to: CChar.self), text.count)
        else { return nil }
        self.init(owning: parsed)
    }

    deinit { xmp_free(pointer) }

    /// A language alternative's default text: the `x-default` item, or failing that the
    /// one the toolkit picks (the first). Nil when the property is missing.
    func defaultText(_ name: String, in namespace: String = dublinCore) -> String? {
        let language = XMPString()
        let value = XMPString()
        var options: UInt32 = 0
        guard
            xmp_get_localized_text(
                pointer, namespace, name, "", "x-default",
                language.pointer, value.pointer, &options)
        else { return nil }
        return value.string
    }

    /// Replaces the property with one `x-default` item, or removes it when `text` is empty:
    /// an empty string in a photo's metadata would still show as a (blank) title elsewhere.
    /// Other languages go too, so that no reader shows words the user replaced.
    func setDefaultText(_ name: String, _ text: String, in namespace: String = dublinCore) -> Bool {
        xmp_delete_property(pointer, namespace, name)
        guard !text.isEmpty else { return true }
        return xmp_set_localized_text(pointer, namespace, name, "", "x-default", text, 0)
    }

    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"

    /// A simple property's text; nil when it is missing.
    func text(_ namespace: String, _ name: String) -> String? {
        let value = XMPString()
        var options: UInt32 = 0
        guard xmp_get_property(pointer, namespace, name, value.pointer, &options) else { return nil }
        return value.string
    }

    /// The caption, and the fields other apps show in its place: dc:title and
    /// dc:description; photoshop:Headline where it held the old title (Adobe Bridge shows
    /// it as the headline; exempi turns it into IIM 2:105), unless the caption has a
    /// headline of its own; exif:UserComment where there is one (exempi writes it into Exif
    /// UserComment, which Shotwell shows as the comment). Each optional field that holds
    /// words goes into its property; one left empty leaves the photo's as it was, as a
    /// credit not set does. False when the toolkit refuses a value.
    func setCaption(_ words: CaptionWords) -> Bool {
        let title = words.title
        let description = words.subtitle
        let oldTitle = defaultText(CaptionField.title.xmpPlace.name)
        if words[.headline].isEmpty, let headline = text(Self.photoshop, "Headline"),
            oldTitle == nil || headline == oldTitle
        {
            xmp_delete_property(pointer, Self.photoshop, "Headline")
            if !title.isEmpty, !xmp_set_property(pointer, Self.photoshop, "Headline", title, 0) { return false }
        }
        if xmp_has_property(pointer, Self.exif, "UserComment") {
            xmp_delete_property(pointer, Self.exif, "UserComment")
            if !description.isEmpty,
                !xmp_set_localized_text(pointer, Self.exif, "UserComment", "", "x-default", description, 0)
            {
                return false
            }
        }
        return (CaptionField.required + words.filledOptionalFields).allSatisfy { setWords($0, words[$0]) }
    }

    /// The packet as a sidecar holds it: `<x:xmpmeta>` without the `<?xpacket?>` wrapper
    /// and its padding, which only make sense inside a file that may be edited in place.
    func serializedForSidecar() -> String? {
        let text = XMPString()
        let options = UInt32(XMP_SERIAL_OMITPACKETWRAPPER)
        guard xmp_serialize(pointer, text.pointer, options, 0) else { return nil }
        return text.string
    }
}
