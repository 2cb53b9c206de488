-- Health Connect database schema as a FRESH database at user_version 14 creates it.
-- Reconstructed from AOSP packages/modules/HealthFitness source (mirror GrapheneOS/platform_packages_modules_HealthFitness,
-- see versions.md for files/commits). NOT a dump of a real database: spacing/whitespace of the
-- statements stored in sqlite_master differs (AOSP builds them as
-- "CREATE TABLE IF NOT EXISTS t (col TYPE, ..., FOREIGN KEY (c) REFERENCES p(c) ON DELETE CASCADE)").
--
-- Rules applied (cite: RecordHelper.getColumnInfo/getCreateTableRequest, InstantRecordHelper,
-- IntervalRecordHelper, SeriesRecordHelper, CreateTableRequest.getCreateCommand, StorageUtils):
--  * every record table: common columns, then helper-specific columns, then generated columns
--    written inline as "<name> INTEGER AS (<expr>)" (= VIRTUAL generated column), then the two
--    foreign keys device_info_id -> device_info_table(row_id), app_info_id -> application_info_table(row_id),
--    both "ON DELETE CASCADE".
--  * child tables: no common columns, no generated columns; FK to parent ON DELETE CASCADE.
--  * CreateTableRequest emits one index per FK: "CREATE INDEX  idx_<table>_<n> ON <table>(<cols>)"
--    (n = FK position, 0-based; note the double space in the AOSP string).
--  * Tables of record types 1-38 are created by DatabaseUpgradeHelper.createTablesForMinSupportedVersion
--    (generated columns inline). 39 (v11), 40 (v12) and 41 (v14) are created by the upgraders even on a
--    fresh install (HealthConnectDatabase.onCreate == onUpgrade(0, version)); 42 needs v16 (flag) and is
--    NOT present at user_version 14 - included at the end for reference only.
--  * Columns added by ALTER TABLE (also on fresh installs) are shown as ALTER statements after the
--    CREATE, in the order AOSP runs them.
--  * Generated columns are VIRTUAL: SQLite's PRAGMA table_info does NOT list them; use
--    PRAGMA table_xinfo (hidden = 2 for virtual generated columns). [SQLite behaviour, not AOSP]

-- ===================================================================== metadata tables

-- DeviceInfoHelper.getColumnInfo (storage/datatypehelpers/DeviceInfoHelper.java)
CREATE TABLE IF NOT EXISTS device_info_table (
  row_id INTEGER PRIMARY KEY,
  manufacturer TEXT,
  model TEXT,
  device_type INTEGER
);

-- AppInfoHelper.getColumnInfo (storage/datatypehelpers/AppInfoHelper.java)
-- record_types_used: comma-separated RecordTypeIdentifier ids (AppInfoHelper.getRecordTypesAsSet).
-- app_icon: PNG bytes (AppInfoHelper.encodeBitmap, Bitmap.CompressFormat.PNG).
CREATE TABLE IF NOT EXISTS application_info_table (
  row_id INTEGER PRIMARY KEY,
  package_name TEXT NOT NULL UNIQUE,
  app_name TEXT,
  app_icon BLOB,
  record_types_used TEXT
);

-- HealthDataCategoryPriorityHelper.getColumnInfo
-- app_id_priority_order: comma-separated application_info_table.row_id values, highest priority first.
CREATE TABLE IF NOT EXISTS health_data_category_priority_table (
  row_id INTEGER PRIMARY KEY,
  health_data_category INTEGER UNIQUE,
  app_id_priority_order TEXT NOT NULL
);

-- AccessLogsHelper.getColumnInfo  (emptied by the export; v15 adds medical_resource_type TEXT,
-- medical_data_source_accessed INTEGER via ALTER - AccessLogsHelper.getPhrAccessLogsColumnInfo)
CREATE TABLE IF NOT EXISTS access_logs_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL,
  record_type TEXT NOT NULL,        -- comma-separated record type ids
  access_time INTEGER NOT NULL,     -- epoch ms
  operation_type INTEGER NOT NULL
);

-- ChangeLogsHelper.getCreateTableRequest (emptied by the export; v20 alters it for PHR - flag)
CREATE TABLE IF NOT EXISTS change_logs_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  record_type INTEGER,
  app_id INTEGER,
  uuids BLOB NOT NULL,
  operation_type INTEGER,
  time INTEGER
);
CREATE INDEX  idx_change_logs_table_record_type ON change_logs_table(record_type);
CREATE INDEX  idx_change_logs_table_app_id ON change_logs_table(app_id);

