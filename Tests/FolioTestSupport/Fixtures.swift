import Foundation

/// The package's `Fixtures/` folder.
package enum Fixtures {
    /// A fresh copy of `Fixtures/` in a new temporary folder, for a test to change.
    package static func temporaryCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-store-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Corpora.packageRoot.appendingPathComponent("Fixtures"), to: folder)
        return folder
    }

    /// Writes `files` (path → text) below `folder`, making the folders they are in.
    package static func write(_ files: [String: String], into folder: URL) throws {
        for (name, text) in files {
            try FixtureFile.write(text, to: folder.appendingPathComponent(name).path)
        }
    }
}
