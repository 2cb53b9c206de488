import HealthETLSQLite

/// The store's directory: `healthetl.sqlite` and its sidecars, private to this user.
public typealias StoreDirectory = DatabaseDirectory
