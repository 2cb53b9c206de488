#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: these wrap the settings healthetl uses.
   Call before the first connection opens. */

/* No memory statistics: drops a global mutex taken on every allocation. */
static inline int healthetl_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

