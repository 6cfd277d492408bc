/// What kind of directory entry a name is.
package enum EntryType: Sendable, Hashable {
    case directory, regular, symbolicLink, other, unknown
    /// A name that is not valid UTF-8 (whatever the entry is).
    case invalidName
}
