import Foundation

/// The folder a command works on when its `DIR` is left out: the one `FOLIO_DIR`
/// names, else the nearest folder holding `folio.yaml` from the current one up (as git
/// finds the repository a command is run in).
struct DefaultFolder: Sendable {
    /// The folder, or nil when there is none.
    let path: String?

    /// What a user is told a left-out `DIR` means.
    static let explained = "DIR may be left out: it is then $FOLIO_DIR when set, else the nearest folder holding folio.yaml from the current one up."

    /// The folder for `environment` (`FOLIO_DIR`) and the current folder `current`;
    /// `exists` says whether a file is there (a test passes its own).
    init(environment: [String: String], current: String, exists: (String) -> Bool) {
        if let named = environment["FOLIO_DIR"], !named.isEmpty {
            path = named
            return
        }
        var folder = current
        while true {
            if exists((folder as NSString).appendingPathComponent("folio.yaml")) {
                path = folder
                return
            }
            let parent = (folder as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != folder else { break }
            folder = parent
        }
        path = nil
    }

    /// The default folder of this process.
    static var ofThisProcess: DefaultFolder {
        DefaultFolder(environment: ProcessInfo.processInfo.environment, current: FileManager.default.currentDirectoryPath) {
            FileManager.default.fileExists(atPath: $0)
        }
    }
}
