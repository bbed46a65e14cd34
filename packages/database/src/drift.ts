// Compares a schema.prisma with the live database, so a test can prove that a
// service's hand-maintained migrations produce the tables its Prisma Client
// expects (we cannot run `prisma migrate diff`: no schema engine here).
// Deliberately coarse: tables, columns, nullability and type family only.
import pg from "pg";

export interface PrismaScalarField {
  /** Field name in schema.prisma. */
  name: string;
  /** Column name (`@map`) or the field name. */
  column: string;
  /** Type name as written, e.g. `String`, `Role`, `Unsupported`. */
  type: string;
  optional: boolean;
  list: boolean;
}

export interface PrismaTable {
  kind: "model" | "view";
  /** Model name in schema.prisma. */
  model: string;
  /** Table name (`@@map`) or the model name. */
  table: string;
  /** `@@schema` or undefined (= the connection's schema, public). */
  schema: string | undefined;
  fields: PrismaScalarField[];
}

export interface ParsedPrismaSchema {
  tables: PrismaTable[];
  /** Enum name → database type name (`@@map` or the enum name). */
  enums: Map<string, string>;
}

/** Strips `//` comments (including `///` doc comments) outside string literals. */
function stripComment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "/" && line[i + 1] === "/") {
      return line.slice(0, i);
    }
  }
  return line;
}

function stringArg(text: string, attribute: string): string | undefined {
  // Matches @map("x") / @map(name: "x"), likewise @@map and @@schema.
  // The leading guard keeps `@map` from matching inside `@@map`.
  const re = new RegExp(`(?:^|[^@\\w])${attribute}\\(\\s*(?:name\\s*:\\s*)?"((?:[^"\\\\]|\\\\.)*)"`);
  const m = re.exec(text);
  return m?.[1] === undefined ? undefined : JSON.parse(`"${m[1]}"`);
}

/** A small line-based parser for the subset of schema.prisma we compare. */
export function parsePrismaSchema(text: string): ParsedPrismaSchema {
  interface RawBlock {
    keyword: string;
    name: string;
    lines: string[];
  }
  const blocks: RawBlock[] = [];
  let current: RawBlock | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    if (!current) {
      const m = /^(model|view|enum|type|datasource|generator)\s+(\w+)\s*\{$/.exec(line);
      if (m) current = { keyword: m[1] ?? "", name: m[2] ?? "", lines: [] };
      continue;
    }
    if (line === "}") {
      blocks.push(current);
      current = undefined;
      continue;
    }
    current.lines.push(line);
  }
  if (current) throw new Error(`schema.prisma: block ${current.keyword} ${current.name} is not closed`);

  const enums = new Map<string, string>();
  const nonScalarTypes = new Set<string>(); // models, views and composite types
  for (const b of blocks) {
    if (b.keyword === "enum") {
      const mapped = b.lines.filter((l) => l.startsWith("@@")).map((l) => stringArg(l, "@@map"));
      enums.set(b.name, mapped.find((x) => x !== undefined) ?? b.name);
    } else if (b.keyword === "model" || b.keyword === "view" || b.keyword === "type") {
      nonScalarTypes.add(b.name);
    }
  }

  const tables: PrismaTable[] = [];
  // List relation fields, to find implicit many-to-many relations (join tables Prisma creates itself).
  const listRelations: { model: string; target: string; relation: string | undefined; schema: () => string | undefined }[] = [];
  for (const b of blocks) {
    if (b.keyword !== "model" && b.keyword !== "view") continue;
    const table: PrismaTable = { kind: b.keyword, model: b.name, table: b.name, schema: undefined, fields: [] };
    for (const line of b.lines) {
      if (line.startsWith("@@")) {
        table.table = stringArg(line, "@@map") ?? table.table;
        table.schema = stringArg(line, "@@schema") ?? table.schema;
        continue;
      }
      const m = /^(\w+)\s+(Unsupported\(\s*"(?:[^"\\]|\\.)*"\s*\)|\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!m) continue;
      const [, name = "", rawType = "", list, optional, rest = ""] = m;
      const type = rawType.startsWith("Unsupported") ? "Unsupported" : rawType;
      if (nonScalarTypes.has(type) || /@relation\b/.test(rest)) {
        if (list === "[]") {
          listRelations.push({ model: b.name, target: type, relation: stringArg(rest, "@relation"), schema: () => table.schema });
        }
        continue;
      }
      table.fields.push({
        name,
        column: stringArg(rest, "@map") ?? name,
        type,
        optional: optional === "?",
        list: list === "[]",
      });
    }
    tables.push(table);
  }

  // Both sides are lists => implicit m-n: table `_<relation>` (default name
  // `<A>To<B>`, models in alphabetical order) with NOT NULL columns A and B.
  const joinTables = new Set<string>();
  for (const r of listRelations) {
    const other = listRelations.find((o) => o !== r && o.model === r.target && o.target === r.model && o.relation === r.relation);
    if (!other) continue;
    const [first, second] = [r.model, r.target].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const name = `_${r.relation ?? `${first}To${second}`}`;
    if (joinTables.has(name)) continue;
    joinTables.add(name);
    const firstSide = r.model === first ? r : other;
    tables.push({
      kind: "model",
      model: `${first}<->${second} (implicit many-to-many)`,
      table: name,
      schema: firstSide.schema(),
      fields: ["A", "B"].map((c) => ({ name: c, column: c, type: "Unsupported", optional: false, list: false })),
    });
  }
  return { tables, enums };
}

