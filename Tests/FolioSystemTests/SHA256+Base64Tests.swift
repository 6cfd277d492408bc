@testable import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@Suite struct SHA256Base64Tests {
    /// A digest in base64url reads back as itself, as Foundation writes those bytes (less
    /// padding, with `-` and `_`), over seeded random contents.
    @Test func aDigestInBase64ReadsBackAsItself() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let digest = SHA256.hash((0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            var text: [UInt8] = []
            digest.appendBase64(to: &text)
            let foundation = Data(digest.bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(String(decoding: text, as: UTF8.self) == foundation, "seed \(seed)")
            #expect(text.withUnsafeBufferPointer { SHA256.Digest(base64: $0) } == digest, "seed \(seed)")
        }
    }

    /// Anything else is no digest: a wrong length, a character outside the alphabet, or
    /// a last character whose unused bits are set.
    @Test func whatIsNotADigestIsNone() {
        var text: [UInt8] = []
        SHA256.hash([]).appendBase64(to: &text)
        func read(_ bytes: [UInt8]) -> SHA256.Digest? { bytes.withUnsafeBufferPointer { SHA256.Digest(base64: $0) } }
        #expect(read(text) == SHA256.hash([]))
        #expect(read(Array(text.dropLast())) == nil)
        #expect(read(text + [65]) == nil)
        #expect(read([43] + text.dropFirst()) == nil)
        // "U" (20, 0b010100) ends "...U" in the digest of ""; "V" sets one of the two unused bits.
        #expect(text.last == UInt8(ascii: "U"))
        #expect(read(text.dropLast() + [UInt8(ascii: "V")]) == nil)
    }
}
