import FolioTestSupport
import Testing
@testable import FolioFormat

@Suite struct UTF8ValidationTests {
    func firstInvalid(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0, range: 0..<$0.count) }
    }

    @Test func findsTheFirstBadByte() {
        #expect(firstInvalid(Array("plain ascii text, longer than eight bytes".utf8)) == nil)
        #expect(firstInvalid(Array("perché 🍝".utf8)) == nil)
        #expect(firstInvalid(Array("12345678".utf8) + [0xFF]) == 8)
        #expect(firstInvalid(Array("1234567".utf8) + [0xC3]) == 7)            // truncated sequence at the end
        #expect(firstInvalid([0xC0, 0xAF]) == 0)                                // overlong
        #expect(firstInvalid([0xED, 0xA0, 0x80]) == 0)                          // surrogate
        #expect(firstInvalid([0xF4, 0x90, 0x80, 0x80]) == 0)                    // past U+10FFFF
        #expect(firstInvalid(Array("abcdefghij".utf8) + [0xE2, 0x82]) == 10)
    }

    /// The standard library's answer, by a route every platform has: decoding replaces
    /// each ill-formed sequence with U+FFFD, so only valid bytes come back unchanged.
    static func isValid(_ bytes: [UInt8]) -> Bool { Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes }

    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let pieces: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("é".utf8), Array("🍝".utf8), Array("€".utf8), [0x80], [0xC3], [0xE2, 0x82],
            [0xF0, 0x9F], [0xFF], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0x0A],
        ]
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...12, using: &random)).flatMap { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            let valid = Self.isValid(bytes)
            #expect((firstInvalid(bytes) == nil) == valid, "seed \(seed): \(bytes)")
            if let offset = firstInvalid(bytes) {
                #expect(Self.isValid(Array(bytes[..<offset])), "seed \(seed): prefix before \(offset) of \(bytes)")
            }
        }
    }
}
