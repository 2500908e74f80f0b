// A caption written into a photo's bytes by Caption's own code, field by field: the XMP
// packet placed where its container keeps it, the Exif and IIM caption fields edited, old
// words in a JPEG comment or a PNG's Exif text replaced, and every other byte kept.

import CaptionLibrary
import CaptionText
import Localization

/// Why the caption's fields, and nothing else: the XMP Toolkit's smart handlers rewrite a
/// JPEG's or TIFF's Exif and IIM from the XMP as the toolkit understands them, which loses
/// what it does not (sub-seconds, a date on a whole minute, GPS seconds with fractions,
/// empty fields) and adds what the XMP implies (an Artist from dc:creator). So exempi only
/// parses and serialises the packet here (`XMPEdit`), and this decides what changes:
/// - XMP dc:title, dc:description, and photoshop:Headline and exif:UserComment where they
///   held the caption (`XMPPacket.setCaption`), in the standard packet; caption properties
///   found in extended XMP (JPEG) move to the standard one, which every reader reads;
/// - Exif ImageDescription (added where the photo has Exif), UserComment and the XP tags
///   where present (`ExifText`): values appended after the existing ones, so no offset in
///   the Exif block moves (maker notes often hold absolute offsets);
/// - IIM ObjectName, Caption-Abstract, and Headline where it held the old title, made
///   UTF-8 (1:90) and its digest updated (`IIM`); a JPEG or TIFF without IIM gets a block
///   of its own when `WritingChoices.addsIIM` says so (older agency systems read only IIM);
/// - a JPEG comment (COM) or PNG text that held the old words, and PNG's own Title and
///   Description text (removed);
/// - in a JPEG with more pictures (MPF), the index's offsets, when the segments in front of
///   the pictures changed size.
enum Recaption {
    static func bytes(
        _ caption: CaptionWords, credits: Credits = .none, _ original: [UInt8], format: PhotoFormat
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        let words = caption.map(PhotoMetadata.xmlSafe)
        let credits = credits.compactMap { PhotoMetadata.xmlSafe($1) }
        switch format {
        case .jpeg: return try jpeg(original, words: words, credits: credits)
        case .png: return try png(original, words: words, credits: credits)
        case .webp: return try webp(original, words: words, credits: credits)
        case .tiff: return try tiff(original, words: words, credits: credits)
        default: throw .unsupported
        }
    }

    /// An Exif block (a TIFF structure) with the caption in its fields; nil when nothing
    /// changes or it cannot be followed (then it stays as it was).
    static func exif(_ blob: [UInt8], words: CaptionWords, credits: Credits) -> [UInt8]? {
        ExifText.captioned(blob, words: words, credits: credits)
    }

