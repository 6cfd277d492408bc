import Dispatch
import FolioFormat
import FolioModel
import FolioStore
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
        let folder = try RootedFolder(root)
        let walk = try FolderScan.markdownFiles(under: folder.root)
        let paths = walk.paths
        let displayRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
        let results = ConcurrentSlots<String?>.map(paths.count) { index -> String? in
            let path = displayRoot + "/" + shown(paths[index])
            do {
                let bytes = try FileReading.contents(of: folder[paths[index]])
                let document = try Document(bytes: bytes, path: path)
                let issues = Validation.issues(in: document, kind: Kind.of(document, path: paths[index]), path: path)
                return issues.isEmpty ? nil : issues.map(\.description).joined(separator: "\n")
            } catch let error as FormatError {
                return error.rendered
            } catch let error as SystemError {
                return FileProblem.line(error)
            } catch {
                return "\(path): error: \(error)"
            }
        }
        return Report(paths: paths, problems: walk.problems.map { FileProblem.line($0) } + results.compactMap { $0 })
    }
}
