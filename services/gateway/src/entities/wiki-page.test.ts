import { describe, expect, it } from "vitest";
import { parseFrontMatter, wikiPageEntity } from "./wiki-page.ts";

const page = (content: string) => ({ slug: "P", title: "P", format: "markdown", content: Buffer.from(content), path: "P.md", commitId: "" });

describe("wiki page front matter", () => {
  it("parses a YAML mapping at the top and strips it from the content to render", () => {
    expect(parseFrontMatter("---\ntitle: Deploy\ntags: [a, b]\n---\n# Body\n")).toEqual({
      frontMatter: { title: "Deploy", tags: ["a", "b"] },
      content: "# Body\n",
    });
    // Blank lines before, `...` closing, an explicit yaml language, CRLF line ends.
    expect(parseFrontMatter("\n\n--- yaml\r\na: 1\r\n...\r\nrest")).toEqual({ frontMatter: { a: 1 }, content: "rest" });
    // An encoding line may come first; the block may end the page.
    expect(parseFrontMatter("# coding: utf-8\n---\nk: v\n---")).toEqual({ frontMatter: { k: "v" }, content: "" });
  });

  it("leaves the content whole for other languages, non-mappings, invalid YAML, empty or unclosed blocks, or text first", () => {
    for (const content of [
      "+++\ntitle = 'x'\n+++\nbody",
      ';;;\n{"a": 1}\n;;;\nbody',
      "---\n- a\n- b\n---\nbody",
      "---\na: [\n---\nbody",
      "---\n---\nbody",
      "---\na: 1\nbody",
      "text\n---\na: 1\n---\n",
      "--- json\na: 1\n---\n",
      "---\na: &x 1\nb: *x\n---\n",
      `---\nk: ${"x".repeat(30_000)}\n---\n`,
    ]) {
      expect(parseFrontMatter(content)).toEqual({ frontMatter: {}, content });
    }
  });

  it("shows front_matter after the raw content and encoding in Entities::WikiPage", () => {
    const e = wikiPageEntity(page("---\ntitle: T\n---\nbody"));
    expect(e).toEqual({ format: "markdown", slug: "P", title: "P", content: "---\ntitle: T\n---\nbody", encoding: "UTF-8", front_matter: { title: "T" } });
    expect(Object.keys(e)).toEqual(["format", "slug", "title", "content", "encoding", "front_matter"]);
    expect(wikiPageEntity(page("plain"), "<p>plain</p>")).toMatchObject({ content: "<p>plain</p>", front_matter: {} });
  });
});
