import FolioFormat
import FolioSystem
import FolioVersions

/// Whether a sync tool shares a folder, which decides whether Folio writes `.folio/`
/// into it (see ``SharedHistory``): the tool's marker in the folder or a folder above it
/// (Syncthing's `.stfolder`, Dropbox's `.dropbox`, Nextcloud's and ownCloud's
/// `.sync_*.db` journals, Resilio's `.sync/`), another device's log in `.folio/logs/`,
/// or `shared: true` in the folder's `folio.yaml`. `shared: false` there says no
/// whatever else is found. A conflict copy seen in the folder is evidence too (see
/// ``SharedFolder``). A git work tree is none: git's history is its history.
package enum FolderSharing {
    /// What the folder's `folio.yaml` (its `settings` document, nil when there is none to
    /// read) says: `shared: true` / `false`, or nil.
    package static func declared(in settings: Document?) -> Bool? {
        guard case .bool(let shared)? = settings?["shared"] else { return nil }
        return shared
    }

    /// Why the folder at `root` is shared, or nil when nothing says so (`device`: this
    /// device's name, whose own log in `.folio/logs/` is no evidence; `declared`: what its
    /// `folio.yaml` says, ``declared(in:)``).
    package static func evidence(root: RootedFolder, device: String, declared: Bool?) -> String? {
        if let declared { return declared ? "folio.yaml says shared: true" : nil }
        if let marker = marker(above: root.path) { return marker }
        let logs = root[SharedHistory.folderName + "/logs"]
        if logs.namesIfListable().contains(where: { $0.hasSuffix(".log") && !$0.hasPrefix(".") && $0 != device + ".log" }) {
            return "another device's history is in \(SharedHistory.folderName)/logs"
        }
        return nil
    }

    /// The first sync tool's marker in the folder `path` (absolute) or a folder above it,
    /// said as `Syncthing's .stfolder in /home/ann/notes`.
    package static func marker(above path: String) -> String? {
        var folder = path
        while true {
            if let found = marker(in: folder) { return found + " in " + (folder.isEmpty ? "/" : folder) }
            guard let slash = folder.lastIndex(of: "/"), !folder.isEmpty else { return nil }
            folder = String(folder[..<slash])
        }
    }

    /// A sync tool's marker directly in `folder` (absolute; "" is the root).
    package static func marker(in folder: String) -> String? {
        func exists(_ name: String) -> Bool { (try? Syscall.linkStatus(folder + "/" + name)) != nil }
        if exists(".stfolder") { return "Syncthing's .stfolder" }
        if exists(".dropbox") || exists(".dropbox.cache") { return "Dropbox's .dropbox" }
        if exists(".sync/IgnoreList") { return "Resilio's .sync" }
        // A folder that cannot be listed holds no marker that could be seen.
        guard let listed = try? RootedFolder(folder.isEmpty ? "/" : folder) else { return nil }
        for name in listed.root.namesIfListable() where name.hasPrefix(".") {
            if (name.hasPrefix(".sync_") || name.hasPrefix("._sync_")) && name.hasSuffix(".db") { return "Nextcloud's or ownCloud's \(name)" }
            if name == ".owncloudsync.log" || name == ".nextcloudsync.log" { return "Nextcloud's or ownCloud's \(name)" }
        }
        return nil
    }
}
