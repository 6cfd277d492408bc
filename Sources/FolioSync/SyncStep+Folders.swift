extension SyncStep {
    /// The path a step settles (for a rename, the old one).
    var path: SyncPath? {
        switch self {
        case .agree(let path), .forget(let path), .copy(let path, _), .delete(let path, _), .restore(let path, _), .merge(let path): path
        case .move(let from, _, _, _), .moveByID(let from, _, _): from
        }
    }
}
