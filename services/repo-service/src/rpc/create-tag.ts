import { TAG_REF_PREFIX } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { CreateTagRequest__Output } from "@quarry/proto/types/repo/v1/CreateTagRequest";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { Tag__Output as Tag } from "@quarry/proto/types/repo/v1/Tag";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "../refs/branches.ts";
import { readCommit } from "../git/commits.ts";
import { git, isRepository, NULL_SHA, resolveCommit } from "../git/git.ts";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { isValidTagName, readTag, tagCreationFailed } from "../refs/tags.ts";

/**
 * Creates `refs/tags/<name>` at the commit `ref` resolves to: annotated (a tag object whose
 * tagger is the acting user) when the stripped message is not blank, else lightweight. The ref
 * is created with a compare-and-swap against the null sha together with its tag_push event
 * (after = the new target, checkout_sha and the one commit = the tagged commit). Failures are
 * 405 with GitLab's messages (Tags::CreateService), checked in its order.
 */
export const createTag =
  (deps: RepoDeps) =>
  async (req: CreateTagRequest__Output): Promise<Tag> => {
    const dir = deps.storages.resolve(req.diskPath);
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (!req.ref.trim()) throw tagCreationFailed("Target is empty");
    if (!(await isValidTagName(req.name))) throw tagCreationFailed("Tag name invalid");
    const sha = await resolveCommit(dir, req.ref);
    if (!sha) throw tagCreationFailed(`Target ${req.ref} is invalid`);
    if (await readTag(dir, req.name)) throw tagCreationFailed(`Tag ${req.name} already exists`);

    const message = req.message.trim();
    const [commit, target] = await Promise.all([readCommit(dir, sha), message ? writeTagObject(dir, req.name, sha, message, context) : sha]);
    try {
      await changeRefWithEvent(
        deps,
        dir,
        { ref: TAG_REF_PREFIX + req.name, oldSha: NULL_SHA, newSha: target },
        { context, checkoutSha: sha, commits: [{ commit }], message: message || null, refProtected: false }, // no protected tags yet
      );
    } catch (err) {
      if (err instanceof RefUpdateError) {
        if (await readTag(dir, req.name)) throw tagCreationFailed(`Tag ${req.name} already exists`);
        // e.g. "refs/tags/a" exists, so "a/b" cannot (or the other way round).
        throw tagCreationFailed(`Failed to create tag '${req.name}': ${err.reason}`);
      }
      throw err;
    }
    const created = await readTag(dir, req.name);
    if (!created) throw notFound("Tag"); // deleted again in the meantime
    return created.tag;
  };

/** Characters git does not allow in an identity ("<", ">", newlines) are dropped. */
const identityPart = (s: string) => s.replace(/[<>\n\r\0]/g, "").trim();

/**
 * Writes an annotated tag object (`git mktag`, which checks it) and returns its id. The message
 * goes in as given, without a trailing newline, as Gitaly writes it, so it reads back unchanged.
 */
async function writeTagObject(dir: string, name: string, sha: string, message: string, context: PushContext): Promise<string> {
  const tagger = `${identityPart(context.userName) || identityPart(context.userUsername)} <${identityPart(context.userEmail)}>`;
  const now = Math.floor(Date.now() / 1000);
  const body = `object ${sha}\ntype commit\ntag ${name}\ntagger ${tagger} ${now} +0000\n\n${message}`;
  const { stdout } = await git(["mktag"], { gitDir: dir, input: body });
  return stdout.trim();
}
