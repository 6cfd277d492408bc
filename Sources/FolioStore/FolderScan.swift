import FolioFolder
import FolioSystem
import FolioFormat
import FolioModel
/// Reading a whole folder into a state.
public enum FolderScan {
    /// The Markdown records under `root`, skipping what is never synced, and the folders that could not be read.
    public static func markdownFiles(under root: RootedPath) throws(SystemError) -> (paths: [String], problems: [SystemError]) {
        try DirectoryWalk.files(under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: FolderRules.isMarkdown)
    }

    /// The state of the folder at `root`, and what could not be read.
    public static func read(_ root: String) throws(SystemError) -> (StoreState, [SystemError]) {
        try read(RootedFolder(root))
    }

    /// The state of `root`, and what could not be read.
    public static func read(_ root: RootedFolder) throws(SystemError) -> (StoreState, [SystemError]) {
        let (state, problems, _) = try read(root, keepingReads: false)
        return (state, problems)
    }

    /// ``read(_:)-(RootedFolder)``; with `keepingReads`, also every record file read, with
    /// its stamp, for a second reader of the folder at the same moment; without
    /// `indexingText`, a state that indexes no body words (see ``Store/loadKeepingReads(_:removedFiles:keepingReads:indexingText:)``).
    package static func read(_ root: RootedFolder, keepingReads: Bool, indexingText: Bool = true) throws(SystemError) -> (StoreState, [SystemError], [FileRead]) {
        let walk = try markdownFiles(under: root.root)
        var problems = walk.problems
        var settings: [UInt8]? = nil
        do { settings = try AtomicFile.contentsIfPresent(root[Settings.fileName]) } catch where error.isNotAFileToRead {
            // Only a regular file is read: a link or a FIFO there is no settings file.
        } catch {
            // An unreadable settings file is not "no settings": said, with the defaults used meanwhile.
            problems.append(error)
        }
        // Read first, so that each record is read once, with the folders the settings declare.
        // A settings file that does not parse declares nothing (as it sets nothing).
        let declared = settings.flatMap { try? Document(yamlBytes: $0, path: Settings.fileName) }.map(DeclaredKinds.init) ?? DeclaredKinds()
        var (state, unread, reads) = StoreState.load(paths: walk.paths, from: FolderSource(root: root), folders: declared.folders, keepingReads: keepingReads, indexingText: indexingText)
        problems += unread
        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: settings))
        return (state, problems, reads)
    }
}
