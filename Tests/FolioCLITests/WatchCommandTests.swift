import FolioTestSupport
import Foundation
import Testing

/// `folio watch`, run as a user runs it: edits made while it runs are printed as
/// they land, and SIGTERM or SIGINT stop it with status 0.
@Suite(.onAThreadOfItsOwn) struct WatchCommandTests {
    /// Collects a pipe's output on a background queue.
    final class Collector: @unchecked Sendable {
        // @unchecked Sendable is safe: `data` is only touched while holding `lock`.
        private let lock = NSLock()
        private var data = Data()
        /// When each chunk arrived, and the length of the output after it: how long the
        /// program took to say something, apart from how long a wait took to see it.
        private var arrivals: [(at: ContinuousClock.Instant, length: Int)] = []
        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                self?.lock.withLock {
                    self?.data.append(chunk)
                    if let self { self.arrivals.append((.now, self.data.count)) }
                }
            }
        }

        /// When the output first held `needle` (nil: not yet).
        func arrival(of needle: String) -> ContinuousClock.Instant? {
            lock.withLock {
                let text = String(decoding: data, as: UTF8.self)
                guard let range = text.range(of: needle) else { return nil }
                let end = text.utf8.distance(from: text.startIndex, to: range.upperBound)
                return arrivals.first { $0.length >= end }?.at
            }
        }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

        /// Whether `needle` is in the output within `timeout` seconds; it sleeps between
        /// looks rather than holding a thread of Swift's cooperative pool.
        func wait(for needle: String, timeout: TimeInterval = 10, file: String = #fileID, line: Int = #line) async -> Bool {
            let started = ContinuousClock.now
            defer {
                let lag = arrival(of: needle).map { ContinuousClock.now - $0 } ?? .zero
                LongWaits.note(since: started, "output \(needle.debugDescription.prefix(60)) (seen \(lag) after it came)", file: file, line: line)
            }
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if text.contains(needle) { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return text.contains(needle)
        }
    }

    func start(_ arguments: [String]) throws -> (Process, Collector, Collector) {
        let process = Process()
        process.executableURL = FolioBinary.url
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collectors = (Collector(out), Collector(err))
        try process.run()
        return (process, collectors.0, collectors.1)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func printsEachChangeAndStopsCleanly(signal: Int32) async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = folder.appendingPathComponent("recipes/carbonara.md")
        try FileManager.default.createDirectory(at: recipe.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("---\ntitle: Carbonara\ntime: 15m\n---\n".utf8).write(to: recipe, options: .atomic)
        let (process, out, err) = try start(["watch", folder.path])
        #expect(await err.wait(for: "watching \(folder.path): 1 records"), "stderr: \(err.text)")
        try Data("---\ntitle: Carbonara\ntime: 20m\n---\n".utf8).write(to: recipe, options: .atomic)
        #expect(await out.wait(for: "updated recipes/carbonara.md: time 15m → 20m\n"), "stdout: \(out.text)")
        // The first change is told from the front matter the load read, the next from the one just told.
        try Data("---\ntitle: Carbonara\ntime: 25m\nservings: 2\n---\n".utf8).write(to: recipe, options: .atomic)
        #expect(await out.wait(for: "updated recipes/carbonara.md: time 20m → 25m, servings added: 2\n"), "stdout: \(out.text)")
        try Data("---\ntitle: \"Soup\n---\n".utf8).write(to: folder.appendingPathComponent("recipes/soup.md"))
        #expect(await out.wait(for: "invalid recipes/soup.md:2:8: unterminated double-quoted string"), "stdout: \(out.text)")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    // Edits are written atomically here: a short quiet period under a loaded machine could
    // otherwise read a file between its truncation and its write (the editor tests cover that).
    @Test func jsonIsOneObjectPerLine() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let todo = folder.appendingPathComponent("todos/milk.md")
        try FileManager.default.createDirectory(at: todo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("---\ntitle: Milk\ndone: false\n---\n".utf8).write(to: todo, options: .atomic)
        let (process, out, err) = try start(["watch", folder.path, "--json", "--quiet", "10ms"])
        #expect(await err.wait(for: "watching"))
        try Data("---\ntitle: Milk\ndone: true\n---\n".utf8).write(to: todo, options: .atomic)
        let expected = #"{"event":"updated","path":"todos/milk.md","title":"Milk","changes":[{"key":"done","new":true,"old":false}]}"#
        #expect(await out.wait(for: expected + "\n"), "stdout: \(out.text)")
        try FileManager.default.removeItem(at: todo)
        #expect(await out.wait(for: #"{"event":"removed","path":"todos/milk.md"}"# + "\n"), "stdout: \(out.text)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aMissingFolderIsAnError() async throws {
        let run = try await FolioBinary.run(["watch", "/nonexistent/folio-folder"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("/nonexistent/folio-folder"))
    }
}
