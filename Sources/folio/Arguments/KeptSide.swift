/// `resolve --keep file|copy`: which side of a conflict copy stays.
enum KeptSide: String, ArgumentChoice {
    case file, copy
}
