import { describe, expect, it } from "vitest";
import { renderMarkup } from "./render-markup.ts";

describe("renderMarkup", () => {
  it("renders AsciiDoc with Asciidoctor in secure mode: title, GitLab's heading ids, no includes, sanitized", () => {
    const html = renderMarkup(
      "asciidoc",
      "= Guide\n\n== First Steps\n\n*bold* _it_ link:https://example.com[site]\n\n* one\n* two\n\ninclude::/etc/passwd[]\n\n++++\n<script>alert(1)</script>\n++++\n",
    );
    expect(html).toContain("<h1>Guide</h1>");
    expect(html).toContain('<h2 id="user-content-first-steps">');
    expect(html).toContain("<strong>bold</strong> <em>it</em>");
    expect(html).toContain('<a href="https://example.com">site</a>');
    expect(html).toContain("<li>");
    expect(html).not.toContain("root:");
    expect(html).not.toContain("<script");
  });

  it("renders Org with uniorg, sanitized", () => {
    const html = renderMarkup(
      "org",
      '* Heading\n\n*bold* /it/ [[https://example.com][site]]\n\n- a\n- b\n\n#+BEGIN_SRC js\nlet x = 1;\n#+END_SRC\n\n#+BEGIN_EXPORT html\n<script>alert(1)</script><a href="javascript:x()">j</a>\n#+END_EXPORT\n',
    );
    expect(html).toContain("<h1>Heading</h1>");
    expect(html).toContain("<strong>bold</strong> <em>it</em>");
    expect(html).toContain('<a href="https://example.com">site</a>');
    expect(html).toContain("<li>a");
    expect(html).toContain("<pre><code>let x = 1;");
    // Raw HTML export blocks come out as text.
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script");
    expect(html).not.toContain('<a href="javascript');
  });

  it("keeps rdoc preformatted and escaped, renders Markdown", () => {
    expect(renderMarkup("rdoc", "= Title\n<b>x</b>")).toBe("<pre>= Title\n&lt;b&gt;x&lt;/b&gt;</pre>");
    expect(renderMarkup("markdown", "# T\n\n**b** <script>x</script>")).toBe("<h1>T</h1>\n<p><strong>b</strong> </p>\n");
  });
});
