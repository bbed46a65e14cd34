import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { findSchemaDrift, parsePrismaSchema } from "../src/drift.ts";
import { applyMigrations, migrationChecksum } from "../src/migrations.ts";
import { freshDatabase, stopServer } from "./helpers.ts";

const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const d of drops.splice(0)) await d();
});
afterAll(stopServer);

const SCHEMA = `// Quarry test schema
generator client {
  provider = "prisma-client"
  output   = "../src/generated/prisma"
}

datasource db {
  provider = "postgresql"
}

/// Roles a user can have
enum Role {
  ADMIN
  MEMBER

  @@map("user_role")
}

enum Visibility {
  private
  internal
  public
}

model User {
  id        Int                    @id @default(autoincrement())
  email     String                 @unique @db.VarChar(255)
  name      String? // display name; a "//" in a comment
  role      Role                   @default(MEMBER)
  roles     Role[]
  tags      String[]               @default([])
  createdAt DateTime               @default(now()) @map("created_at") @db.Timestamptz(6)
  settings  Json?
  avatar    Bytes?
  balance   Decimal                @default(0) @db.Decimal(12, 2)
  score     Float?
  bigId     BigInt                 @map(name: "big_id")
  active    Boolean                @default(true)
  homepage  String?                @default("http://example.com/{x}")
  location  Unsupported("point")?
  projects  Project[]
  profile   Profile?
  groups    Group[]
  following User[]                 @relation("follows")
  followers User[]                 @relation(name: "follows")

  @@map("users")
}

model Profile {
  userId Int    @id @map("user_id")
  user   User   @relation(fields: [userId], references: [id], onDelete: Cascade)
  bio    String @db.Text

  @@map(name: "profiles")
}

model Project {
  id         String     @id @default(uuid()) @db.Uuid
  ownerId    Int        @map("owner_id")
  owner      User       @relation(fields: [ownerId], references: [id])
  visibility Visibility @default(private)
  createdOn  DateTime   @map("created_on") @db.Date

  @@index([ownerId])
}

model Group {
  id      Int    @id @default(autoincrement())
  members User[]
}
`;

// What `prisma migrate dev` generates for SCHEMA.
const MIGRATION = `-- CreateEnum
CREATE TYPE "user_role" AS ENUM ('ADMIN', 'MEMBER');

-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('private', 'internal', 'public');

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "email" VARCHAR(255) NOT NULL,
    "name" TEXT,
    "role" "user_role" NOT NULL DEFAULT 'MEMBER',
    "roles" "user_role"[],
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settings" JSONB,
    "avatar" BYTEA,
    "balance" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "score" DOUBLE PRECISION,
    "big_id" BIGINT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "homepage" TEXT DEFAULT 'http://example.com/{x}',
    "location" point,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "profiles" (
    "user_id" INTEGER NOT NULL,
    "bio" TEXT NOT NULL,

    CONSTRAINT "profiles_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" UUID NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "visibility" "Visibility" NOT NULL DEFAULT 'private',
    "created_on" DATE NOT NULL,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Group" (
    "id" SERIAL NOT NULL,

    CONSTRAINT "Group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "_follows" (
    "A" INTEGER NOT NULL,
    "B" INTEGER NOT NULL,

    CONSTRAINT "_follows_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateTable
CREATE TABLE "_GroupToUser" (
    "A" INTEGER NOT NULL,
    "B" INTEGER NOT NULL,

    CONSTRAINT "_GroupToUser_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "Project_owner_id_idx" ON "Project"("owner_id");

-- AddForeignKey
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
`;

async function migratedDb(): Promise<string> {
  const d = await freshDatabase();
  drops.push(d.drop);
  const name = "20261121000000_init";
  await applyMigrations(d.url, [{ name, sql: MIGRATION, checksum: migrationChecksum(MIGRATION) }], { log: () => {} });
  return d.url;
}

async function exec(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("parsePrismaSchema", () => {
  it("extracts tables, mapped names, scalar fields and enums; skips relations", () => {
    const parsed = parsePrismaSchema(SCHEMA);
    expect(parsed.enums).toEqual(
      new Map([
        ["Role", "user_role"],
        ["Visibility", "Visibility"],
      ]),
    );
    expect(parsed.tables.map((t) => [t.model, t.table])).toEqual([
      ["User", "users"],
      ["Profile", "profiles"],
      ["Project", "Project"],
      ["Group", "Group"],
      ["Group<->User (implicit many-to-many)", "_GroupToUser"],
      ["User<->User (implicit many-to-many)", "_follows"],
    ]);
    const user = parsed.tables[0]!;
    expect(user.fields.map((f) => f.column)).toEqual([
      "id",
      "email",
      "name",
      "role",
      "roles",
      "tags",
      "created_at",
      "settings",
      "avatar",
      "balance",
      "score",
      "big_id",
      "active",
      "homepage",
      "location",
    ]);
    expect(user.fields.find((f) => f.name === "name")).toMatchObject({ type: "String", optional: true, list: false });
    expect(user.fields.find((f) => f.name === "roles")).toMatchObject({ type: "Role", optional: false, list: true });
    expect(user.fields.find((f) => f.name === "location")).toMatchObject({ type: "Unsupported", optional: true });
    expect(parsed.tables[1]!.fields.map((f) => f.name)).toEqual(["userId", "bio"]);
  });
});

describe("findSchemaDrift", () => {
  it("reports nothing when the migrations match the schema", async () => {
    const url = await migratedDb();
    expect(await findSchemaDrift(url, SCHEMA)).toEqual([]);
  });

  it("reports missing and extra columns and tables, nullability and type mismatches", async () => {
    const url = await migratedDb();
    await exec(
      url,
      `ALTER TABLE "users" DROP COLUMN "settings";
       ALTER TABLE "users" ADD COLUMN "surprise" TEXT;
       ALTER TABLE "users" ALTER COLUMN "name" SET NOT NULL;
       ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;
       ALTER TABLE "users" ALTER COLUMN "tags" DROP DEFAULT;
       ALTER TABLE "users" ALTER COLUMN "tags" TYPE INTEGER[] USING NULL;
       ALTER TABLE "Project" ALTER COLUMN "created_on" TYPE TEXT;
       ALTER TABLE "Project" ALTER COLUMN "visibility" DROP DEFAULT;
       ALTER TABLE "Project" ALTER COLUMN "visibility" TYPE "user_role" USING 'ADMIN';
       CREATE TABLE "extra" ("id" INTEGER);
       DROP TABLE "_follows";`,
    );
    const schema = `${SCHEMA}
model AuditEvent {
  id Int @id
  @@map("audit_events")
}
`;
    expect(await findSchemaDrift(url, schema)).toEqual([
      'column "Project"."created_on" (Project.createdOn): type mismatch, schema.prisma says DateTime, database has text',
      'column "Project"."visibility" (Project.visibility): type mismatch, schema.prisma says Visibility, database has user_role',
      'column "users"."email" (User.email): schema.prisma says required (String) but the database column is nullable',
      'column "users"."name" (User.name): schema.prisma says optional (String?) but the database column is NOT NULL',
      'column "users"."settings" (User.settings) is missing in the database',
      'column "users"."surprise" exists in the database but not in schema.prisma (User)',
      'column "users"."tags" (User.tags): type mismatch, schema.prisma says String[], database has int4[]',
      'table "_follows" (model User<->User (implicit many-to-many)) is missing in the database',
      'table "audit_events" (model AuditEvent) is missing in the database',
      'table "extra" exists in the database but not in schema.prisma',
    ]);
  });
});
