import Dispatch
import FolioFormat
import FolioModel
import FolioFolder
import FolioSystem

/// Reads, parses and validates every Markdown file of a folder, on every core: what
/// `folio check` reports, and what an app can show before it opens a folder.
public enum FolderCheck {
    /// What a check found.
    public struct Report: Sendable {
        /// The files read, relative to the root.
        public var paths: [String]
        /// Every file of the folder the walk found (not only records), relative to the
        /// root: where its conflict copies are looked for without a walk of its own.
        public var files: [String] = []
        /// How many files were read.
        public var fileCount: Int { paths.count }
        /// Each problem as a line (`PATH:LINE:COLUMN: error: …` and what to do), in path order.
        public var problems: [String]
    }

    /// Checks every record file under `root` (named in the problems as given).
    public static func run(root: String) throws(SystemError) -> Report {
        let folder = try RootedFolder(root)
        // One walk serves the records and the conflict copies (of any file).
        let walk = try DirectoryWalk.files(under: folder.root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { _ in true })
        let paths = walk.paths.filter { FolderRules.isMarkdown(RelativePath($0).name) }
        let displayRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
        let (declared, declarationProblems) = declaredKinds(in: folder, shownAs: displayRoot + "/" + Settings.fileName)
        let folders = declared.folders
        // One file's problems as lines, nil when it has none.
        @Sendable func check(_ relative: String, _ read: Result<[UInt8], SystemError>) -> String? {
            let path = displayRoot + "/" + TextEscaping.name(relative)
            do {
                let bytes = try read.get()
                let document = try Document(bytes: bytes, path: path)
                let kind = Kind.of(document, path: relative, folders: folders)
                let issues = Validation.issues(in: document, kind: kind, path: path, declared: declared.schemas[kind])
                return issues.isEmpty ? nil : issues.map(\.description).joined(separator: "\n")
            } catch let error as FormatError {
                return error.rendered
            } catch let error as SystemError {
                return FileProblem.line(error)
            } catch {
                return "\(path): error: \(error)"
            }
        }
        // In runs of files, each run's folders opened once (``FileReading/contents(of:in:)``).
        let run = 64
        let runs = ConcurrentSlots<[String?]>.map((paths.count + run - 1) / run) { index -> [String?] in
            let range = index * run..<min(paths.count, (index + 1) * run)
            return zip(range, FileReading.contents(of: paths[range], in: folder)).map { index, read in check(paths[index], read) }
        }
        let results = runs.joined()
        return Report(paths: paths, files: walk.paths, problems: declarationProblems + walk.problems.map { FileProblem.line($0) } + results.compactMap { $0 })
    }

    /// The kinds the folder's `folio.yaml` declares, and the problems of the file (as
    /// lines: it does not parse, cannot be read, or declares something wrong).
    static func declaredKinds(in folder: RootedFolder, shownAs path: String) -> (DeclaredKinds, [String]) {
        do {
            guard let bytes = try AtomicFile.contentsIfPresent(folder[Settings.fileName]) else { return (DeclaredKinds(), []) }
            let document = try Document(yamlBytes: bytes, path: path)
            let declared = DeclaredKinds(document)
            return (declared, Settings.problems(in: document, path: path).map(\.description))
        } catch let error as FormatError {
            return (DeclaredKinds(), [error.rendered])
        } catch let error as SystemError {
            // Only a regular file is read: a link or a FIFO there is no settings file.
            return (DeclaredKinds(), error.isNotAFileToRead ? [] : [FileProblem.line(error)])
        } catch {
            return (DeclaredKinds(), ["\(path): error: \(error)"])
        }
    }
}
