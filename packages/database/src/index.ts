export {
  applyMigrations,
  checksumMatches,
  compareMigrationNames,
  databaseUrlFor,
  dropDatabase,
  ensureDatabase,
  migrationChecksum,
  MigrationError,
  PRISMA_MIGRATE_LOCK_ID,
  readMigrationsDir,
} from "./migrations.ts";
export { isUniqueViolation } from "./errors.ts";
export { pagination } from "./pagination.ts";
export type { ApplyMigrationsOptions, Migration } from "./migrations.ts";
export { findSchemaDrift, parsePrismaSchema } from "./drift.ts";
export type { ParsedPrismaSchema, PrismaScalarField, PrismaTable } from "./drift.ts";
export { findFreePort, startEmbeddedPostgres } from "./embedded.ts";
export type { EmbeddedPostgresServer, StartEmbeddedPostgresOptions } from "./embedded.ts";
