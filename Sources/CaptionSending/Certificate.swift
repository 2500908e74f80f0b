// Fingerprints the user compares with the agency's: an SSH host key's and a certificate's
// public key's, in the forms ssh-keygen and libcurl print them.

import CPixbuf

enum Certificate {
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        // g_checksum_new fails only for an unknown type.
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)!
        defer { g_checksum_free(checksum) }
        if let base = bytes.baseAddress {
            g_checksum_update(checksum, base.assumingMemoryBound(to: guchar.self), gssize(bytes.count))
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        g_checksum_get_digest(checksum, &digest, &length)
        return digest
    }

    /// Base64, without the trailing "=" when `padded` is false (as ssh-keygen prints).
    static func base64(_ bytes: [UInt8], padded: Bool) -> String {
        // Returns nil only when memory does.
        guard let text = g_base64_encode(bytes, gsize(bytes.count)) else { return "" }
        defer { g_free(text) }
        let encoded = String(cString: text)
        return padded ? encoded : String(encoded.prefix { $0 != "=" })
    }

    /// The certificate's SubjectPublicKeyInfo hashed as libcurl's CURLOPT_PINNEDPUBLICKEY
    /// takes it ("sha256//" and base64), from the certificate as PEM text; nil when it is
    /// no certificate.
    static func publicKeyPin(pem: String) -> String? {
        let body =
            pem
            .split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") }
            .joined()
        var length: gsize = 0
        guard let decoded = g_base64_decode(body, &length) else { return nil }
        defer { g_free(decoded) }
        let der = Array(UnsafeBufferPointer(start: decoded, count: Int(length)))
        guard let key = subjectPublicKeyInfo(der) else { return nil }
        return "sha256//" + base64(key.withUnsafeBytes { sha256($0) }, padded: true)
    }

    /// The DER of the SubjectPublicKeyInfo inside a certificate's DER: Certificate ::=
    /// SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber, signature,
    /// issuer, validity, subject, subjectPublicKeyInfo, … }, … } (RFC 5280, 4.1).
    static func subjectPublicKeyInfo(_ der: [UInt8]) -> [UInt8]? {
        guard let certificate = element(der, at: 0), der[certificate.start - certificate.headerLength] == 0x30,
            let tbs = element(der, at: certificate.start), der[tbs.start - tbs.headerLength] == 0x30
        else { return nil }
        var offset = tbs.start
        // The optional explicit version, [0].
        if offset < der.count, der[offset] == 0xA0, let version = element(der, at: offset) {
            offset = version.end
        }
        // serialNumber, signature, issuer, validity, subject.
        for _ in 0..<5 {
            guard let field = element(der, at: offset) else { return nil }
            offset = field.end
        }
        guard let key = element(der, at: offset), der[offset] == 0x30 else { return nil }
        return Array(der[offset..<key.end])
    }

    /// The DER element at `offset`: where its content starts and ends, and its header's
    /// length; nil when it runs past the bytes.
    private static func element(_ der: [UInt8], at offset: Int) -> (start: Int, end: Int, headerLength: Int)? {
        guard offset + 2 <= der.count else { return nil }
        var length = Int(der[offset + 1])
        var header = 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, offset + 2 + count <= der.count else { return nil }
            length = 0
            for byte in der[(offset + 2)..<(offset + 2 + count)] { length = length << 8 | Int(byte) }
            header += count
        }
        let end = offset + header + length
        guard end <= der.count else { return nil }
        return (offset + header, end, header)
    }
}
