import FolioSystem
import FolioTestSupport
import Testing

/// SHA-256 against the published FIPS 180-4 / NIST example vectors.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func publishedVectors(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)).description == digest)
    }

    @Test func oneMillionAsInPiecesOfEverySize() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).description == expected)
        // Fed in uneven pieces, so that every path through the block buffer is taken.
        var hasher = SHA256()
        var fed = 0, piece = 1
        while fed < 1_000_000 {
            let count = min(piece, 1_000_000 - fed)
            hasher.update([UInt8](repeating: 0x61, count: count))
            fed += count
            piece = piece % 131 + 1
        }
        #expect(hasher.finalize().description == expected)
        #expect(SHA256.Digest(hex: expected)?.description == expected)
        #expect(SHA256.Digest(hex: "xyz") == nil)
    }

    @Test func theProcessorsInstructionsHashAsTheRoundsDo() {
        guard SHA256Hardware.isAvailable else {
            print("SHA256Tests: this processor has no SHA instructions; only the portable rounds are checked")
            return
        }
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...700, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            // In two pieces, so that blocks are also made of what was pending.
            let cut = Int.random(in: 0...bytes.count, using: &random)
            var portable = SHA256(), hardware = SHA256()
            for piece in [bytes[..<cut], bytes[cut...]] {
                portable.update(Array(piece), hardware: false)
                hardware.update(Array(piece), hardware: true)
            }
            #expect(hardware.finalize(hardware: true) == portable.finalize(hardware: false), "seed \(seed), \(bytes.count) bytes")
        }
    }
}