-- Other tables created at v9 but not researched here (names from DatabaseUpgradeHelper.getInitialCreateTableRequests):
--   ActivityDateHelper, ChangeLogsRequestHelper, PreferenceHelper, MigrationEntityHelper, PriorityMigrationHelper tables.


-- [1] StepsRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS steps_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  count INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_steps_record_table_0 ON steps_record_table(device_info_id);
CREATE INDEX  idx_steps_record_table_1 ON steps_record_table(app_info_id);

-- [2] ActiveCaloriesBurnedRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS active_calories_burned_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  energy REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_active_calories_burned_record_table_0 ON active_calories_burned_record_table(device_info_id);
CREATE INDEX  idx_active_calories_burned_record_table_1 ON active_calories_burned_record_table(app_info_id);

-- [3] HydrationRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS hydration_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  volume REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_hydration_record_table_0 ON hydration_record_table(device_info_id);
CREATE INDEX  idx_hydration_record_table_1 ON hydration_record_table(app_info_id);

-- [4] ElevationGainedRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS elevation_gained_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  elevation REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_elevation_gained_record_table_0 ON elevation_gained_record_table(device_info_id);
CREATE INDEX  idx_elevation_gained_record_table_1 ON elevation_gained_record_table(app_info_id);

-- [5] FloorsClimbedRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS floors_climbed_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  floors REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_floors_climbed_record_table_0 ON floors_climbed_record_table(device_info_id);
CREATE INDEX  idx_floors_climbed_record_table_1 ON floors_climbed_record_table(app_info_id);

-- [6] WheelchairPushesRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS wheelchair_pushes_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  count INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_wheelchair_pushes_record_table_0 ON wheelchair_pushes_record_table(device_info_id);
CREATE INDEX  idx_wheelchair_pushes_record_table_1 ON wheelchair_pushes_record_table(app_info_id);

-- [7] DistanceRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS distance_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  distance REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_distance_record_table_0 ON distance_record_table(device_info_id);
CREATE INDEX  idx_distance_record_table_1 ON distance_record_table(app_info_id);

-- [8] NutritionRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS nutrition_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  unsaturated_fat REAL,
  potassium REAL,
  thiamin REAL,
  meal_type INTEGER,
  trans_fat REAL,
  manganese REAL,
  energy_from_fat REAL,
  caffeine REAL,
  dietary_fiber REAL,
  selenium REAL,
  vitamin_b6 REAL,
  protein REAL,
  chloride REAL,
  cholesterol REAL,
  copper REAL,
  iodine REAL,
  vitamin_b12 REAL,
  zinc REAL,
  riboflavin REAL,
  energy REAL,
  molybdenum REAL,
  phosphorus REAL,
  chromium REAL,
  total_fat REAL,
  calcium REAL,
  vitamin_c REAL,
  vitamin_e REAL,
  biotin REAL,
  vitamin_d REAL,
  niacin REAL,
  magnesium REAL,
  total_carbohydrate REAL,
  vitamin_k REAL,
  polyunsaturated_fat REAL,
  saturated_fat REAL,
  sodium REAL,
  folate REAL,
  monounsaturated_fat REAL,
  pantothenic_acid REAL,
  meal_name TEXT,
  iron REAL,
  vitamin_a REAL,
  folic_acid REAL,
  sugar REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_nutrition_record_table_0 ON nutrition_record_table(device_info_id);
CREATE INDEX  idx_nutrition_record_table_1 ON nutrition_record_table(app_info_id);

-- [9] TotalCaloriesBurnedRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS total_calories_burned_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  energy REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_total_calories_burned_record_table_0 ON total_calories_burned_record_table(device_info_id);
CREATE INDEX  idx_total_calories_burned_record_table_1 ON total_calories_burned_record_table(app_info_id);

-- [10] MenstruationPeriodRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS menstruation_period_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_menstruation_period_record_table_0 ON menstruation_period_record_table(device_info_id);
CREATE INDEX  idx_menstruation_period_record_table_1 ON menstruation_period_record_table(app_info_id);

