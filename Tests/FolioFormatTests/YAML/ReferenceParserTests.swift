import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat

/// Differential test against a reference YAML 1.2 parser: fy-tool (Debian's
/// libfyaml-utils). A seeded generator writes random in-format YAML in the many
/// styles people use; both parsers read it and the JSON must agree.
@Suite struct ReferenceParserTests {
    static let fyTool = ["/usr/bin/fy-tool", "/usr/local/bin/fy-tool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func agreesWithFyToolOnRandomDocuments() async throws {
        guard let fyTool = Self.fyTool else {
            if ProcessInfo.processInfo.environment["FOLIO_CORPORA"] == "required" {
                Issue.record("fy-tool is not installed (apt-get install libfyaml-utils) and FOLIO_CORPORA=required")
            } else {
                print("notice: skipping the fy-tool differential test: fy-tool is not installed (apt-get install libfyaml-utils)")
            }
            return
        }
        let seed = SeededRandom.testSeed()
        var generator = YAMLTextGenerator(values: RandomValues(random: SeededRandom(seed: seed)))
        let documents = (0..<3000).map { _ in generator.document() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var compared = 0, refusedByBoth = 0
        for batchStart in stride(from: 0, to: documents.count, by: 500) {
            let batch = Array(documents[batchStart..<min(batchStart + 500, documents.count)])
            let file = folder.appendingPathComponent("batch.yaml")
            try batch.map { "---\n" + $0 }.joined().write(to: file, atomically: true, encoding: .utf8)
            var expected: [YAMLValue?] = try JSONReader.values(try await run(fyTool, ["--mode", "json", file.path]))
            if expected.count != batch.count {
                // fy-tool stops at the first document it refuses: read each one alone.
                expected = []
                for text in batch {
                    try text.write(to: file, atomically: true, encoding: .utf8)
                    expected.append(try JSONReader.values(try await run(fyTool, ["--mode", "json", file.path])).first)
                }
            }
            for (offset, (text, reference)) in zip(batch, expected).enumerated() {
                let index = batchStart + offset
                let ours = Result { () throws -> YAMLValue in
                    let tree = try YAML.parse(text)
                    tree.root?._checkInvariants()
                    return tree.value
                }
                switch (ours, reference) {
                case (.success(let value), let reference?):
                    #expect(value.sameAsJSON(reference), "seed \(seed) document \(index):\n\(text)\nfolio: \(value.json(indent: nil))\nfy-tool: \(reference.json(indent: nil))")
                    compared += 1
                case (.failure(let error), _?):
                    Issue.record("seed \(seed) document \(index) refused by Folio, read by fy-tool: \(error)\n\(text)")
                case (.success(let value), nil):
                    Issue.record("seed \(seed) document \(index) read by Folio as \(value.json(indent: nil)), refused by fy-tool:\n\(text)")
                case (.failure, nil):
                    refusedByBoth += 1
                }
            }
        }
        print("fy-tool differential: \(compared) random documents equal (seed \(seed)); \(refusedByBoth) refused by both")
        #expect(compared >= documents.count * 9 / 10, "the generator should write valid YAML")
    }

    /// `tool`'s output, waited for off the cooperative pool (two threads here: a test
    /// that waited on 3,000 runs of fy-tool on one of them held up the other suites).
    func run(_ tool: String, _ arguments: [String]) async throws -> String {
        try await offThePool { try Self.runBlocking(tool, arguments) }
    }

    static func runBlocking(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Writes random YAML text in Folio's subset, independently of Folio's emitter:
/// block and flow collections, indentless lists, every scalar style, multi-line
/// scalars, block scalars with indicators, comments and blank lines.
struct YAMLTextGenerator {
    var values: RandomValues

    // Plain scalars on which fy-tool's JSON output and the core schema agree.
    static let plainScalars = [
        "pasta", "Buy milk", "42", "-7", "0", "3.25", "-0.5", "1e3", "true", "false", "null", "yes", "no", "on",
        "2026-11-30", "12:30", "a:b", "a#b", "perché", "🍝", "x-y", "1/2 cup", "15m", "http://example.com/a?b=c",
        "Pecorino Romano", "-dash", "?q", "a'b", "say \"hi\"", "100%",
    ]
    static let flowSafe = ["pasta", "Buy milk", "42", "3.25", "true", "null", "no", "a:b", "perché", "15m", "x-y", "a'b"]
    static let keys = ["title", "kind", "time", "servings", "tags", "date", "done", "priority", "notes", "name", "author", "source", "Key With Spaces", "ключ"]

    mutating func document() -> String {
        var lines: [String] = []
        if values.chance(20) { lines.append("# a comment") }
        mapping(indent: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    mutating func pick(_ list: [String]) -> String { list[values.int(0...list.count - 1)] }

    mutating func key(_ used: inout Set<String>) -> String {
        var key = pick(Self.keys)
        while used.contains(key) { key += String(values.int(0...9)) }
        used.insert(key)
        switch values.int(0...9) {
        case 0: return "\"" + key + "\""
        case 1: return "'" + key + "'"
        default: return key
        }
    }

    mutating func mapping(indent: Int, into lines: inout [String], compactFirst: String? = nil) {
        var used: Set<String> = []
        let pad = String(repeating: " ", count: indent)
        for entry in 0..<values.int(1...5) {
            if values.chance(10) { lines.append("") }
            if values.chance(8) { lines.append(String(repeating: " ", count: values.int(0...indent)) + "# note") }
            let prefix = entry == 0 && compactFirst != nil ? compactFirst! : pad
            let key = key(&used)
            value(after: prefix + key + ":", indent: indent, depth: indent / 2, into: &lines)
        }
    }

    mutating func value(after head: String, indent: Int, depth: Int, into lines: inout [String]) {
        let comment = values.chance(10) ? " # trailing" : ""
        let kind = depth > 3 ? values.int(0...4) : values.int(0...11)
        switch kind {
        case 0, 1: lines.append(head + " " + pick(Self.plainScalars) + comment)
        case 2: lines.append(head + " " + singleQuoted() + comment)
        case 3: lines.append(head + " " + doubleQuoted() + comment)
        case 4: lines.append(head + comment)
        case 5:
            // Multi-line plain scalar.
            lines.append(head + " " + pick(["pasta", "Buy", "one two"]))
            let more = String(repeating: " ", count: indent + values.int(1...3))
            lines.append(more + pick(["milk", "and eggs", "perché"]))
            if values.chance(30) { lines.append("") ; lines.append(more + "last") }
        case 6: blockScalar(head: head, indent: indent, into: &lines)
        case 7: lines.append(head + " " + flowSequence(depth: 0) + comment)
        case 8:
            // A flow collection over several lines.
            let more = String(repeating: " ", count: indent + 2)
            lines.append(head + " [")
            for _ in 0..<values.int(1...3) { lines.append(more + pick(Self.flowSafe) + ",") }
            lines.append(more + "]")
        case 9:
            lines.append(head + " {" + (0..<values.int(0...3)).map { "k\($0): " + pick(Self.flowSafe) }.joined(separator: ", ") + "}")
        case 10:
            lines.append(head + comment)
            let itemIndent = values.chance(40) ? indent : indent + values.int(1...3) * 2
            sequence(indent: itemIndent, depth: depth + 1, into: &lines)
        default:
            lines.append(head + comment)
            mapping(indent: indent + values.int(1...2) * 2, into: &lines)
        }
    }

    mutating func sequence(indent: Int, depth: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        for _ in 0..<values.int(1...4) {
            switch values.int(0...5) {
            case 0: lines.append(pad + "- " + pick(Self.plainScalars))
            case 1: lines.append(pad + "- " + doubleQuoted())
            case 2: lines.append(pad + "- " + flowSequence(depth: 1))
            case 3 where depth < 4: mapping(indent: indent + 2, into: &lines, compactFirst: pad + "- ")
            case 4:
                lines.append(pad + "-")
                lines.append(pad + "  " + pick(Self.plainScalars))
            default: lines.append(pad + "- " + singleQuoted())
            }
        }
    }

    mutating func singleQuoted() -> String {
        let text = pick(["it''s", "a: b", "# not a comment", "yes", "", " spaced ", "perché", "[x]"])
        return "'" + text + "'"
    }

    mutating func doubleQuoted() -> String {
        let text = pick([
            "tab\\there", "line\\nbreak", "quote \\\"q\\\"", "back\\\\slash", "\\u00e9t\\u00e9", "\\x41BC", "no",
            "12:30", "", "\\ttab first", "emoji \\U0001F35D", "a \\/ b",
        ])
        return "\"" + text + "\""
    }

    mutating func flowSequence(depth: Int) -> String {
        var items: [String] = []
        for _ in 0..<values.int(0...4) {
            switch values.int(0...5) {
            case 0 where depth < 2: items.append(flowSequence(depth: depth + 1))
            case 1: items.append(doubleQuoted())
            case 2: items.append(singleQuoted())
            case 3 where depth < 2: items.append("{a: " + pick(Self.flowSafe) + "}")
            default: items.append(pick(Self.flowSafe))
            }
        }
        return "[" + items.joined(separator: ", ") + (values.chance(10) && !items.isEmpty ? ", " : "") + "]"
    }

    mutating func blockScalar(head: String, indent: Int, into lines: inout [String]) {
        let style = values.chance(50) ? "|" : ">"
        let chomp = pick(["", "-", "+"])
        let extra = values.int(1...3)
        let indicator = values.chance(25) ? String(extra + (indent == 0 ? 0 : 0)) : ""
        lines.append(head + " " + style + indicator + chomp)
        let pad = String(repeating: " ", count: indent + extra)
        var previousEmpty = false
        for line in 0..<values.int(1...4) {
            // fy-tool 0.7.12 drops one line feed where a folded scalar's empty lines come
            // before a more-indented line; the spec's productions (l-nb-diff-lines), PyYAML
            // and Folio keep it. That one pattern is left out here.
            let moreIndentedAllowed = (line > 0 || !indicator.isEmpty) && !(style == ">" && previousEmpty)
            previousEmpty = false
            switch values.int(0...5) {
            case 0 where line > 0:
                lines.append("")
                previousEmpty = true
            case 1 where moreIndentedAllowed: lines.append(pad + "  more indented")
            default: lines.append(pad + pick(["Line of text", "perché sì", "- not a list", "# not a comment", "key: not a key"]))
            }
        }
        if values.chance(30) { lines.append("") }
    }
}
