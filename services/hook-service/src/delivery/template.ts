// custom_webhook_template: `{{field}}` / `{{nested.field}}` replaced by the payload's values.

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

function dig(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const part of path.trim().split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = Array.isArray(v) && /^\d+$/.test(part) ? v[Number(part)] : (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * Renders the template against the payload: strings are JSON-escaped without their quotes (so
 * `"{{ref}}"` stays a valid string), other values become their JSON, missing ones nothing.
 */
export function renderTemplate(template: string, payload: unknown): string {
  return template.replace(PLACEHOLDER, (_m, path: string) => {
    const v = dig(payload, path);
    if (v === undefined) return "";
    const json = JSON.stringify(v);
    return typeof v === "string" ? json.slice(1, -1) : json;
  });
}
