import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Gitlab } from "@gitbeaker/rest";
import { dropDatabase } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { testPostgresServer } from "@quarry/testing";
import { expect } from "vitest";
import { startStack, type RunningStack, type StackOptions } from "../src/stack.ts";

export const ROOT_TOKEN = "glpat-test-root-token-0123456789";
const SERVICES = ["identity", "repo", "ci", "mirror", "hook", "collab", "error_tracking", "activity"];

export interface TestStack extends RunningStack {
  rootToken: string;
  api: (path: string, init?: RequestInit & { token?: string | null; json?: unknown }) => Promise<Response>;
  gitlab: (token?: string) => InstanceType<typeof Gitlab>;
  /** Stops the stack, keeping its databases and data directory (for restart tests). */
  halt(): Promise<void>;
  /** Stops and removes everything. */
  destroy(): Promise<void>;
  options: { dataDir: string; prefix: string; serverUrl: string };
}

/** Starts the whole stack in-process on real PostgreSQL, with a fixed root token. */
export async function startTestStack(
  reuse?: { dataDir: string; prefix: string; serverUrl: string },
  extra: Partial<
    Pick<
      StackOptions,
      | "jobRequestWaitMs"
      | "maxAttachmentBytes"
      | "ciSettings"
      | "objectStore"
      | "runner"
      | "threads"
      | "log"
      | "runnerPollIntervalMs"
      | "allowLocalRequests"
      | "hookSettings"
      | "notesCreateLimit"
      | "smtpUrl"
      | "ssh"
      | "dnsServers"
      | "storages"
      | "storageMoveHooks"
      | "authCacheTtlMs"
    >
  > = {},
): Promise<TestStack> {
  const serverUrl = reuse?.serverUrl ?? (await testPostgresServer());
  const prefix = reuse?.prefix ?? `qt_${randomBytes(4).toString("hex")}`;
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "quarry-stack-"));
  const stack = await startStack({
    dataDir,
    host: "127.0.0.1",
    port: 0,
    databaseServerUrl: serverUrl,
    databasePrefix: prefix,
    rootToken: ROOT_TOKEN,
    authCacheTtlMs: 10_000,
    log: silentLogger(),
    // Only the end-to-end CI tests run the built-in runner.
    runner: false,
    // Webhook receivers and mirror remotes in tests listen on loopback; tests of the refusal turn this off.
    allowLocalRequests: true,
    // QUARRY_TEST_THREADS=1 runs the suite on the embedded mode's threads (the gateway and repo-service in workers).
    threads: process.env.QUARRY_TEST_THREADS === "1",
    ...extra,
  });
  const api: TestStack["api"] = (p, init = {}) => {
    const headers = new Headers(init.headers);
    const token = init.token === undefined ? ROOT_TOKEN : init.token;
    if (token) headers.set("PRIVATE-TOKEN", token);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(`${stack.url}/api/v4${p}`, { ...init, headers, body });
  };
  const halt = () => stack.stop();
  return {
    ...stack,
    rootToken: ROOT_TOKEN,
    api,
    gitlab: (token = ROOT_TOKEN) => new Gitlab({ host: stack.url, token }),
    halt,
    async destroy() {
      await halt();
      for (const s of SERVICES) await dropDatabase(serverUrl, `${prefix}_${s}`).catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    options: { dataDir, prefix, serverUrl },
  };
}

let counter = 0;
/** A fresh user and a token for them (scopes default to api). */
export async function createUserWithToken(s: TestStack, scopes: string[] = ["api"], extra: Record<string, unknown> = {}) {
  const n = `${Date.now().toString(36)}${counter++}`;
  const res = await s.api("/users", {
    method: "POST",
    json: { username: `user${n}`, email: `user${n}@example.com`, name: `User ${n}`, password: "secret-password-1", ...extra },
  });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${await res.text()}`);
  const user = (await res.json()) as { id: number; username: string };
  const tok = await s.api(`/users/${user.id}/personal_access_tokens`, { method: "POST", json: { name: "t", scopes } });
  if (tok.status !== 201) throw new Error(`token creation failed: ${tok.status} ${await tok.text()}`);
  const token = ((await tok.json()) as { token: string }).token;
  return { ...user, token };
}

/** A response's JSON body (null when empty); the test fails, showing the body, unless the status is `status`. */
// biome-ignore lint/suspicious/noExplicitAny: tests read GitLab's JSON freely.
export async function jsonBody(res: Response, status: number): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

/** POST, PUT and DELETE with a JSON body as `token` (root when undefined, anonymous when null), for a stack started in beforeAll. */
export function jsonRequests(stack: () => TestStack) {
  return {
    post: (path: string, json: unknown, token?: string | null) => stack().api(path, { method: "POST", json, token }),
    put: (path: string, json: unknown, token?: string | null) => stack().api(path, { method: "PUT", json, token }),
    del: (path: string, token?: string | null) => stack().api(path, { method: "DELETE", token }),
  };
}