-- [11] HeartRateRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS heart_rate_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS heart_rate_record_series_table (
  parent_key INTEGER,
  beats_per_minute INTEGER,
  epoch_millis INTEGER,
  FOREIGN KEY (parent_key) REFERENCES heart_rate_record_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_heart_rate_record_table_0 ON heart_rate_record_table(device_info_id);
CREATE INDEX  idx_heart_rate_record_table_1 ON heart_rate_record_table(app_info_id);
CREATE INDEX  idx_heart_rate_record_series_table_0 ON heart_rate_record_series_table(parent_key);

-- [12] CyclingPedalingCadenceRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS CyclingPedalingCadenceRecordTable (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS cycling_pedaling_cadence_record_table (
  parent_key INTEGER,
  epoch_millis INTEGER,
  revolutions_per_minute REAL,
  FOREIGN KEY (parent_key) REFERENCES CyclingPedalingCadenceRecordTable(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_CyclingPedalingCadenceRecordTable_0 ON CyclingPedalingCadenceRecordTable(device_info_id);
CREATE INDEX  idx_CyclingPedalingCadenceRecordTable_1 ON CyclingPedalingCadenceRecordTable(app_info_id);
CREATE INDEX  idx_cycling_pedaling_cadence_record_table_0 ON cycling_pedaling_cadence_record_table(parent_key);

-- [13] PowerRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS PowerRecordTable (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS power_record_table (
  parent_key INTEGER,
  power REAL,
  epoch_millis INTEGER,
  FOREIGN KEY (parent_key) REFERENCES PowerRecordTable(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_PowerRecordTable_0 ON PowerRecordTable(device_info_id);
CREATE INDEX  idx_PowerRecordTable_1 ON PowerRecordTable(app_info_id);
CREATE INDEX  idx_power_record_table_0 ON power_record_table(parent_key);

-- [14] SpeedRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS SpeedRecordTable (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS speed_record_table (
  parent_key INTEGER,
  speed REAL,
  epoch_millis INTEGER,
  FOREIGN KEY (parent_key) REFERENCES SpeedRecordTable(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_SpeedRecordTable_0 ON SpeedRecordTable(device_info_id);
CREATE INDEX  idx_SpeedRecordTable_1 ON SpeedRecordTable(app_info_id);
CREATE INDEX  idx_speed_record_table_0 ON speed_record_table(parent_key);

-- [15] StepsCadenceRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS StepsCadenceRecordTable (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS steps_cadence_record_table (
  parent_key INTEGER,
  rate REAL,
  epoch_millis INTEGER,
  FOREIGN KEY (parent_key) REFERENCES StepsCadenceRecordTable(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_StepsCadenceRecordTable_0 ON StepsCadenceRecordTable(device_info_id);
CREATE INDEX  idx_StepsCadenceRecordTable_1 ON StepsCadenceRecordTable(app_info_id);
CREATE INDEX  idx_steps_cadence_record_table_0 ON steps_cadence_record_table(parent_key);

-- [16] BasalMetabolicRateRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS basal_metabolic_rate_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  basal_metabolic_rate REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_basal_metabolic_rate_record_table_0 ON basal_metabolic_rate_record_table(device_info_id);
CREATE INDEX  idx_basal_metabolic_rate_record_table_1 ON basal_metabolic_rate_record_table(app_info_id);

-- [17] BodyFatRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS body_fat_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  percentage REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_body_fat_record_table_0 ON body_fat_record_table(device_info_id);
CREATE INDEX  idx_body_fat_record_table_1 ON body_fat_record_table(app_info_id);

-- [18] Vo2MaxRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS vo2_max_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  measurement_method INTEGER,
  vo2_milliliters_per_minute_kilogram REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_vo2_max_record_table_0 ON vo2_max_record_table(device_info_id);
CREATE INDEX  idx_vo2_max_record_table_1 ON vo2_max_record_table(app_info_id);

-- [19] CervicalMucusRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS cervical_mucus_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  sensation INTEGER,
  appearance INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_cervical_mucus_record_table_0 ON cervical_mucus_record_table(device_info_id);
CREATE INDEX  idx_cervical_mucus_record_table_1 ON cervical_mucus_record_table(app_info_id);

-- [20] BasalBodyTemperatureRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS basal_body_temperature_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  measurement_location INTEGER,
  temperature REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_basal_body_temperature_record_table_0 ON basal_body_temperature_record_table(device_info_id);
CREATE INDEX  idx_basal_body_temperature_record_table_1 ON basal_body_temperature_record_table(app_info_id);

-- [21] MenstruationFlowRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS menstruation_flow_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  flow INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_menstruation_flow_record_table_0 ON menstruation_flow_record_table(device_info_id);
CREATE INDEX  idx_menstruation_flow_record_table_1 ON menstruation_flow_record_table(app_info_id);

-- [22] OxygenSaturationRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS oxygen_saturation_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  percentage REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_oxygen_saturation_record_table_0 ON oxygen_saturation_record_table(device_info_id);
CREATE INDEX  idx_oxygen_saturation_record_table_1 ON oxygen_saturation_record_table(app_info_id);

-- [23] BloodPressureRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS blood_pressure_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  measurement_location TEXT NOT NULL,
  systolic REAL,
  diastolic REAL,
  body_position TEXT NOT NULL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_blood_pressure_record_table_0 ON blood_pressure_record_table(device_info_id);
CREATE INDEX  idx_blood_pressure_record_table_1 ON blood_pressure_record_table(app_info_id);

-- [24] HeightRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS height_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  height REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_height_record_table_0 ON height_record_table(device_info_id);
CREATE INDEX  idx_height_record_table_1 ON height_record_table(app_info_id);

-- [25] BloodGlucoseRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS blood_glucose_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  specimen_source TEXT NOT NULL,
  level REAL,
  relation_to_meal TEXT NOT NULL,
  meal_type TEXT NOT NULL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_blood_glucose_record_table_0 ON blood_glucose_record_table(device_info_id);
CREATE INDEX  idx_blood_glucose_record_table_1 ON blood_glucose_record_table(app_info_id);

-- [26] WeightRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS weight_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  weight REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_weight_record_table_0 ON weight_record_table(device_info_id);
CREATE INDEX  idx_weight_record_table_1 ON weight_record_table(app_info_id);

-- [27] LeanBodyMassRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS lean_body_mass_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  mass REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_lean_body_mass_record_table_0 ON lean_body_mass_record_table(device_info_id);
CREATE INDEX  idx_lean_body_mass_record_table_1 ON lean_body_mass_record_table(app_info_id);

-- [28] SexualActivityRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS sexual_activity_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  protection_used INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_sexual_activity_record_table_0 ON sexual_activity_record_table(device_info_id);
CREATE INDEX  idx_sexual_activity_record_table_1 ON sexual_activity_record_table(app_info_id);

-- [29] BodyTemperatureRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS body_temperature_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  measurement_location INTEGER,
  temperature REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_body_temperature_record_table_0 ON body_temperature_record_table(device_info_id);
CREATE INDEX  idx_body_temperature_record_table_1 ON body_temperature_record_table(app_info_id);

-- [30] OvulationTestRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS ovulation_test_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  result INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_ovulation_test_record_table_0 ON ovulation_test_record_table(device_info_id);
CREATE INDEX  idx_ovulation_test_record_table_1 ON ovulation_test_record_table(app_info_id);

-- [31] RespiratoryRateRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS respiratory_rate_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  rate REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_respiratory_rate_record_table_0 ON respiratory_rate_record_table(device_info_id);
CREATE INDEX  idx_respiratory_rate_record_table_1 ON respiratory_rate_record_table(app_info_id);

-- [32] BoneMassRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS bone_mass_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  mass REAL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_bone_mass_record_table_0 ON bone_mass_record_table(device_info_id);
CREATE INDEX  idx_bone_mass_record_table_1 ON bone_mass_record_table(app_info_id);

-- [33] RestingHeartRateRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS resting_heart_rate_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  beats_per_minute INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_resting_heart_rate_record_table_0 ON resting_heart_rate_record_table(device_info_id);
CREATE INDEX  idx_resting_heart_rate_record_table_1 ON resting_heart_rate_record_table(app_info_id);

-- [34] BodyWaterMassRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS body_water_mass_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  body_water_mass REAL NOT NULL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_body_water_mass_record_table_0 ON body_water_mass_record_table(device_info_id);
CREATE INDEX  idx_body_water_mass_record_table_1 ON body_water_mass_record_table(app_info_id);

-- [35] HeartRateVariabilityRmssdRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS heart_rate_variability_rmssd_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  heart_rate_variability_millis REAL NOT NULL,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_heart_rate_variability_rmssd_record_table_0 ON heart_rate_variability_rmssd_record_table(device_info_id);
CREATE INDEX  idx_heart_rate_variability_rmssd_record_table_1 ON heart_rate_variability_rmssd_record_table(app_info_id);

-- [36] IntermenstrualBleedingRecord  (instant; created v9 initial set)
CREATE TABLE IF NOT EXISTS intermenstrual_bleeding_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  time INTEGER,
  zone_offset INTEGER,
  local_date INTEGER,
  local_date_time INTEGER AS (time + 1000 * zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_intermenstrual_bleeding_record_table_0 ON intermenstrual_bleeding_record_table(device_info_id);
CREATE INDEX  idx_intermenstrual_bleeding_record_table_1 ON intermenstrual_bleeding_record_table(app_info_id);

-- [37] ExerciseSessionRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS exercise_session_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  notes TEXT,
  exercise_type INTEGER,
  title TEXT,
  has_route INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS exercise_route_table (
  parent_key INTEGER NOT NULL,
  timestamp_millis INTEGER NOT NULL,
  longitude REAL NOT NULL,
  latitude REAL NOT NULL,
  horizontal_accuracy REAL NOT NULL,
  vertical_accuracy REAL NOT NULL,
  altitude REAL NOT NULL,
  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS exercise_laps_table (
  parent_key INTEGER NOT NULL,
  lap_start_time INTEGER NOT NULL,
  lap_end_time INTEGER NOT NULL,
  lap_length REAL NOT NULL,
  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS exercise_segments_table (
  parent_key INTEGER NOT NULL,
  segment_start_time INTEGER NOT NULL,
  segment_end_time INTEGER NOT NULL,
  segment_type INTEGER NOT NULL,
  repetitions_count INTEGER NOT NULL,
  FOREIGN KEY (parent_key) REFERENCES exercise_session_record_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_exercise_session_record_table_0 ON exercise_session_record_table(device_info_id);
CREATE INDEX  idx_exercise_session_record_table_1 ON exercise_session_record_table(app_info_id);
CREATE INDEX  idx_exercise_route_table_0 ON exercise_route_table(parent_key);
CREATE INDEX  idx_exercise_laps_table_0 ON exercise_laps_table(parent_key);
CREATE INDEX  idx_exercise_segments_table_0 ON exercise_segments_table(parent_key);

-- [38] SleepSessionRecord  (interval; created v9 initial set)
CREATE TABLE IF NOT EXISTS sleep_session_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  notes TEXT,
  title TEXT,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS sleep_stages_table (
  parent_key INTEGER NOT NULL,
  stage_start_time INTEGER NOT NULL,
  stage_end_time INTEGER NOT NULL,
  stage_type INTEGER NOT NULL,
  FOREIGN KEY (parent_key) REFERENCES sleep_session_record_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_sleep_session_record_table_0 ON sleep_session_record_table(device_info_id);
CREATE INDEX  idx_sleep_session_record_table_1 ON sleep_session_record_table(app_info_id);
CREATE INDEX  idx_sleep_stages_table_0 ON sleep_stages_table(parent_key);

-- [39] SkinTemperatureRecord  (interval; created v11 (UPGRADE_TO_SKIN_TEMPERATURE))
CREATE TABLE IF NOT EXISTS skin_temperature_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  measurement_location INTEGER NOT NULL,
  baseline REAL,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS skin_temperature_delta_table (
  parent_key INTEGER,
  delta REAL NOT NULL,
  epoch_millis INTEGER NOT NULL,
  FOREIGN KEY (parent_key) REFERENCES skin_temperature_record_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_skin_temperature_record_table_0 ON skin_temperature_record_table(device_info_id);
CREATE INDEX  idx_skin_temperature_record_table_1 ON skin_temperature_record_table(app_info_id);
CREATE INDEX  idx_skin_temperature_delta_table_0 ON skin_temperature_delta_table(parent_key);

-- [40] PlannedExerciseSessionRecord  (interval; created v12 (UPGRADE_TO_PLANNED_EXERCISE_SESSIONS))
CREATE TABLE IF NOT EXISTS planned_exercise_session_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  notes TEXT,
  exercise_type INTEGER,
  title TEXT,
  has_explicit_time INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS planned_exercise_session_blocks_table (
  block_row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  block_parent_id INTEGER NOT NULL,
  block_description TEXT,
  repetitions INTEGER NOT NULL,
  FOREIGN KEY (block_parent_id) REFERENCES planned_exercise_session_record_table(row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS planned_exercise_session_steps_table (
  step_row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  step_parent_id INTEGER NOT NULL,
  step_description TEXT,
  category INTEGER NOT NULL,
  step_exercise_type INTEGER NOT NULL,
  FOREIGN KEY (step_parent_id) REFERENCES planned_exercise_session_blocks_table(block_row_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS planned_exercise_session_goals_table (
  goal_row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  goal_parent_id INTEGER NOT NULL,
  type_id INTEGER NOT NULL,
  goal_min BLOB,
  goal_max BLOB,
  FOREIGN KEY (goal_parent_id) REFERENCES planned_exercise_session_steps_table(step_row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_planned_exercise_session_record_table_0 ON planned_exercise_session_record_table(device_info_id);
CREATE INDEX  idx_planned_exercise_session_record_table_1 ON planned_exercise_session_record_table(app_info_id);
CREATE INDEX  idx_planned_exercise_session_blocks_table_0 ON planned_exercise_session_blocks_table(block_parent_id);
CREATE INDEX  idx_planned_exercise_session_steps_table_0 ON planned_exercise_session_steps_table(step_parent_id);
CREATE INDEX  idx_planned_exercise_session_goals_table_0 ON planned_exercise_session_goals_table(goal_parent_id);
-- v12 upgrader then runs (DatabaseUpgradeHelper.applyPlannedExerciseDatabaseUpgrade):
--   PlannedExerciseSessionRecordHelper.getAlterTableRequestForPlannedExerciseFeature()
--   ExerciseSessionRecordHelper.getAlterTableRequestForPlannedExerciseFeature()
-- AlterTableRequest appends " REFERENCES <t>(<c>) ON DELETE SET NULL" for columns registered with
-- addForeignKeyConstraint. These two columns therefore sit AFTER the generated columns, in every database.
ALTER TABLE planned_exercise_session_record_table ADD COLUMN completed_session_id BLOB NULL REFERENCES exercise_session_record_table(uuid) ON DELETE SET NULL;
ALTER TABLE exercise_session_record_table ADD COLUMN planned_exercise_session_id BLOB NULL REFERENCES planned_exercise_session_record_table(uuid) ON DELETE SET NULL;

-- [41] MindfulnessSessionRecord  (interval; created v14 (UPGRADE_TO_MINDFULNESS_SESSION))
CREATE TABLE IF NOT EXISTS mindfulness_session_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  type INTEGER,
  title TEXT,
  notes TEXT,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_mindfulness_session_record_table_0 ON mindfulness_session_record_table(device_info_id);
CREATE INDEX  idx_mindfulness_session_record_table_1 ON mindfulness_session_record_table(app_info_id);

/* ===== reference only: not part of user_version 14 =====

-- [42] ActivityIntensityRecord  (interval; created v16 (UPGRADE_TO_ACTIVITY_INTENSITY, behind db flag) -- NOT IN A v14 DATABASE)
CREATE TABLE IF NOT EXISTS activity_intensity_record_table (
  row_id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid BLOB NOT NULL UNIQUE,
  last_modified_time INTEGER,
  client_record_id TEXT,
  client_record_version TEXT,
  device_info_id INTEGER,
  app_info_id INTEGER,
  recording_method INTEGER,
  dedupe_hash BLOB UNIQUE,
  start_time INTEGER,
  start_zone_offset INTEGER,
  end_time INTEGER,
  end_zone_offset INTEGER,
  local_date INTEGER,
  type INTEGER,
  local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
  local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE
);
CREATE INDEX  idx_activity_intensity_record_table_0 ON activity_intensity_record_table(device_info_id);
CREATE INDEX  idx_activity_intensity_record_table_1 ON activity_intensity_record_table(app_info_id);
*/

-- Later, flag-gated (not in v14): v19 ExerciseSessionRecordHelper.getAlterTableRequestForRateOfPerceivedExertion():
--   ALTER TABLE exercise_session_record_table ADD COLUMN session_rate_of_perceived_exertion REAL;
--   (v19 also changes exercise segments - not researched).
