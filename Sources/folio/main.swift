// The `folio` command: a thin layer over the libraries.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioSystem

// A watcher runs for weeks: one malloc arena, set before any thread starts, so that its
// memory follows what the folder holds (docs/performance.md, "Memory under churn").
if CommandLine.arguments.dropFirst().first == "watch" { Syscall.useOneMemoryArena() }

exit(await FolioCLI.run(Array(CommandLine.arguments.dropFirst())))
