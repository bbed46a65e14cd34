// Push mirrors (Gitaly's UpdateRemoteMirror): list the remote's branches and tags, compare them
// with the local ones in scope, push what is new or changed with explicit refspecs and delete
// what no longer exists locally. Credentials reach git only through its environment (an
// Authorization header in GIT_CONFIG_*, an SSH key in a 0600 temporary file), never through a
// command line or a URL; http(s) connections are pinned to the addresses the caller checked.
import { BRANCH_REF_PREFIX, branchRef, TAG_REF_PREFIX } from "@quarry/gitlab";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { badRequest, notFound } from "@quarry/grpc";
import { hostAndPort } from "@quarry/outbound";
import type { UpdateRemoteMirrorRequest__Output } from "@quarry/proto/types/repo/v1/UpdateRemoteMirrorRequest";
import type { UpdateRemoteMirrorResponse__Output as UpdateRemoteMirrorResponse } from "@quarry/proto/types/repo/v1/UpdateRemoteMirrorResponse";
import { compileUserRegex, UntrustedRegexpError, type UserRegex } from "@quarry/safe-regex";
import type { RepoDeps } from "../deps.ts";
import { git, GitError, headBranch, isRepository } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";
import { validateProjectId } from "../validate.ts";

const SCHEMES = ["http:", "https:", "ssh:", "git:"];
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** Refspecs per `git push` (Gitaly pushes in batches too; the default branch goes first). */
const PUSH_BATCH = 50;

/** A failure to report in the response rather than as an RPC error. */
class RemoteError extends Error {}

interface Ref {
  name: string;
  sha: string;
}

