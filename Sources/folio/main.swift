// The `folio` command: a thin layer over the libraries.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(await FolioCLI.run(Array(CommandLine.arguments.dropFirst())))