// Acceptable PostgreSQL type names (pg_type.typname, i.e. udt_name) per Prisma
// scalar, including the native types Prisma allows via @db.*.
const UDT_FAMILIES: Record<string, readonly string[]> = {
  String: ["text", "varchar", "bpchar", "uuid", "xml", "inet", "bit", "varbit", "citext"],
  Int: ["int4", "int2", "oid"],
  BigInt: ["int8"],
  Boolean: ["bool"],
  DateTime: ["timestamp", "timestamptz", "date", "time", "timetz"],
  Json: ["jsonb", "json"],
  Float: ["float8", "float4"],
  Decimal: ["numeric", "money"],
  Bytes: ["bytea"],
};

interface DbColumn {
  nullable: boolean;
  dataType: string;
  /** Element type for arrays, else the type itself. */
  udt: string;
  isArray: boolean;
}

function qualified(schema: string, table: string): string {
  return schema === "public" ? `"${table}"` : `"${schema}"."${table}"`;
}

function describeDbType(c: DbColumn): string {
  if (c.isArray) return `${c.udt}[]`;
  return c.dataType === "USER-DEFINED" ? c.udt : c.dataType;
}

/**
 * Returns human-readable differences between `schemaPrismaText` and the
 * database at `databaseUrl` (tables/views of the `public` schema, plus any
 * `@@schema`s used; `_prisma_migrations` excluded). An empty array means no drift.
 *
 * Checked: tables both ways, columns both ways, nullability (not for list
 * fields, whose columns Prisma creates nullable, nor for views, which
 * PostgreSQL always reports as nullable), and the coarse type family.
 * Not checked: defaults, indexes, constraints, foreign keys, enum values.
 */
export async function findSchemaDrift(databaseUrl: string, schemaPrismaText: string): Promise<string[]> {
  const parsed = parsePrismaSchema(schemaPrismaText);
  const schemas = [...new Set(["public", ...parsed.tables.map((t) => t.schema ?? "public")])];

  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  let tableRows: { table_schema: string; table_name: string }[];
  let columnRows: {
    table_schema: string;
    table_name: string;
    column_name: string;
    is_nullable: string;
    data_type: string;
    udt_name: string;
  }[];
  try {
    // Partitions are implementation detail of their parent table, not tables of the model.
    tableRows = (
      await client.query(
        `SELECT t.table_schema, t.table_name
           FROM information_schema.tables t
          WHERE t.table_schema = ANY($1) AND t.table_type IN ('BASE TABLE', 'VIEW')
            AND t.table_name <> '_prisma_migrations'
            AND NOT EXISTS (
              SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = t.table_schema AND c.relname = t.table_name AND c.relispartition)`,
        [schemas],
      )
    ).rows;
    columnRows = (
      await client.query(
        `SELECT table_schema, table_name, column_name, is_nullable, data_type, udt_name
           FROM information_schema.columns
          WHERE table_schema = ANY($1) AND table_name <> '_prisma_migrations'`,
        [schemas],
      )
    ).rows;
  } finally {
    await client.end().catch(() => {});
  }

  const key = (schema: string, table: string) => `${schema}\u0000${table}`;
  const dbTables = new Map<string, Map<string, DbColumn>>();
  for (const t of tableRows) dbTables.set(key(t.table_schema, t.table_name), new Map());
  for (const c of columnRows) {
    const cols = dbTables.get(key(c.table_schema, c.table_name));
    if (!cols) continue;
    const isArray = c.data_type === "ARRAY";
    cols.set(c.column_name, {
      nullable: c.is_nullable === "YES",
      dataType: c.data_type,
      udt: isArray ? c.udt_name.replace(/^_/, "") : c.udt_name,
      isArray,
    });
  }

  const problems: string[] = [];
  const seen = new Set<string>();
  for (const t of parsed.tables) {
    const schema = t.schema ?? "public";
    const k = key(schema, t.table);
    seen.add(k);
    const name = qualified(schema, t.table);
    const cols = dbTables.get(k);
    if (!cols) {
      problems.push(`table ${name} (${t.kind} ${t.model}) is missing in the database`);
      continue;
    }
    const expected = new Set<string>();
    for (const f of t.fields) {
      expected.add(f.column);
      const where = `column ${name}."${f.column}" (${t.model}.${f.name})`;
      const col = cols.get(f.column);
      if (!col) {
        problems.push(`${where} is missing in the database`);
        continue;
      }
      const prismaType = `${f.type}${f.list ? "[]" : ""}${f.optional ? "?" : ""}`;
      if (!f.list && t.kind === "model" && f.optional !== col.nullable) {
        problems.push(
          f.optional
            ? `${where}: schema.prisma says optional (${prismaType}) but the database column is NOT NULL`
            : `${where}: schema.prisma says required (${prismaType}) but the database column is nullable`,
        );
      }
      if (f.type === "Unsupported") continue;
      const enumDbName = parsed.enums.get(f.type);
      const family = enumDbName !== undefined ? [enumDbName] : UDT_FAMILIES[f.type];
      if (!family) {
        problems.push(`${where}: unknown type ${f.type} in schema.prisma`);
        continue;
      }
      if (f.list !== col.isArray || !family.includes(col.udt)) {
        problems.push(`${where}: type mismatch, schema.prisma says ${prismaType}, database has ${describeDbType(col)}`);
      }
    }
    for (const column of cols.keys()) {
      if (!expected.has(column)) {
        problems.push(`column ${name}."${column}" exists in the database but not in schema.prisma (${t.model})`);
      }
    }
  }
  for (const t of tableRows) {
    if (!seen.has(key(t.table_schema, t.table_name))) {
      problems.push(`table ${qualified(t.table_schema, t.table_name)} exists in the database but not in schema.prisma`);
    }
  }
  return problems.sort();
}
