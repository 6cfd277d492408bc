import FolioSystem

/// Where Folio keeps what it knows of a folder or a pair of replicas (archive, versions,
/// trash, lock), when no state folder is given.
package enum StateFolder {
    /// `$XDG_STATE_HOME/folio`, else `~/.local/state/folio` (`/tmp/.local/state/folio`
    /// without a `HOME`): each folder or pair gets a folder of its own in it.
    package static var home: String {
        (Syscall.environment(nonEmpty: "XDG_STATE_HOME") ?? (Syscall.environment("HOME") ?? "/tmp") + "/.local/state") + "/folio"
    }
}
