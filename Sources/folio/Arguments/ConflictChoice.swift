import FolioMerge

/// `sync --conflict copy|markers`: what a sync does with a real conflict.
enum ConflictChoice: String, ArgumentChoice {
    /// Keep the newer version, the other saved beside it as a conflict copy.
    case copy
    /// Mark the conflict in the file, as git does.
    case markers

    /// The sync's policy for this choice.
    var policy: ConflictPolicy { self == .markers ? .markers : .copy }
}
