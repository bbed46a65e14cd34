// One webhook request (GitLab's WebHookService#execute): send, record the attempt, update the
// hook's auto-disabling state.
import http from "node:http";
import https from "node:https";
import { checkOutboundUrl, guardedLookup, OutboundUrlError } from "@quarry/outbound";
import { allowLocalRequests, type HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { ENABLED_STATE, openSecrets } from "../hook/hook-common.ts";
import { deliveryUrl } from "../hook/hook-input.ts";
import { maskedUrl } from "../hook/url-credentials.ts";
import { EVENT_HEADERS } from "./events.ts";
import { networkErrorMessage } from "./network-error.ts";
import { renderTemplate } from "./template.ts";

/** Response bodies are recorded up to this many characters (GitLab: 8 KB). */
export const RESPONSE_BODY_LIMIT = 8 * 1024;
export const REDACTED = "[REDACTED]";
/** Consecutive failures after which a hook is disabled temporarily, then permanently (WebHooks::AutoDisabling). */
export const TEMPORARILY_DISABLED_AFTER = 4;
export const PERMANENTLY_DISABLED_AFTER = 40;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 24 * 3600_000;

export interface Delivery {
  trigger: string;
  payload: unknown;
  idempotencyKey: string;
  eventUuid: string;
}

export interface ExecutionResult {
  /** HTTP status, or null when there was no response. */
  status: number | null;
  success: boolean;
  /** Network error, timeout or 5xx: worth another attempt. */
  retryable: boolean;
  /** Why there was no response. */
  error: string | null;
  logId: bigint;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(deps: HookDeps, url: URL, headers: Record<string, string>, body: string, verify: boolean): Promise<RawResponse> {
  const lib = url.protocol === "https:" ? https : http;
  const policy = { allowLocal: allowLocalRequests(deps) };
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        timeout: deps.settings.timeoutMs,
        rejectUnauthorized: verify,
        // The address connected to is the address checked: DNS rebinding cannot reach a private one.
        ...(policy.allowLocal ? {} : { lookup: guardedLookup(policy) }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT * 4) chunks.push(c);
          size += c.length;
        });
        res.on("end", () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("execution expired")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Records a failure or success in the hook's auto-disabling state. */
async function recordOutcome(deps: HookDeps, hookId: number, success: boolean): Promise<void> {
  if (success) {
    await deps.prisma.webHook.updateMany({
      where: { id: hookId, OR: [{ recentFailures: { gt: 0 } }, { backoffCount: { gt: 0 } }, { permanentlyDisabled: true }, { disabledUntil: { not: null } }] },
      data: ENABLED_STATE,
    });
    return;
  }
  await deps.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ recent_failures: number; backoff_count: number; permanently_disabled: boolean; disabled_until: Date | null }[]>`
      SELECT recent_failures, backoff_count, permanently_disabled, disabled_until FROM web_hooks WHERE id = ${hookId} FOR UPDATE`;
    const h = rows[0];
    // GitLab's backoff! counts only failures of an executable hook (not those of a test or resend while disabled).
    if (!h || h.permanently_disabled || (h.disabled_until && new Date(h.disabled_until) > new Date())) return;
    const failures = h.recent_failures + 1;
    if (failures >= PERMANENTLY_DISABLED_AFTER) {
      await tx.webHook.update({ where: { id: hookId }, data: { recentFailures: failures, permanentlyDisabled: true, disabledUntil: null } });
    } else if (failures >= TEMPORARILY_DISABLED_AFTER) {
      const backoff = Math.min(INITIAL_BACKOFF_MS * 2 ** h.backoff_count, MAX_BACKOFF_MS);
      await tx.webHook.update({
        where: { id: hookId },
        data: { recentFailures: failures, backoffCount: h.backoff_count + 1, disabledUntil: new Date(Date.now() + backoff) },
      });
    } else {
      await tx.webHook.update({ where: { id: hookId }, data: { recentFailures: failures } });
    }
  });
}

/**
 * Sends `delivery` to `hook` once and records the attempt. Never throws for delivery failures.
 * `retriesLeft`: the worker will try a retryable failure again, so it does not count towards
 * auto-disabling yet — a delivery counts once, by its final outcome, as one GitLab execution does.
 */
export async function executeHook(deps: HookDeps, hook: WebHook, delivery: Delivery, options: { retriesLeft?: boolean } = {}): Promise<ExecutionResult> {
  const secrets = openSecrets(deps, hook);
  const headers: Record<string, string> = {};
  hook.customHeaderKeys.forEach((k) => {
    if (secrets.headers[k] !== undefined) headers[k] = secrets.headers[k]!;
  });
  Object.assign(headers, {
    "Content-Type": "application/json",
    "User-Agent": deps.settings.userAgent,
    "Idempotency-Key": delivery.idempotencyKey,
    "X-Service-Event": EVENT_HEADERS[delivery.trigger] ?? "System Hook",
    "X-Service-Webhook-UUID": hook.uuid,
    "X-Service-Instance": deps.settings.instanceUrl,
    "X-Service-Event-UUID": delivery.eventUuid,
  });
  if (secrets.token) headers["X-Service-Token"] = secrets.token;
  const recordedHeaders: Record<string, string> = { ...headers, ...(secrets.token ? { "X-Service-Token": REDACTED } : {}) };
  for (const k of hook.customHeaderKeys) if (k in recordedHeaders) recordedHeaders[k] = REDACTED;

  const started = process.hrtime.bigint();
  let response: RawResponse | null = null;
  let error: string | null = null;
  let target: URL | undefined;
  try {
    const body = hook.customWebhookTemplate ? renderTemplate(hook.customWebhookTemplate, delivery.payload) : JSON.stringify(delivery.payload);
    // Re-checked at delivery: DNS may now point elsewhere than when the hook was saved.
    const checked = await checkOutboundUrl(deliveryUrl(hook.url, secrets), { allowLocal: allowLocalRequests(deps) });
    target = checked.url;
    response = await send(deps, target, headers, body, hook.enableSslVerification);
  } catch (err) {
    const blockedAtConnect = (err as { code?: string }).code === "EBLOCKED";
    error =
      err instanceof OutboundUrlError || blockedAtConnect
        ? `URL is blocked: ${(err as Error).message}`
        : target
          ? networkErrorMessage(err, target)
          : (err as Error).message || String(err);
  }
  const duration = Number(process.hrtime.bigint() - started) / 1e9;
  const success = response !== null && response.status >= 200 && response.status < 300;
  const log = await deps.prisma.webHookLog.create({
    data: {
      hookId: hook.id,
      trigger: delivery.trigger,
      // As recorded: variables stay placeholders, credentials are masked.
      url: maskedUrl(hook.url, secrets.credentials),
      requestHeaders: recordedHeaders,
      requestData: delivery.payload as object,
      responseHeaders: response?.headers ?? {},
      responseBody: response ? response.body.slice(0, RESPONSE_BODY_LIMIT) : "",
      responseStatus: response ? String(response.status) : "internal error",
      executionDuration: duration,
      internalErrorMessage: error,
      idempotencyKey: delivery.idempotencyKey,
      eventUuid: delivery.eventUuid,
    },
  });
  const blocked = error?.startsWith("URL is blocked") ?? false;
  const retryable = !success && !blocked && (response === null || response.status >= 500);
  if (!(retryable && options.retriesLeft)) await recordOutcome(deps, hook.id, success);
  return {
    status: response?.status ?? null,
    success,
    retryable,
    error,
    logId: log.id,
  };
}
