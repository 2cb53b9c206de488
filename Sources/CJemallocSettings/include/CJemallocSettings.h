#ifndef HEALTHETL_JEMALLOC_SETTINGS_H
#define HEALTHETL_JEMALLOC_SETTINGS_H

/// jemalloc's settings for the executable, defined once for the whole process.
extern const char *malloc_conf;

#endif
