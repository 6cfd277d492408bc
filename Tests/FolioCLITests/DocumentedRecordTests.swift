import FolioTestSupport
import Foundation
import Testing

/// The records the README and docs/format.md show pass `folio check` as written: each
/// Markdown example that opens front matter, saved in its kind's folder, gives no
/// warning and no error.
@Suite struct DocumentedRecordTests {
    /// Every ```markdown block of `document` (relative to the package) that is a record.
    static func examples(in document: String) throws -> [String] {
        let text = try String(contentsOf: FolioBinary.packageRoot.appendingPathComponent(document), encoding: .utf8)
        return text.components(separatedBy: "```markdown\n").dropFirst().compactMap { block in
            block.components(separatedBy: "```").first.flatMap { $0.hasPrefix("---\n") ? $0 : nil }
        }
    }

    /// The folder a record goes in: its `kind:`, else the kind its keys say.
    static func folder(of record: String) -> String {
        if let kind = record.split(separator: "\n").first(where: { $0.hasPrefix("kind: ") }) { return kind.dropFirst(6) + "s" }
        if record.contains("\ndue: ") { return "todos" }
        if record.contains("\ndistance: ") { return "workouts" }
        if record.contains("\nauthor: ") { return "quotes" }
        return "notes"
    }

    @Test(arguments: ["README.md", "docs/format.md"])
    func everyDocumentedRecordPassesCheck(document: String) async throws {
        let records = try Self.examples(in: document)
        #expect(records.count >= (document == "README.md" ? 1 : 5), "\(document) shows \(records.count) records")
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, record) in records.enumerated() {
            try FixtureFile.write(record, to: folder.appendingPathComponent("\(Self.folder(of: record))/example-\(index).md").path)
        }
        let check = try await FolioBinary.run(["check", folder.path])
        let files = records.count == 1 ? "1 file" : "\(records.count) files"
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr == "checked \(files) in \(folder.path): no problems\n", "\(document): \(check.stdout)\(check.stderr)")
    }
}
