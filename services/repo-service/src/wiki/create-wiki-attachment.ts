import { randomBytes } from "node:crypto";
import { paramError } from "@quarry/grpc";
import type { CreateWikiAttachmentRequest__Output } from "@quarry/proto/types/repo/v1/CreateWikiAttachmentRequest";
import type { WikiAttachment__Output as WikiAttachment } from "@quarry/proto/types/repo/v1/WikiAttachment";
import type { RepoDeps } from "../deps.ts";
import { action, commitWiki, WIKI_BRANCH, placedWikiDir, wikiUser } from "./wiki.ts";

/**
 * Wikis::CreateAttachmentService: the file committed as `uploads/<32 hex>/<file name>` on
 * `branch` (default the wiki's default branch), message "Upload attachment <file name>".
 */
export const createWikiAttachment =
  (deps: RepoDeps) =>
  async (req: CreateWikiAttachmentRequest__Output): Promise<WikiAttachment> => {
    const { dir } = await placedWikiDir(deps, req.diskPath);
    const user = wikiUser(req.user);
    // The service keeps only the base name (CarrierWave's sanitized file name).
    const fileName = req.fileName
      .split("/")
      .pop()!
      .replace(/[^\w.+-]/g, "_");
    if (!fileName || /^\.+$/.test(fileName)) throw paramError("file is invalid");
    const branch = req.branch || WIKI_BRANCH;
    const filePath = `uploads/${randomBytes(16).toString("hex")}/${fileName}`;
    const commitId = await commitWiki(deps, dir, {
      user,
      branch,
      message: `Upload attachment ${fileName}`,
      actions: [action({ action: "create", filePath, content: Buffer.from(req.content) })],
    });
    return { fileName, filePath, branch, commitId };
  };
