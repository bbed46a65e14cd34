// Git over SSH (GitLab's gitlab-shell + /internal/allowed), in repo-service's process: an `ssh2`
// server that authenticates users' keys and deploy keys by fingerprint (identity-service's
// AuthorizeSshKey), asks the same permission question as git over HTTP for the project named in
// the command, and serves `git-upload-pack` / `git-receive-pack` on the repository. Pushes go
// through receivePush, the code smart HTTP's ReceivePack runs: the same protected-branch rules
// and the same push events.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import { buildPushContext, type InstanceAddresses } from "@quarry/gitlab";
import { createClient, type PromiseClient, status } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { identityV1, type IdentityServiceDefinition } from "@quarry/proto";
import type { AuthorizeSshKeyResponse__Output } from "@quarry/proto/types/identity/v1/AuthorizeSshKeyResponse";
import ssh2 from "ssh2";
import type { RepoDeps } from "../deps.ts";
import { gitEnvironment } from "../git/git.ts";
import { gitProtocolEnv, runGitService, UPLOAD_PACK_CONFIG, type ChunkWriter } from "../git/smart-http.ts";
import { receivePush } from "../rpc/receive-pack.ts";
import { READ_ONLY_MESSAGE } from "../storage/storages.ts";
import { ED25519_CERT, parseUserCertificate, verifyCertifiedSignature } from "./certificate.ts";
import { loadOrCreateHostKey } from "./host-key.ts";

const { Server, utils } = ssh2;

/** gitlab-shell's and Gitlab::GitAccess's words. */
export const SshMessages = {
  disallowedCommand: "Disallowed command",
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: "You are not allowed to download code from this project.",
  push: "You are not allowed to push code to this project.",
  deployKeyPush: "This deploy key does not have write access to this project.",
  accessDenied: "Access denied.",
} as const;

type Service = "git-upload-pack" | "git-receive-pack";

export interface GitSshServerOptions {
  deps: RepoDeps;
  /** identity-service, asked who a key is and what it may do. */
  identityServiceAddress: string;
  deadlineMs?: number;
  /** Listen address (default 0.0.0.0) and port (0: any free port). */
  host?: string;
  port: number;
  /** The host key file: generated (ed25519) on first start, kept afterwards. */
  hostKeyPath: string;
  /** External URL and SSH address, for the push events' URLs. */
  addresses: InstanceAddresses;
  log: Logger;
}

export interface RunningGitSshServer {
  port: number;
  stop(): Promise<void>;
}

/** Who authenticated on a connection. */
type Identity = PromiseClient<IdentityServiceDefinition>;

interface Session {
  /** The key's fingerprint, or the certificate's CA and key id. */
  credentials: { fingerprint: string } | { caFingerprint: string; userIdentifier: string };
  auth: AuthorizeSshKeyResponse__Output;
}

/** "SHA256:<base64 without padding>" of a key blob, as ssh-keygen prints it. */
export function keyFingerprint(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/**
 * The service and project path of an exec request (`git-upload-pack '/group/project.git'`,
 * `git upload-pack 'group/project.git'`); null for anything else.
 */
export function parseGitCommand(command: string): { service: Service; path: string } | null {
  const m = /^git[ -](upload-pack|receive-pack) +'?\/?([^']+?)'?$/.exec(command.trim());
  if (!m) return null;
  const path = m[2]!
    .replace(/^~\//, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  if (!path || path.split("/").some((p) => !p || p === "." || p === "..")) return null;
  return { service: `git-${m[1]}` as Service, path };
}

/** gitlab-shell's framing of a refusal, as git shows it before "fatal: Could not read from remote repository." */
function refusal(message: string): string {
  const rule = "========================================================================";
  return ["remote: ", `remote: ${rule}`, "remote: ", `remote: ${message}`, "remote: ", `remote: ${rule}`, "remote: ", ""].join("\n");
}

