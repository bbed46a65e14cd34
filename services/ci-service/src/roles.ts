import { ServiceError, status, type AsyncHandlers, clientStream, serverStream } from "@quarry/grpc";
import type { CiServiceDefinition } from "@quarry/proto";

/**
 * What one ci-service process does (QUARRY_CI_ROLE), so one build scales its parts apart:
 * - `api`: every CiService RPC (artifact ones too, so a deployment without an artifacts role works);
 *   no bus consumers, no periodic workers.
 * - `worker`: the bus consumers (pipelines from pushes and merge requests) and the periodic workers
 *   (stuck-job watchdog, artifact cleanup); its gRPC server serves health only.
 * - `artifacts`: only the RPCs that stream artifact bytes to and from the object store; the
 *   others answer UNIMPLEMENTED.
 * `all` (the default, and the embedded mode) is api + worker.
 */
export type CiRole = "api" | "worker" | "artifacts";

export const CI_ROLES: readonly CiRole[] = ["api", "worker", "artifacts"];
export const ALL_CI_ROLES: readonly CiRole[] = ["api", "worker"];

/** The RPCs that carry artifact bytes: runner uploads and every download (archive, single file, raw, by ref). */
export const ARTIFACT_RPCS = ["UploadArtifact", "DownloadArtifact"] as const satisfies readonly (keyof AsyncHandlers<CiServiceDefinition>)[];

/** "all", or a comma list of roles; throws on anything else (env.ts turns that into a config error). */
export function parseCiRoles(value: string): CiRole[] {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0 || (names.length === 1 && names[0] === "all")) return [...ALL_CI_ROLES];
  for (const n of names) if (!(CI_ROLES as readonly string[]).includes(n)) throw new Error(`unknown ci-service role "${n}" (all, api, worker, artifacts)`);
  return [...new Set(names as CiRole[])];
}

/** What a set of roles runs. */
export function rolePlan(roles: readonly CiRole[]): { rpcs: "all" | "artifacts" | "none"; background: boolean } {
  const rpcs = roles.includes("api") ? "all" : roles.includes("artifacts") ? "artifacts" : "none";
  return { rpcs, background: roles.includes("worker") };
}

const unimplemented = (method: string) =>
  new ServiceError(status.UNIMPLEMENTED, { message: `501 Not Implemented - ${method} is not served by the artifacts role of ci-service` });

/** `handlers` with every non-artifact RPC answering UNIMPLEMENTED (kept the same kind: unary, server or client stream). */
export function artifactHandlersOnly(handlers: AsyncHandlers<CiServiceDefinition>): AsyncHandlers<CiServiceDefinition> {
  const out: Record<string, unknown> = {};
  for (const [method, handler] of Object.entries(handlers)) {
    if ((ARTIFACT_RPCS as readonly string[]).includes(method)) out[method] = handler;
    else if (typeof handler === "function")
      out[method] = async () => {
        throw unimplemented(method);
      };
    else if ("serverStream" in handler)
      out[method] = serverStream(
        // biome-ignore lint/correctness/useYield: refuses before yielding anything.
        async function* () {
          throw unimplemented(method);
        },
      );
    else
      out[method] = clientStream(async () => {
        throw unimplemented(method);
      });
  }
  return out as AsyncHandlers<CiServiceDefinition>;
}
