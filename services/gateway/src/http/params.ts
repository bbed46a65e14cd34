import type { Request, RequestHandler } from "express";
import { isPositiveInt32, MAX_INT32, notFoundMessage, numericRowId, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { z } from "zod";
import { ApiError, missing, notFound } from "./errors.ts";

/**
 * GitLab's size limits, enforced here so that no oversized value reaches a service (and its
 * error messages) at all. Free text GitLab does not bound (commit and tag messages, file
 * content) is bounded by the body size only.
 */
export const LIMITS = {
  /** API::Validations::Validators::GitRef: a ref or revision is 1..1024 characters. */
  ref: 1024,
  /** File paths: GitLab sets no bound of its own, the file systems under Git do (PATH_MAX). */
  filePath: 4096,
  /** ActiveRecord `length: { maximum: 255 }`: names, titles, paths, usernames, e-mails, profile fields. */
  name: 255,
  /** Project#description. */
  projectDescription: 2000,
  /** Gitlab::Search::Params::SEARCH_CHAR_LIMIT: search terms, filters, patterns. */
  search: 4096,
} as const;

/**
 * How parseParams reports a value a schema refuses (carried in the zod issue's params):
 * a Grape validation message (`"<name> should be a valid reference path"`), an ActiveRecord
 * validation error (`{"message":{"<name>":["is too long …"]}}`), or a record that cannot exist
 * (an id beyond PostgreSQL's integer: `404 <What> Not Found`).
 */
type Verdict = { kind: "param"; text: string } | { kind: "model"; field: string; text: string } | { kind: "notFound"; message: string };

const refuse = (verdict: Verdict) => ({ code: "custom" as const, message: verdict.kind, params: { verdict } });

/** A string of at most `max` characters; longer ones get `verdict`. */
const bounded = (max: number, verdict: Verdict) =>
  z.string().superRefine((s, ctx) => {
    if (s.length > max) ctx.addIssue(refuse(verdict));
  });

const integer = () =>
  z
    .union([z.number(), z.string().regex(/^-?\d+$/)])
    .transform(Number)
    .pipe(z.number().int());

/**
 * The schema `make` builds for `key`, built once: routes declare their shapes inside their
 * handlers, and building zod 4 schemas is the costly part of parsing (a request's worth of
 * `p.bool()`s would otherwise be built anew each time). Zod schemas are immutable, so sharing is safe.
 */
function once<A extends unknown[], T>(make: (...args: A) => T): (...args: A) => T {
  const built = new Map<string, T>();
  return (...args: A) => {
    const key = args.length ? JSON.stringify(args) : "";
    let schema = built.get(key);
    if (schema === undefined) {
      schema = make(...args);
      built.set(key, schema);
    }
    return schema;
  };
}

const enumOf = once((values: readonly [string, ...string[]]) => z.enum(values));

/**
 * Parameter schemas. Every route declares its inputs with these; values may arrive as JSON,
 * form fields, multipart fields or the query string, so scalars are coerced from strings.
 * Those taking no schema argument are built once per distinct argument list (`once`).
 */
export const p = {
  string: once(() => z.string()),
  /** An integer a service can take (PostgreSQL's integer range): levels, counts, timeouts. */
  int: once(() =>
    integer().pipe(
      z
        .number()
        .min(-MAX_INT32 - 1)
        .max(MAX_INT32),
    ),
  ),
  /**
   * A record id: any integer is well-formed (as Grape's Integer), but one outside 1..2^31-1
   * names no record, so it is `404 <what> Not Found` (GitLab's bare `404 Not found` without
   * `what`, as for records found with find_by!) before any service is asked.
   */
  id: once((what?: string) =>
    integer().superRefine((n, ctx) => {
      if (!isPositiveInt32(n)) ctx.addIssue(refuse({ kind: "notFound", message: what ? notFoundMessage(what) : RECORD_NOT_FOUND_MESSAGE }));
    }),
  ),
  /** A branch, tag, revision or ref pattern (GitLab's git_ref validator: at most 1024 characters). */
  ref: once((name: string) => bounded(LIMITS.ref, { kind: "param", text: `${name} should be a valid reference path` })),
  /** A path inside a repository. */
  filePath: once((name: string) => bounded(LIMITS.filePath, { kind: "param", text: `${name} should be a valid file path` })),
  /** A name, title, path or other model attribute with a length limit (255 unless given). */
  name: once((name: string, max: number = LIMITS.name) => bounded(max, { kind: "model", field: name, text: `is too long (maximum is ${max} characters)` })),
  /** A search term or filter (Gitlab::Search::Params' limit, in the words of GitLab's Limit validator). */
  searchTerm: once((name: string) => bounded(LIMITS.search, { kind: "param", text: `${name} must be less than ${LIMITS.search} characters` })),
  /** GitLab booleans: true/false/1/0 (any case), also t/f/yes/no. */
  bool: once(() =>
    z.union([z.boolean(), z.string(), z.number()]).transform((v, ctx) => {
      const s = String(v).toLowerCase();
      if (["true", "1", "t", "yes", "on"].includes(s)) return true;
      if (["false", "0", "f", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: "invalid boolean" });
      return z.NEVER;
    }),
  ),
  enum: <const T extends readonly [string, ...string[]]>(values: T) => enumOf(values) as z.ZodEnum<{ [K in T[number]]: K }>,
  /** An array from JSON, `a[]=x&a[]=y`, or a comma-separated string. */
  array: <T extends z.ZodTypeAny>(item: T) =>
    z
      .union([z.array(z.any()), z.string(), z.record(z.string(), z.any())])
      .transform((v) => (Array.isArray(v) ? v : typeof v === "string" ? (v === "" ? [] : v.split(",")) : Object.values(v)))
      .pipe(z.array(item)),
  /** A JSON object (e.g. a runner's `info`). */
  object: once(() => z.record(z.string(), z.unknown())),
  date: once(() => z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
  datetime: once(() => z.string().refine((s) => !Number.isNaN(Date.parse(s)))),
};

export type Shape = Record<string, z.ZodTypeAny>;
type Output<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/**
 * Validates `input` against a shape, collecting GitLab-style errors: every missing required
 * parameter first (`"name is missing, path is missing"`), then every invalid one.
 * Unknown parameters are ignored, as Grape does.
 */
export function parseParams<S extends Shape>(shape: S, input: Record<string, unknown>): Output<S> {
  const absent: string[] = [];
  const bad: string[] = [];
  const model: Record<string, string[]> = {};
  let unknownRecord: string | undefined;
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const raw = input[name] ?? input[`${name}[]`];
    if (raw === undefined || raw === null) {
      const r = schema.safeParse(undefined);
      if (r.success) out[name] = r.data;
      else absent.push(name);
      continue;
    }
    const r = schema.safeParse(raw);
    if (r.success) {
      out[name] = r.data;
      continue;
    }
    const verdict = r.error.issues.map((i) => (i as { params?: { verdict?: Verdict } }).params?.verdict).find((v) => v !== undefined);
    if (verdict?.kind === "model") {
      model[verdict.field] ??= [];
      model[verdict.field]!.push(verdict.text);
    } else if (verdict?.kind === "notFound") unknownRecord ??= verdict.message;
    else bad.push(verdict?.kind === "param" ? verdict.text : `${name} does not have a valid value`);
  }
  if (absent.length) throw missing(absent);
  if (bad.length) throw new ApiError(400, { error: bad.join(", ") });
  if (Object.keys(model).length) throw new ApiError(400, { message: model });
  if (unknownRecord) throw new ApiError(404, { message: unknownRecord });
  return out as Output<S>;
}

/** Query string and body merged (body wins), as Grape presents `params`. */
export function requestParams(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body };
}

