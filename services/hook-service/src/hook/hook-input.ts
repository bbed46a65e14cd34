// Validation and application of HookInput for CreateHook and UpdateHook (GitLab's WebHook
// validations: public URL, URL template keys, url_variables and custom_headers schemas, branch filter).
import { badRequest } from "@quarry/grpc";
import { checkOutboundUrl, OutboundUrlError } from "@quarry/outbound";
import type { HookInput__Output as HookInput } from "@quarry/proto/types/hook/v1/HookInput";
import { compileUserRegex, UntrustedRegexpError } from "@quarry/safe-regex";
import { allowLocalRequests, type HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { GROUP_SWITCHES, PROJECT_SWITCHES, type HookSecrets, type SwitchName } from "./hook-common.ts";
import { isMask, splitCredentials, withCredentials } from "./url-credentials.ts";

const VARIABLE_KEY = /^[A-Za-z0-9_]{1,100}$/;
/** RFC 7230 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,255}$/;
const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;
export const BRANCH_FILTER_STRATEGIES = ["wildcard", "regex", "all_branches"] as const;

/** Replaces `{key}` placeholders with the variables' values (GitLab's WebHook#interpolated_url). */
export function interpolateUrl(url: string, variables: Record<string, string>): string {
  return url.replace(PLACEHOLDER, (m, key: string) => variables[key] ?? m);
}

/** The URL a delivery goes to: variables filled in, credentials put back. */
export function deliveryUrl(url: string, secrets: Pick<HookSecrets, "variables" | "credentials">): string {
  return withCredentials(interpolateUrl(url, secrets.variables), secrets.credentials);
}

/** Keys a URL template uses that have no variable. */
export function missingKeys(url: string, variables: Record<string, string>): string[] {
  return [...url.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((k) => !(k in variables));
}

/** Attributes the hook will have after the input is applied (plain columns and secrets). */
export interface HookState {
  columns: {
    url: string;
    name: string;
    description: string;
    enableSslVerification: boolean;
    pushEventsBranchFilter: string | null;
    branchFilterStrategy: string;
    customWebhookTemplate: string | null;
    customHeaderKeys: string[];
    urlVariableKeys: string[];
  } & Partial<Record<SwitchName, boolean>>;
  secrets: HookSecrets;
}

type Errors = Record<string, string[]>;
const add = (e: Errors, field: string, msg: string) => {
  e[field] ??= [];
  e[field]!.push(msg);
};

function keyValues(list: { key: string; value: string }[], field: string, keyPattern: RegExp, errors: Errors): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of list) {
    if (!keyPattern.test(key) || value === "" || value.length > 2048 || key in out) {
      add(errors, field, "must be a valid json schema");
      break;
    }
    out[key] = value;
  }
  return out;
}

/**
 * Merges `input` into `current` (null when creating), validates the result and checks the URL
 * against the outbound policy. Throws INVALID_ARGUMENT `{"message": {field: [reasons]}}`.
 */
