// GitLab's recipient rules (NotificationRecipients::Builder::Default, NotificationRecipient#notifiable?).
import { describe, expect, it } from "vitest";
import { buildRecipients, type EffectiveSetting, type RecipientInput } from "./recipients.ts";

const s = (level: string, events: EffectiveSetting["events"] = {}): EffectiveSetting => ({ level, events, email: `${level}@x.test` });

function input(o: Partial<Omit<RecipientInput, "settings">> & { settings: Record<number, EffectiveSetting> }): RecipientInput {
  return {
    action: "new_issue",
    actorId: 1,
    participantIds: [1],
    assigneeIds: [],
    previousAssigneeIds: [],
    members: new Map(),
    membersOnly: false,
    confidential: false,
    ...o,
    settings: new Map(Object.entries(o.settings).map(([k, v]) => [Number(k), v])),
  };
}
const ids = (i: RecipientInput) => buildRecipients(i).map((r) => r.userId);

describe("notification recipients", () => {
  it("never mails the acting user, even a watcher", () => {
    expect(ids(input({ members: new Map([[1, 30]]), settings: { 1: s("watch") } }))).toEqual([]);
  });

  it("watchers get every issue action; participating members only what they take part in", () => {
    const members = new Map([
      [2, 30],
      [3, 30],
      [4, 30],
    ]);
    const settings = { 2: s("watch"), 3: s("participating"), 4: s("participating") };
    expect(ids(input({ action: "close_issue", members, participantIds: [1, 4], settings }))).toEqual([2, 4]);
  });

  it("custom members get the actions switched on; disabled and mention-level members nothing unmentioned", () => {
    const members = new Map([
      [2, 30],
      [3, 30],
      [4, 30],
      [5, 30],
    ]);
    const settings = { 2: s("custom", { reopen_issue: true }), 3: s("custom", { close_issue: true }), 4: s("disabled"), 5: s("mention") };
    expect(ids(input({ action: "reopen_issue", members, participantIds: [1, 4, 5], settings }))).toEqual([2]);
  });

  it("a new issue's assignees are told with reason assigned", () => {
    const r = buildRecipients(input({ assigneeIds: [2], participantIds: [1, 2], settings: { 2: s("participating") } }));
    expect(r).toEqual([{ userId: 2, email: "participating@x.test", reason: "assigned" }]);
  });

  it("re-assignment mentions the old and the new assignees (mention level included)", () => {
    const r = buildRecipients(
      input({ action: "reassign_issue", participantIds: [1, 3], assigneeIds: [3], previousAssigneeIds: [2], settings: { 2: s("mention"), 3: s("mention") } }),
    );
    expect(r.map((x) => [x.userId, x.reason])).toEqual([
      [2, null],
      [3, "assigned"],
    ]);
  });

  it("private projects mail members only; confidential issues Reporters, the author and assignees only", () => {
    const members = new Map([
      [2, 10],
      [3, 20],
    ]);
    const settings = { 2: s("watch"), 3: s("watch"), 4: s("participating"), 5: s("participating") };
    expect(ids(input({ members, participantIds: [1, 4], membersOnly: true, settings }))).toEqual([2, 3]);
    expect(ids(input({ members, participantIds: [1, 4], membersOnly: false, settings }))).toEqual([2, 3, 4]);
    expect(ids(input({ members, participantIds: [1, 5], confidential: true, settings }))).toEqual([3, 5]);
  });
});

describe("new note recipients", () => {
  it("watchers and custom new_note members hear of comments; internal notes reach Reporters among participants only", () => {
    const members = new Map([
      [2, 30],
      [3, 30],
      [4, 10],
      [5, 30],
    ]);
    const settings = { 2: s("watch"), 3: s("custom", { new_note: true }), 4: s("participating"), 5: s("participating") };
    expect(ids(input({ action: "new_note", members, participantIds: [1, 4, 5], settings }))).toEqual([2, 3, 4, 5]);
    expect(ids(input({ action: "new_note", members, participantIds: [1, 4, 5], internalNote: true, settings }))).toEqual([5]);
  });
});

describe("mentions", () => {
  it("mentioned users are told with reason mentioned at the mention level, unless they cannot read it or are disabled", () => {
    const members = new Map([
      [2, 30],
      [3, 30],
    ]);
    const settings = { 2: s("mention"), 3: s("disabled"), 4: s("mention") };
    const r = buildRecipients(input({ action: "new_note", members, membersOnly: true, mentionedIds: [2, 3, 4], settings }));
    expect(r.map((x) => [x.userId, x.reason])).toEqual([[2, "mentioned"]]);
  });
});

describe("approvers", () => {
  it("a new merge request tells eligible approvers whose custom setting has approver on, and no one else for it", () => {
    const members = new Map([
      [2, 30],
      [3, 30],
      [4, 30],
    ]);
    const settings = {
      2: s("custom", { approver: true }),
      3: s("custom", { approver: false }),
      4: s("participating", { approver: true }),
      5: s("custom", { approver: true }),
    };
    const base = { members, membersOnly: true, approverIds: [2, 3, 4], settings };
    expect(ids(input({ action: "new_merge_request", ...base }))).toEqual([2]);
    // Only new merge requests: an approver is no watcher of the rest.
    expect(ids(input({ action: "close_merge_request", ...base }))).toEqual([]);
  });
});

describe("confidential issues and mentions", () => {
  it("a mentioned or commenting non-member of a confidential issue is not told; its author and assignees are", () => {
    const members = new Map([[3, 20]]);
    const settings = { 2: s("participating"), 3: s("participating"), 4: s("participating"), 5: s("participating") };
    const r = input({
      action: "new_note",
      authorId: 5,
      participantIds: [5, 2, 3, 4],
      assigneeIds: [2],
      mentionedIds: [4],
      confidential: true,
      members,
      settings,
    });
    expect(ids(r)).toEqual([2, 3, 5]);
  });
});
