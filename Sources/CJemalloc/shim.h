// jemalloc, the executable's allocator: its malloc and free replace glibc's in the process.
#include <jemalloc/jemalloc.h>
