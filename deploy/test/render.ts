import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

export const deployDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const chartDir = join(deployDir, "helm", "quarry");

/** Debian's Go packages the renderer builds against in GOPATH mode (no module proxy here). */
const GOPATH = "/usr/share/gocode";
const APT_HINT = "apt-get install -y golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v3-dev (as .ci/run does)";

/**
 * Builds deploy/helm/render once per test file. A machine without Go, sprig or yaml.v3 fails here
 * with the install line: the chart check is never skipped.
 */
export function buildRenderer(env: NodeJS.ProcessEnv = process.env): string {
  const go = spawnSync("go", ["version"], { encoding: "utf8", env });
  if (go.error || go.status !== 0) throw new Error(`the chart renderer needs Go: ${APT_HINT}`);
  const out = join(mkdtempSync(join(tmpdir(), "quarry-render-")), "render");
  const build = spawnSync("go", ["build", "-o", out, "."], {
    cwd: join(deployDir, "helm", "render"),
    encoding: "utf8",
    env: {
      ...env,
      GO111MODULE: "off",
      GOPATH,
      GOFLAGS: "",
      // A writable build cache even when HOME is not (CI runs as root with a fresh clone).
      GOCACHE: env.GOCACHE ?? join(tmpdir(), "quarry-go-cache"),
    },
  });
  if (build.status !== 0) throw new Error(`building the chart renderer failed (missing Debian Go packages? ${APT_HINT}):\n${build.stderr}`);
  return out;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked against the Kubernetes schemas, not typed here.
  spec?: any;
  data?: Record<string, string>;
}

/** Runs the renderer; throws with its stderr when it exits non-zero. */
export function renderRaw(renderer: string, chart: string, args: string[] = []): string {
  return execFileSync(renderer, [...args, chart], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The rendered objects, every document parsed (a YAML error fails the test). */
export function renderObjects(renderer: string, chart: string, args: string[] = []): K8sObject[] {
  const docs = parseAllDocuments(renderRaw(renderer, chart, args));
  return docs.map((d) => {
    if (d.errors.length) throw new Error(`rendered YAML does not parse: ${d.errors[0]?.message}`);
    return d.toJS() as K8sObject;
  });
}