    /// What an Exif block's ImageDescription says, for recognising old words elsewhere.
    static func exifDescription(_ blob: [UInt8]?) -> [String] {
        guard let blob, let tiff = TIFF(blob),
            let entry = tiff.entries.first(where: { $0.tag == ExifText.imageDescription }),
            let value = tiff.value(of: entry)
        else { return [] }
        return [String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)]
    }

    /// Photoshop resources with the caption in their IIM; nil when they hold no IIM.
    static func resources(
        _ stored: ArraySlice<UInt8>, words: CaptionWords, credits: Credits, oldTitles: [String]
    ) throws(EmbeddingError) -> [UInt8]? {
        guard let resources = ImageResources(stored) else {
            guard !Containers.containsIIMResource(stored) else { throw .refused(tr("its IPTC block cannot be read")) }
            return nil
        }
        guard let block = resources.iimBlock else { return nil }
        let captioned = try iim(block, words: words, credits: credits, oldTitles: oldTitles)
        return resources.withIIM(captioned).encoded
    }

    static func iim(
        _ block: [UInt8], words: CaptionWords, credits: Credits, oldTitles: [String]
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        guard let parsed = IIM(block) else { throw .refused(tr("its IPTC block cannot be read")) }
        let titles = oldTitles + [parsed.text(IIM.objectName)].compactMap { $0 }
        guard let captioned = parsed.captioned(words: words, oldTitles: titles) else {
            throw .refused(tr("its IPTC block uses a character set Caption cannot convert"))
        }
        return captioned.credited(credits).encoded
    }

    static func iimWords(_ resources: ArraySlice<UInt8>) -> [String] {
        guard let block = ImageResources(resources)?.iimBlock, let parsed = IIM(block) else { return [] }
        return [IIM.objectName, IIM.captionAbstract, IIM.headline].compactMap { parsed.text($0) }
    }

    /// The new text of a comment that repeats old words: the new title for the old title,
    /// else the new subtitle; nil when it repeats none (it is kept as it is).
    static func replacement(
        forComment text: [UInt8], oldTitle: String?, oldWords: [String], words: CaptionWords
    )
        -> String?
    {
        let decoded = String(validating: text, as: UTF8.self) ?? LegacyText.windows1252(text)
        let trimmed = PhotoMetadata.meaningful(decoded)?.trimmingTrailing { $0 == "\0" || $0.properties.isWhitespace }
        guard let trimmed, oldWords.contains(trimmed) else { return nil }
        return trimmed == oldTitle ? words.title : words.subtitle
    }

    // MARK: JPEG

    private static func jpeg(
        _ original: [UInt8], words: CaptionWords, credits: Credits
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        guard let jpeg = JPEG(original) else { throw .refused(tr("its JPEG structure cannot be followed")) }
        let bytes = jpeg.bytes
        let standard = JPEGXMP.standard(jpeg)
        let guid = standard.flatMap { packet in
            Exempi.locked { () -> String? in
                packet.withUnsafeBytes { XMPPacket(parsing: $0) }?.text(XMPEdit.xmpNote, "HasExtendedXMP")
            }
        }
        let extended = guid.flatMap { JPEGXMP.extended(jpeg, guid: $0) }
        let edit = try XMPEdit.make(
            standard: standard, extended: extended, words: words, credits: credits,
            limit: JPEGXMP.standardLimit)

        let exifSegment = jpeg.segments.first {
            $0.marker == 0xE1 && Containers.hasPrefix(bytes, $0.payload, JPEG.exif + [0])
        }
        let exifBlob = exifSegment.map { Array(bytes[($0.payload.lowerBound + 6)..<$0.payload.upperBound]) }
        var oldWords = edit.oldWords + exifDescription(exifBlob)
        let photoshop = jpeg.segments.filter { JPEG.isPhotoshop($0, in: bytes) }
        for segment in photoshop {
            oldWords += iimWords(
                bytes[(segment.payload.lowerBound + JPEG.photoshop.count)..<segment.payload.upperBound])
        }
        let oldTitles = [edit.oldTitle].compactMap { $0 }

        var out: [JPEG.Segment] = []
        var placedXMP = false
        var placedExtended = false
        // A new packet goes right after Exif, wherever Exif is (a comment may come first),
        // so that Exif stays the first APP1, as the XMP specification and every writer have
        // it; with no Exif, after JFIF.
        let exifIndex = exifSegment.flatMap { exif in jpeg.segments.firstIndex { $0.range == exif.range } }
        let xmpAfter = exifIndex ?? (jpeg.segments.prefix { $0.marker == 0xE0 }.count - 1)
        var xmpPlace = 0
        for (index, segment) in jpeg.segments.enumerated() {
            defer { if index == xmpAfter { xmpPlace = out.count } }
            if JPEGXMP.isStandard(segment, bytes) {
                if !placedXMP { out.append(JPEG.Segment(marker: 0xE1, bytes: JPEG.xmp + edit.standard)) }
                placedXMP = true  // a second standard packet is invalid, and would keep old words
                continue
            }
            if JPEGXMP.isExtended(segment, bytes), let newExtended = edit.extended,
                JPEGXMP.guid(of: segment, bytes) == guid
            {
                if !placedExtended { out += JPEGXMP.extendedSegments(newExtended.packet, guid: newExtended.guid) }
                placedExtended = true
                continue
            }
            if let exifSegment, let exifBlob, segment.range == exifSegment.range {
                // An Exif block no reader can follow is left out, as unreadable as before;
                // kept, it would make exiv2 refuse the whole file, the new caption with it.
                guard TIFF(exifBlob) != nil else { continue }
                if let captioned = exif(exifBlob, words: words, credits: credits) {
                    guard JPEG.exif.count + 1 + captioned.count <= 65_533 else {
                        throw .refused(tr("its Exif block would not fit in its segment"))
                    }
                    out.append(JPEG.Segment(marker: 0xE1, bytes: JPEG.exif + [0] + captioned))
                    continue
                }
            }
            if JPEG.isPhotoshop(segment, in: bytes) {
                let stored = bytes[(segment.payload.lowerBound + JPEG.photoshop.count)..<segment.payload.upperBound]
                if let resources = try resources(stored, words: words, credits: credits, oldTitles: oldTitles) {
                    guard JPEG.photoshop.count + resources.count <= 65_533 else {
                        throw .refused(tr("its IPTC block would not fit in its segment"))
                    }
                    out.append(JPEG.Segment(marker: 0xED, bytes: JPEG.photoshop + resources))
                    continue
                }
            }
            if segment.marker == 0xFE,
                let text = replacement(
                    forComment: Array(bytes[segment.payload]), oldTitle: edit.oldTitle, oldWords: oldWords,
                    words: words)
            {
                if !text.isEmpty { out.append(JPEG.Segment(marker: 0xFE, bytes: Array(text.utf8))) }
                continue
            }
            out.append(segment)
        }
        if !placedXMP { out.insert(JPEG.Segment(marker: 0xE1, bytes: JPEG.xmp + edit.standard), at: xmpPlace) }
        let hasIIM = photoshop.contains { segment in
            ImageResources(bytes[(segment.payload.lowerBound + JPEG.photoshop.count)..<segment.payload.upperBound])?
                .iimBlock != nil
        }
        if !hasIIM && WritingChoices.current.addsIIM {
            try addIIM(to: &out, bytes: bytes, words: words, credits: credits)
        }
        let rebuilt = jpeg.assembled(out)
        let rebuiltTail = rebuilt.count - (bytes.count - jpeg.tail)
        switch MultiPicture.adjusted(rebuilt, original: bytes, originalTail: jpeg.tail, rebuiltTail: rebuiltTail) {
        case .success(let adjusted): return adjusted ?? rebuilt
        case .failure(let failure): throw failure
        }
    }

    /// A fresh IIM block with the caption and the credits, and its digest, for a JPEG that
    /// has none: into its Photoshop segment when it has one (holding other resources), else
    /// into a new one after the APP1 segments, where exiftool and Photoshop put it.
    private static func addIIM(
        to out: inout [JPEG.Segment], bytes: [UInt8], words: CaptionWords, credits: Credits
    ) throws(EmbeddingError) {
        let block = try iim(IIM.fresh.encoded, words: words, credits: credits, oldTitles: [])
        let resource = ImageResources.Resource(id: ImageResources.iim, name: [0, 0], data: block)
        var resources = ImageResources(resources: [resource])
        var at = (out.lastIndex { $0.marker == 0xE1 }).map { $0 + 1 } ?? 0
        // A Photoshop segment found in the file (not one made here) keeps its resources.
        if let index = out.firstIndex(where: { $0.data == nil && JPEG.isPhotoshop($0, in: bytes) }),
            let stored = ImageResources(
                bytes[(out[index].payload.lowerBound + JPEG.photoshop.count)..<out[index].payload.upperBound])
        {
            resources = stored
            resources.resources.append(resource)
            out.remove(at: index)
            at = index
        }
        let data = JPEG.photoshop + resources.withIIM(block).encoded
        guard data.count <= 65_533 else { throw .refused(tr("its IPTC block would not fit in its segment")) }
        out.insert(JPEG.Segment(marker: 0xED, bytes: data), at: at)
    }

    // MARK: PNG

    private static func png(
        _ original: [UInt8], words: CaptionWords, credits: Credits
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        guard let chunks = PNG.chunks(original) else { throw .refused(tr("its PNG chunks cannot be followed")) }
        let xmpChunk = chunks.first { PNG.isXMP($0, in: original) }
        let stored = xmpChunk.flatMap { PNGTextProfile.text(of: $0, in: original)?.text }
        let edit = try XMPEdit.make(standard: stored, extended: nil, words: words, credits: credits)
        var out = Array(original[0..<8])
        var placedXMP = false
        let xmpChunkBytes = PNG.chunk("iTXt", PNG.xmpKeyword + [0, 0, 0, 0] + edit.standard)
        for chunk in chunks {
            if PNG.isXMP(chunk, in: original) {
                if !placedXMP { out += xmpChunkBytes }
                placedXMP = true
                continue
            }
            if chunk.type == "IDAT" && !placedXMP {
                out += xmpChunkBytes
                placedXMP = true
            }
            if PNG.isLegacyCaption(chunk, in: original) { continue }
            if chunk.type == "eXIf",
                let captioned = exif(Array(original[chunk.data]), words: words, credits: credits)
            {
                out += PNG.chunk("eXIf", captioned)
                continue
            }
            if ["tEXt", "zTXt", "iTXt"].contains(chunk.type), let text = PNGTextProfile.text(of: chunk, in: original),
                PNGTextProfile.exifKeywords.contains(text.keyword)
            {
                out += try pngProfile(
                    text, original: Array(original[chunk.range]), words: words, credits: credits)
                continue
            }
            out += original[chunk.range]
        }
        return out
    }

    /// A text chunk's Exif profile with the caption in it; the chunk as it was when the
    /// profile holds no Exif Caption can follow.
    private static func pngProfile(
        _ text: PNGTextProfile.Text, original: [UInt8], words: CaptionWords, credits: Credits
    )
        throws(EmbeddingError) -> [UInt8]
    {
        guard let (name, profile) = PNGTextProfile.profile(text.text) else { return original }
        let header = JPEG.exif + [0]
        let prefixed = profile.count >= 6 && Array(profile[0..<6]) == header
        guard let captioned = exif(Array(profile[(prefixed ? 6 : 0)...]), words: words, credits: credits) else {
            return original
        }
        let body = PNGTextProfile.profileText(name: name, bytes: (prefixed ? header : []) + captioned)
        guard let chunk = PNGTextProfile.chunk(text, body: body) else {
            throw .refused(tr("its Exif text cannot be written"))
        }
        return chunk
    }

    // MARK: WebP

    private static func webp(
        _ original: [UInt8], words: CaptionWords, credits: Credits
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        let bytes = Containers.extendedWebP(original) ?? original
        guard let chunks = RIFF.chunks(bytes), chunks.first?.fourCC == "VP8X" else {
            throw .refused(tr("its WebP chunks cannot be followed"))
        }
        let stored = chunks.first { $0.fourCC == "XMP " }.map { Array(bytes[$0.data]) }
        let edit = try XMPEdit.make(standard: stored, extended: nil, words: words, credits: credits)
        var parts: [[UInt8]] = []
        var placedXMP = false
        for chunk in chunks {
            switch chunk.fourCC {
            case "XMP ":
                if !placedXMP { parts.append(RIFF.chunk("XMP ", edit.standard)) }
                placedXMP = true
            case "EXIF":
                // Some writers put JPEG's "Exif\0\0" in front of the TIFF structure.
                let prefixed = Containers.hasPrefix(bytes, chunk.data, JPEG.exif + [0])
                let start = chunk.data.lowerBound + (prefixed ? 6 : 0)
                if let captioned = exif(
                    Array(bytes[start..<chunk.data.upperBound]), words: words, credits: credits)
                {
                    parts.append(RIFF.chunk("EXIF", (prefixed ? JPEG.exif + [0] : []) + captioned))
                } else {
                    parts.append(Array(bytes[chunk.range]))
                }
            default:
                parts.append(Array(bytes[chunk.range]))
            }
        }
        if !placedXMP { parts.append(RIFF.chunk("XMP ", edit.standard)) }
        let file = RIFF.file(parts)
        return RIFF.withFlagsMatchingChunks(file) ?? file
    }

    // MARK: TIFF

    private static func tiff(
        _ original: [UInt8], words: CaptionWords, credits: Credits
    ) throws(EmbeddingError)
        -> [UInt8]
    {
        guard let first = TIFF(original) else { throw .refused(tr("its TIFF structure cannot be rewritten")) }
        let stored = first.entries.first { $0.tag == TIFF.xmpTag }.flatMap { first.value(of: $0) }
        let edit = try XMPEdit.make(standard: stored, extended: nil, words: words, credits: credits)
        let oldTitles = [edit.oldTitle].compactMap { $0 }
        // The Exif fields first (their own new IFD0), then XMP and IIM in a last one.
        let exifDone = exif(original, words: words, credits: credits) ?? original
        guard let tiff = TIFF(exifDone) else { throw .refused(tr("its TIFF structure cannot be rewritten")) }
        var entries = tiff.entries.filter { $0.tag != TIFF.xmpTag }.map { TIFF.NewEntry($0) }
        let xmpType = first.entries.first { $0.tag == TIFF.xmpTag }?.type ?? 1
        entries.append(
            TIFF.NewEntry(
                TIFF.Entry(tag: TIFF.xmpTag, type: xmpType, count: UInt32(edit.standard.count), field: [0, 0, 0, 0]),
                data: edit.standard))
        var iimBlock: [UInt8]?
        let hasIIM = entries.contains { entry in
            entry.entry.tag == TIFF.iptcTag
                || (entry.entry.tag == TIFF.photoshopTag
                    && tiff.value(of: entry.entry).flatMap { ImageResources($0[...])?.iimBlock } != nil)
        }
        if !hasIIM && WritingChoices.current.addsIIM {
            // In the IPTC tag, typed LONG as libtiff knows it, padded to whole units; the
            // Photoshop resources below take its digest.
            var data = try iim(IIM.fresh.encoded, words: words, credits: credits, oldTitles: [])
            while data.count % 4 != 0 { data.append(0) }
            iimBlock = data
            entries.append(
                TIFF.NewEntry(
                    TIFF.Entry(tag: TIFF.iptcTag, type: 4, count: UInt32(data.count / 4), field: [0, 0, 0, 0]),
                    data: data))
        }
        let added = iimBlock != nil
        for index in entries.indices {
            let entry = entries[index].entry
            // Entries made here (the XMP, a new IIM) have no value in the file to edit.
            guard entries[index].data == nil, entry.tag == TIFF.iptcTag || entry.tag == TIFF.photoshopTag,
                let value = tiff.value(of: entry)
            else {
                continue
            }
            var data: [UInt8]
            if entry.tag == TIFF.iptcTag {
                // LONG-typed IPTC ends in padding to whole units, which IIM reads as the end.
                data = try iim(value, words: words, credits: credits, oldTitles: oldTitles)
            } else if let resources = try resources(
                value[...], words: words, credits: credits, oldTitles: oldTitles)
            {
                data = resources
            } else if let iimBlock, let stored = ImageResources(value[...]),
                added || stored.resources.contains(where: { $0.id == ImageResources.digest })
            {
                // Its digest is of the IPTC tag's IIM (exiftool writes it so): kept true.
                data = stored.withDigest(of: iimBlock).encoded
            } else {
                continue
            }
            // IPTC is often typed LONG: whole 4-byte units.
            let unit = TIFF.typeSize(entry.type)
            while data.count % unit != 0 { data.append(0) }
            // The digest is of the tag's value as stored, padding and all, as exiftool
            // and Photoshop compute it.
            if entry.tag == TIFF.iptcTag { iimBlock = data }
            var updated = entry
            updated.count = UInt32(data.count / unit)
            entries[index] = TIFF.NewEntry(updated, data: data)
        }
        // IIM in the IPTC tag alone: its digest goes into Photoshop resources of their own,
        // where readers look for it.
        if let iimBlock, !entries.contains(where: { $0.entry.tag == TIFF.photoshopTag }) {
            let digest = ImageResources.Resource(id: ImageResources.digest, name: [0, 0], data: Hash.md5(iimBlock))
            let data = ImageResources(resources: [digest]).encoded
            entries.append(
                TIFF.NewEntry(
                    TIFF.Entry(tag: TIFF.photoshopTag, type: 1, count: UInt32(data.count), field: [0, 0, 0, 0]),
                    data: data))
        }
        guard let rebuilt = tiff.rebuilt(entries: entries) else {
            throw .refused(tr("its TIFF structure cannot be rewritten"))
        }
        return OldValues.scrubbed(rebuilt, original: original) ?? rebuilt
    }
}

extension JPEG {
    /// SOI, `segments` (found in the file, or made), then the tail as it was.
    func assembled(_ segments: [Segment]) -> [UInt8] {
        var result: [UInt8] = [0xFF, 0xD8]
        result.reserveCapacity(bytes.count + 4096)
        for segment in segments {
            if let data = segment.data { result += data } else { result += bytes[segment.range] }
        }
        result += bytes[tail...]
        return result
    }
}

extension String {
    fileprivate func trimmingTrailing(_ drop: (Unicode.Scalar) -> Bool) -> String {
        var scalars = Array(unicodeScalars)
        while let last = scalars.last, drop(last) { scalars.removeLast() }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
