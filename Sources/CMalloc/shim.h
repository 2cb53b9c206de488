// glibc's allocator options (mallopt), which the Glibc module does not export.
#include <malloc.h>
