// malloc_trim is glibc's own (in <malloc.h>), which Swift's Glibc module does not export.
#include "CFolioSystem.h"

#if defined(__GLIBC__)
#include <malloc.h>
void folio_release_free_memory(void) { malloc_trim(0); }
#else
void folio_release_free_memory(void) {}
#endif