/** Whether a path id is a number no record can have (beyond PostgreSQL's integer, or not positive). */
export const impossibleId = (raw: string): boolean => numericRowId(raw) === 0;

/**
 * For routers mounted at `/<things>/:id`: a numeric `:id` no record can have is `404 <what> Not
 * Found` at once (a name or full path in `:id` is looked up as it is).
 */
export const existingId =
  (what: string): RequestHandler =>
  (req, _res, next) =>
    next(impossibleId(String(req.params.id)) ? notFound(what) : undefined);

/**
 * Marks a request made up by the OpenAPI generator (openapi/describe.ts) with the list that params()
 * then adds each shape it is given to (the request is parsed as any other). No client can set a
 * symbol key.
 */
export const DESCRIBE = Symbol("quarry.describe");

/** Parses path params, query string and body of a request with one shape. */
export function params<S extends Shape>(req: Request, shape: S): Output<S> {
  (req as { [DESCRIBE]?: Shape[] })[DESCRIBE]?.push(shape);
  return parseParams(shape, { ...requestParams(req), ...req.params });
}

/**
 * Declares, before a route's handler, the shape it will parse: for handlers that must ask a service
 * first (authorization: GitLab's 404 comes before its 400), which the OpenAPI generator's describing
 * never gets past. Passes every request on; the handler still parses with params(req, shape).
 */
export function declareParams(shape: Shape): RequestHandler {
  return (req, _res, next) => {
    (req as { [DESCRIBE]?: Shape[] })[DESCRIBE]?.push(shape);
    next();
  };
}

/** Grape's `allow_blank: false`: `"<name> is empty"` for each given parameter that is a blank string. */
export function assertNotBlank(values: Record<string, unknown>, names: readonly string[]): void {
  const blank = names.filter((n) => typeof values[n] === "string" && !(values[n] as string).trim());
  if (blank.length) throw new ApiError(400, { error: blank.map((n) => `${n} is empty`).join(", ") });
}

/**
 * A `*name` path parameter (branch, tag, file path, sha): express hands it over as segments when
 * the client sent slashes (`feature/x`) and as one string when it sent `%2F`; both mean the same.
 */
export function wildcardParam(req: Request, name: string): string {
  const raw = req.params[name] as unknown;
  return Array.isArray(raw) ? raw.join("/") : String(raw);
}

/** A ref in the path (`*branch`, `*tag_name`, `*sha`): one longer than a ref can be names nothing (`404 <what> Not Found`). */
export function refParam(req: Request, name: string, what: string): string {
  const ref = wildcardParam(req, name);
  if (ref.length > LIMITS.ref) throw notFound(what);
  return ref;
}

/** A repository path in the path (`*file_path`): one longer than a path can be names nothing. */
export function filePathParam(req: Request, name: string, what = "File"): string {
  const path = wildcardParam(req, name);
  if (path.length > LIMITS.filePath) throw notFound(what);
  return path;
}

/**
 * The shared paging inputs: any positive integer, as Grape's Integer; pageRequest brings them
 * into the range the services take (a page beyond the last is an empty page, never page 1).
 */
export const pageShape = {
  page: integer().pipe(z.number().min(1)).optional(),
  per_page: integer().pipe(z.number().min(1)).optional(),
};

export { z };
