// PUT /application/settings input: GitLab's parameter names, typed from JSON bodies or coerced
// from form fields ("true", "300"), each checked as GitLab checks it. The gateway parses with it
// and identity-service checks again (a caller other than the gateway gets the same answer).
import { APPLICATION_SETTING_NAMES, type ApplicationSettingName, type ApplicationSettings } from "./settings.ts";

/** A refused change: Grape's `{"error": …}` for a malformed parameter, the model's `{"message": {…}}` for a value out of range. */
export type SettingsChangeError = { error: string } | { message: Record<string, string[]> };

export type SettingsChangeResult = { ok: true; changes: Partial<ApplicationSettings> } | { ok: false; body: SettingsChangeError };

const VISIBILITY_SETTINGS = new Set<ApplicationSettingName>(["default_project_visibility", "default_group_visibility"]);
const BOOLEAN_SETTINGS = new Set<ApplicationSettingName>(["allow_local_requests_from_web_hooks_and_services", "user_default_external", "can_create_group"]);
/** Integer settings and their smallest (and largest) accepted value. */
const INTEGER_SETTINGS: Partial<Record<ApplicationSettingName, { min: number; max: number }>> = {
  default_branch_protection: { min: 0, max: 4 },
  notes_create_limit: { min: 0, max: 2_147_483_647 },
  max_attachment_size: { min: 1, max: 2_147_483_647 },
  default_projects_limit: { min: 0, max: 2_147_483_647 },
};

function booleanOf(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (["true", "1", "yes", "t", "y"].includes(t)) return true;
    if (["false", "0", "no", "f", "n"].includes(t)) return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return undefined;
}

function integerOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === "string" && /^-?\d{1,16}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** Git's check-ref-format rules for a branch name, without running git. */
export function isBranchName(name: string): boolean {
  if (!name || name.length > 255 || name.startsWith("-") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  if (name.endsWith(".lock") || name.includes("..") || name.includes("//") || name.includes("@{") || name === "@") return false;
  for (const ch of name) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || " ~^:?*[\\".includes(ch)) return false;
  }
  return !name.split("/").some((part) => part.startsWith("."));
}

/** The changes a request asks for, or the first refusal (unknown parameters are ignored, as Grape does). */
export function parseSettingsChanges(input: Record<string, unknown>): SettingsChangeResult {
  const changes: Record<string, unknown> = {};
  for (const name of APPLICATION_SETTING_NAMES) {
    if (!(name in input)) continue;
    const raw = input[name];
    if (VISIBILITY_SETTINGS.has(name)) {
      if (raw !== "private" && raw !== "internal" && raw !== "public") return { ok: false, body: { error: `${name} does not have a valid value` } };
      changes[name] = raw;
    } else if (BOOLEAN_SETTINGS.has(name)) {
      const b = booleanOf(raw);
      if (b === undefined) return { ok: false, body: { error: `${name} is invalid` } };
      changes[name] = b;
    } else if (name === "default_branch_name") {
      if (raw === null || raw === "") {
        changes[name] = null;
        continue;
      }
      if (typeof raw !== "string") return { ok: false, body: { error: `${name} is invalid` } };
      if (!isBranchName(raw.trim())) return { ok: false, body: { message: { default_branch_name: ["is not a valid branch name"] } } };
      changes[name] = raw.trim();
    } else {
      const range = INTEGER_SETTINGS[name];
      const n = integerOf(raw);
      if (!range || n === undefined) return { ok: false, body: { error: `${name} is invalid` } };
      if (name === "default_branch_protection" && (n < range.min || n > range.max))
        return { ok: false, body: { error: `${name} does not have a valid value` } };
      if (n < range.min)
        return { ok: false, body: { message: { [name]: [range.min === 0 ? "must be greater than or equal to 0" : "must be greater than 0"] } } };
      if (n > range.max) return { ok: false, body: { message: { [name]: [`must be less than or equal to ${range.max}`] } } };
      changes[name] = n;
    }
  }
  return { ok: true, changes: changes as Partial<ApplicationSettings> };
}
