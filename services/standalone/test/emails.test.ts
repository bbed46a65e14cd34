// E-mail addresses end to end: /user/emails and /users/:id/emails over fetch (exact statuses and
// bodies) and @gitbeaker/rest's UserEmails, with a real SMTP server receiving the confirmation link
// that GET /users/confirmation follows.
import { startTestSmtp, type TestSmtp } from "@quarry/hook-service/testing";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let smtp: TestSmtp;
const { post, put, del } = jsonRequests(() => s);
const get = (path: string, token?: string | null) => s.api(path, { token });

beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestStack(undefined, { smtpUrl: smtp.url });
}, 120_000);
afterAll(async () => {
  await s?.destroy();
  await smtp?.close();
});

/** The confirmation link mailed to `to`. */
async function linkMailedTo(to: string): Promise<string> {
  let link = "";
  await waitFor(() => {
    const mail = smtp.mails.find((m) => m.to.includes(to));
    expect(mail?.headers.subject).toBe("Confirmation instructions");
    link = /https?:\/\/\S+confirmation_token=\S+/.exec(mail?.body ?? "")?.[0] ?? "";
    expect(link).not.toBe("");
    return true;
  });
  return link;
}

describe("e-mail addresses", () => {
  it("a user lists, adds, confirms by the mailed link, reads and deletes addresses; the primary comes first and stays", async () => {
    const u = await createUserWithToken(s);
    const primary = `${u.username}@example.com`;
    const first = await jsonBody(await get("/user/emails", u.token), 200);
    expect(first).toEqual([{ id: expect.any(Number), email: primary, confirmed_at: expect.stringMatching(/^\d{4}-/) }]);

    const second = `second-${u.username}@example.com`;
    const added = await jsonBody(await post("/user/emails", { email: second.toUpperCase() }, u.token), 201);
    expect(added).toEqual({ id: expect.any(Number), email: second, confirmed_at: null });
    expect((await jsonBody(await get("/user/emails", u.token), 200)).map((e: { email: string }) => e.email)).toEqual([primary, second]);

    // Validation failures.
    expect(await jsonBody(await post("/user/emails", { email: second }, u.token), 400)).toEqual({ message: { email: ["has already been taken"] } });
    expect(await jsonBody(await post("/user/emails", { email: "admin@example.com" }, u.token), 400)).toEqual({
      message: { email: ["has already been taken"] },
    });
    expect(await jsonBody(await post("/user/emails", { email: "nope" }, u.token), 400)).toEqual({ message: { email: ["is invalid"] } });
    expect(await jsonBody(await post("/user/emails", {}, u.token), 400)).toEqual({ error: "email is missing" });
    expect((await get("/user/emails", null)).status).toBe(401);

    // Not yet a verified address for notification mail; after the link, it is.
    expect(await jsonBody(await put("/notification_settings", { notification_email: second }, u.token), 400)).toEqual({
      message: { notification_email: ["must be an email you have verified"] },
    });
    const link = await linkMailedTo(second);
    expect(link.startsWith(`${s.url}/users/confirmation?confirmation_token=`)).toBe(true);
    const confirm = await fetch(link);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toBe("Your email address has been successfully confirmed.\n");
    expect((await fetch(link)).status).toBe(422);
    expect((await fetch(`${s.url}/users/confirmation?confirmation_token=bogus`)).status).toBe(422);
    const read = await jsonBody(await get(`/user/emails/${added.id}`, u.token), 200);
    expect(read.confirmed_at).toMatch(/^\d{4}-/);
    expect((await jsonBody(await put("/notification_settings", { notification_email: second }, u.token), 200)).notification_email).toBe(second);

    // Someone else's address is not found; the primary cannot be deleted.
    const other = await createUserWithToken(s);
    expect(await jsonBody(await get(`/user/emails/${added.id}`, other.token), 404)).toEqual({ message: "404 Email Not Found" });
    expect(await jsonBody(await del(`/user/emails/${first[0].id}`, u.token), 400)).toEqual({ message: "400 Bad request - Cannot delete primary email" });
    expect((await del(`/user/emails/${added.id}`, u.token)).status).toBe(204);
    expect(await jsonBody(await del(`/user/emails/${added.id}`, u.token), 404)).toEqual({ message: "404 Email Not Found" });
    // Mail meant for the deleted address goes to the primary again.
    expect((await jsonBody(await get("/notification_settings", u.token), 200)).notification_email).toBe(primary);
  });

  it("administrators manage anyone's addresses, skipping confirmation; others get 403", async () => {
    const u = await createUserWithToken(s);
    const base = `/users/${u.id}/emails`;
    const extra = `admin-added-${u.username}@example.com`;
    const created = await jsonBody(await post(base, { email: extra, skip_confirmation: true }), 201);
    expect(created).toEqual({ id: expect.any(Number), email: extra, confirmed_at: expect.stringMatching(/^\d{4}-/) });
    const pending = await jsonBody(await post(base, { email: `pending-${u.username}@example.com` }), 201);
    expect(pending.confirmed_at).toBeNull();
    expect((await jsonBody(await get(base), 200)).map((e: { email: string }) => e.email)).toEqual([
      `${u.username}@example.com`,
      extra,
      `pending-${u.username}@example.com`,
    ]);
    expect(await jsonBody(await get(base, u.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(base, { email: "x@example.com" }, u.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await get("/users/999999/emails"), 404)).toEqual({ message: "404 User Not Found" });
    expect((await del(`${base}/${pending.id}`)).status).toBe(204);
    const primaryId = (await jsonBody(await get(base), 200))[0].id;
    expect((await del(`${base}/${primaryId}`)).status).toBe(400);

    // @gitbeaker/rest's UserEmails.
    const gb = s.gitlab(u.token);
    const mine = await gb.UserEmails.create(`gb-${u.username}@example.com`);
    expect(mine).toMatchObject({ email: `gb-${u.username}@example.com`, confirmed_at: null });
    expect((await gb.UserEmails.all()).map((e) => e.email)).toEqual([`${u.username}@example.com`, extra, `gb-${u.username}@example.com`]);
    expect((await gb.UserEmails.show(mine.id)).email).toBe(`gb-${u.username}@example.com`);
    await gb.UserEmails.remove(mine.id);
    const byAdmin = await s.gitlab().UserEmails.create(`gb-admin-${u.username}@example.com`, { userId: u.id, skipConfirmation: true });
    expect(byAdmin.confirmed_at).toMatch(/^\d{4}-/);
    expect((await s.gitlab().UserEmails.all({ userId: u.id })).map((e) => e.email)).toContain(`gb-admin-${u.username}@example.com`);
  });

  it("a service account's custom e-mail is confirmed by its mailed link and then shown as its e-mail", async () => {
    const sa = await jsonBody(await post("/service_accounts", {}), 201);
    const custom = `bot-${Date.now().toString(36)}@example.com`;
    expect(await jsonBody(await s.api(`/service_accounts/${sa.id}`, { method: "PATCH", json: { email: custom } }), 200)).toMatchObject({
      unconfirmed_email: custom,
    });
    const confirm = await fetch(await linkMailedTo(custom));
    expect(confirm.status).toBe(200);
    const after = await jsonBody(await s.api(`/service_accounts/${sa.id}`, { method: "PATCH", json: { name: "Confirmed" } }), 200);
    expect(after).toEqual({ id: sa.id, username: sa.username, name: "Confirmed", email: custom });
  });
});
