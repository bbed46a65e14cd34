import { describe, expect, it } from "vitest";
import { renderTemplate } from "./template.ts";

describe("renderTemplate", () => {
  const payload = { object_kind: "push", ref: 'refs/heads/"q"', total_commits_count: 2, project: { id: 7, name: "P" }, commits: [{ id: "abc" }] };

  it("substitutes fields and nested fields, JSON-escaping strings", () => {
    const out = renderTemplate('{"kind":"{{object_kind}}","ref":"{{ref}}","n":{{total_commits_count}},"p":"{{project.name}}","c":"{{commits.0.id}}"}', payload);
    expect(JSON.parse(out)).toEqual({ kind: "push", ref: 'refs/heads/"q"', n: 2, p: "P", c: "abc" });
  });

  it("renders objects as JSON and missing fields as nothing", () => {
    expect(renderTemplate("{{project}}|{{nope.deeper}}|{{ project.id }}", payload)).toBe('{"id":7,"name":"P"}||7');
  });
});
