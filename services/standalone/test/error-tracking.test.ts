import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let developer: { id: number; token: string };
let maintainer: { id: number; token: string };

beforeAll(async () => {
  s = await startTestStack();
  projectId = (await s.gitlab().Projects.create({ name: "tracked", visibility: "public" })).id;
  developer = await createUserWithToken(s);
  maintainer = await createUserWithToken(s);
  for (const [user, level] of [
    [developer, 30],
    [maintainer, 40],
  ] as const) {
    await jsonBody(await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: user.id, access_level: level } }), 201);
  }
}, 60_000);
afterAll(() => s?.destroy());

const settingsPath = () => `/projects/${projectId}/error_tracking/settings`;
const keysPath = () => `/projects/${projectId}/error_tracking/client_keys`;
const collector = (kind: "envelope" | "store", query = "") => `${s.url}/api/v4/error_tracking/collector/api/${projectId}/${kind}/${query}`;

/** A new key of the project (as root). */
async function newKey(): Promise<{ id: number; public_key: string; tracker_dsn: string; active: boolean }> {
  return jsonBody(await s.api(keysPath(), { method: "POST" }), 201);
}

/** An envelope as Sentry SDKs send it: header line, item header line, event line. */
const envelope = (event: Record<string, unknown>, type = "event") =>
  `${JSON.stringify({ event_id: event.event_id, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type })}\n${JSON.stringify(event)}\n`;
const exceptionEvent = (value: string) => ({
  event_id: "c".repeat(32),
  platform: "python",
  level: "error",
  timestamp: Date.now() / 1000,
  exception: { values: [{ type: "ValueError", value, stacktrace: { frames: [{ function: "handler", module: "app.views", in_app: true }] } }] },
});

async function errors(): Promise<Record<string, unknown>[]> {
  return jsonBody(await s.api(`/projects/${projectId}/error_tracking/errors`), 200);
}

