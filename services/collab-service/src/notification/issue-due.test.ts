import { Subjects } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_due");
});
afterAll(() => t?.close());

const announced = async (issueId: number) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: Subjects.notification }, orderBy: { id: "asc" } }))
    .map((e) => e.payload as { action: string; project_id: number; issue: { id: number; due_date: string; url: string } })
    .filter((e) => e.issue?.id === issueId);

describe("issue_due scheduler", () => {
  it("announces each open issue due tomorrow once per due date, whatever the number of ticks; closed ones and other days never", async () => {
    const project = await t.project();
    const make = async (title: string, dueDate: string) => {
      const i = await t.client.CreateIssue({ actor: t.admin, project: String(project.id), title, dueDate });
      return Number(i.id);
    };
    const due = await make("due", "2030-03-10");
    const later = await make("later", "2030-03-11");
    const closed = await make("closed", "2030-03-10");
    await t.svc.deps.prisma.issue.update({ where: { id: closed }, data: { state: "closed", closedAt: new Date() } });
    const scheduler = t.svc.issueDue!;

    expect(await scheduler.tick(new Date("2030-03-09T00:50:00Z"))).toBe(1);
    expect(await scheduler.tick(new Date("2030-03-09T23:59:59Z"))).toBe(0);
    const [event, ...more] = await announced(due);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ action: "issue_due", project_id: project.id, issue: { due_date: "2030-03-10", url: `/${project.path}/-/issues/1` } });
    expect(await announced(closed)).toEqual([]);

    // The next day: the later issue; and the first, moved to a new date, is announced again for it.
    await t.svc.deps.prisma.issue.update({ where: { id: due }, data: { dueDate: new Date("2030-03-11") } });
    expect(await scheduler.tick(new Date("2030-03-10T01:00:00Z"))).toBe(2);
    expect(await announced(later)).toHaveLength(1);
    expect((await announced(due)).map((e) => e.issue.due_date)).toEqual(["2030-03-10", "2030-03-11"]);
  });
});
