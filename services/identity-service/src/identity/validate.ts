import { VISIBILITIES } from "@quarry/gitlab";
import { badRequest, paramError } from "@quarry/grpc";

// GitLab's path rule: letters, digits, '_', '-', '.'; starts with a letter, digit or '_';
// does not end in '.git' or '.atom' and does not start or end with a special character.
const PATH_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
const RESERVED_TOP_LEVEL = new Set([
  "api",
  "admin",
  "dashboard",
  "explore",
  "groups",
  "help",
  "users",
  "projects",
  "-",
  "public",
  "assets",
  "uploads",
  "search",
  "oauth",
  "profile",
  "s",
  "404.html",
  "500.html",
]);

export function validatePath(path: string, field = "path", topLevel = false): void {
  if (!PATH_RE.test(path) || /[._-]$/.test(path) || /\.(git|atom)$/i.test(path) || path.includes("..") || path.length > 255) {
    throw badRequest({ [field]: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] });
  }
  if (topLevel && RESERVED_TOP_LEVEL.has(path.toLowerCase())) {
    throw badRequest({ [field]: [`${path} is a reserved name`] });
  }
}

/** Derives a URL path from a display name ("My Project" → "my-project"), as GitLab does. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-._]+$/g, "")
    .replace(/-{2,}/g, "-");
}

export function validateVisibility(value: string, field = "visibility"): void {
  if (!(VISIBILITIES as readonly string[]).includes(value)) throw paramError(`${field} does not have a valid value`);
}

export function validateName(name: string, field = "name"): void {
  if (!name.trim()) throw paramError(`${field} is empty`);
  if (name.length > 255) throw badRequest({ [field]: ["is too long (maximum is 255 characters)"] });
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function validateEmail(email: string): void {
  if (!EMAIL_RE.test(email)) throw badRequest({ email: ["is invalid"] });
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** Parses a YYYY-MM-DD date; empty → null. */
export function parseDate(value: string, field: string): Date | null {
  if (!value) return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (!DATE_RE.test(value) || Number.isNaN(d.getTime())) throw paramError(`${field} does not have a valid value`);
  return d;
}