describe("error tracking settings and client keys", () => {
  it("has no settings at first (404 Error Tracking Setting Not Found) and refuses Developers (403) and anonymous callers (401)", async () => {
    expect(await jsonBody(await s.api(settingsPath()), 404)).toEqual({ message: "404 Error Tracking Setting Not Found" });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: true } }), 404)).toEqual({
      message: "404 Error Tracking Setting Not Found",
    });
    expect(await jsonBody(await s.api(settingsPath(), { token: developer.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect((await s.api(keysPath(), { method: "POST", token: developer.token })).status).toBe(403);
    expect((await s.api(settingsPath(), { token: null })).status).toBe(401);
  });

  it("PUT enables integrated tracking (gitbeaker), PATCH toggles active and keeps integrated; Maintainers may", async () => {
    const api = s.gitlab(maintainer.token);
    expect(await api.ErrorTrackingSettings.create(projectId, true, true)).toEqual({
      active: true,
      project_name: null,
      tracker_external_url: null,
      api_url: null,
      integrated: true,
    });
    expect(await api.ErrorTrackingSettings.edit(projectId, false)).toMatchObject({ active: false, integrated: true });
    expect(await api.ErrorTrackingSettings.show(projectId)).toMatchObject({ active: false, integrated: true });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PUT", json: { active: true } }), 400)).toEqual({ error: "integrated is missing" });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: {} }), 400)).toEqual({ error: "active is missing" });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: "" } }), 400)).toEqual({ error: "active is empty" });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PUT", json: { active: "maybe", integrated: true } }), 400)).toEqual({
      error: "active does not have a valid value",
    });
    expect(await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: true } }), 200)).toMatchObject({ active: true, integrated: true });
  });

  it("creates keys with a generated public key and a DSN pointing at the collector, lists and deletes them", async () => {
    const api = s.gitlab(maintainer.token);
    const created = (await api.ErrorTrackingClientKeys.create(projectId)) as unknown as { id: number; public_key: string; tracker_dsn: string };
    expect(created).toMatchObject({ active: true });
    expect(created.public_key).toMatch(/^glet_[0-9a-f]{32}$/);
    const base = new URL(s.url);
    expect(created.tracker_dsn).toBe(`${base.protocol}//${created.public_key}@${base.host}/api/v4/error_tracking/collector/${projectId}`);
    const listed = (await api.ErrorTrackingClientKeys.all(projectId)) as unknown as { id: number }[];
    expect(listed.map((k) => k.id)).toContain(created.id);

    const gone = await jsonBody(await s.api(`${keysPath()}/${created.id}`, { method: "DELETE" }), 200);
    expect(gone).toEqual({ id: created.id, active: true, public_key: created.public_key, tracker_dsn: created.tracker_dsn });
    expect(await jsonBody(await s.api(`${keysPath()}/${created.id}`, { method: "DELETE" }), 404)).toEqual({ message: "404 Not found" });
    expect((await s.api(`${keysPath()}/nope`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("the collector", () => {
  it("takes a real @sentry/node report sent to the DSN and lists the errors grouped by fingerprint (Quarry's extension)", async () => {
    const key = await newKey();
    const script = fileURLToPath(new URL("./sentry-client.mjs", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, key.tracker_dsn, "the disk is full", "the disk is full", "the network is down"], {
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ flushed: true });

    const list = await errors();
    const full = list.find((e) => e.description === "the disk is full");
    const down = list.find((e) => e.description === "the network is down");
    expect(full).toMatchObject({ project_id: projectId, name: "TypeError", platform: "node", status: "unresolved", event_count: 2 });
    expect(String(full!.actor)).toContain("failingOperation");
    expect(down).toMatchObject({ name: "TypeError", event_count: 1 });
    expect(down!.id).not.toBe(full!.id);

    const events = await jsonBody(await s.api(`/projects/${projectId}/error_tracking/errors/${full!.id}/events`), 200);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ error_id: full!.id, level: "error", environment: "e2e", description: "the disk is full" });
    expect(events[0].payload).toMatchObject({ release: "quarry-test@1", exception: { values: [{ type: "TypeError", value: "the disk is full" }] } });
    expect((await s.api(`/projects/${projectId}/error_tracking/errors`, { token: developer.token })).status).toBe(403);
  });

  it("accepts the X-Sentry-Auth header, gzip, and the store endpoint; answers 200 with nothing", async () => {
    const key = await newKey();
    const auth = { "X-Sentry-Auth": `Sentry sentry_version=7, sentry_client=raven-python/6.0, sentry_key=${key.public_key}` };
    const viaHeader = await fetch(collector("envelope"), {
      method: "POST",
      headers: { ...auth, "Content-Encoding": "gzip" },
      body: gzipSync(envelope(exceptionEvent("bad header input"))),
    });
    expect(viaHeader.status).toBe(200);
    expect(await viaHeader.text()).toBe("");
    const viaStore = await fetch(collector("store", `?sentry_key=${key.public_key}`), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(exceptionEvent("stored input")),
    });
    expect(viaStore.status).toBe(200);
    const list = await errors();
    expect(list.find((e) => e.description === "bad header input")).toMatchObject({ name: "ValueError", actor: "handler(app.views)", event_count: 1 });
    expect(list.find((e) => e.description === "stored input")).toMatchObject({ platform: "python" });
    // A transaction alone is accepted and not stored; other item types are refused.
    expect(
      (await fetch(collector("envelope", `?sentry_key=${key.public_key}`), { method: "POST", body: envelope({ event_id: "d".repeat(32) }, "transaction") }))
        .status,
    ).toBe(200);
    const session = await fetch(collector("envelope", `?sentry_key=${key.public_key}`), { method: "POST", body: envelope({ sid: "x" }, "session") });
    expect(await jsonBody(session, 400)).toEqual({ message: "400 Bad Request" });
    const garbage = await fetch(collector("envelope", `?sentry_key=${key.public_key}`), { method: "POST", body: "not an envelope" });
    expect(await jsonBody(garbage, 400)).toEqual({ message: "400 Bad request - Failed to parse sentry request" });
  });

  it("refuses with 404 unknown, deleted and other projects' keys, and everything while tracking is disabled", async () => {
    const key = await newKey();
    const body = envelope(exceptionEvent("must not be stored"));
    const send = (query: string, path = collector("envelope", query)) => fetch(path, { method: "POST", body });
    expect(await jsonBody(await send("?sentry_key=glet_unknown"), 404)).toEqual({ message: "404 Not Found" });
    expect(await jsonBody(await send(""), 404)).toEqual({ message: "404 Not Found" });
    // A bad key is refused before the payload is looked at.
    expect((await fetch(collector("envelope", "?sentry_key=glet_unknown"), { method: "POST", body: "garbage" })).status).toBe(404);
    const other = (await s.gitlab().Projects.create({ name: "other-tracked" })).id;
    expect((await send(`?sentry_key=${key.public_key}`, `${s.url}/api/v4/error_tracking/collector/api/${other}/envelope/`)).status).toBe(404);

    await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: false } }), 200);
    expect((await send(`?sentry_key=${key.public_key}`)).status).toBe(404);
    await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: true, integrated: false } }), 200);
    expect((await send(`?sentry_key=${key.public_key}`)).status).toBe(404);
    await jsonBody(await s.api(settingsPath(), { method: "PATCH", json: { active: true, integrated: true } }), 200);
    await jsonBody(await s.api(`${keysPath()}/${key.id}`, { method: "DELETE" }), 200);
    expect((await send(`?sentry_key=${key.public_key}`)).status).toBe(404);
    expect((await errors()).some((e) => e.description === "must not be stored")).toBe(false);
  });

  it("resolves, ignores and reopens errors, filters and sorts them (Quarry's extension); a resolved error happening again is unresolved", async () => {
    const key = await newKey();
    const store = (value: string) =>
      fetch(collector("store", `?sentry_key=${key.public_key}`), {
        method: "POST",
        body: JSON.stringify({ ...exceptionEvent(value), event_id: crypto.randomUUID().replaceAll("-", "") }),
      });
    expect((await store("status flow regression")).status).toBe(200);
    expect((await store("status flow noise")).status).toBe(200);
    const list = await errors();
    const regression = list.find((e) => e.description === "status flow regression")!;
    const noise = list.find((e) => e.description === "status flow noise")!;
    const one = (id: unknown, token?: string) => s.api(`/projects/${projectId}/error_tracking/errors/${id}`, token ? { token } : {});
    const setStatus = (id: unknown, status: unknown, token?: string) =>
      s.api(`/projects/${projectId}/error_tracking/errors/${id}`, { method: "PUT", json: { status }, ...(token ? { token } : {}) });

    expect(await jsonBody(await one(regression.id), 200)).toEqual(regression);
    expect(await jsonBody(await setStatus(regression.id, "resolved", maintainer.token), 200)).toMatchObject({ id: regression.id, status: "resolved" });
    expect(await jsonBody(await setStatus(noise.id, "ignored"), 200)).toMatchObject({ status: "ignored" });
    const search = (q: string) => s.api(`/projects/${projectId}/error_tracking/errors?search=status%20flow&${q}`);
    expect((await jsonBody(await search("status=resolved"), 200)).map((e: { id: number }) => e.id)).toEqual([regression.id]);
    expect((await jsonBody(await search("status=ignored"), 200)).map((e: { id: number }) => e.id)).toEqual([noise.id]);
    expect(await jsonBody(await search("status=unresolved"), 200)).toEqual([]);
    expect(await jsonBody(await search("status=fixed"), 400)).toEqual({ error: "status does not have a valid value" });
    expect(await jsonBody(await search("sort=oldest"), 400)).toEqual({ error: "sort does not have a valid value" });

    // It happens again: unresolved; the ignored one stays ignored.
    expect((await store("status flow regression")).status).toBe(200);
    expect((await store("status flow noise")).status).toBe(200);
    expect(await jsonBody(await one(regression.id), 200)).toMatchObject({ status: "unresolved", event_count: 2 });
    expect(await jsonBody(await one(noise.id), 200)).toMatchObject({ status: "ignored", event_count: 2 });
    expect((await jsonBody(await search("sort=frequency&status=unresolved"), 200)).map((e: { id: number }) => e.id)).toEqual([regression.id]);

    expect(await jsonBody(await setStatus(regression.id, "fixed"), 400)).toEqual({ error: "status does not have a valid value" });
    expect(await jsonBody(await setStatus(regression.id, undefined), 400)).toEqual({ error: "status is missing" });
    expect(await jsonBody(await setStatus(regression.id, "resolved", developer.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await one(999_999), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await setStatus("abc", "resolved"), 404)).toEqual({ message: "404 Not found" });
    const other = (await s.gitlab().Projects.create({ name: "other-errors" })).id;
    expect(await jsonBody(await s.api(`/projects/${other}/error_tracking/errors/${regression.id}`), 404)).toEqual({ message: "404 Not found" });
    expect((await jsonBody(await one(regression.id), 200)).status).toBe("unresolved");
  });
});
