import FolioFormat
import FolioModel

/// One change to a folder's records, as someone following the folder is told of it
/// (`folio watch`'s lines and JSON objects): a ``ChangeSet`` read against the store's
/// state, with the front-matter fields an update changed, which the change set cannot
/// say (the store keeps no copy of a record's fields from before). Made by
/// ``RecordChangeTracker``.
package enum RecordChangeEvent: Sendable, Hashable {
    /// A record moved with its content unchanged. `title` and `kind` are the record's
    /// at `to`: both nil when the store no longer holds one there, `kind` alone nil
    /// when its file does not parse.
    case moved(from: String, to: String, title: String?, kind: Kind?)
    /// A record is gone.
    case removed(path: String)
    /// A new record, valid.
    case added(path: String, title: String)
    /// A valid record changed: its title now, and the front-matter fields whose values
    /// changed (none: only its body did).
    case updated(path: String, title: String, changes: [FieldChange])
    /// A record added or changed whose file does not parse.
    case invalid(path: String, error: FormatError)
    /// `folio.yaml`'s settings changed.
    case settingsChanged

    /// A front-matter field whose value an update changed.
    package struct FieldChange: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The value before (nil: the field is new).
        package var old: YAMLValue?
        /// The value now (nil: the field was removed).
        package var new: YAMLValue?

        /// The field `key`, `old` before and `new` now.
        package init(key: String, old: YAMLValue?, new: YAMLValue?) { (self.key, self.old, self.new) = (key, old, new) }
    }
}