/** Removes `user:password@` from URLs and every occurrence of the given secrets. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, "$1");
  for (const s of secrets) if (s) out = out.split(s).join("*****");
  return out;
}

function parseRefs(stdout: string): Ref[] {
  const refs: Ref[] = [];
  for (const line of stdout.split("\n")) {
    const [sha, name] = line.split(/\s+/);
    if (sha && name && (name.startsWith(BRANCH_REF_PREFIX) || name.startsWith(TAG_REF_PREFIX)) && !name.endsWith("^{}")) refs.push({ name, sha });
  }
  return refs;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const bracket = (ip: string) => (isIP(ip) === 6 ? `[${ip}]` : ip);

export const updateRemoteMirror =
  (deps: RepoDeps) =>
  async (req: UpdateRemoteMirrorRequest__Output): Promise<UpdateRemoteMirrorResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const projectId = validateProjectId(Number(req.projectId));
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw badRequest("url is invalid");
    }
    if (!SCHEMES.includes(url.protocol)) throw badRequest("url is invalid");
    if (url.username || url.password) throw badRequest("url must not carry credentials");
    // GitLab's mirror_branch_regex: an unanchored RE2 match (a user's pattern, linear time).
    let regex: UserRegex | null = null;
    if (req.branchRegex) {
      try {
        regex = compileUserRegex(req.branchRegex);
      } catch (err) {
        if (err instanceof UntrustedRegexpError) throw badRequest("branch_regex is invalid");
        throw err;
      }
    }
    if (!(await isRepository(dir))) throw notFound("Repository");

    const creds = req.credentials ?? { httpUsername: "", httpPassword: "", sshPrivateKey: "", sshUsername: "" };
    const secrets = [creds.httpPassword, creds.sshPrivateKey];
    const timeoutMs = Number(req.timeoutMs) || DEFAULT_TIMEOUT_MS;
    const config: [string, string][] = [
      // No hooks of this repository run for the push, and no credential helper or prompt.
      ["core.hooksPath", "/dev/null"],
      ["credential.helper", ""],
      ["http.followRedirects", "false"],
    ];
    const { host, port } = hostAndPort(url);
    let remoteUrl = url.toString();
    let tmp: string | null = null;
    let knownHostsFile = "";
    const env: Record<string, string> = {};

    const result: UpdateRemoteMirrorResponse = {
      divergentRefs: [] as string[],
      error: "",
      updatedRefs: [] as string[],
      deletedRefs: [] as string[],
      knownHosts: "",
      hostKeyFingerprints: [] as string[],
    };
    try {
      if (url.protocol === "http:" || url.protocol === "https:") {
        if (creds.httpUsername || creds.httpPassword) {
          const basic = Buffer.from(`${creds.httpUsername}:${creds.httpPassword}`).toString("base64");
          secrets.push(basic);
          config.push(["http.extraHeader", `Authorization: Basic ${basic}`]);
        }
        if (req.resolvedAddresses.length) config.push(["http.curloptResolve", `${host}:${port}:${req.resolvedAddresses.map(bracket).join(",")}`]);
      } else if (url.protocol === "ssh:") {
        tmp = await mkdtemp(path.join(os.tmpdir(), "quarry-mirror-"));
        knownHostsFile = path.join(tmp, "known_hosts");
        await writeFile(knownHostsFile, req.knownHosts ? req.knownHosts.trimEnd() + "\n" : "", { mode: 0o600 });
        const ssh = [
          "ssh",
          "-o BatchMode=yes",
          "-o IdentitiesOnly=yes",
          `-o UserKnownHostsFile=${quote(knownHostsFile)}`,
          "-o GlobalKnownHostsFile=/dev/null",
          // First contact records the host keys; later ones must match them.
          `-o StrictHostKeyChecking=${req.knownHosts ? "yes" : "accept-new"}`,
        ];
        if (creds.sshPrivateKey) {
          const keyFile = path.join(tmp, "id");
          await writeFile(keyFile, creds.sshPrivateKey.trimEnd() + "\n", { mode: 0o600 });
          ssh.push(`-i ${quote(keyFile)}`);
        } else {
          ssh.push("-o PreferredAuthentications=none,password,keyboard-interactive", "-F /dev/null");
        }
        if (req.resolvedAddresses.length) {
          // Connect to the checked address; the host keys stay filed under the host's name.
          ssh.push(`-o HostKeyAlias=${quote(host)}`);
          url.hostname = bracket(req.resolvedAddresses[0]!);
        }
        if (creds.sshUsername) url.username = encodeURIComponent(creds.sshUsername);
        remoteUrl = url.toString();
        env.GIT_SSH_COMMAND = ssh.join(" ");
        env.GIT_SSH_VARIANT = "ssh";
      }
      env.GIT_CONFIG_COUNT = String(config.length);
      config.forEach(([k, v], i) => {
        env[`GIT_CONFIG_KEY_${i}`] = k;
        env[`GIT_CONFIG_VALUE_${i}`] = v;
      });

      const run = async (args: string[], okExitCodes?: number[]) => {
        try {
          return await git(args, { gitDir: dir, env, timeoutMs, okExitCodes });
        } catch (err) {
          if (!(err instanceof GitError)) throw err;
          // The remote asked for credentials we do not have (or refused the ones we sent).
          if (/could not read (Username|Password)/.test(err.stderr)) throw new RemoteError(`fatal: Authentication failed for '${req.url}'`);
          throw new RemoteError(err.stderr.trim() || `git ${args[0]} failed (exit ${err.exitCode ?? "signal"})`);
        }
      };

      const [remoteOut, localOut, defaultBranch] = await Promise.all([
        run(["ls-remote", "--refs", "--heads", "--tags", "--", remoteUrl]),
        git(["for-each-ref", "--format=%(objectname) %(refname)", BRANCH_REF_PREFIX, TAG_REF_PREFIX], { gitDir: dir }),
        headBranch(dir),
      ]);
      const protection = req.onlyProtectedBranches ? await BranchProtection.load(deps, projectId) : null;
      const inScope = (ref: string) => {
        if (ref.startsWith(TAG_REF_PREFIX)) return true;
        const name = ref.slice(BRANCH_REF_PREFIX.length);
        if (protection && !protection.isProtected(name)) return false;
        return !regex || regex.test(name);
      };
      const remote = new Map(
        parseRefs(remoteOut.stdout)
          .filter((r) => inScope(r.name))
          .map((r) => [r.name, r.sha]),
      );
      const local = parseRefs(localOut.stdout).filter((r) => inScope(r.name));

      const isAncestor = async (ancestor: string, of: string) =>
        (await git(["merge-base", "--is-ancestor", ancestor, of], { gitDir: dir, okExitCodes: [1, 128] })).exitCode === 0;

      const toUpdate: Ref[] = [];
      for (const ref of local) {
        const theirs = remote.get(ref.name);
        remote.delete(ref.name);
        if (theirs === ref.sha) continue;
        if (theirs !== undefined && req.keepDivergentRefs && !(await isAncestor(theirs, ref.sha))) {
          // Their commit is not in our history (or unknown here): keep it and report it.
          result.divergentRefs.push(ref.name);
          continue;
        }
        toUpdate.push(ref);
      }
      // Refs only the remote has were deleted here; an empty repository deletes nothing.
      const hasDefault = parseRefs(localOut.stdout).some((r) => r.name === branchRef(defaultBranch));
      const toDelete = req.keepDivergentRefs || !hasDefault ? [] : [...remote.keys()].sort();

      const force = req.keepDivergentRefs ? "" : "+";
      const refspecs = [
        ...toUpdate
          .sort((a, b) => (a.name === branchRef(defaultBranch) ? -1 : b.name === branchRef(defaultBranch) ? 1 : a.name < b.name ? -1 : 1))
          .map((r) => `${force}${r.sha}:${r.name}`),
        ...toDelete.map((name) => `:${name}`),
      ];
      for (let i = 0; i < refspecs.length; i += PUSH_BATCH) {
        await run(["push", "--porcelain", "--", remoteUrl, ...refspecs.slice(i, i + PUSH_BATCH)]);
      }
      result.updatedRefs = toUpdate.map((r) => r.name);
      result.deletedRefs = toDelete;
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      result.error = scrubSecrets(err.message, secrets);
    } finally {
      if (knownHostsFile) {
        result.knownHosts = await readFile(knownHostsFile, "utf8").catch(() => "");
        result.hostKeyFingerprints = await fingerprints(knownHostsFile);
      }
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
    deps.log.info(
      { projectId, updated: result.updatedRefs.length, deleted: result.deletedRefs.length, divergent: result.divergentRefs.length, failed: !!result.error },
      "remote mirror updated",
    );
    return result;
  };

/** `ssh-keygen -lf`: the SHA256 fingerprints of the keys in a known_hosts file (deduplicated). */
function fingerprints(file: string): Promise<string[]> {
  return new Promise((resolve) => {
    const child = spawn("ssh-keygen", ["-l", "-E", "sha256", "-f", file], { stdio: ["ignore", "pipe", "ignore"] });
    const out: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.on("error", () => resolve([]));
    child.on("close", () => {
      const seen = new Set<string>();
      for (const line of Buffer.concat(out).toString("utf8").split("\n")) {
        const fp = line.split(" ")[1];
        if (fp?.startsWith("SHA256:")) seen.add(fp);
      }
      resolve([...seen]);
    });
  });
}
