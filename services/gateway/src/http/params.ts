import type { Request } from "express";
import { z } from "zod";
import { ApiError, invalid, missing } from "./errors.ts";

/**
 * Parameter schemas. Every route declares its inputs with these; values may arrive as JSON,
 * form fields, multipart fields or the query string, so scalars are coerced from strings.
 */
export const p = {
  string: () => z.string(),
  /** A non-negative integer (ids, levels, page numbers). */
  int: () => z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number).pipe(z.number().int()),
  /** GitLab booleans: true/false/1/0 (any case), also t/f/yes/no. */
  bool: () =>
    z.union([z.boolean(), z.string(), z.number()]).transform((v, ctx) => {
      const s = String(v).toLowerCase();
      if (["true", "1", "t", "yes", "on"].includes(s)) return true;
      if (["false", "0", "f", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: "invalid boolean" });
      return z.NEVER;
    }),
  enum: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
  /** An array from JSON, `a[]=x&a[]=y`, or a comma-separated string. */
  array: <T extends z.ZodTypeAny>(item: T) =>
    z
      .union([z.array(z.any()), z.string(), z.record(z.string(), z.any())])
      .transform((v) => (Array.isArray(v) ? v : typeof v === "string" ? (v === "" ? [] : v.split(",")) : Object.values(v)))
      .pipe(z.array(item)),
  /** A JSON object (e.g. a runner's `info`). */
  object: () => z.record(z.string(), z.unknown()),
  date: () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  datetime: () => z.string().refine((s) => !Number.isNaN(Date.parse(s))),
};

type Shape = Record<string, z.ZodTypeAny>;
type Output<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/**
 * Validates `input` against a shape, collecting GitLab-style errors: every missing required
 * parameter first (`"name is missing, path is missing"`), then every invalid one.
 * Unknown parameters are ignored, as Grape does.
 */
export function parseParams<S extends Shape>(shape: S, input: Record<string, unknown>): Output<S> {
  const absent: string[] = [];
  const bad: string[] = [];
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
    if (r.success) out[name] = r.data;
    else bad.push(name);
  }
  if (absent.length) throw missing(absent);
  if (bad.length) throw invalid(bad);
  return out as Output<S>;
}

/** Query string and body merged (body wins), as Grape presents `params`. */
export function requestParams(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body };
}

/** Parses path params, query string and body of a request with one shape. */
export function params<S extends Shape>(req: Request, shape: S): Output<S> {
  return parseParams(shape, { ...requestParams(req), ...req.params });
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

/** The shared paging inputs. */
export const pageShape = {
  page: p.int().pipe(z.number().min(1)).optional(),
  per_page: p.int().pipe(z.number().min(1)).optional(),
};

export { z };
