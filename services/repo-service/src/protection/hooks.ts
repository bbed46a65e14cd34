// The hooks one receive-pack runs with (`-c core.hooksPath=<dir>`), written to a fresh directory
// per push so nothing in the repository's own hooks directory ever runs:
// - pre-receive refuses the push with GitLab's message when repo-service decided so
//   (QUARRY_DENY), or when a ref in QUARRY_FF_ONLY would not fast-forward (the pushed objects are
//   visible to it in the quarantine). Output reaches the client as "remote: GitLab: …".
// - post-receive writes the updates git actually applied to QUARRY_UPDATED_REFS: the push events
//   are built from that list, so a declined or failed command never produces one.
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PushMessages } from "./push-rules.ts";

const PRE_RECEIVE = `#!/bin/sh
nl='
'
is_null() { case "$1" in *[!0]*) return 1;; esac; return 0; }
while read -r old new ref; do
  case "$nl$QUARRY_FF_ONLY$nl" in
    *"$nl$ref$nl"*)
      if ! is_null "$old" && ! is_null "$new" && ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
        echo "GitLab: ${PushMessages.forcePushProtectedBranch}" >&2
        exit 1
      fi;;
  esac
done
if [ -n "$QUARRY_DENY" ]; then
  printf 'GitLab: %s\\n' "$QUARRY_DENY" >&2
  exit 1
fi
exit 0
`;

const POST_RECEIVE = `#!/bin/sh
cat > "$QUARRY_UPDATED_REFS"
`;

export interface PushHooks {
  /** The directory for core.hooksPath. */
  dir: string;
  /** Where post-receive writes "<old> <new> <ref>" lines. */
  updatedRefsFile: string;
  remove(): Promise<void>;
}

/**
 * Writes the hooks into a new directory below `<storageRoot>/+tmp` (on the storage volume, which
 * must allow executing them, unlike a noexec /tmp).
 */
export async function installPushHooks(storageRoot: string): Promise<PushHooks> {
  const parent = path.join(storageRoot, "+tmp");
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, "push-"));
  for (const [name, script] of [
    ["pre-receive", PRE_RECEIVE],
    ["post-receive", POST_RECEIVE],
  ] as const) {
    const file = path.join(dir, name);
    await writeFile(file, script);
    await chmod(file, 0o755);
  }
  return { dir, updatedRefsFile: path.join(dir, "updated-refs"), remove: () => rm(dir, { recursive: true, force: true }) };
}
