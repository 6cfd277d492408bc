import Foundation
import Testing

/// The shared test corpora at `../shared/corpora`, beside the package.
///
/// Absent in a user's fresh clone: tests that need them print a notice and pass
/// without checking. `FOLIO_CORPORA=required` (set by `.ci/run`) makes absence a failure.
package enum Corpora {
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    /// The path of `name` in the corpora, or nil (after a notice, or a recorded failure
    /// when the corpora are required) when the corpora are absent.
    package static func path(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let path = root.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["FOLIO_CORPORA"] == "required" {
            Issue.record("test corpus \(path) is missing and FOLIO_CORPORA=required", sourceLocation: sourceLocation)
        } else {
            print("notice: skipping checks on \(name): \(path) is absent (set FOLIO_CORPORA=required to fail instead)")
        }
        return nil
    }

    /// Every Markdown file under `directory`, as sorted absolute paths.
    package static func markdownFiles(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".md") { files.append(directory + "/" + relative) }
        }
        return files.sorted()
    }

    /// The Markdown files of the record corpora and of Fixtures/.
    package static func recordFiles() -> [String] {
        var files = markdownFiles(under: packageRoot.appendingPathComponent("Fixtures").path)
        for name in ["recipes-chowdown", "recipes-mistercodo", "todos-obsidian-tasks", "workouts-obsidian-gym-log"] {
            if let path = path(name) { files += markdownFiles(under: path) }
        }
        return files
    }

    /// `path` relative to its collection (Fixtures/ or its corpus folder), as the folder a kind comes from sees it.
    package static func relativePath(_ path: String) -> String {
        for marker in ["/Fixtures/", "/recipes-chowdown/", "/content/", "/Tasks-Demo/", "/workouts-obsidian-gym-log/"] {
            if let range = path.range(of: marker) { return String(path[range.upperBound...]) }
        }
        return path
    }

    package static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
