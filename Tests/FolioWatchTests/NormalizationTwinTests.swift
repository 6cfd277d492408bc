import Foundation
import FolioStore
import FolioSystem
import FolioTestSupport
import Testing
@testable import FolioWatch

/// `recipes/café.md` in NFC and in NFD in one folder: two files on disk that Swift's
/// `String` takes for one name. Loading them crashed the store; watching reported the
/// second as an update of the first. Both are left out, with a problem saying so.
@MainActor
@Suite struct NormalizationTwinTests {
    static let nfc = "recipes/caf\u{E9}.md"
    static let nfd = "recipes/cafe\u{301}.md"

    @Test func aFreshLoadLeavesBothSpellingsOutAndSaysWhy() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-twins-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try WatchHarness.write("---\ntitle: NFC\n---\n", to: root + "/" + Self.nfc)
        try WatchHarness.write("---\ntitle: NFD\n---\n", to: root + "/" + Self.nfd)
        try WatchHarness.write("---\ntitle: Bread\n---\n", to: root + "/recipes/bread.md")
        // Two distinct files on disk, by their bytes.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root + "/recipes").map { Array($0.utf8) }).count == 3)
        let (state, problems) = try FolderScan.read(root)
        #expect(state.records.keys.sorted() == ["recipes/bread.md"])
        #expect(problems.count == 2)
        #expect(problems.allSatisfy { $0.code == Syscall.normalizationTwin && $0.description.contains("rename or remove one") })
    }

    @Test func watchingATwinSpellingAppearLeavesTheStoreAsAFreshLoad() async throws {
        let harness = try await WatchHarness(files: [Self.nfc: "---\ntitle: NFC\n---\n", "recipes/bread.md": "---\ntitle: Bread\n---\n"])
        defer { harness.finish() }
        #expect(harness.store.state[Self.nfc]?.title == "NFC")
        try WatchHarness.write("---\ntitle: NFD\n---\n", to: harness.root + "/" + Self.nfd)
        #expect(await harness.waitUntil { harness.store.state.count == 1 })
        #expect(harness.store.state.records.keys.sorted() == ["recipes/bread.md"])
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
        // Said, as a fresh load says it, with what to do.
        #expect(await harness.waitUntil { harness.warningsSeen.contains { $0.contains("caf") && $0.hasSuffix("error: left out: another name in this folder differs from this one only by Unicode normalization (an NFC and an NFD spelling); both are left out: rename or remove one") } },
                "\(harness.warningsSeen)")
    }
}
