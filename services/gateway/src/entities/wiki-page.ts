import type { WikiAttachment__Output as WikiAttachment } from "@quarry/proto/types/repo/v1/WikiAttachment";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";

/** GitLab's Entities::WikiPageBasic: format, slug, title. */
export function wikiPageBasicEntity(page: WikiPage) {
  return { format: page.format, slug: page.slug, title: page.title };
}

/**
 * Entities::WikiPage: the basic fields with the content (raw, or the rendered HTML when
 * `html` is given) and its encoding.
 */
export function wikiPageEntity(page: WikiPage, html?: string) {
  return { ...wikiPageBasicEntity(page), content: html ?? Buffer.from(page.content).toString("utf8"), encoding: "UTF-8" };
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
