// malloc_trim is glibc's own (in <malloc.h>), which Swift's Glibc module does not export.
#include "CFolioSystem.h"

#if defined(__GLIBC__)
#include <malloc.h>
void folio_release_free_memory(void) { malloc_trim(0); }
// glibc gives each thread that meets a busy lock an arena of its own, up to eight per
// core; what is freed in one cannot serve another, so a long-lived process that
// allocates from several threads keeps pages it no longer needs.
void folio_limit_memory_arenas(int count) { mallopt(M_ARENA_MAX, count); }
#else
void folio_release_free_memory(void) {}
void folio_limit_memory_arenas(int count) { (void)count; }
#endif
