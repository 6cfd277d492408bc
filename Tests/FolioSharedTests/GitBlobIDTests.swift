@testable import FolioShared
@testable import FolioSystem
@testable import FolioVersions
import Testing

/// The ids git gives blobs (`git hash-object`), by which a version is found in a work
/// tree's history: SHA-1 across every padding case (the object, `blob N` and a NUL before
/// the bytes, ending just before, at and after a block's 56th and 64th byte), and SHA-256
/// in a repository made with `--object-format=sha256`.
@Suite struct GitBlobIDTests {
    @Test(arguments: [
        (0, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"), (46, "50b3bbe915fe104dbbb6786fdcfa310bcfc25d4e"),
        (47, "5e3bf7e629b4908cce461530c17a64365cb47303"), (48, "12d42395b020f44bb7710113b31f688d0ebeda7c"),
        (55, "d1985ddc2983785702b9a90effd5aff2f7cfdca4"), (56, "1f973e890f52da1f22fa7e5620a628bc4ee74cb3"),
        (110, "1fcb14c5910397220c4f8d0dd2203c70116bd4e0"), (111, "d64a843f44190f041194ba87abf3cedc76eeb30e"),
        (1000, "a50be72b20f0e3f078d252e8e56b11b4bec67509"),
    ])
    func sha1AsGitHashObjectGivesIt(count: Int, id: String) {
        #expect(GitWorkTree.blobID(of: [UInt8](repeating: 0x61, count: count), hexDigits: 40) == id)
    }

    @Test func sha256WhereIdsAreSixtyFourDigits() {
        #expect(GitWorkTree.blobID(of: Array("hello".utf8), hexDigits: 64) == "8aec4e4876f854f688d0ebfc8f37598f38e5fd6903cccc850ca36591175aeb60")
        #expect(GitWorkTree.blobID(of: Array("hello".utf8), hexDigits: 40) == "b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0")
    }
}
