import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

/** The clear confirmation token queued for `email` (the outbox keeps published rows). */
async function tokenFor(email: string): Promise<string> {
  const rows = await f.deps.prisma.$queryRawUnsafe<{ payload: { email: string; confirmation_token: string } }[]>(
    `SELECT payload FROM outbox_events WHERE subject = 'quarry.mail.email_confirmation' ORDER BY id DESC`,
  );
  const row = rows.find((r) => r.payload.email === email);
  if (!row) throw new Error(`no confirmation for ${email}`);
  return row.payload.confirmation_token;
}

describe("e-mail addresses", () => {
  it("lists the primary first, adds, reads, confirms and deletes secondary addresses", async () => {
    const u = await f.user("mailer");
    const other = await f.user("mailother");
    const first = await f.c.ListEmails({ actor: u });
    expect(first.emails).toEqual([{ id: expect.anything(), email: "mailer@example.com", confirmedAt: expect.stringMatching(/^\d{4}-/) }]);

    const added = await f.c.CreateEmail({ actor: u, email: "Second@Example.com" });
    expect(added).toMatchObject({ email: "second@example.com", confirmedAt: "" });
    const row = await f.deps.prisma.email.findUniqueOrThrow({ where: { id: Number(added.id) } });
    expect(row.confirmationDigest).toMatch(/^[0-9a-f]{64}$/);
    expect((await f.c.ListEmails({ actor: u })).emails.map((e) => e.email)).toEqual(["mailer@example.com", "second@example.com"]);
    expect(await f.c.GetEmail({ actor: u, emailId: added.id })).toMatchObject({ email: "second@example.com" });

    // Taken: any user's primary or secondary address; invalid addresses.
    for (const email of ["second@example.com", "mailother@example.com", "MAILER@example.com"]) {
      expect(await failure(f.c.CreateEmail({ actor: other, email }))).toEqual({ status: 400, body: { message: { email: ["has already been taken"] } } });
    }
    expect(await failure(f.c.CreateEmail({ actor: u, email: "not-an-address" }))).toEqual({ status: 400, body: { message: { email: ["is invalid"] } } });
    // Others' addresses are not reachable; only administrators skip confirmation or act on other users.
    expect(await failure(f.c.GetEmail({ actor: other, emailId: added.id }))).toEqual({ status: 404, body: { message: "404 Email Not Found" } });
    expect(await failure(f.c.ListEmails({ actor: other, userId: u.userId }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.CreateEmail({ actor: u, email: "x@example.com", skipConfirmation: true }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.ListEmails({ actor: f.admin, userId: 999999 }))).toMatchObject({ status: 404 });

    // An unconfirmed address is no valid notification e-mail; once confirmed it is.
    await expect(f.c.UpdateNotificationSetting({ actor: u, notificationEmail: "second@example.com" })).rejects.toThrow(/must be an email you have verified/);
    const confirmed = await f.c.ConfirmEmail({ confirmationToken: await tokenFor("second@example.com") });
    expect(confirmed).toMatchObject({ userId: u.userId, email: "second@example.com" });
    expect((await f.c.GetEmail({ actor: u, emailId: added.id })).confirmedAt).toMatch(/^\d{4}-/);
    expect(await failure(f.c.ConfirmEmail({ confirmationToken: await tokenFor("second@example.com") }))).toMatchObject({ status: 400 });
    expect((await f.c.UpdateNotificationSetting({ actor: u, notificationEmail: "second@example.com" })).notificationEmail).toBe("second@example.com");

    // Administrators add confirmed addresses for anyone.
    const byAdmin = await f.c.CreateEmail({ actor: f.admin, userId: other.userId, email: "third@example.com", skipConfirmation: true });
    expect(byAdmin.confirmedAt).toMatch(/^\d{4}-/);
    expect((await f.c.ListEmails({ actor: f.admin, userId: other.userId })).emails.map((e) => e.email)).toEqual(["mailother@example.com", "third@example.com"]);

    // The primary cannot be deleted; deleting a secondary resets notification mail to the primary.
    const [primary] = first.emails;
    if (!primary) throw new Error("no primary address");
    expect(await failure(f.c.DeleteEmail({ actor: u, emailId: primary.id }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Cannot delete primary email" },
    });
    await f.c.DeleteEmail({ actor: u, emailId: added.id });
    expect(await failure(f.c.DeleteEmail({ actor: u, emailId: added.id }))).toMatchObject({ status: 404 });
    expect((await f.c.GetNotificationSetting({ actor: u })).notificationEmail).toBe("mailer@example.com");
    await f.c.DeleteEmail({ actor: f.admin, userId: other.userId, emailId: byAdmin.id });
    expect((await f.c.ListEmails({ actor: other })).emails.map((e) => e.email)).toEqual(["mailother@example.com"]);
  });

  it("another user's secondary address cannot become a primary; one's own can", async () => {
    const u = await f.user("secowner");
    const other = await f.user("secother");
    await f.c.CreateEmail({ actor: f.admin, userId: u.userId, email: "kept@example.com", skipConfirmation: true });
    expect(await failure(f.c.CreateUser({ actor: f.admin, username: "thief", email: "kept@example.com", name: "Thief", password: "password-123" }))).toEqual({
      status: 409,
      body: { message: "Email has already been taken" },
    });
    expect(await failure(f.c.UpdateUser({ actor: f.admin, id: other.userId, email: "kept@example.com" }))).toMatchObject({ status: 409 });
    expect((await f.c.UpdateUser({ actor: f.admin, id: u.userId, email: "kept@example.com" })).email).toBe("kept@example.com");
  });

  it("confirms a service account's pending e-mail, which then becomes its primary", async () => {
    const sa = await f.c.CreateServiceAccount({ actor: f.admin, host: "quarry.test" });
    await f.c.UpdateServiceAccount({ actor: f.admin, userId: sa.id, email: "sa-mail@example.com" });
    // Pending addresses are taken too.
    expect(await failure(f.c.CreateEmail({ actor: f.admin, email: "sa-mail@example.com" }))).toMatchObject({ status: 400 });
    await f.c.ConfirmEmail({ confirmationToken: await tokenFor("sa-mail@example.com") });
    const [after] = (await f.c.ListServiceAccounts({ actor: f.admin })).accounts.filter((a) => a.id === sa.id);
    expect(after).toMatchObject({ email: "sa-mail@example.com", unconfirmedEmail: "" });
  });
});
