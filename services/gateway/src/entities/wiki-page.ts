import type { WikiAttachment__Output as WikiAttachment } from "@quarry/proto/types/repo/v1/WikiAttachment";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import { parse as parseYaml } from "yaml";

/** GitLab's Entities::WikiPageBasic: format, slug, title. */
export function wikiPageBasicEntity(page: WikiPage) {
  return { format: page.format, slug: page.slug, title: page.title };
}

/**
 * Entities::WikiPage: the basic fields with the content (raw, front matter included, or the
 * rendered HTML when `html` is given), its encoding and the parsed front matter.
 */
export function wikiPageEntity(page: WikiPage, html?: string) {
  const raw = Buffer.from(page.content).toString("utf8");
  return { ...wikiPageBasicEntity(page), content: html ?? raw, encoding: "UTF-8", front_matter: parseFrontMatter(raw).frontMatter };
}

const NEWLINE = String.raw`(?:\r\n|\n|\r)`;
const DELIM = String.raw`(?:---|\+\+\+|;;;)`;
/** A line start without the `m` flag (which would make the leading `^` match anywhere). */
const LINE = String.raw`(?<![^\r\n])`;

/**
 * Gitlab::FrontMatter::PATTERN_UNTRUSTED: an optional encoding line, blank space, an opening
 * `---` / `+++` / `;;;` line (optionally naming a language), the block, and a closing
 * delimiter or `...` line, at the very start of the content.
 */
const FRONT_MATTER = new RegExp(
  String.raw`^(?:[^\r\n]*coding:[^\r\n]*${NEWLINE})?\s*${LINE}(?<delim>${DELIM})[ \t]*(?<lang>\S*)${NEWLINE}(?<text>[\s\S]*?)${LINE}(?:${DELIM}|\.{3})[^\S\r\n]*(?:${NEWLINE}|$)`,
);

/** Gitlab::WikiPages::FrontMatterParser::MAX_FRONT_MATTER_LENGTH (a title and 50 slugs). */
const MAX_FRONT_MATTER_LENGTH = 8 + 245 + 7 + (4 + 255 + 1 + 245) * 50;

const LANGS: Record<string, string> = { "---": "yaml", "+++": "toml", ";;;": "json" };

/**
 * Gitlab::WikiPages::FrontMatterParser: a YAML mapping at the top of a page is its front matter,
 * shown in `front_matter` and left out of the rendered page. Anything else (another language,
 * too long, not a mapping, invalid YAML) leaves the content whole and the front matter empty.
 */
export function parseFrontMatter(content: string): { frontMatter: Record<string, unknown>; content: string } {
  const none = { frontMatter: {}, content };
  // Only the start can hold front matter short enough to count: the pattern never sees more
  // (GitLab runs it with RE2; this keeps backtracking bounded on long pages).
  const head = content.slice(0, MAX_FRONT_MATTER_LENGTH + 4096);
  const m = FRONT_MATTER.exec(head);
  if (!m?.groups || (m[0].length === head.length && head.length < content.length)) return none;
  const lang = m.groups.lang!.toLowerCase() || LANGS[m.groups.delim!];
  const text = m.groups.text!.trim();
  // Ruby's `text.strip!` answers nil when nothing was stripped: an empty block is no match.
  if (text === m.groups.text || lang !== "yaml" || text.length > MAX_FRONT_MATTER_LENGTH) return none;
  let data: unknown;
  try {
    data = parseYaml(text, { schema: "core", maxAliasCount: 0 });
  } catch {
    return none;
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return none;
  return { frontMatter: data as Record<string, unknown>, content: content.slice(m[0].length) };
}

/** Gitlab::FileTypeDetection's image and video extensions: linked with "!" (embedded) in Markdown. */
const EMBEDDED = new Set(["png", "jpg", "jpeg", "gif", "bmp", "tiff", "tif", "ico", "webp", "svg", "mp4", "m4v", "mov", "webm", "ogv"]);

/** Entities::WikiAttachment: file_name, file_path, branch, link {url, markdown} (FileMarkdownLinkBuilder). */
export function wikiAttachmentEntity(a: WikiAttachment) {
  const ext = a.fileName.includes(".") ? a.fileName.split(".").pop()!.toLowerCase() : "";
  // Embedded files are named without their extension; "]" is escaped.
  const embedded = EMBEDDED.has(ext);
  const name = (embedded ? a.fileName.slice(0, -(ext.length + 1)) : a.fileName).replaceAll("]", "\\]");
  const markdown = `${embedded ? "!" : ""}[${name}](${a.filePath})`;
  return { file_name: a.fileName, file_path: a.filePath, branch: a.branch, link: { url: a.filePath, markdown } };
}
