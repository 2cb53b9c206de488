#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: these wrap the settings healthetl uses.
   Call before the first connection opens. */

/* No memory statistics: drops a global mutex taken on every allocation. */
static inline int healthetl_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* sqlite3_db_config is variadic too: sets one on/off option of a connection (value 1 or 0, or -1
   to leave it) and returns SQLite's result code; the option's state afterwards goes to `state`. */
static inline int healthetl_sqlite3_db_config_flag(sqlite3 *db, int option, int value, int *state) {
    return sqlite3_db_config(db, option, value, state);
}
