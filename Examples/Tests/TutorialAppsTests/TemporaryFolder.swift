import Folio
import Foundation

/// A fresh folder for one test, holding `files` (path → text), and its store.
@MainActor
func temporaryStore(_ files: [String: String] = [:]) async throws -> (Store, String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-example-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (path, text) in files {
        let full = folder + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
    return (try await Store.load(folder), folder)
}

/// The text of the file at `path` under `folder`, or nil.
func text(_ folder: String, _ path: String) -> String? {
    FileManager.default.contents(atPath: folder + "/" + path).map { String(decoding: $0, as: UTF8.self) }
}
