// SHA-256 through libcrypto, held to the published vectors and to GLib's over many sizes.

import CCrypto
import Testing

@testable import CaptionLibrary

@Suite struct HashTests {
    @Test func sha256MatchesThePublishedVectors() {
        let abc = Array("abc".utf8).withUnsafeBytes { Hash.sha256($0) }
        #expect(abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let empty = [UInt8]().withUnsafeBytes { Hash.sha256($0) }
        #expect(empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test(arguments: [1, 55, 56, 63, 64, 65, 4096, (1 << 20) + 7])
    func sha256IsGLibsForEverySize(count: Int) {
        var state: UInt32 = 7
        let bytes = (0..<count).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        bytes.withUnsafeBytes { #expect(Hash.sha256($0) == Hash.glibSHA256($0)) }
    }

    @Test func photosAreHashedByLibcryptoWhereItIsInstalled() {
        // The machines that run these tests have libssl3: the fast way must be the one taken.
        var digest = [UInt8](repeating: 0, count: 32)
        let done = digest.withUnsafeMutableBufferPointer { caption_sha256(nil, 0, $0.baseAddress) }
        #expect(done == 1)
    }
}
