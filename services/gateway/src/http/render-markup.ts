// Wiki page HTML (render_html=true): Markdown through markdown-it (CommonMark with GitLab's
// tables, strikethrough and autolinks), AsciiDoc through Asciidoctor.js (GitLab's Asciidoctor, in
// secure safe mode), Org through uniorg (GitLab uses org-ruby); then sanitize-html, as GitLab's
// SanitizationFilter does.
import asciidoctor from "@asciidoctor/core";
import MarkdownIt from "markdown-it";
import rehypeStringify from "rehype-stringify";
import sanitizeHtml from "sanitize-html";
import { unified } from "unified";
import uniorgParse from "uniorg-parse";
import uniorgRehype from "uniorg-rehype";

const markdown = new MarkdownIt({ html: true, linkify: true });

const adoc = asciidoctor();

/**
 * Gitlab::Asciidoc's options: secure safe mode (no includes, no file or URI reads), the document
 * title shown, GitLab's heading ids (`user-content-` prefix, "-" separator) with anchors.
 */
const ASCIIDOC_OPTIONS = {
  safe: "secure",
  attributes: {
    showtitle: true,
    sectanchors: true,
    idprefix: "user-content-",
    idseparator: "-",
    "env-gitlab": "",
    env: "gitlab",
    outfilesuffix: ".adoc",
    "allow-uri-read": false,
  },
};

const org = unified().use(uniorgParse).use(uniorgRehype).use(rehypeStringify);

/** What survives sanitizing: sanitize-html's defaults plus images and heading ids. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "del", "s", "input"],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    img: ["src", "alt", "title", "width", "height"],
    a: ["href", "name", "title"],
    "*": ["id"],
  },
  allowedSchemes: ["http", "https", "mailto", "ftp"],
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The format's HTML before sanitizing. */
function render(format: string, content: string): string {
  switch (format) {
    case "markdown":
      return markdown.render(content);
    case "asciidoc":
      return String(adoc.convert(content, ASCIIDOC_OPTIONS));
    case "org":
      return String(org.processSync(content));
    default:
      // rdoc: GitLab renders it with Ruby's RDoc, which has no maintained JavaScript port; the
      // text is shown preformatted and escaped rather than rendered wrongly.
      return `<pre>${escapeHtml(content)}</pre>`;
  }
}

/** A page's content as sanitized HTML (Markdown, AsciiDoc and Org rendered; rdoc preformatted). */
export function renderMarkup(format: string, content: string): string {
  return sanitizeHtml(render(format, content), SANITIZE);
}
