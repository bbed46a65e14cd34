import type { Request } from "express";

/**
 * Array-of-hash parameters sent as `name[][key]=…` form fields (or in the query string), grouped
 * the way Rack does it: a key already present in the last element starts a new element. So
 * `actions[][action]=create&actions[][file_path]=a&actions[][action]=delete&actions[][file_path]=b`
 * is two actions. Returns null when the request sends no such fields (body before query string,
 * as with the other parameters).
 */
export function formHashArray(req: Request, name: string): Record<string, string>[] | null {
  const query = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "";
  return (req.rawForm && parseHashArray(req.rawForm.toString("utf8"), name)) ?? parseHashArray(query, name);
}

/** Rack's grouping of `name[][key]` pairs in an urlencoded string (see formHashArray). */
export function parseHashArray(encoded: string, name: string): Record<string, string>[] | null {
  const prefix = `${name}[][`;
  const out: Record<string, string>[] = [];
  for (const [key, value] of new URLSearchParams(encoded)) {
    if (!key.startsWith(prefix) || !key.endsWith("]")) continue;
    const field = key.slice(prefix.length, -1);
    if (!field || field.includes("[") || field.includes("]")) continue;
    const last = out[out.length - 1];
    if (!last || Object.hasOwn(last, field)) out.push({ [field]: value });
    else last[field] = value;
  }
  return out.length ? out : null;
}
