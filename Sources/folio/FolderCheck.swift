import Dispatch
import FolioFormat
import FolioModel
import FolioSystem

/// Reads and parses every Markdown file of a folder, on every core.
enum FolderCheck {
    struct Report {
        /// The files read, relative to the root.
        var paths: [String]
        var fileCount: Int { paths.count }
        /// Rendered problems, in path order.
        var problems: [String]
    }

    static func run(root: String) throws(SystemError) -> Report {
        let walk = try DirectoryWalk.files(
            under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: FolderRules.isMarkdown)
        let paths = walk.paths
        let results = ResultSlots(count: paths.count)
        let displayRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let path = displayRoot + "/" + paths[index]
            do {
                let bytes = try FileReading.contents(of: path)
                let document = try Document(bytes: bytes, path: path)
                let issues = Validation.issues(in: document, kind: Kind.of(document, path: paths[index]), path: path)
                if !issues.isEmpty { results.set(index, issues.map(\.description).joined(separator: "\n")) }
            } catch let error as FormatError {
                results.set(index, error.rendered)
            } catch {
                results.set(index, "\(error)")
            }
        }
        return Report(paths: paths, problems: walk.problems.map(\.description) + results.values.compactMap { $0 })
    }
}

/// One slot per file for results written from many threads at once.
///
/// `@unchecked Sendable` is safe here: every thread writes only the slot of its own
/// index (distinct indices never alias), and `values` is read only after
/// `concurrentPerform` has returned, which orders all the writes before the read.
final class ResultSlots: @unchecked Sendable {
    private var storage: UnsafeMutableBufferPointer<String?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func set(_ index: Int, _ value: String) { storage[index] = value }

    var values: [String?] { Array(storage) }
}
