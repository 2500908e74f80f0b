// Checksums: SHA-256 of a photo as lowercase hex (the copy's name), MD5 for the thumbnail
// cache and the Photoshop and extended-XMP digests.

import CCrypto
import CPixbuf

public enum Hash {
    /// Through libcrypto where it is installed (SHA instructions), else GLib's GChecksum.
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let done = digest.withUnsafeMutableBufferPointer {
            caption_sha256(bytes.baseAddress, bytes.count, $0.baseAddress)
        }
        guard done == 1 else { return glibSHA256(bytes) }
        return hex(digest)
    }

    /// GLib's SHA-256: where libcrypto is missing, and for tests to hold libcrypto's to.
    static func glibSHA256(_ bytes: UnsafeRawBufferPointer) -> String { hex(G_CHECKSUM_SHA256, bytes) }

    private static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// MD5 as lowercase hex: how the freedesktop thumbnail cache names a file's thumbnail.
    public static func md5Hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex(G_CHECKSUM_MD5, $0) } }

    private static func hex(_ type: GChecksumType, _ bytes: UnsafeRawBufferPointer) -> String {
        // g_checksum_new returns NULL only for an unknown checksum type; both used are known.
        let checksum = g_checksum_new(type)!
        defer { g_checksum_free(checksum) }
        if let base = bytes.baseAddress {
            var offset = 0
            // g_checksum_update takes a gssize; feed in pieces so any size fits.
            while offset < bytes.count {
                let count = min(bytes.count - offset, 1 << 30)
                g_checksum_update(checksum, (base + offset).assumingMemoryBound(to: guchar.self), gssize(count))
                offset += count
            }
        }
        // Never NULL for a known type; the string belongs to the checksum, freed (deferred
        // above) only after it is copied here.
        return String(cString: g_checksum_get_string(checksum)!)
    }
}

extension Hash {
    /// MD5's 16 bytes: the Photoshop IPTC digest and the extended-XMP GUID are MD5s,
    /// whatever its weakness as a hash of content.
    public static func md5(_ bytes: [UInt8]) -> [UInt8] {
        // g_checksum_new returns NULL only for an unknown checksum type, and MD5 is known.
        let checksum = g_checksum_new(G_CHECKSUM_MD5)!
        defer { g_checksum_free(checksum) }
        bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
        var digest = [UInt8](repeating: 0, count: 16)
        var length = gsize(16)
        g_checksum_get_digest(checksum, &digest, &length)
        return digest
    }
}
