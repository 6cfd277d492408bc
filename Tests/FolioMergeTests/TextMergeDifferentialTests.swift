import Foundation
import FolioTestSupport
import Testing
@testable import FolioMerge

/// The text merge against `git merge-file` itself, on seeded random files written to
/// provoke every rule: repeated lines, lines without letters, missing final line
/// breaks, CRLF, edits that touch, identical edits on both sides, and all options.
@Suite struct TextMergeDifferentialTests {
    static let vocabulary = ["a\n", "b\n", "c\n", "d\n", "}\n", "\n", "  x = 1;\n", "return\n", "e\r\n", "f\r\n", "{\n", "// note\n"]

    static func randomFile(_ random: inout SeededRandom, lines: Int) -> [String] {
        (0..<lines).map { _ in vocabulary.randomElement(using: &random)! }
    }

    static func edit(_ base: [String], _ maxEdits: Int, _ random: inout SeededRandom) -> [String] {
        var lines = base
        for _ in 0..<Int.random(in: 0...maxEdits, using: &random) {
            let position = Int.random(in: 0...lines.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: lines.insert(contentsOf: randomFile(&random, lines: Int.random(in: 1...3, using: &random)), at: position)
            case 1: if position < lines.count { lines.removeSubrange(position..<min(lines.count, position + Int.random(in: 1...3, using: &random))) }
            default: if position < lines.count { lines[position] = vocabulary.randomElement(using: &random)! }
            }
        }
        return lines
    }

    static func bytes(_ lines: [String], dropLastNewline: Bool, dropCR: Bool) -> [UInt8] {
        var text = lines.joined()
        if dropLastNewline, text.hasSuffix("\n") {
            text.removeLast()
            if text.hasSuffix("\r") && dropCR { text.removeLast() }
        }
        return Array(text.utf8)
    }

    /// Small files (up to 14 lines, 2,000 merges) exercise the merge rules; large ones
    /// (hundreds of lines, many edits, 150 merges) xdiff's search cut-offs.
    @Test(arguments: [(2_000, 14, 4), (150, 1_200, 120)])
    func equalsGitMergeFileOnRandomFiles(runs: Int, maxLines: Int, maxEdits: Int) async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var mismatches = 0
        for run in 0..<runs {
            let base = Self.randomFile(&random, lines: Int.random(in: 0...maxLines, using: &random))
            let ours = Self.edit(base, maxEdits, &random)
            let theirs = Bool.random(using: &random) ? Self.edit(base, maxEdits, &random) : Self.edit(ours, maxEdits, &random)
            let files = [ours, base, theirs].map {
                Self.bytes($0, dropLastNewline: Int.random(in: 0..<4, using: &random) == 0, dropCR: Bool.random(using: &random))
            }
            var options = MergeOptions(oursLabel: "ours", baseLabel: "base", theirsLabel: "theirs")
            var arguments: [String] = []
            switch Int.random(in: 0..<8, using: &random) {
            case 0: (options.favor, arguments) = (.ours, arguments + ["--ours"])
            case 1: (options.favor, arguments) = (.theirs, arguments + ["--theirs"])
            case 2: (options.favor, arguments) = (.union, arguments + ["--union"])
            case 3, 4: (options.showBase, arguments) = (true, arguments + ["--diff3"])
            default: break
            }
            if Int.random(in: 0..<5, using: &random) == 0 {
                options.markerSize = Int.random(in: 1...12, using: &random)
                arguments.append("--marker-size=\(options.markerSize)")
            }
            arguments += ["-L", "ours", "-L", "base", "-L", "theirs"]
            let (expected, status) = try await ExternalTool.gitMergeFile(git, files, options: arguments, in: folder)
            let result = TextMerge.merge(base: files[1], ours: files[0], theirs: files[2], options: options)
            let same = result.bytes == expected && min(result.conflicts, 127) == status
            if !same {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("""
                        seed \(seed) run \(run) (FOLIO_SEED=\(seed)): git merge-file \(arguments.joined(separator: " ")) exited \(status), Folio found \(result.conflicts)
                        base: \(String(reflecting: String(decoding: files[1], as: UTF8.self)))
                        ours: \(String(reflecting: String(decoding: files[0], as: UTF8.self)))
                        theirs: \(String(reflecting: String(decoding: files[2], as: UTF8.self)))
                        git: \(String(reflecting: String(decoding: expected, as: UTF8.self)))
                        folio: \(String(reflecting: String(decoding: result.bytes, as: UTF8.self)))
                        """)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(runs) merges of up to \(maxLines) lines differ from git merge-file (seed \(seed))")
    }
}
