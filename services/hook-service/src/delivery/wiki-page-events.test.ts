// Group wiki page events: fan-out to the wiki's group's hooks and its ancestors' with
// wiki_page_events on, GitLab's payload with `group` instead of `project`. Real bus, PostgreSQL
// and HTTP receiver; identity-service's groups, users and ancestry are stubbed.
import { randomUUID } from "node:crypto";
import { Subjects, type WikiPageEvent } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";
import { fanOut } from "./fan-out.ts";

/** Group 3 ("top/mid/leaf") is in 2, which is in 1; 9 stands apart. */
const CHAINS: Record<number, number[]> = { 1: [1], 2: [2, 1], 3: [3, 2, 1], 9: [9] };
const PATHS: Record<number, string> = { 1: "top", 2: "top/mid", 3: "top/mid/leaf", 9: "apart" };

const notFound = (what: string) => Object.assign(new Error(`5 NOT_FOUND: ${what} Not Found`), { code: 5 });

function wikiEvent(groupId: number, action: WikiPageEvent["object_attributes"]["action"] = "create"): WikiPageEvent {
  return {
    event_id: randomUUID(),
    event_name: "wiki_page",
    object_kind: "wiki_page",
    user_id: 14,
    project_id: 0,
    group_id: groupId,
    object_attributes: {
      title: "Group Home",
      content: "words",
      format: "markdown",
      message: "robert created page: Group Home",
      slug: "dir/Group-Home",
      action,
      version_id: "a".repeat(40),
    },
  };
}

describe("group wiki page events", () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_group_wiki");
    r = await startReceiver();
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetGroupAncestors: async (req: { groupId?: number }) => {
        const groupIds = CHAINS[Number(req.groupId)];
        if (!groupIds) throw notFound("Group");
        return { groupIds };
      },
      GetGroup: async (req: { idOrPath: string }) => {
        const id = Number(req.idOrPath);
        const full = PATHS[id];
        if (!full) throw notFound("Group");
        return { id: String(id), name: `Group ${id}`, path: full.split("/").pop(), fullPath: full };
      },
      GetUser: async (req: { id: number }) => {
        if (req.id !== 14) throw notFound("User");
        return { id: "14", name: "Robert Mills", username: "robert", avatar: "", publicEmail: "" };
      },
    } as unknown as HookDeps["identity"];
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const hook = async (owner: { groupId?: number; projectId?: number }, path: string, input: Record<string, unknown>) =>
    Number((await f.client.CreateHook({ owner, input: { url: `${r.url}${path}`, pushEvents: false, ...input } })).id);
  const at = (path: string) => r.requests.filter((q) => q.path === path);

  it("delivers GitLab's Wiki Page Hook with the group to the group's and its ancestors' hooks with wiki_page_events", async () => {
    await hook({ groupId: 1 }, "/top", { wikiPageEvents: true });
    await hook({ groupId: 2 }, "/mid-off", { pushEvents: true });
    await hook({ groupId: 3 }, "/leaf", { wikiPageEvents: true });
    await hook({ groupId: 9 }, "/apart", { wikiPageEvents: true });
    const event = wikiEvent(3);
    await f.bus.publish(Subjects.wikiPage, event);
    await waitFor(() => at("/top").length === 1 && at("/leaf").length === 1, { message: "wiki page hook at /top and /leaf" });
    const web = "https://quarry.test/groups/top/mid/leaf";
    for (const q of [...at("/top"), ...at("/leaf")]) {
      expect(q.headers["x-service-event"]).toBe("Wiki Page Hook");
      expect(JSON.parse(q.body)).toEqual({
        object_kind: "wiki_page",
        user: { id: 14, name: "Robert Mills", username: "robert", avatar_url: null, email: "[REDACTED]" },
        group: { group_name: "Group 3", group_path: "leaf", group_id: 3, full_path: "top/mid/leaf" },
        wiki: {
          web_url: `${web}/-/wikis/home`,
          git_ssh_url: "git@quarry.test:top/mid/leaf.wiki.git",
          git_http_url: "https://quarry.test/top/mid/leaf.wiki.git",
          path_with_namespace: "top/mid/leaf.wiki",
          default_branch: "main",
        },
        object_attributes: {
          title: "Group Home",
          content: "words",
          format: "markdown",
          message: "robert created page: Group Home",
          slug: "dir/Group-Home",
          url: `${web}/-/wikis/dir/Group-Home`,
          action: "create",
          diff_url: `${web}/-/wikis/dir/Group-Home/diff?version_id=${"a".repeat(40)}`,
          version_id: "a".repeat(40),
        },
      });
    }
    expect(at("/mid-off")).toEqual([]);
    expect(at("/apart")).toEqual([]);
  });

  it("queues nothing for a group that is gone", async () => {
    expect(await fanOut(f.svc.deps, { subject: Subjects.wikiPage, id: "w1", data: wikiEvent(404) } as never)).toBe(0);
  });
});
