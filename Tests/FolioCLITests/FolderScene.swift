import Foundation
import Testing

/// A folder `d` and a state folder `s` in a fresh temporary folder (or in `root` when
/// given), for running `folio` on a folder as a user does.
struct FolderScene {
    let root: URL
    var dir: URL { root.appendingPathComponent("d") }
    var state: String { root.appendingPathComponent("s").path }

    init(in root: URL? = nil) throws {
        self.root = try root ?? FolioBinary.temporaryFolder()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ path: String) throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: dir.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs `folio` with `arguments` and `--state` (this scene's, or `state`).
    func folio(_ arguments: [String], state: String? = nil) async throws -> FolioBinary.Run {
        try await FolioBinary.run(arguments + ["--state", state ?? self.state])
    }

    /// Writes `text` at `path` and records it in `state`'s history (no quiet period:
    /// as a watcher would once the save was left alone).
    func save(_ text: String, _ path: String, state: String? = nil) async throws {
        try write(text, path)
        let run = try await folio(["fold", dir.path, "--quiet", "0s"], state: state)
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
    }
}
