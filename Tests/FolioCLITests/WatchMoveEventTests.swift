import Foundation
import Testing

/// A move reported by `folio watch` says what the file is now: its title (a note's is
/// its file name) and its kind (from its folder).
@Suite(.onAThreadOfItsOwn) struct WatchMoveEventTests {
    @Test func aMoveCarriesTheNewTitleAndKind() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("recipes"), withIntermediateDirectories: true)
        try Data("Just a note.\n".utf8).write(to: folder.appendingPathComponent("draft.md"))
        let watch = WatchCommandTests()
        let (process, out, err) = try watch.start(["watch", folder.path, "--quiet", "20ms"])
        #expect(await err.wait(for: "watching"))
        try FileManager.default.moveItem(at: folder.appendingPathComponent("draft.md"), to: folder.appendingPathComponent("recipes/soup.md"))
        #expect(await out.wait(for: "moved draft.md → recipes/soup.md: recipe\n"), "\(out.text)")
        process.terminate()
        process.waitUntilExit()

        let (jsonProcess, jsonOut, jsonErr) = try watch.start(["watch", folder.path, "--json", "--quiet", "20ms"])
        #expect(await jsonErr.wait(for: "watching"))
        try FileManager.default.moveItem(at: folder.appendingPathComponent("recipes/soup.md"), to: folder.appendingPathComponent("stew.md"))
        #expect(await jsonOut.wait(for: #"{"event":"moved","from":"recipes/soup.md","to":"stew.md","title":"stew","kind":"note"}"# + "\n"), "\(jsonOut.text)")
        jsonProcess.terminate()
        jsonProcess.waitUntilExit()
    }
}