/** An SSH channel as the ChunkWriter git services write to (write/drain; "cancelled" when it closes). */
class ChannelWriter extends EventEmitter implements ChunkWriter {
  constructor(private readonly channel: ssh2.ServerChannel) {
    super();
    channel.on("drain", () => this.emit("drain"));
    channel.on("close", () => this.emit("cancelled"));
  }
  write(chunk: { data: Buffer }): boolean {
    return this.channel.write(chunk.data);
  }
}

export async function startGitSshServer(o: GitSshServerOptions): Promise<RunningGitSshServer> {
  const hostKey = loadOrCreateHostKey(o.hostKeyPath);
  const identity: Identity = createClient(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs ?? 10_000 });
  const log = o.log.child({ component: "git-ssh" });
  const clients = new Set<ssh2.Connection>();
  const server = new Server({ hostKeys: [hostKey], ident: "Quarry" }, (client) => {
    clients.add(client);
    client.on("close", () => clients.delete(client));
    let session: Session | undefined;
    client.on("error", (err) => log.debug({ err }, "ssh connection error"));
    client.on("authentication", (ctx) => {
      if (ctx.method !== "publickey") return ctx.reject(["publickey"]);
      if (ctx.key.algo === ED25519_CERT) {
        // A group SSH certificate: checked here, its CA and key id looked up by identity-service.
        const cert = parseUserCertificate(ctx.key.data);
        if (!cert) return ctx.reject(["publickey"]);
        const credentials = { caFingerprint: cert.caFingerprint, userIdentifier: cert.keyId };
        identity.AuthorizeSshKey({ ...credentials, fingerprint: "", project: "", action: "" }).then(
          (auth) => {
            if (ctx.signature) {
              if (!ctx.blob || !verifyCertifiedSignature(cert, ctx.blob, ctx.signature)) return ctx.reject(["publickey"]);
              session = { credentials, auth };
            }
            ctx.accept();
          },
          () => ctx.reject(["publickey"]),
        );
        return;
      }
      const fingerprint = keyFingerprint(ctx.key.data);
      identity.AuthorizeSshKey({ fingerprint, project: "", action: "" }).then(
        (auth) => {
          if (ctx.signature) {
            const key = utils.parseKey(`${ctx.key.algo} ${ctx.key.data.toString("base64")}`);
            if (key instanceof Error || !ctx.blob || key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(["publickey"]);
            session = { credentials: { fingerprint }, auth };
          }
          ctx.accept();
        },
        (err: unknown) => {
          if ((err as { code?: number }).code !== status.UNAUTHENTICATED) log.warn({ err }, "ssh key lookup failed");
          ctx.reject(["publickey"]);
        },
      );
    });
    client.on("ready", () => {
      client.on("session", (acceptSession) => {
        const channelSession = acceptSession();
        const env: Record<string, string> = {};
        channelSession.on("env", (accept, _reject, info) => {
          if (info.key === "GIT_PROTOCOL") env.GIT_PROTOCOL = info.val;
          accept?.();
        });
        channelSession.on("pty", (_accept, reject) => reject?.());
        channelSession.on("shell", (accept) => {
          const channel = accept();
          const who = session?.auth.deployKey ? "deploy key" : `@${session?.auth.user?.username ?? ""}`;
          channel.write(`Welcome to GitLab, ${who}!\n`);
          channel.exit(0);
          channel.end();
        });
        channelSession.on("exec", (accept, _reject, info) => {
          const channel = accept();
          if (!session) return finish(channel, 1, refusal(SshMessages.accessDenied));
          serveCommand(o, identity, log, session, channel, info.command, env).catch((err: unknown) => {
            log.warn({ err, command: info.command }, "git over ssh failed");
            finish(channel, 1, refusal("Internal Server Error"));
          });
        });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  log.info({ port }, "git over ssh listening");
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          identity.close();
          resolve();
        });
        // Open connections are cut: a stop does not wait for clients.
        for (const c of clients) c.end();
      }),
  };
}

/**
 * Ends an exec request with `stderr` and an exit status. The status goes out once everything
 * written before has left (ssh2 sends it at once, ahead of data still waiting for the client's
 * window, and git reports a failed transport when the status comes first).
 */
function finish(channel: ssh2.ServerChannel, code: number, stderr = ""): void {
  const flushed = (stream: NodeJS.WritableStream, data: string) => new Promise<void>((resolve) => stream.write(data, () => resolve()));
  void Promise.all([flushed(channel, ""), flushed(channel.stderr, stderr)]).then(() => {
    channel.exit(code);
    channel.end();
  });
}

async function serveCommand(
  o: GitSshServerOptions,
  identity: Identity,
  log: Logger,
  session: Session,
  channel: ssh2.ServerChannel,
  command: string,
  env: Record<string, string>,
): Promise<void> {
  const parsed = parseGitCommand(command);
  if (!parsed) return finish(channel, 1, refusal(SshMessages.disallowedCommand));
  const { service, path } = parsed;
  const action = service === "git-upload-pack" ? "download_code" : "push_code";
  let auth: AuthorizeSshKeyResponse__Output;
  try {
    auth = await identity.AuthorizeSshKey({ ...session.credentials, project: path, action });
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === status.NOT_FOUND) return finish(channel, 1, refusal(SshMessages.projectNotFound));
    if (code === status.PERMISSION_DENIED) {
      const message = service === "git-upload-pack" ? SshMessages.download : session.auth.deployKey ? SshMessages.deployKeyPush : SshMessages.push;
      return finish(channel, 1, refusal(message));
    }
    if (code === status.UNAUTHENTICATED) return finish(channel, 1, refusal(SshMessages.accessDenied));
    throw err;
  }
  const project = auth.project!;
  const dir = o.deps.storages.resolve(project.diskPath);
  const gitProtocol = env.GIT_PROTOCOL ?? "";
  if (service === "git-upload-pack") return uploadPack(channel, dir, gitProtocol);
  if (o.deps.storages.isReadOnly(project.diskPath)) return finish(channel, 1, refusal(READ_ONLY_MESSAGE));

  const writer = new ChannelWriter(channel);
  const user = auth.user;
  const context = buildPushContext(
    project,
    {
      userId: Number(user?.id ?? 0),
      name: user?.name ?? "",
      username: user?.username ?? "",
      email: user?.email ?? "",
      isAdmin: Boolean(user?.isAdmin) && !auth.deployKey,
    },
    auth.accessLevel,
    o.addresses,
    { deployKey: auth.deployKey },
  );
  try {
    // The advertisement first (the SSH protocol has no separate request for it), then the
    // commands and the pack, as smart HTTP's two requests.
    await runGitService({ args: ["receive-pack", "--stateless-rpc", "--advertise-refs", dir], env: gitProtocolEnv(gitProtocol), call: writer, log });
    const body = channel.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
    await receivePush(o.deps, { diskPath: project.diskPath, gitProtocol, context }, body, writer);
  } catch (err) {
    const message = (err as { body?: { message?: unknown } }).body?.message;
    log.warn({ err }, "git receive-pack over ssh failed");
    return finish(channel, 1, typeof message === "string" ? refusal(message) : "");
  }
  finish(channel, 0);
}

/** `git upload-pack` on the repository, wired to the channel both ways (stateful, as git over SSH is). */
function uploadPack(channel: ssh2.ServerChannel, dir: string, gitProtocol: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn("git", [...UPLOAD_PACK_CONFIG, "upload-pack", dir], {
      env: gitEnvironment(gitProtocolEnv(gitProtocol)),
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.on("error", () => {});
    // Not stream.pipeline: it would destroy the channel at the client's EOF, closing it before
    // the exit status goes out.
    channel.pipe(child.stdin);
    child.stdout.pipe(channel, { end: false });
    child.stderr.pipe(channel.stderr, { end: false });
    channel.on("close", () => child.kill("SIGKILL"));
    child.on("close", (code) => {
      finish(channel, code ?? 1);
      resolve();
    });
    child.on("error", () => {
      finish(channel, 1);
      resolve();
    });
  });
}
