/// Why a sync stopped or could not do something, in words a person can act on.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is, for a caller to switch on.
    public enum Kind: Sendable, Equatable {
        /// A replica or folder that is not there, not a folder, or cannot be listed.
        case replicaMissing
        /// The two replicas are one folder, or one is inside the other.
        case replicasOverlap
        /// A replica is not the folder synced last time (another folder, a moved link).
        case replicaReplaced
        /// The sync would delete more than half of a side's files, or all of them.
        case massDeletion
        /// Another `folio` holds the state folder.
        case stateInUse
        /// The state's archive is damaged.
        case stateDamaged
        /// Reading or writing the state failed: a full disk, a permission.
        case stateIO
        /// A file to restore from the trash has another in its place.
        case restoreBlocked
        /// A file or folder (one to restore, one to list) could not be read or written.
        case fileIO

        /// Whether the failure is the disk's (a full disk, a permission) rather than a
        /// refusal to go on: `folio` exits 3 for these and 2 for the others.
        public var isIO: Bool { self == .stateIO || self == .fileIO }
    }

    /// What a refusal needs to go ahead anyway: a person's say-so, as a flag of the run
    /// that was refused (`--allow-mass-delete`), and when to give it.
    public struct GoAhead: Sendable, Equatable {
        /// When the refused sync is right after all: `If you really deleted them`.
        public var condition: String
        /// The flag that says so: `--allow-mass-delete`.
        public var flag: String

        /// A say-so given by `flag` when `condition` holds.
        public init(condition: String, flag: String) {
            (self.condition, self.flag) = (condition, flag)
        }
    }

    /// What happened and what to do.
    public var description: String
    /// Its kind.
    public var kind: Kind
    /// What happened, without what to do, for a refusal that says how to go ahead anyway.
    public var problem: String
    /// How to go ahead anyway, for a refusal (nil for any other failure).
    public var goAhead: GoAhead?

    /// An error of kind `kind`.
    public init(_ kind: Kind, _ description: String) {
        self.description = description
        self.kind = kind
        self.problem = description
    }

    /// A refusal of kind `kind`: `problem`, then "`condition`, run again with `flag`.".
    /// A command that runs the sync otherwise (`folio watch`) words the second part its
    /// own way from ``goAhead``.
    public init(_ kind: Kind, _ problem: String, goAhead: GoAhead) {
        self.init(kind, problem + " " + goAhead.condition + ", run again with " + goAhead.flag + ".")
        self.problem = problem
        self.goAhead = goAhead
    }
}
