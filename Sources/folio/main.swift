// The `folio` command: a thin layer over the libraries.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(await Folio.run(Array(CommandLine.arguments.dropFirst())))
