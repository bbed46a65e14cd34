import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { RUNNER_ARCH, RUNNER_REVISION, RUNNER_VERSION } from "./client.ts";
import type { JobPayload, JobVariable } from "./protocol.ts";

/**
 * Expands `$NAME` and `${NAME}` from `lookup` (unknown names become empty, `$$` is a literal
 * `$`), as gitlab-runner expands variable values before a job starts.
 */
export function expandValue(value: string, lookup: (name: string) => string | undefined): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, braced?: string, bare?: string) =>
    match === "$$" ? "$" : (lookup((braced ?? bare)!) ?? ""),
  );
}

export interface JobEnvironment {
  /** Every variable, exported to each process of the job. */
  env: Record<string, string>;
  /** Values to mask in the log. */
  secrets: string[];
  /** Contents of the `file` variables, to be written before the job runs (writeVariableFiles). */
  files: { path: string; content: string }[];
}

/**
 * The job's environment: the inherited base, the variables the runner itself defines, then the
 * job's variables (later definitions win). Values are expanded unless `raw`; a `file` variable
 * holds the path of a file in `tmpDir` with its value.
 */
export function jobEnvironment(job: JobPayload, o: { baseEnv: Record<string, string>; projectDir: string; buildsDir: string; tmpDir: string }): JobEnvironment {
  const predefined: JobVariable[] = [
    { key: "CI_PROJECT_DIR", value: o.projectDir },
    { key: "CI_BUILDS_DIR", value: o.buildsDir },
    { key: "CI_SERVER", value: "yes" },
    { key: "CI_SHARED_ENVIRONMENT", value: "true" },
    { key: "CI_RUNNER_VERSION", value: RUNNER_VERSION },
    { key: "CI_RUNNER_REVISION", value: RUNNER_REVISION },
    { key: "CI_RUNNER_EXECUTABLE_ARCH", value: `linux/${RUNNER_ARCH}` },
  ];
  const variables = [...predefined, ...(job.variables ?? [])].filter((v) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.key));
  const raw = new Map(variables.map((v) => [v.key, v.value] as const));
  const env: Record<string, string> = { ...o.baseEnv };
  const secrets: string[] = [];
  const files: JobEnvironment["files"] = [];
  for (const variable of variables) {
    const value = variable.raw ? variable.value : expandValue(variable.value, (name) => raw.get(name) ?? o.baseEnv[name]);
    if (variable.masked) secrets.push(value);
    if (variable.file) {
      const file = path.join(o.tmpDir, variable.key);
      files.push({ path: file, content: value });
      env[variable.key] = file;
    } else {
      env[variable.key] = value;
    }
  }
  return { env, secrets, files };
}

export async function writeVariableFiles(files: JobEnvironment["files"]): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content, { mode: 0o600 });
  }
}