export async function applyHookInput(
  deps: Pick<HookDeps, "settings" | "applicationSettings">,
  input: HookInput,
  current: { hook: WebHook; secrets: HookSecrets } | null,
  kind: "project" | "group",
): Promise<HookState> {
  const errors: Errors = {};
  const was = current?.hook;
  // Credentials in a given URL are split off and sealed; the mask the API showed keeps the stored ones.
  const given = input.url === undefined ? null : splitCredentials(input.url);
  const keepCredentials = given?.credentials ? isMask(given.credentials) && Boolean(current?.secrets.credentials) : false;
  const url = given?.url ?? was?.url ?? "";
  const credentials = given && !keepCredentials ? given.credentials : (current?.secrets.credentials ?? null);
  const secrets: HookSecrets = {
    token: current?.secrets.token ?? null,
    headers: { ...(current?.secrets.headers ?? {}) },
    variables: { ...(current?.secrets.variables ?? {}) },
    ...(credentials ? { credentials } : {}),
  };
  let headerKeys = was?.customHeaderKeys ?? [];
  let variableKeys = was?.urlVariableKeys ?? [];

  // Given headers and variables are merged into the stored ones (GitLab's update_hook_params).
  if (!current || input.setCustomHeaders) {
    const given = keyValues(input.customHeaders, "custom_headers", HEADER_NAME, errors);
    secrets.headers = { ...secrets.headers, ...given };
    headerKeys = [...headerKeys, ...Object.keys(given).filter((k) => !headerKeys.includes(k))];
  }
  const givenVariables = !current || input.setUrlVariables ? keyValues(input.urlVariables, "url_variables", VARIABLE_KEY, errors) : {};
  if (input.token !== undefined) secrets.token = input.token === "" ? null : input.token;

  const credentialsChanged = JSON.stringify(secrets.credentials ?? null) !== JSON.stringify(current?.secrets.credentials ?? null);
  if (current && given && (given.url !== was!.url || credentialsChanged)) {
    // GitLab's reset_token / reset_url_variables: a new URL does not inherit secrets meant for the old one.
    if (input.token === undefined) secrets.token = null;
    if (Object.keys(givenVariables).length === 0) {
      secrets.variables = {};
      variableKeys = [];
    }
  }
  secrets.variables = { ...secrets.variables, ...givenVariables };
  variableKeys = [...variableKeys, ...Object.keys(givenVariables).filter((k) => !variableKeys.includes(k))];

  if (url.trim() === "") add(errors, "url", "can't be blank");
  else {
    const missing = missingKeys(url, secrets.variables);
    if (missing.length) add(errors, "url", `Invalid URL template. Missing keys: ${JSON.stringify(missing)}`);
    else {
      try {
        await checkOutboundUrl(deliveryUrl(url, secrets), { allowLocal: allowLocalRequests(deps) });
      } catch (err) {
        if (!(err instanceof OutboundUrlError)) throw err;
        // GitLab's PublicUrlValidator saves without DNS rebinding protection: a host that does not
        // resolve (yet) is accepted; one that resolves to a local address, or a literal local address,
        // is not. Every delivery checks again (delivery/execute.ts), so an unresolvable host is never sent to.
        if (err.reason !== "unresolvable") add(errors, "url", `is blocked: ${err.message}`);
      }
    }
  }

  const strategy = input.branchFilterStrategy ?? was?.branchFilterStrategy ?? "wildcard";
  if (!(BRANCH_FILTER_STRATEGIES as readonly string[]).includes(strategy)) add(errors, "branch_filter_strategy", "is not included in the list");
  let filter = input.pushEventsBranchFilter !== undefined ? input.pushEventsBranchFilter : (was?.pushEventsBranchFilter ?? "");
  if (strategy === "all_branches") filter = "";
  if (strategy === "regex" && filter) {
    // GitLab's UntrustedRegexpValidator: the filter runs with RE2, so RE2 must accept it.
    try {
      compileUserRegex(filter);
    } catch (err) {
      if (!(err instanceof UntrustedRegexpError)) throw err;
      add(errors, "push_events_branch_filter", `not valid RE2 syntax: ${err.reason}`);
    }
  }

  const name = input.name ?? was?.name ?? "";
  const description = input.description ?? was?.description ?? "";
  if (name.length > 255) add(errors, "name", "is too long (maximum is 255 characters)");
  if (description.length > 2048) add(errors, "description", "is too long (maximum is 2048 characters)");
  const template = input.customWebhookTemplate !== undefined ? input.customWebhookTemplate : (was?.customWebhookTemplate ?? "");
  if (template.length > 4096) add(errors, "custom_webhook_template", "is too long (maximum is 4096 characters)");

  if (Object.keys(errors).length) throw badRequest(errors);

  const columns: HookState["columns"] = {
    url,
    name,
    description,
    enableSslVerification: input.enableSslVerification ?? was?.enableSslVerification ?? true,
    pushEventsBranchFilter: filter ? filter : null,
    branchFilterStrategy: strategy,
    customWebhookTemplate: template ? template : null,
    customHeaderKeys: headerKeys,
    urlVariableKeys: variableKeys,
  };
  const switches: readonly SwitchName[] = kind === "group" ? [...PROJECT_SWITCHES, ...GROUP_SWITCHES] : PROJECT_SWITCHES;
  for (const s of switches) {
    const v = (input as unknown as Record<string, boolean | undefined>)[s];
    if (v !== undefined) columns[s] = v;
  }
  return { columns, secrets };
}
