import FolioMerge

/// `merge-file --diff-algorithm myers|minimal|histogram`: git's names, which are the cases'.
extension DiffAlgorithm: ArgumentChoice {}
