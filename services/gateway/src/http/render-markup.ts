// Wiki page HTML (render_html=true): Markdown through markdown-it (CommonMark with GitLab's
// tables, strikethrough and autolinks), then sanitize-html, as GitLab's SanitizationFilter does.
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

const markdown = new MarkdownIt({ html: true, linkify: true });

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

/**
 * A page's content as sanitized HTML. Markdown is rendered; rdoc, asciidoc and org have no
 * renderer here (GitLab uses Ruby gems: RDoc, Asciidoctor, org-ruby), so their text is shown
 * preformatted and escaped rather than rendered wrongly.
 */
export function renderMarkup(format: string, content: string): string {
  const html = format === "markdown" ? markdown.render(content) : `<pre>${escapeHtml(content)}</pre>`;
  return sanitizeHtml(html, SANITIZE);
}
